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

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/infra/linksign"
)

// call sends one request to the fixture's server and answers the status
// and the body.
func (f *pageFixture) call(method, path, token, contentType string, body []byte) (int, string) {
	f.t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept-Language", "en")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// errorCode reads the code of a JSON error body.
func errorCode(body string) string {
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	_ = json.Unmarshal([]byte(body), &e)
	return e.Error.Code
}

// TestAcceptAgainWritesNothing: accepting an invitation a second time
// (the API and the page's button) answers as the first time and writes
// no new version of the game.
func TestAcceptAgainWritesNothing(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(3, 5, 0)
	if code, body := f.call("POST", "/api/games/"+c.ID+"/accept", c.InviteTokens[0], "", nil); code != 200 {
		t.Fatalf("first accept: %d %s", code, body)
	}
	unchanged(t, f.st, c.ID, func() {
		if code, body := f.call("POST", "/api/games/"+c.ID+"/accept", c.InviteTokens[0], "", nil); code != 200 {
			t.Fatalf("second accept: %d %s", code, body)
		}
		b := newBrowser(t, f.srv.URL)
		if code, _, _ := b.post("/g/"+c.ID+"/accept?lang=en", url.Values{"t": {c.InviteTokens[0]}}); code != 200 {
			t.Fatalf("the accept button again: %d", code)
		}
	})
}

// TestSeatOutsideGameRefused: a validly signed token naming a seat the
// game does not have is refused with 403 — on the legal list, the view,
// the seat page, its form and the act route — and changes nothing.
func TestSeatOutsideGameRefused(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 5, 2)
	for _, seat := range []int{2, 7, linksign.MaxSeat} {
		tok, err := f.svc.Token(linksign.PurposeSeat, c.ID, seat, 0, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		act, _ := json.Marshal(httpapi.ActRequest{Action: engine.Action{Type: western.ARoll}, Key: "outside-seat-1"})
		unchanged(t, f.st, c.ID, func() {
			for _, tc := range []struct {
				name string
				do   func() (int, string)
			}{
				{"legal", func() (int, string) { return f.call("GET", "/api/games/"+c.ID+"/legal", tok, "", nil) }},
				{"view", func() (int, string) { return f.call("GET", "/api/games/"+c.ID, tok, "", nil) }},
				{"log", func() (int, string) { return f.call("GET", "/api/games/"+c.ID+"/log", tok, "", nil) }},
				{"act", func() (int, string) {
					return f.call("POST", "/api/games/"+c.ID+"/actions", tok, "application/json", act)
				}},
				{"seat page", func() (int, string) { return f.page("/g/"+c.ID, url.Values{"t": {tok}, "lang": {"en"}}) }},
				{"log page", func() (int, string) { return f.page("/g/"+c.ID+"/log", url.Values{"t": {tok}, "lang": {"en"}}) }},
				{"seat form", func() (int, string) {
					code, body, _ := newBrowser(t, f.srv.URL).post("/g/"+c.ID+"/act?lang=en", url.Values{"t": {tok}, "type": {"roll"}, "key": {"outside-seat-2"}})
					return code, body
				}},
			} {
				if code, body := tc.do(); code != http.StatusForbidden || !strings.Contains(body, "does not allow") {
					t.Errorf("seat %d, %s: %d, want 403 saying the link does not allow it", seat, tc.name, code)
				}
			}
		})
	}
}

// TestKeyReusedWithOtherActionRefused: an idempotency key sent again with
// the same action answers as the first time; sent with another action it
// is refused with 422 naming the reuse, and nothing is applied.
func TestKeyReusedWithOtherActionRefused(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 5, 2)
	rec, g := f.game(c.ID)
	seat := g.Owing()[0]
	tok := f.token(linksign.PurposeSeat, c.ID, invite(rec, seat))
	body := func(a engine.Action) []byte {
		b, _ := json.Marshal(httpapi.ActRequest{Action: a, Key: "reused-key-1"})
		return b
	}
	first := g.Legal(seat)[0].Action
	if code, b := f.call("POST", "/api/games/"+c.ID+"/actions", tok, "application/json", body(first)); code != 200 {
		t.Fatalf("first: %d %s", code, b)
	}
	if code, b := f.call("POST", "/api/games/"+c.ID+"/actions", tok, "application/json", body(first)); code != 200 || !strings.Contains(b, `"replayed":true`) {
		t.Fatalf("the same action again: %d %s", code, b)
	}
	other := first
	other.Type, other.Amount = western.ACredit, 1000
	unchanged(t, f.st, c.ID, func() {
		code, b := f.call("POST", "/api/games/"+c.ID+"/actions", tok, "application/json", body(other))
		if code != http.StatusUnprocessableEntity || errorCode(b) != "key_reused" || !strings.Contains(b, "key") {
			t.Fatalf("the key with another action: %d %s, want 422 key_reused", code, b)
		}
	})
}

// TestJSONMediaTypeRefused: a JSON body must say it is JSON in UTF-8:
// another charset, another media type or none at all gets 415 with a
// clear message; the usual spellings of JSON are taken.
func TestJSONMediaTypeRefused(t *testing.T) {
	f := newPageFixture(t)
	body := []byte(`{"kind":"western","organiser":{"email":"o@pbm.test"},"seats":[{"name":"A","email":"a@pbm.test"},{"name":"B","email":"b@pbm.test"}]}`)
	for _, ct := range []string{"application/json; charset=utf-16", "application/jsonfoo", "", "text/plain", "application/json; charset", "multipart/form-data"} {
		code, b := f.call("POST", "/api/games", "", ct, body)
		if code != http.StatusUnsupportedMediaType || errorCode(b) != "unsupported_media_type" || !strings.Contains(b, "application/json") {
			t.Errorf("Content-Type %q: %d %s, want 415", ct, code, b)
		}
	}
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON; charset=UTF-8"} {
		if code, b := f.call("POST", "/api/games", "", ct, body); code != http.StatusCreated {
			t.Errorf("Content-Type %q: %d %s, want 201", ct, code, b)
		}
	}
}

// TestOversizedSeatFormTooLarge: a form over the size limit posted to a
// seat page answers 413, not "link invalid", and changes nothing.
func TestOversizedSeatFormTooLarge(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 5, 2)
	rec, g := f.game(c.ID)
	tok := f.token(linksign.PurposeSeat, c.ID, invite(rec, g.Owing()[0]))
	form := url.Values{"t": {tok}, "type": {"roll"}, "key": {"oversized-1"}, "pad": {strings.Repeat("x", httpapi.MaxBody)}}
	unchanged(t, f.st, c.ID, func() {
		code, body := f.call("POST", "/g/"+c.ID+"/act?lang=en", "", "application/x-www-form-urlencoded", []byte(form.Encode()))
		if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "too large") {
			t.Fatalf("%d, want 413 saying the request is too large", code)
		}
	})
}
