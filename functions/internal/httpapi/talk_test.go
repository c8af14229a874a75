package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

// talkTable is a started game of three seats on a server that keeps
// table talk: its id, seat tokens, organiser's and spectator's tokens.
type talkTable struct {
	id          string
	seats       []string
	org, viewer string
}

func newTalkTable(t *testing.T, svc *service.Service) talkTable {
	t.Helper()
	created := servicetest.Create(t, svc, service.CreateRequest{Kind: "businessman",
		Organiser: service.Person{Email: "org@example.org"},
		Seats: []service.Person{{Name: "Анна", Email: "anna@example.org"}, {Name: "Bob", Email: "bob@example.org", Lang: "en"},
			{Name: "Вера", Email: "vera@example.org"}}})
	tt := talkTable{id: created.ID, org: created.OrganiserToken, viewer: created.SpectatorToken}
	for i := range 3 {
		tok, err := svc.Accept(t.Context(), created.ID, i)
		if err != nil {
			t.Fatal(err)
		}
		tt.seats = append(tt.seats, tok)
	}
	return tt
}

// apiCall makes one JSON request and answers its status and body.
func apiCall(t *testing.T, base, method, path, token string, body any) (int, http.Header, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, out
}

func pageOf(path, token, lang string, extra ...string) string {
	q := url.Values{"t": {token}, "lang": {lang}}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	return path + "?" + q.Encode()
}

// TestTalkAPILimits: over the API, a message over the size limit and the
// eleventh in an hour are refused in the reader's language, the latter
// with Retry-After; neither is stored, and no post changes the game.
func TestTalkAPILimits(t *testing.T) {
	st := openStore(t)
	c, svc := newContract(t, st)
	tt := newTalkTable(t, svc)
	base := "/api/games/" + tt.id + "/talk"
	unchanged(t, st, tt.id, func() {
		code, _, body := apiCall(t, c.srv.URL, "POST", base+"?lang=en", tt.seats[0], httpapi.TalkRequest{Text: strings.Repeat("ж", service.MaxTalkRunes+1)})
		if code != http.StatusBadRequest || !strings.Contains(string(body), "too long: 1001 characters, at most 1000") {
			t.Errorf("over-long message: %d %s", code, body)
		}
		code, _, body = apiCall(t, c.srv.URL, "POST", base+"?lang=ru", tt.seats[0], httpapi.TalkRequest{Text: strings.Repeat("ж", service.MaxTalkRunes+1)})
		if code != http.StatusBadRequest || !strings.Contains(string(body), "Сообщение слишком длинное") {
			t.Errorf("over-long message in Russian: %d %s", code, body)
		}
		for i := range service.TalkPerHour {
			if code, _, body := apiCall(t, c.srv.URL, "POST", base, tt.seats[1], httpapi.TalkRequest{Text: "offer " + string(rune('A'+i))}); code != http.StatusCreated {
				t.Fatalf("message %d: %d %s", i+1, code, body)
			}
		}
		code, h, body := apiCall(t, c.srv.URL, "POST", base+"?lang=en", tt.seats[1], httpapi.TalkRequest{Text: "one too many"})
		if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(string(body), "messages an hour") {
			t.Errorf("message %d in an hour: %d (Retry-After %q) %s", service.TalkPerHour+1, code, h.Get("Retry-After"), body)
		}
	})
	var page httpapi.TalkPage
	_, _, body := apiCall(t, c.srv.URL, "GET", base, tt.viewer, nil)
	if err := json.Unmarshal(body, &page); err != nil || len(page.Lines) != service.TalkPerHour || page.Older != "" {
		t.Fatalf("the talk: %v %s; want the %d accepted messages on one page", err, body, service.TalkPerHour)
	}
	if strings.Contains(string(body), "one too many") || strings.Contains(string(body), "ж") {
		t.Errorf("a refused message was stored: %s", body)
	}
}

// TestTalkPrivateAndHiddenOnPages: a private message shows on its two
// seats' pages and API only — not on the third's, the organiser's or a
// spectator's; the organiser's hide leaves a note in its place, and the
// author sees their text marked hidden.
func TestTalkPrivateAndHiddenOnPages(t *testing.T) {
	st := openStore(t)
	c, svc := newContract(t, st)
	tt := newTalkTable(t, svc)
	b := newBrowser(t, c.srv.URL)
	talk := "/g/" + tt.id + "/talk"

	// Anna writes to the table on the page, then privately to Bob.
	code, after, where := b.post(talk+"?lang=en", url.Values{"t": {tt.seats[0]}, "text": {"Hello <all>, «друзья»"}, "to": {"-1"}})
	if code != 200 || !strings.Contains(after, "Message sent.") || !strings.Contains(after, "Hello &lt;all&gt;, «друзья»") || !strings.HasPrefix(where, talk+"?") {
		t.Fatalf("post on the page: %d at %s: %.800s", code, where, after)
	}
	if code, _, _ := b.post(talk, url.Values{"t": {tt.seats[0]}, "text": {"psst, Bob: 3 000 for your bank"}, "to": {"1"}}); code != 200 {
		t.Fatalf("private post: %d", code)
	}
	const secret = "psst, Bob"
	for name, c := range map[string]struct {
		token string
		sees  bool
	}{"author": {tt.seats[0], true}, "recipient": {tt.seats[1], true}, "third": {tt.seats[2], false},
		"organiser": {tt.org, false}, "spectator": {tt.viewer, false}} {
		for _, p := range []string{talk, "/g/" + tt.id} {
			code, page := b.get(pageOf(p, c.token, "en"))
			if code != 200 || !strings.Contains(page, "Hello &lt;all&gt;") {
				t.Errorf("%s's %s: %d, without the public message", name, p, code)
			}
			if strings.Contains(page, secret) != c.sees {
				t.Errorf("%s's %s shows the private message: %v, want %v", name, p, !c.sees, c.sees)
			}
		}
		_, _, body := apiCall(t, b.base, "GET", "/api/games/"+tt.id+"/talk", c.token, nil)
		if strings.Contains(string(body), secret) != c.sees {
			t.Errorf("%s's API shows the private message: %v, want %v", name, !c.sees, c.sees)
		}
	}

	// The organiser hides the public message on the talk page.
	_, orgPage := b.get(pageOf(talk, tt.org, "en"))
	var hide form
	for _, f := range forms(orgPage) {
		if strings.Contains(f.action, "/talk/hide") {
			hide = f
		}
	}
	if hide.action == "" {
		t.Fatalf("the organiser's talk page has no hide button: %.1500s", orgPage)
	}
	if code, _, _ := b.post(hide.action, hide.values); code != 200 {
		t.Fatalf("hide: %d", code)
	}
	for name, c := range map[string]struct {
		token    string
		sees     bool
		yourNote bool
	}{"author": {tt.seats[0], true, true}, "organiser": {tt.org, true, false}, "other": {tt.seats[2], false, false}, "spectator": {tt.viewer, false, false}} {
		_, page := b.get(pageOf(talk, c.token, "en"))
		if !strings.Contains(page, "hidden by the organiser") {
			t.Errorf("%s's page does not say the message was hidden", name)
		}
		if strings.Contains(page, "Hello &lt;all&gt;") != c.sees {
			t.Errorf("%s reads the hidden text: %v, want %v", name, !c.sees, c.sees)
		}
		if strings.Contains(page, "your message, hidden by the organiser") != c.yourNote {
			t.Errorf("%s's page tells the author's note: %v, want %v", name, !c.yourNote, c.yourNote)
		}
	}
	// Only the organiser hides; a seat's token is refused.
	if code, _, _ := b.post(hide.action, url.Values{"t": {tt.seats[1]}, "key": hide.values["key"], "hidden": {"0"}}); code != http.StatusForbidden {
		t.Errorf("a seat hides: %d, want 403", code)
	}
}

// TestTalkPageRefusesAndScannersChangeNothing: a refused form keeps the
// text and says why in the reader's language; a GET of every talk link —
// with a text in its query, as a scanner may send — posts nothing.
func TestTalkPageRefusesAndScannersChangeNothing(t *testing.T) {
	st := openStore(t)
	c, svc := newContract(t, st)
	tt := newTalkTable(t, svc)
	b := newBrowser(t, c.srv.URL)
	talk := "/g/" + tt.id + "/talk"
	long := strings.Repeat("слово ", 200)
	code, page, _ := b.post(talk+"?lang=ru", url.Values{"t": {tt.seats[0]}, "text": {long}, "to": {"-1"}})
	if code != http.StatusBadRequest || !strings.Contains(page, "Сообщение слишком длинное") || !strings.Contains(page, strings.TrimSpace(long)) {
		t.Errorf("over-long message on the page: %d %.600s", code, page)
	}
	if code, _, _ := b.post(talk+"?lang=en", url.Values{"t": {tt.seats[0]}, "text": {"hi"}, "to": {"seven"}}); code != http.StatusBadRequest {
		t.Errorf("a recipient that is no number: %d", code)
	}
	if code, _, _ := b.post(talk, url.Values{"t": {tt.viewer}, "text": {"spectators do not write"}}); code != http.StatusForbidden {
		t.Errorf("a spectator posts: %d", code)
	}
	tokens := append([]string{tt.org, tt.viewer}, tt.seats...)
	for _, tok := range tokens {
		for _, p := range []string{pageOf(talk, tok, "en", "text", "scanned", "to", "-1"), pageOf("/g/"+tt.id, tok, "ru", "text", "scanned"),
			pageOf(talk, tok, "ru", "before", "9")} {
			unchanged(t, st, tt.id, func() {
				if code, _ := b.get(p); code != 200 {
					t.Errorf("GET %s: %d", p, code)
				}
			})
		}
		_, _, body := apiCall(t, b.base, "GET", "/api/games/"+tt.id+"/talk?text=scanned", tok, nil)
		if strings.Contains(string(body), "scanned") || strings.Contains(string(body), "spectators do not write") || strings.Contains(string(body), "слово") {
			t.Errorf("a GET or a refused post left a message: %s", body)
		}
	}
	// Nor did any of it reach a mail's fold.
	rec, _, _ := svc.Load(t.Context(), tt.id)
	if tm, err := svc.TalkUnmailed(t.Context(), rec, 1); err != nil || len(tm.Lines) != 0 {
		t.Errorf("talk to mail after refusals and GETs: %+v, %v", tm.Lines, err)
	}
}

// TestTalkMailEachChoice: a seat chooses to be mailed each message with
// the talk page's button or the API, and turns it off the same ways; a
// scanner's GET of the page, even with the form's fields, changes
// nothing; the choice posts no message and writes no game.
func TestTalkMailEachChoice(t *testing.T) {
	st := openStore(t)
	c, svc := newContract(t, st)
	tt, b := newTalkTable(t, svc), newBrowser(t, c.srv.URL)
	talk, base := "/g/"+tt.id+"/talk", "/api/games/"+tt.id+"/talk"
	choice := func(seat int) bool {
		t.Helper()
		rec, _, err := svc.Load(t.Context(), tt.id)
		if err != nil {
			t.Fatal(err)
		}
		on, err := svc.TalkMailOn(t.Context(), rec, seat)
		if err != nil {
			t.Fatal(err)
		}
		return on
	}
	unchanged(t, st, tt.id, func() {
		code, page := b.get(pageOf(talk, tt.seats[0], "en", "mail_each", "1"))
		if code != 200 || !strings.Contains(page, "Mail me each message") || !strings.Contains(page, `name="mail_each" value="1"`) {
			t.Errorf("talk page without the choice's button: %d", code)
		}
		if _, page := b.get(pageOf(talk, tt.viewer, "ru")); strings.Contains(page, "mail_each") {
			t.Error("a spectator is offered mail of each message")
		}
		if choice(0) {
			t.Fatal("a GET turned mail of each message on")
		}
		code, page, _ = b.post(talk+"?lang=ru", url.Values{"t": {tt.seats[0]}, "mail_each": {"1"}})
		if code != 200 || !strings.Contains(page, "Каждое новое сообщение приходит вам отдельным письмом") || !strings.Contains(page, `name="mail_each" value="0"`) {
			t.Errorf("after the button: %d, the page does not say so", code)
		}
		if !choice(0) || choice(1) {
			t.Error("the button did not turn it on for its seat alone")
		}
		if _, _, _ = b.post(talk, url.Values{"t": {tt.seats[0]}, "mail_each": {"0"}}); choice(0) {
			t.Error("the button did not turn it off")
		}
		on := true
		code, _, body := apiCall(t, c.srv.URL, "POST", base, tt.seats[1], httpapi.TalkRequest{MailEach: &on})
		if code != http.StatusOK || !choice(1) || strings.TrimSpace(string(body)) != `{"mail_each":true}` {
			t.Errorf("API choice: %d %s", code, body)
		}
		var tp httpapi.TalkPage
		_, _, body = apiCall(t, c.srv.URL, "GET", base, tt.seats[1], nil)
		if err := json.Unmarshal(body, &tp); err != nil || tp.MailEach == nil || !*tp.MailEach || len(tp.Lines) != 0 {
			t.Errorf("the talk as seat 1 reads it after the choice: %s", body)
		}
		if code, _, _ := apiCall(t, c.srv.URL, "POST", base, tt.viewer, httpapi.TalkRequest{MailEach: &on}); code != http.StatusForbidden {
			t.Errorf("a spectator's choice: %d", code)
		}
	})
}

// TestTalkMailedRightAfterPostLocally: in a wired deployment that mails
// after each commit (the local run), a message posted through the API is
// mailed at once to the seat that asked for each one, and to nobody else.
func TestTalkMailedRightAfterPostLocally(t *testing.T) {
	w := newLeagueWorld(t)
	svc := w.app.Service
	tt := newTalkTable(t, svc)
	rec, _, err := svc.Load(t.Context(), tt.id)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.SetTalkMail(t.Context(), rec, 2, true); err != nil {
		t.Fatal(err)
	}
	before := len(w.sent.Messages())
	if r := w.do(t, "POST", "/api/games/"+tt.id+"/talk", tt.seats[0], httpapi.TalkRequest{Text: "a deal, anyone?"}); r.Code != http.StatusCreated {
		t.Fatalf("post: %d %s", r.Code, r.Body)
	}
	var got []string
	for range 200 {
		got = got[:0]
		for _, m := range w.sent.Messages()[before:] {
			if strings.Contains(m.Text, "a deal, anyone?") {
				got = append(got, m.To)
			}
		}
		if len(got) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(got) != 1 || got[0] != rec.Seats[2].Email {
		t.Fatalf("the message was mailed to %v; want %s alone", got, rec.Seats[2].Email)
	}
}
