package httpapi_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"context"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/functions/internal/wiring/web"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/mailer"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/testenv"
	"github.com/pbmgames/pbm/templates"
	"sync"
)

// leagueWorld is a wired deployment with leagues, its clock and the
// mails it sent.
type leagueWorld struct {
	app  *wiring.App
	h    http.Handler
	now  time.Time
	sent *recorder
	st   *boltstore.Store
}

func newLeagueWorld(t *testing.T) *leagueWorld {
	t.Helper()
	return newWorldLimits(t, service.Limits{})
}

// newWorldLimits is newLeagueWorld with limits (zero fields: the
// defaults); st, its store.
func newWorldLimits(t *testing.T, limits service.Limits) *leagueWorld {
	t.Helper()
	st, err := boltstore.OpenScratch(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	w := &leagueWorld{now: time.Date(2027, 3, 1, 8, 0, 0, 0, time.UTC), sent: &recorder{}}
	w.app = wiring.New(wiring.Parts{Log: slog.New(slog.DiscardHandler), Store: st, Keys: keys, BaseURL: "https://pbm.test",
		Mail: wiring.NewMail(w.sent, nil, true), Now: func() time.Time { return w.now }, Rand: testenv.Rand(t.Name()), Limits: limits})
	w.h = web.Handler(w.app)
	w.st = st
	return w
}

func (w *leagueWorld) do(t *testing.T, method, target, token string, body any) *httptest.ResponseRecorder {
	t.Helper()
	var r *http.Request
	switch b := body.(type) {
	case url.Values:
		r = httptest.NewRequest(method, target, strings.NewReader(b.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case nil:
		r = httptest.NewRequest(method, target, nil)
	default:
		raw, _ := json.Marshal(b)
		r = httptest.NewRequest(method, target, bytes.NewReader(raw))
		r.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	w.h.ServeHTTP(rec, r)
	return rec
}

// A league run through its routes: created by the API, joined by the
// invitation's page (its GET changes nothing), a season started on the
// organiser's page, the sweep making the round's games and mailing the
// members; every page in both languages.
func TestLeagueRoutes(t *testing.T) {
	w := newLeagueWorld(t)
	rec := w.do(t, "POST", "/api/leagues", "", map[string]any{"name": "Клуб", "kind": "businessman", "options": map[string]int{"laps": 2},
		"organiser": map[string]string{"name": "Ольга", "email": "olga@pbm.test", "lang": "ru"}, "table_size": 3, "rounds": 2, "divisions": 1})
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	var created struct {
		ID, OrganiserToken, InviteToken string
	}
	var raw map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &raw)
	created.ID, created.OrganiserToken, created.InviteToken = raw["id"].(string), raw["organiser_token"].(string), raw["invite_token"].(string)
	id := created.ID
	if raw["unconfirmed"] != true {
		t.Fatalf("a league of an address never confirmed: %s", rec.Body)
	}
	// The organiser confirms their address from the mail (issue 25).
	w.confirmFromMail(t, "olga@pbm.test")

	// The invitation's page: a GET shows the form and joins nobody.
	rec = w.do(t, "GET", "/l/"+id+"/join?lang=en&t="+url.QueryEscape(created.InviteToken), "", nil)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `action="/l/`+id+`/join`) {
		t.Fatalf("join page: %d %s", rec.Code, rec.Body)
	}
	l, _, _ := w.app.Leagues.League(t.Context(), id)
	if len(l.Members) != 0 {
		t.Fatalf("the invitation's GET added %v", l.Members)
	}
	var memberTokens []string
	for i, name := range []string{"Anna", "Boris", "Clara", "Denis"} {
		form := url.Values{"t": {created.InviteToken}, "name": {name}, "email": {strings.ToLower(name) + "@pbm.test"},
			"member_lang": {[]string{"ru", "en"}[i%2]}, "tz": {"Europe/Moscow"}, "mail": {[]string{"all", "turns"}[i%2]}}
		rec = w.do(t, "POST", "/l/"+id+"/join", "", form)
		loc, _ := url.Parse(rec.Header().Get("Location"))
		if rec.Code != http.StatusSeeOther || loc == nil || loc.Path != "/l/"+id+"/me" {
			t.Fatalf("join %s: %d %s", name, rec.Code, rec.Body)
		}
		memberTokens = append(memberTokens, loc.Query().Get("t"))
		w.confirmFromMail(t, strings.ToLower(name)+"@pbm.test")
	}
	// A refused join is shown on the form.
	if rec = w.do(t, "POST", "/l/"+id+"/join", "", url.Values{"t": {created.InviteToken}, "name": {"Anna"}, "email": {"x@pbm.test"}}); rec.Code != 400 || !strings.Contains(rec.Body.String(), `class="error"`) {
		t.Errorf("a second Anna: %d", rec.Code)
	}

	org := created.OrganiserToken
	for _, lang := range []string{"ru", "en"} {
		rec = w.do(t, "GET", "/l/"+id+"/org?lang="+lang+"&t="+url.QueryEscape(org), "", nil)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "Denis") || !strings.Contains(rec.Body.String(), `action="/l/`+id+`/start`) {
			t.Fatalf("organiser page (%s): %d %s", lang, rec.Code, rec.Body)
		}
	}
	rec = w.do(t, "POST", "/l/"+id+"/start", "", url.Values{"t": {org}, "start": {"2027-03-01"}})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	// A substitute for Denis from round 2, through the API.
	rec = w.do(t, "POST", "/api/leagues/"+id+"/substitutes", org, map[string]any{"member": "Denis", "from_round": 2,
		"person": map[string]string{"name": "Eve", "email": "eve@pbm.test", "lang": "en"}})
	if rec.Code != 200 {
		t.Errorf("substitute: %d %s", rec.Code, rec.Body)
	}
	w.now = w.now.Add(2 * time.Hour)
	if err := w.app.Sweep(t.Context(), w.now); err != nil {
		t.Fatal(err)
	}
	s, err := w.app.Leagues.Current(t.Context(), id)
	if err != nil || s == nil || len(s.Rounds[0].Tables) == 0 || s.Rounds[0].Tables[0].Game == "" {
		t.Fatalf("after the sweep: %+v, %v", s, err)
	}
	// The mails: start (to the two who want all) and round tables once
	// the organiser's address is confirmed.
	kinds := map[string]int{}
	for _, m := range w.sent.Messages() {
		kinds[m.Tags["mail"]]++
	}
	if kinds["league-start"] != 2 {
		t.Errorf("mails sent %v: want 2 league-start (the members who want every mail)", kinds)
	}

	for _, lang := range []string{"ru", "en"} {
		for _, page := range []string{"/l/" + id, "/l/" + id + "/me"} {
			rec = w.do(t, "GET", page+"?lang="+lang+"&t="+url.QueryEscape(memberTokens[0]), "", nil)
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), "Anna") || !strings.Contains(rec.Body.String(), `<html lang="`+lang+`"`) {
				t.Errorf("%s (%s): %d %.300s", page, lang, rec.Code, rec.Body)
			}
			// Season 1 is under way (issue 27): no page says otherwise.
			if strings.Contains(rec.Body.String(), templates.T(lang, "league_no_season")) {
				t.Errorf("%s (%s) says «%s» during season 1", page, lang, templates.T(lang, "league_no_season"))
			}
		}
	}
	rec = w.do(t, "GET", "/api/leagues/"+id, memberTokens[1], nil)
	var view struct {
		Divisions []struct{ Rows []struct{ Member string } }
		Me        *struct{ Name string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &view); err != nil || rec.Code != 200 || len(view.Divisions) != 1 || len(view.Divisions[0].Rows) != 4 || view.Me == nil || view.Me.Name != "Boris" {
		t.Errorf("league JSON: %d %s", rec.Code, rec.Body)
	}
	// The organiser's JSON has their part: the members with their pages.
	rec = w.do(t, "GET", "/api/leagues/"+id, org, nil)
	var orgView struct {
		Organiser *struct{ Members []struct{ Email, URL string } }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &orgView); err != nil || orgView.Organiser == nil || len(orgView.Organiser.Members) != 4 ||
		orgView.Organiser.Members[0].Email != "anna@pbm.test" || orgView.Organiser.Members[0].URL == "" {
		t.Errorf("the organiser's JSON: %d %.400s", rec.Code, rec.Body)
	}
	if bytes.Contains(w.do(t, "GET", "/api/leagues/"+id, memberTokens[1], nil).Body.Bytes(), []byte(`"organiser":`)) {
		t.Error("a member's JSON has the organiser's part")
	}
	// A member's token opens no organiser's page; a tampered one nothing.
	if rec = w.do(t, "GET", "/l/"+id+"/org?t="+url.QueryEscape(memberTokens[0]), "", nil); rec.Code != http.StatusForbidden && rec.Code != http.StatusUnauthorized {
		t.Errorf("organiser page with a member's token: %d", rec.Code)
	}
	// Leaving: the page's button marks it, for the season's end.
	if rec = w.do(t, "POST", "/l/"+id+"/leave", "", url.Values{"t": {memberTokens[2]}}); rec.Code != http.StatusSeeOther {
		t.Errorf("leave: %d %s", rec.Code, rec.Body)
	}
	if l, _, _ = w.app.Leagues.League(t.Context(), id); !l.Members[2].Leaving {
		t.Errorf("Clara is not leaving: %+v", l.Members[2])
	}
}

// recorder keeps the mails sent.
type recorder struct {
	mu   sync.Mutex
	msgs []mailer.Message
}

func (r *recorder) Send(_ context.Context, m mailer.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, m)
	return nil
}

func (r *recorder) Messages() []mailer.Message {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]mailer.Message(nil), r.msgs...)
}

// confirmFromMail follows the league's confirmation mail to email, as
// its owner does: the link's page shows a button, naming no one and not
// the league, and its POST confirms.
func (w *leagueWorld) confirmFromMail(t *testing.T, email string) {
	t.Helper()
	var link string
	for _, m := range w.sent.Messages() {
		if m.To == email && m.Tags["mail"] == leagues.LetterConfirm {
			link = confirmLinkRE.FindString(m.Text)
		}
	}
	if link == "" {
		t.Fatalf("no league confirmation mail to %s", email)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	rec := w.do(t, "GET", u.RequestURI(), "", nil)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `action="`+u.Path) {
		t.Fatalf("GET %s: %d %.300s", u.Path, rec.Code, rec.Body)
	}
	rec = w.do(t, "POST", u.Path, "", url.Values{"t": {u.Query().Get("t")}})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("POST %s: %d %.300s", u.Path, rec.Code, rec.Body)
	}
}

var confirmLinkRE = regexp.MustCompile(`https://pbm\.test/l/[a-z0-9]+/confirm\?[^\s]+`)
