package e2e

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html"
	"io"
	mathrand "math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/mailer/sesmailer"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// sesMail is one mail as aws-ses-v2-local keeps it (GET /store).
type sesMail struct {
	MessageID   string `json:"messageId"`
	From        string `json:"from"`
	Destination struct {
		To []string `json:"to"`
	} `json:"destination"`
	Subject string `json:"subject"`
	Body    struct {
		HTML string `json:"html"`
		Text string `json:"text"`
	} `json:"body"`
	Attachments []struct {
		ContentID   string `json:"contentId"`
		ContentType string `json:"contentType"`
	} `json:"attachments"`
	Headers []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"headers"`
}

// mailEnv is the whole service as deployed, in one process: the HTTP
// handler, the DynamoDB store on dynalite, and the notifier sending
// through SES v2 to aws-ses-v2-local after each commit.
type mailEnv struct {
	*env
	ses    string // the SES server's endpoint
	store  *dynamostore.Store
	client *http.Client
}

func newMailEnv(t *testing.T) *mailEnv {
	t.Helper()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	var b [6]byte
	_, _ = rand.Read(b[:])
	table := "mail-" + fmt.Sprintf("%x", b)
	if err := dynamostore.CreateTable(context.Background(), client, table); err != nil {
		t.Fatal(err)
	}
	st := dynamostore.New(client, table)
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": key})
	ses := testenv.SESLocal(t)
	if resp, err := http.Post(ses+"/clear-store", "application/json", nil); err == nil {
		resp.Body.Close()
	}
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	n := &notify.Notifier{Sender: sesmailer.New(testenv.SESClient(t, ses), "games@pbm.test", "pbm"), Players: st, Permanent: sesmailer.IsPermanent, Log: discardLog()}
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Log: discardLog(), AfterCommit: n.AfterCommit,
		Rand: testenv.Rand(t.Name())})
	n.Service, n.Composer = svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: srv.URL})
	h = httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: discardLog(), BaseURL: srv.URL})
	jar, _ := cookiejar.New(nil)
	e := &env{t: t, url: srv.URL, svc: svc, table: table}
	return &mailEnv{env: e, ses: ses, store: st, client: &http.Client{Jar: jar}}
}

// mails reads everything the SES server holds.
func (m *mailEnv) mails() []sesMail {
	m.t.Helper()
	resp, err := http.Get(m.ses + "/store")
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Emails []sesMail `json:"emails"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		m.t.Fatal(err)
	}
	return out.Emails
}

var mailLinkRE = regexp.MustCompile(`https?://[^\s"<>]+`)

// linkTo is the first link of a mail's text part that goes to path.
func linkTo(t *testing.T, m sesMail, path string) string {
	t.Helper()
	for _, l := range mailLinkRE.FindAllString(m.Body.Text, -1) {
		u, err := url.Parse(l)
		if err == nil && strings.HasPrefix(u.Path, path) && u.Path != "/me" && u.Path != "/unsubscribe" {
			return l
		}
	}
	t.Fatalf("mail %q has no link to %s:\n%s", m.Subject, path, m.Body.Text)
	return ""
}

func (m *mailEnv) page(method, link string, form url.Values) (int, string) {
	m.t.Helper()
	var resp *http.Response
	var err error
	if method == "GET" {
		resp, err = m.client.Get(link)
	} else {
		resp, err = m.client.PostForm(link, form)
	}
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var (
	pageFormRE   = regexp.MustCompile(`(?s)<form method="post" action="([^"]+)"[^>]*>(.*?)</form>`)
	pageInputRE  = regexp.MustCompile(`<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"`)
	pageAmountRE = regexp.MustCompile(`<input type="number" id="[^"]*" name="amount" min="(-?\d+)"`)
	pageSelectRE = regexp.MustCompile(`(?s)<select[^>]*name="([^"]+)"[^>]*>\s*<option value="([^"]*)"`)
)

type pageForm struct {
	action string
	values url.Values
}

func pageForms(base, page string) []pageForm {
	var out []pageForm
	for _, f := range pageFormRE.FindAllStringSubmatch(page, -1) {
		pf := pageForm{action: base + html.UnescapeString(f[1]), values: url.Values{}}
		for _, in := range pageInputRE.FindAllStringSubmatch(f[2], -1) {
			pf.values.Set(in[1], html.UnescapeString(in[2]))
		}
		for _, sel := range pageSelectRE.FindAllStringSubmatch(f[2], -1) { // a list: its first option
			pf.values.Set(sel[1], html.UnescapeString(sel[2]))
		}
		// An amount the page leaves to the player (issue 27): the least,
		// as they type it.
		if am := pageAmountRE.FindStringSubmatch(f[2]); am != nil && pf.values.Get("amount") == "" {
			pf.values.Set("amount", am[1])
		}
		out = append(out, pf)
	}
	return out
}

func cyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// TestMailPlaysWholeGame plays a whole 3-seat game of each game in which
// every action is made by following the link in the latest mail to that
// player, read from the SES server, with players in Russian and English.
// After every visit it checks who got which mail against a replay of the
// log: each decision the engine newly asks of a seat is mailed to that
// seat once, and nobody else is mailed. «Бизнесмен» is played with rent on
// claim, so that owners are asked out of turn too (P-2).
func TestMailPlaysWholeGame(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		options map[string]any
	}{
		{"western", map[string]any{"laps": 2}},
		{"businessman", map[string]any{"laps": 2, "rent_claim": "claim"}},
	} {
		t.Run(tc.kind, func(t *testing.T) { mailPlaysWholeGame(t, tc.kind, tc.options) })
	}
}

func mailPlaysWholeGame(t *testing.T, kind string, options map[string]any) {
	m := newMailEnv(t)
	langs := []string{"ru", "en", "ru"}
	req := map[string]any{"kind": kind, "options": options, "deadline_hours": 48,
		"organiser": map[string]string{"name": "Org", "email": "org@pbm.test", "lang": "en"}}
	var seats []map[string]string
	for i, l := range langs {
		seats = append(seats, map[string]string{"name": fmt.Sprintf("P%d", i), "email": fmt.Sprintf("p%d@pbm.test", i), "lang": l})
	}
	req["seats"] = seats
	var created service.Created
	if st := m.call("POST", "/api/games", "", req, &created); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	seen := 0
	newMails := func() []sesMail {
		all := m.mails()
		out := all[seen:]
		seen = len(all)
		return out
	}
	to := func(ms []sesMail) []string {
		var out []string
		for _, x := range ms {
			out = append(out, x.Destination.To...)
		}
		slices.Sort(out)
		return out
	}
	latest := map[string]sesMail{}
	record := func(ms []sesMail) {
		for _, x := range ms {
			for _, a := range x.Destination.To {
				// A deal's mail asks for an answer on the deals page, the
				// game going on: the requests this test follows are the
				// seat page's.
				if l := mailLinkRE.FindString(x.Body.Text); !strings.Contains(l, "/deals?") {
					latest[a] = x
				}
			}
			idx := strings.TrimSuffix(strings.TrimPrefix(x.Destination.To[0], "p"), "@pbm.test")
			for i, l := range langs {
				if fmt.Sprint(i) == idx && cyrillic(x.Subject) != (l == "ru") {
					t.Fatalf("mail %q to a player in %s", x.Subject, l)
				}
			}
			if len(x.Headers) > 0 && !slices.ContainsFunc(x.Headers, func(h struct {
				Name  string `json:"name"`
				Value string `json:"value"`
			}) bool {
				return h.Name == "List-Unsubscribe-Post"
			}) {
				t.Fatalf("mail %q without one-click unsubscribe", x.Subject)
			}
		}
	}

	// First the organiser confirms their address: one mail, to them,
	// with none of their text; its link's page changes nothing, its button
	// sends the invitations.
	conf := newMails()
	if got := to(conf); !slices.Equal(got, []string{"org@pbm.test"}) {
		t.Fatalf("before the organiser confirmed, mail went to %v", got)
	}
	// The links' tokens are random base64 and may spell "P0" by chance:
	// only the words are looked at.
	if words := mailLinkRE.ReplaceAllString(conf[0].Body.Text, ""); strings.Contains(words, "Org") || strings.Contains(words, "P0") {
		t.Errorf("the confirmation mail carries the creator's text:\n%s", conf[0].Body.Text)
	}
	code, page := m.page("GET", linkTo(t, conf[0], "/g/"+created.ID+"/confirm"), nil)
	forms := pageForms(m.url, page)
	if code != 200 || len(forms) != 1 || len(newMails()) != 0 {
		t.Fatalf("confirmation page: %d, %d forms", code, len(forms))
	}
	if code, _ := m.page("POST", forms[0].action, forms[0].values); code != 200 {
		t.Fatalf("confirm: %d", code)
	}

	// Invitations: one to each seat, nobody else.
	inv := newMails()
	if got, want := to(inv), []string{"p0@pbm.test", "p1@pbm.test", "p2@pbm.test"}; !slices.Equal(got, want) {
		t.Fatalf("invitations went to %v", got)
	}
	record(inv)
	for i := range langs {
		addr := fmt.Sprintf("p%d@pbm.test", i)
		code, page := m.page("GET", linkTo(t, latest[addr], "/g/"), nil)
		forms := pageForms(m.url, page)
		if code != 200 || len(forms) != 1 || !strings.Contains(page, `name="orders" value="off"`) {
			t.Fatalf("invitation page: %d, %d forms, or no button that accepts without orders", code, len(forms))
		}
		// Each player presses «Принять и решать всё самому»: no
		// standing orders, every decision mailed (what this test follows).
		forms[0].values.Set("orders", "off")
		if code, _ := m.page("POST", forms[0].action, forms[0].values); code != 200 {
			t.Fatalf("accept: %d", code)
		}
		got := newMails()
		record(got)
		want := []string{"org@pbm.test"} // the organiser hears of each acceptance
		if i == len(langs)-1 {
			want = append(want, "") // and the game starts: the first seat to move is mailed
		}
		if len(got) != len(want) {
			t.Fatalf("after accept %d: mails to %v", i, to(got))
		}
	}

	rnd := mathrand.New(mathrand.NewPCG(1, 2))
	logSeen := 0
	var cmds []engine.Command
	rec, _, err := m.svc.Load(t.Context(), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	emailOf := func(seat int) string {
		for _, s := range rec.Seats {
			if s.Engine == seat {
				return s.Email
			}
		}
		return "?"
	}
	for visit := 0; ; visit++ {
		if visit > 3000 {
			t.Fatal("the game does not end")
		}
		// Who has an unanswered request? The one whose latest mail asks.
		var who string
		for _, addr := range []string{"p0@pbm.test", "p1@pbm.test", "p2@pbm.test"} {
			if x, ok := latest[addr]; ok && strings.Contains(linkTo(t, x, "/g/"), "/g/"+created.ID+"?") {
				if code, page := m.page("GET", linkTo(t, x, "/g/"), nil); code == 200 && len(pageForms(m.url, page)) > 0 {
					who = addr
					break
				}
			}
		}
		if who == "" {
			for addr, x := range latest {
				t.Logf("latest mail to %s: %q", addr, x.Subject)
			}
			break
		}
		// One visit: press buttons until the page asks nothing more.
		link := linkTo(t, latest[who], "/g/")
		_, page := m.page("GET", link, nil)
		for presses := 0; ; presses++ {
			forms := pageForms(m.url, page)
			if len(forms) == 0 || presses > 40 {
				break
			}
			f := forms[0]
			if rnd.IntN(10) < 3 { // another decision, but never leaving the game
				if g := forms[rnd.IntN(len(forms))]; g.values.Get("type") != engine.Resign {
					f = g
				}
			}
			code, next := m.page("POST", f.action, f.values)
			if code != 200 {
				t.Fatalf("visit %d: %d posting %v to %s\n%s", visit, code, f.values, f.action, next)
			}
			page = next
		}
		// The mails of this visit, against a replay of the new commands.
		// The whole log, sealed bids included: the public one hides them
		// (P-3).
		now, _, err := m.svc.Load(t.Context(), created.ID)
		if err != nil {
			t.Fatal(err)
		}
		full, err := m.svc.FullLog(t.Context(), now)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		g, _ := testGames.Engines().Replay(rec.Kind, rec.Rules, rec.Options, 3, [32]byte(rec.Seed), cmds)
		for _, e := range full[logSeen:] {
			before := g.Owing()
			if g, _, err = g.Apply(e.Seat, e.Action); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, engine.Command{Seat: e.Seat, Action: e.Action})
			if g.Over() {
				for s := 0; s < 3; s++ {
					want = append(want, emailOf(s))
				}
				want = append(want, "org@pbm.test") // the organiser is told the end too (issue 27)
				continue
			}
			for _, s := range g.Owing() {
				if !slices.Contains(before, s) {
					want = append(want, emailOf(s))
				}
			}
			for _, ev := range e.Events { // a deal opened: its seat is asked
				if ev.Type == engine.EvDealOpen && ev.Deal != nil {
					want = append(want, emailOf(ev.Deal.To))
				}
			}
		}
		logSeen = len(full)
		got := newMails()
		record(got)
		slices.Sort(want)
		if !slices.Equal(to(got), want) {
			t.Fatalf("visit %d: mails to %v, want %v", visit, to(got), want)
		}
		if visit == 5 || g.Over() {
			m.scan(created)
		}
		if g.Over() {
			break
		}
	}
	var v httpapi.GameView
	m.call("GET", "/api/games/"+created.ID, created.OrganiserToken, nil, &v)
	if v.Status != service.StatusOver {
		t.Fatalf("no one has a request in the mail, but the game is %s", v.Status)
	}
	for _, addr := range []string{"p0@pbm.test", "p1@pbm.test", "p2@pbm.test"} {
		if s := latest[addr].Subject; !strings.Contains(s, "окончена") && !strings.Contains(s, "is over") {
			t.Errorf("the last mail to %s is not the result: %q", addr, latest[addr].Subject)
		}
	}
	decisions := 0
	for _, x := range m.mails() {
		if strings.Contains(x.Subject, "решение") || strings.Contains(x.Subject, "decision is asked") {
			decisions++
		}
	}
	t.Logf("%d moves made from %d mails, %d of them decisions out of turn", v.Moves, seen, decisions)
}

var hrefRE = regexp.MustCompile(`href="([^"]+)"`)

// scan is a mail scanner and link previewer: it GETs every link of every
// mail sent so far (text and HTML parts) and every GET route of the
// service, and checks the stored game is byte-identical afterwards.
func (m *mailEnv) scan(created service.Created) {
	m.t.Helper()
	before, err := m.store.GetGame(context.Background(), created.ID)
	if err != nil {
		m.t.Fatal(err)
	}
	links := map[string]bool{}
	for _, x := range m.mails() {
		for _, l := range mailLinkRE.FindAllString(x.Body.Text, -1) {
			links[l] = true
		}
		for _, h := range hrefRE.FindAllStringSubmatch(x.Body.HTML, -1) {
			links[html.UnescapeString(h[1])] = true
		}
	}
	for _, p := range []string{"/", "/healthz", "/api/openapi.json", "/api/games/" + created.ID, "/api/games/" + created.ID + "/legal",
		"/api/games/" + created.ID + "/log", "/api/games/" + created.ID + "/result", "/g/" + created.ID, "/g/" + created.ID + "/org",
		"/g/" + created.ID + "/invite", "/me", "/unsubscribe"} {
		for _, tok := range append([]string{"", created.OrganiserToken, created.SpectatorToken}, created.InviteTokens...) {
			links[m.url+p+"?t="+url.QueryEscape(tok)] = true
		}
	}
	for l := range links {
		if !strings.HasPrefix(l, m.url) {
			m.t.Fatalf("a mail links outside the service: %s", l)
		}
		req, _ := http.NewRequest("GET", l, nil)
		if strings.Contains(l, "/api/") {
			if u, err := url.Parse(l); err == nil {
				req.Header.Set("Authorization", "Bearer "+u.Query().Get("t"))
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			m.t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			m.t.Fatalf("GET %s: %d", l, resp.StatusCode)
		}
	}
	after, err := m.store.GetGame(context.Background(), created.ID)
	if err != nil {
		m.t.Fatal(err)
	}
	if before.Version != after.Version || string(before.Body) != string(after.Body) {
		m.t.Fatalf("GETs of %d links changed the stored game", len(links))
	}
	m.t.Logf("scanned %d links: the game is unchanged", len(links))
}
