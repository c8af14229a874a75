package httpapi_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/testenv"
)

// abuseFixture is the handler on a store of its own, called directly so
// that each request can come from a client address of its choosing.
type abuseFixture struct {
	t   *testing.T
	svc *service.Service
	h   http.Handler
}

func newAbuseFixture(t *testing.T) *abuseFixture {
	t.Helper()
	st := openStore(t)
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Log: quiet, Rand: testenv.Rand(t.Name())})
	return &abuseFixture{t: t, svc: svc, h: httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: quiet})}
}

// create posts a game of organiser with three players from client.
func (f *abuseFixture) create(client, organiser, lang string) *httptest.ResponseRecorder {
	f.t.Helper()
	body := fmt.Sprintf(`{"kind":"western","organiser":{"email":%q},"seats":[
		{"name":"A","email":"victim-a@example.org"},{"name":"B","email":"victim-b@example.org"},
		{"name":"Купите слонов на example.net","email":"victim-c@example.org"}]}`, organiser)
	r := httptest.NewRequest("POST", "/api/games?lang="+lang, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.RemoteAddr = client + ":40000"
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w
}

// TestCreateMailsNoPlayerBeforeConfirmation (issue 9, symptom 8): a game
// made by anyone mails its players only once the organiser has confirmed
// their own address; until then its only mail is that confirmation, to
// the organiser, and nobody can accept or start it.
func TestCreateMailsNoPlayerBeforeConfirmation(t *testing.T) {
	f := newAbuseFixture(t)
	w := f.create("198.51.100.1", "someone@example.org", "en")
	if w.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	var c service.Created
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	rec, _, err := f.svc.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rec.Outbox {
		if m.Seat >= 0 || m.Kind == service.MailInvite {
			t.Errorf("before the organiser confirmed, the outbox holds %s to seat %d", m.Kind, m.Seat)
		}
	}
	if len(rec.Outbox) != 1 {
		t.Errorf("the outbox holds %d mails, want one: the organiser's confirmation", len(rec.Outbox))
	}
	for _, path := range []string{"/api/games/" + c.ID + "/accept"} {
		r := httptest.NewRequest("POST", path, nil)
		r.Header.Set("Authorization", "Bearer "+c.InviteTokens[0])
		rw := httptest.NewRecorder()
		f.h.ServeHTTP(rw, r)
		if rw.Code != http.StatusConflict {
			t.Errorf("POST %s before the organiser confirmed: %d, want 409: %s", path, rw.Code, rw.Body)
		}
	}
	r := httptest.NewRequest("POST", "/api/games/"+c.ID+"/start", nil)
	r.Header.Set("Authorization", "Bearer "+c.OrganiserToken)
	rw := httptest.NewRecorder()
	f.h.ServeHTTP(rw, r)
	if rw.Code != http.StatusConflict {
		t.Errorf("start before the organiser confirmed: %d, want 409: %s", rw.Code, rw.Body)
	}
}

// TestCreateLimitedPerClient (issue 9, symptom 8): one client making 40
// games in a row, each for another organiser, is refused with 429, a
// Retry-After and a message in the reader's language once over its limit.
func TestCreateLimitedPerClient(t *testing.T) {
	f := newAbuseFixture(t)
	refused := 0
	for i := range 40 {
		lang := []string{"ru", "en"}[i%2]
		w := f.create("198.51.100.7", fmt.Sprintf("org%d@example.org", i), lang)
		switch w.Code {
		case http.StatusCreated:
			if refused > 0 {
				t.Errorf("creation %d was accepted after %d were refused", i, refused)
			}
		case http.StatusTooManyRequests:
			refused++
			checkTooMany(t, w, lang)
		default:
			t.Fatalf("creation %d: %d %s", i, w.Code, w.Body)
		}
	}
	if want := 40 - service.DefaultLimits.ClientPerHour; refused != want {
		t.Errorf("40 games made by one client in a row: %d refused, want %d (the default limit per client and hour is %d)",
			refused, want, service.DefaultLimits.ClientPerHour)
	}
	// Another client is not held back by the first.
	if w := f.create("198.51.100.8", "fresh@example.org", "en"); w.Code != http.StatusCreated {
		t.Errorf("another client: %d %s", w.Code, w.Body)
	}
}

// TestCreateLimitedPerOrganiser (issue 9, symptom 8): 40 games for one
// organiser address from 40 clients are refused with 429 once over the
// address's limit, so no address can be flooded with confirmations.
func TestCreateLimitedPerOrganiser(t *testing.T) {
	f := newAbuseFixture(t)
	refused := 0
	for i := range 40 {
		w := f.create(fmt.Sprintf("203.0.113.%d", i+1), "Victim@Example.org", "en")
		switch w.Code {
		case http.StatusCreated:
		case http.StatusTooManyRequests:
			refused++
			checkTooMany(t, w, "en")
		default:
			t.Fatalf("creation %d: %d %s", i, w.Code, w.Body)
		}
	}
	if want := 40 - service.DefaultLimits.OrganiserPerHour; refused != want {
		t.Errorf("40 games for one organiser address: %d refused, want %d (the default limit per address and hour is %d)",
			refused, want, service.DefaultLimits.OrganiserPerHour)
	}
}

// checkTooMany checks a 429: a Retry-After in seconds and a message in
// lang that says to wait.
func checkTooMany(t *testing.T, w *httptest.ResponseRecorder, lang string) {
	t.Helper()
	var secs int
	if _, err := fmt.Sscanf(w.Header().Get("Retry-After"), "%d", &secs); err != nil || secs <= 0 || secs > 24*3600 {
		t.Errorf("429 with Retry-After %q, want seconds up to a day", w.Header().Get("Retry-After"))
	}
	var body struct {
		Error struct{ Code, Message string }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("429 body: %v: %s", err, w.Body)
	}
	want := map[string]string{"ru": "Слишком много", "en": "Too many"}[lang]
	if !strings.Contains(body.Error.Message, want) {
		t.Errorf("429 message in %s: %q, want it to say %q", lang, body.Error.Message, want)
	}
}

// TestConfirmReleasesInvitations: the confirmation link's GET shows a
// button and changes nothing; its POST sends the invitations and leads
// to the organiser's page on the same origin; the organiser's next game
// invites at once.
func TestConfirmReleasesInvitations(t *testing.T) {
	f := newAbuseFixture(t)
	var c service.Created
	if w := f.create("198.51.100.1", "olga@example.org", "en"); w.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	} else if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	if !c.Unconfirmed {
		t.Errorf("the first game of an address is not marked unconfirmed: %+v", c)
	}
	tok, err := f.svc.Token(linksign.PurposeConfirm, c.ID, linksign.NoSeat, 0, service.ConfirmTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	status := func() string {
		rec, _, err := f.svc.Load(t.Context(), c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Status
	}
	for range 2 { // a link scanner, then the organiser
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, httptest.NewRequest("GET", "/g/"+c.ID+"/confirm?lang=en&t="+tok, nil))
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `<form method="post" action="/g/`+c.ID+`/confirm`) {
			t.Fatalf("GET the confirmation link: %d %.300s", w.Code, w.Body)
		}
		if strings.Contains(w.Body.String(), "Купите слонов") {
			t.Error("the confirmation page shows the creator's text")
		}
	}
	if s := status(); s != service.StatusUnconfirmed {
		t.Fatalf("after two GETs of the confirmation link the game is %q", s)
	}
	post := func(token string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/g/"+c.ID+"/confirm?lang=en", strings.NewReader("t="+token))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, r)
		return w
	}
	if w := post(c.OrganiserToken); w.Code != http.StatusForbidden {
		t.Errorf("POST confirm with the organiser's token: %d, want 403", w.Code)
	}
	w := post(tok)
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/g/"+c.ID+"/org?") {
		t.Fatalf("POST confirm: %d, Location %q: want 303 to the organiser's page on the same origin", w.Code, loc)
	}
	rec, _, err := f.svc.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	invites := 0
	for _, m := range rec.Outbox {
		if m.Kind == service.MailInvite {
			invites++
		}
	}
	if rec.Status != service.StatusInvited || invites != 3 {
		t.Errorf("after confirming: status %q, %d invitations in the outbox; want invited, 3", rec.Status, invites)
	}
	if w := post(tok); w.Code != http.StatusSeeOther {
		t.Errorf("confirming again: %d, want 303", w.Code)
	}
	if rec2, _, _ := f.svc.Load(t.Context(), c.ID); len(rec2.Outbox) != len(rec.Outbox) {
		t.Errorf("confirming again changed the outbox: %d mails, then %d", len(rec.Outbox), len(rec2.Outbox))
	}
	// The next game of the same organiser invites at once.
	var next service.Created
	if w := f.create("198.51.100.1", "OLGA@example.org", "en"); w.Code != http.StatusCreated {
		t.Fatalf("second create: %d %s", w.Code, w.Body)
	} else if err := json.Unmarshal(w.Body.Bytes(), &next); err != nil {
		t.Fatal(err)
	}
	if next.Unconfirmed {
		t.Error("the second game of a confirmed address waits for a confirmation again")
	}
}

// TestCreateKeyLandsOnTheSameGame: a creation sent again with its key
// answers the first game and counts against no limit; the same key with
// another request is refused.
func TestCreateKeyLandsOnTheSameGame(t *testing.T) {
	f := newAbuseFixture(t)
	send := func(body string) (int, service.Created) {
		r := httptest.NewRequest("POST", "/api/games", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = "198.51.100.9:1234"
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, r)
		var c service.Created
		_ = json.Unmarshal(w.Body.Bytes(), &c)
		return w.Code, c
	}
	body := `{"kind":"western","key":"form-key-0001","organiser":{"email":"o@example.org"},"seats":[{"name":"A","email":"a@example.org"},{"name":"B","email":"b@example.org"}]}`
	code, first := send(body)
	if code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	for i := range service.DefaultLimits.ClientPerHour + 2 {
		code, again := send(body)
		if code != http.StatusCreated || again.ID != first.ID || !again.Replayed {
			t.Fatalf("send %d again: %d, game %s (replayed %v); want 201, game %s, replayed", i+2, code, again.ID, again.Replayed, first.ID)
		}
	}
	other := strings.Replace(body, `"name":"B"`, `"name":"C"`, 1)
	if code, c := send(other); code != http.StatusUnprocessableEntity {
		t.Errorf("the same key with another request: %d %+v, want 422 key_reused", code, c)
	}
}

// TestImportsLimitedPerClient: importing records counts against the
// client's limit of games made, refused records too (their replay is the
// costly part); past it the client gets 429 `too_many`.
func TestImportsLimitedPerClient(t *testing.T) {
	f := newAbuseFixture(t)
	post := func(client string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/api/records", strings.NewReader(`{"format":"pbm-game-record/1","kind":"western","rules":2,"seats":[],"seed":"00"}`))
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = client + ":40000"
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, r)
		return w
	}
	for i := range service.DefaultLimits.ClientPerHour {
		if w := post("203.0.113.9"); w.Code != http.StatusBadRequest {
			t.Fatalf("import %d: %d %s, want 400 (the record is refused)", i+1, w.Code, w.Body)
		}
	}
	if w := post("203.0.113.9"); w.Code != http.StatusTooManyRequests {
		t.Errorf("import past the client's limit: %d %s, want 429", w.Code, w.Body)
	}
	if w := post("203.0.113.10"); w.Code != http.StatusBadRequest {
		t.Errorf("another client: %d %s, want 400", w.Code, w.Body)
	}
}
