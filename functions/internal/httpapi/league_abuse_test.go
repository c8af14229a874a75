package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// attackerWords are what the attacker of issue 25 wrote into a league:
// its name, the organiser's name, every member's name.
const attackerWords = "Buy cheap watches at x.example"

// makeLeague posts a league from client and answers the status and the
// answer's fields.
func (w *leagueWorld) makeLeague(client, name, organiser string) (int, map[string]any) {
	rec := w.raw("POST", "/api/leagues", "", client, []byte(fmt.Sprintf(`{"name":%q,"kind":"businessman","table_size":3,"rounds":1,"divisions":1,
		"organiser":{"name":"Watches","email":%q}}`, name, organiser)))
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	if rec.Code == http.StatusTooManyRequests {
		if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s <= 0 {
			out["retry_after"] = "missing"
		}
	}
	return rec.Code, out
}

// TestLeagueMailsNoStranger (issue 25, symptom 1): a league made by
// anyone for an address never confirmed, joined by 150 foreign addresses
// from one client with its invitation, and its season started, sends no
// mail carrying the attacker's words: its organiser confirms their
// address before any member is mailed; a member's address gets only a
// fixed-text mail asking them to confirm, one a day at most; the joins
// from one client are limited (429 with Retry-After), and so is the
// making of leagues, from one client as from one organiser address.
func TestLeagueMailsNoStranger(t *testing.T) {
	w := newLeagueWorld(t)
	const attacker = "198.51.100.66"
	code, made := w.makeLeague(attacker, attackerWords, "attacker@x.example")
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, made)
	}
	id, invite, org := made["id"].(string), made["invite_token"].(string), made["organiser_token"].(string)
	joined, refused := 0, 0
	for i := range 150 {
		rec := w.raw("POST", "/api/leagues/"+id+"/members", invite, attacker,
			[]byte(fmt.Sprintf(`{"name":"Watches %d","email":"victim%03d@example.org"}`, i, i)))
		switch rec.Code {
		case http.StatusCreated:
			joined++
		case http.StatusTooManyRequests:
			refused++
			if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s <= 0 {
				t.Fatalf("join %d: 429 without a Retry-After", i)
			}
		default:
			t.Fatalf("join %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	if limit := service.DefaultLimits.Joins.ClientPerHour; joined > limit || refused != 150-joined {
		t.Errorf("150 joins from one client: %d joined, %d refused; want at most %d joined", joined, refused, limit)
	}
	season := func() int {
		return w.raw("POST", "/api/leagues/"+id+"/seasons", org, attacker, []byte(`{}`)).Code
	}
	if c := season(); c != http.StatusConflict {
		t.Errorf("a season of a league whose organiser never confirmed: %d, want 409", c)
	}
	w.now = w.now.Add(time.Hour)
	if err := w.app.Sweep(t.Context(), w.now); err != nil {
		t.Fatal(err)
	}
	// The attacker confirms their own address: the members are asked.
	w.confirmFromMail(t, "attacker@x.example")
	if c := season(); c != http.StatusBadRequest {
		t.Errorf("a season whose members confirmed nothing: %d, want 400", c)
	}
	// A victim's address given to a second league the same day gets no
	// second mail.
	_, second := w.makeLeague("198.51.100.67", "Second", "attacker@x.example")
	id2, invite2 := second["id"].(string), second["invite_token"].(string)
	before := len(w.sent.Messages())
	if rec := w.raw("POST", "/api/leagues/"+id2+"/members", invite2, "198.51.100.67", []byte(`{"name":"V","email":"victim000@example.org"}`)); rec.Code != http.StatusCreated {
		t.Fatalf("join the second league: %d %s", rec.Code, rec.Body)
	}
	if n := len(w.sent.Messages()) - before; n != 0 {
		t.Errorf("an address asked to confirm today was mailed again (%d)", n)
	}

	w.now = w.now.Add(24 * time.Hour)
	if err := w.app.Sweep(t.Context(), w.now); err != nil {
		t.Fatal(err)
	}
	l, _, err := w.app.Leagues.League(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	perAddress := map[string]int{}
	for _, m := range w.sent.Messages() {
		perAddress[m.To]++
		body := m.Subject + m.Text + m.HTML
		if strings.Contains(body, "watches") || strings.Contains(body, "Watches") {
			t.Errorf("a mail to %s carries the attacker's words: %q", m.To, m.Subject)
		}
		if m.Tags["mail"] != leagues.LetterConfirm {
			t.Errorf("a mail to %s of kind %q: a league whose members confirmed nothing sends only confirmations", m.To, m.Tags["mail"])
		}
	}
	for to, n := range perAddress {
		if n > 1 {
			t.Errorf("%s got %d mails in a day, want at most one", to, n)
		}
	}
	if len(perAddress) > joined+1 || len(l.Members) != joined {
		t.Errorf("%d addresses mailed, %d members; want at most the %d joined and the organiser", len(perAddress), len(l.Members), joined)
	}
	// Leagues are limited per client and per organiser address, as games.
	limits := service.DefaultLimits.Leagues
	made2 := 0
	for i := range 12 {
		code, out := w.makeLeague("198.51.100.80", "L", fmt.Sprintf("o%d@example.org", i))
		switch {
		case code == http.StatusCreated:
			made2++
		case code != http.StatusTooManyRequests || out["retry_after"] != nil:
			t.Fatalf("league %d from one client: %d %v", i, code, out)
		}
	}
	if made2 != limits.ClientPerHour {
		t.Errorf("12 leagues from one client: %d made, want %d", made2, limits.ClientPerHour)
	}
	made2 = 0
	for i := range 12 {
		if code, _ := w.makeLeague(fmt.Sprintf("203.0.113.%d", i+1), "L", "one@example.org"); code == http.StatusCreated {
			made2++
		}
	}
	if made2 != limits.OrganiserPerHour {
		t.Errorf("12 leagues of one organiser address: %d made, want %d", made2, limits.OrganiserPerHour)
	}
}
