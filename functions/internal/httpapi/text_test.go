package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
)

// notText are strings that are not text: bytes that are not UTF-8, and
// JSON escapes of lone UTF-16 surrogates, which JSON decoders replace by
// U+FFFD (issue 25, symptom 4).
var notText = []struct{ name, json string }{
	{"invalid UTF-8", "\"A\xffB\""},
	{"lone high surrogate", `"A\ud800B"`},
	{"lone low surrogate", `"A\udc00B"`},
	{"swapped surrogates", `"A\udc00\ud800B"`},
}

// badAddresses are addresses no mail reaches or that disguise themselves.
var badAddresses = []string{
	strings.Repeat("a", 65) + "@example.org",                // local part over 64
	"user@" + strings.Repeat("b", 64) + ".example.org",      // label over 63
	"user@" + strings.Repeat("c.", 126) + "org",             // domain over 253
	"user\u202e@example.org",                                // right-to-left override
	"user\u200b@example.org",                                // zero-width space
	"us\u2066er@example.org",                                // left-to-right isolate
	"user@exam\u200bple.org",                                // zero-width space in the domain
	"user@127.0.0.1", "user@[127.0.0.1]", "user@[IPv6:::1]", // IP literals
	"user@xn--.com", "user@xn--zz.example.org", // malformed punycode
	"user@example.123", "user@-example.org", "user@exa_mple.org", "user@localhost",
}

// checkNotText checks a refusal of text that is not text: 400, code
// invalid, a message that says UTF-8.
func checkNotText(t *testing.T, what string, code int, body []byte) {
	t.Helper()
	var e struct {
		Error struct{ Code, Message string }
	}
	_ = json.Unmarshal(body, &e)
	if code != http.StatusBadRequest || e.Error.Code != "invalid" || !strings.Contains(e.Error.Message, "UTF-8") {
		t.Errorf("%s: %d %.300s; want 400 invalid, saying UTF-8", what, code, body)
	}
}

// textWorld is a wired deployment (talk, leagues, sign-in) with a game
// of two seats in play; seat is seat 0's token.
func textWorld(t *testing.T) (w *leagueWorld, game, seat string) {
	t.Helper()
	w = newLeagueWorld(t)
	svc := w.app.Service
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", Options: []byte(`{"laps":2}`),
		Organiser: service.Person{Email: "org@example.org"},
		Seats:     []service.Person{{Name: "A", Email: "a@example.org"}, {Name: "B", Email: "b@example.org"}}})
	for i := range 2 {
		if _, err := svc.Accept(t.Context(), c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	seat, err := svc.Token(linksign.PurposeSeat, c.ID, 0, 0, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return w, c.ID, seat
}

// raw sends body as it is to the handler, JSON, from client.
func (w *leagueWorld) raw(method, target, token, client string, body []byte) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	r.RemoteAddr = client + ":40000"
	rec := httptest.NewRecorder()
	w.h.ServeHTTP(rec, r)
	return rec
}

// form posts a page's form to the handler, from client.
func (w *leagueWorld) form(target, client string, form url.Values) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", target, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = client + ":40000"
	rec := httptest.NewRecorder()
	w.h.ServeHTTP(rec, r)
	return rec
}

// TestJSONRefusesWhatIsNotText (symptom 4): the JSON routes refuse
// strings that are not text, as the forms do, rather than keep U+FFFD:
// a game's names, a league's name, table talk.
func TestJSONRefusesWhatIsNotText(t *testing.T) {
	w, id, seat := textWorld(t)
	for _, s := range notText {
		rec := w.raw("POST", "/api/games", "", "198.51.100.2", []byte(`{"kind":"western","name":`+s.json+`,"organiser":{"email":"o@example.org"},
			"seats":[{"name":"A","email":"a@example.org"},{"name":"B","email":"b@example.org"}]}`))
		checkNotText(t, "a game named with "+s.name, rec.Code, rec.Body.Bytes())
		rec = w.raw("POST", "/api/games/"+id+"/talk", seat, "198.51.100.2", []byte(`{"text":`+s.json+`}`))
		checkNotText(t, "talk of "+s.name, rec.Code, rec.Body.Bytes())
		rec = w.raw("POST", "/api/leagues", "", "198.51.100.2", []byte(`{"name":`+s.json+`,"kind":"businessman","organiser":{"name":"O","email":"o@example.org"},"table_size":3,"rounds":1,"divisions":1}`))
		checkNotText(t, "a league named with "+s.name, rec.Code, rec.Body.Bytes())
	}
	// The same bytes by a form: refused alike.
	rec := w.form("/g/"+id+"/talk", "198.51.100.2", url.Values{"t": {seat}, "text": {"A\xffB"}})
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "UTF-8") {
		t.Errorf("talk of invalid UTF-8 by the form: %d %.300s", rec.Code, rec.Body)
	}
	lines := w.do(t, "GET", "/api/games/"+id+"/talk", seat, nil).Body.String()
	if strings.Contains(lines, "\ufffd") || strings.Contains(lines, `\ufffd`) || !strings.Contains(lines, `"messages"`) {
		t.Errorf("the talk: %s", lines)
	}
}

// TestAddressesChecked (symptom 4): an address no mail can reach, or one
// that disguises itself, is refused wherever an address is given — a
// game's organiser and players, a league's organiser and members,
// sign-in — and one in a well-formed international domain is taken in
// its ASCII form.
func TestAddressesChecked(t *testing.T) {
	w, _, _ := textWorld(t)
	game := func(org, player string) *httptest.ResponseRecorder {
		b, _ := json.Marshal(map[string]any{"kind": "western", "organiser": map[string]string{"email": org},
			"seats": []map[string]string{{"name": "A", "email": player}, {"name": "B", "email": "b@example.org"}}})
		return w.raw("POST", "/api/games", "", "", b)
	}
	league := func(org string) *httptest.ResponseRecorder {
		return w.do(t, "POST", "/api/leagues", "", map[string]any{"name": "Клуб", "kind": "businessman",
			"organiser": map[string]string{"name": "Ольга", "email": org}, "table_size": 3, "rounds": 1, "divisions": 1})
	}
	rec := league("olga@example.org")
	var l struct {
		ID          string `json:"id"`
		InviteToken string `json:"invite_token"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &l); rec.Code != http.StatusCreated || err != nil {
		t.Fatalf("create a league: %d %s", rec.Code, rec.Body)
	}
	for i, bad := range badAddresses {
		if rec := game(bad, "a@example.org"); rec.Code != http.StatusBadRequest {
			t.Errorf("a game organised by %q: %d %.200s, want 400", bad, rec.Code, rec.Body)
		}
		if rec := game(fmt.Sprintf("o%d@example.org", i), bad); rec.Code != http.StatusBadRequest {
			t.Errorf("a game inviting %q: %d %.200s, want 400", bad, rec.Code, rec.Body)
		}
		if rec := league(bad); rec.Code != http.StatusBadRequest {
			t.Errorf("a league organised by %q: %d %.200s, want 400", bad, rec.Code, rec.Body)
		}
		if rec := w.do(t, "POST", "/api/leagues/"+l.ID+"/members", l.InviteToken, map[string]string{"name": "M", "email": bad}); rec.Code != http.StatusBadRequest {
			t.Errorf("a league member %q: %d %.200s, want 400", bad, rec.Code, rec.Body)
		}
		if rec := w.form("/signin", "", url.Values{"email": {bad}}); rec.Code != http.StatusBadRequest {
			t.Errorf("sign in as %q: %d %.200s, want 400", bad, rec.Code, rec.Body)
		}
	}
	rec = game("Org@Пример.РФ", "anna.k+pbm@example.org")
	var c struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &c); rec.Code != http.StatusCreated || err != nil {
		t.Fatalf("a game organised from an international domain: %d %s", rec.Code, rec.Body)
	}
	g, _, err := w.app.Service.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Organiser.Email != "org@xn--e1afmkfd.xn--p1ai" {
		t.Errorf("the organiser's address is kept as %q, want its ASCII form", g.Organiser.Email)
	}
}

// postForm posts a page's form and answers the status and body, without
// following a redirect.
func (f *pageFixture) postForm(path string, form url.Values) (int, string) {
	f.t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(f.srv.URL+path, form)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
