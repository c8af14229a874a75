// Package conformance is the service-level game conformance suite (issue
// 26): what every game the service serves must pass, played through a
// whole local deployment (localrun: the same wiring, pages, API and
// notifier as in AWS, on bbolt and the mailbox) over HTTP. The engine
// contract (replay, legal moves, bots finish, views) is
// engine/conformance's; this suite holds the game to the service: its
// home page, rules, lengths and API document; a game created, confirmed
// and accepted from the mailed links and started at its fewest and most
// seats; every page for every reader in both languages, with no text key
// left unresolved and no other seat's secret shown; its standing orders
// accepted; its bots finishing it; every mail it causes composed; and its
// record verifying and importing back.
//
// It is a test helper: its tests (conformance_test.go) run it for every
// game the tests' wiring serves, the test-only game among them. With
// CONFORMANCE_DUMP set to a folder, the text of each page and mail it
// checked is written there, to read what a game shows.
package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/gamerecord"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/wiring/localrun"
	"github.com/pbmgames/pbm/infra/mailer/mailbox"
	"github.com/pbmgames/pbm/infra/testenv"
	"github.com/pbmgames/pbm/templates"
)

// dumped numbers the pages written to CONFORMANCE_DUMP.
var dumped atomic.Int64

// langs are the languages every page and mail is checked in.
var langs = []string{"ru", "en"}

// apiMoves is how many decisions the players make themselves, through
// the API, before the organiser hands every seat to a bot.
const apiMoves = 8

// maxSecretPages bounds the log's pages a reader's secrets are looked
// for on, in each language and stage.
const maxSecretPages = 4

// maxTicks bounds the clock's ticks the bots get to finish the game in.
const maxTicks = 500

// Known are the checks a game is known to fail because the shared code
// assumes what the real games have (issue 26's work list): a check's
// name and why. A known check that finds its problem skips, saying so;
// one that no longer finds it fails, to be dropped from the list.
type Known map[string]string

// Run holds game kind of gs to the service: see the package's comment.
// Each part is a subtest. known lists the checks kind is known to fail.
func Run(t *testing.T, gs *present.Games, kind string, known ...Known) {
	t.Helper()
	all := Known{}
	for _, k := range known {
		maps.Copy(all, k)
	}
	info, ok := gs.Engines().Lookup(kind)
	if !ok {
		t.Fatalf("no game %q among %v", kind, gs.Kinds())
	}
	d := deploy(t, gs)
	d.known = all
	t.Run("listed", func(t *testing.T) { d.listed(t, kind) })
	seats := []int{info.MinSeats}
	if info.MaxSeats != info.MinSeats {
		seats = append(seats, info.MaxSeats)
	}
	for _, n := range seats {
		t.Run(fmt.Sprintf("seats=%d", n), func(t *testing.T) { d.game(t, kind, n) })
	}
}

// deployment is a local run served over HTTP.
type deployment struct {
	gs   *present.Games
	app  *localrun.App
	srv  *httptest.Server
	keys map[string]bool // every text key: none may show unresolved
	// known are the checks the game is known to fail (Known).
	known Known
}

// check runs the check name, which lists the problems it found: each is
// an error, or, if the check is known to fail, its skip.
func (d *deployment) check(t *testing.T, name string, problems func(t *testing.T) []string) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		found := problems(t)
		reason, known := d.known[name]
		switch {
		case known && len(found) > 0:
			t.Skipf("issue 26: %s (%d found, e.g. %s)", reason, len(found), found[0])
		case known:
			t.Errorf("known to fail (%s), and it passes: drop it from the known checks", reason)
		}
		for _, p := range found {
			t.Error(p)
		}
	})
}

func deploy(t *testing.T, gs *present.Games) *deployment {
	t.Helper()
	var app *localrun.App
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { app.Handler().ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	var err error
	app, err = localrun.New(localrun.Config{Games: gs, Dir: t.TempDir(), BaseURL: srv.URL, Rand: testenv.Rand(t.Name()),
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	keys := map[string]bool{}
	for _, k := range templates.Keys() {
		keys[k] = true
	}
	for _, kind := range gs.Kinds() {
		if b, ok := present.File(gs.For(kind), "texts.json"); ok {
			var texts map[string][2]string
			if err := json.Unmarshal(b, &texts); err != nil {
				t.Fatalf("%s: texts.json: %v", kind, err)
			}
			for k := range texts {
				keys[k] = true
			}
		}
	}
	return &deployment{gs: gs, app: app, srv: srv, keys: keys}
}

// answer is a response read whole.
type answer struct {
	status int
	ctype  string
	body   []byte
}

// do makes a request; token goes in the Authorization header, in as JSON.
func (d *deployment) do(t *testing.T, method, path, token string, in any) answer {
	t.Helper()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, d.srv.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := d.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return answer{status: resp.StatusCode, ctype: resp.Header.Get("Content-Type"), body: b}
}

// call makes a JSON request that must answer want, decoding the answer
// into out (if not nil).
func (d *deployment) call(t *testing.T, method, path, token string, in, out any, want int) {
	t.Helper()
	a := d.do(t, method, path, token, in)
	if a.status != want {
		t.Fatalf("%s %s: %d, want %d: %.400s", method, redact(path), a.status, want, a.body)
	}
	if out != nil {
		if err := json.Unmarshal(a.body, out); err != nil {
			t.Fatalf("%s %s: %v: %.200s", method, redact(path), err, a.body)
		}
	}
}

// redact drops a path's token from what a failure prints.
func redact(path string) string {
	if i := strings.Index(path, "t="); i >= 0 {
		return path[:i] + "t=…"
	}
	return path
}

// listed: the home page offers the game by its name in both languages,
// its rules page is there in both, the lengths answer for it and the
// API's document describes it.
func (d *deployment) listed(t *testing.T, kind string) {
	for _, l := range langs {
		name := d.gs.GameName(l, kind)
		if name == "" || name == kind {
			t.Errorf("%s: the game has no name of its own: %q", l, name)
		}
		home := d.page(t, "/?lang="+l, l, http.StatusOK)
		if !strings.Contains(home, html.EscapeString(name)) || !strings.Contains(home, `value="`+kind+`"`) {
			t.Errorf("%s: the home page does not offer %s («%s»)", l, kind, name)
		}
		rules := d.page(t, "/rules/"+kind+"?lang="+l, l, http.StatusOK)
		if !strings.Contains(rules, html.EscapeString(name)) || !strings.Contains(rules, "<h2") {
			t.Errorf("%s: the rules page of %s does not name it or has no rules", l, kind)
		}
	}
	info, _ := d.gs.Engines().Lookup(kind)
	d.check(t, "seat range", func(t *testing.T) (out []string) {
		// A game for exactly n players is not offered for «n–n».
		if info.MinSeats != info.MaxSeats {
			return nil
		}
		for _, l := range langs {
			home := d.page(t, "/?lang="+l, l, http.StatusOK)
			if r := fmt.Sprintf("%s (%d–%d", html.EscapeString(d.gs.GameName(l, kind)), info.MinSeats, info.MaxSeats); strings.Contains(home, r) {
				out = append(out, fmt.Sprintf("%s: the home page offers it as %q…", l, r))
			}
		}
		return out
	})
	var lengths struct {
		Kind    string            `json:"kind"`
		Seats   int               `json:"seats"`
		Lengths []json.RawMessage `json:"lengths"`
	}
	d.call(t, "GET", fmt.Sprintf("/api/lengths?kind=%s&seats=%d", kind, info.MinSeats), "", nil, &lengths, http.StatusOK)
	if lengths.Kind != kind || lengths.Seats != info.MinSeats || lengths.Lengths == nil {
		t.Errorf("lengths: %+v", lengths)
	}
	doc := d.do(t, "GET", "/api/openapi.json", "", nil)
	if doc.status != http.StatusOK || !json.Valid(doc.body) || !bytes.Contains(doc.body, []byte(`"`+kind+`"`)) {
		t.Errorf("the API's document (%d) does not name %q", doc.status, kind)
	}
}

// person is a participant of the conformance game.
type person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Lang  string `json:"lang"`
}

var names = []string{"Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Oscar"}

// table is one game as the suite plays it.
type table struct {
	d     *deployment
	kind  string
	id    string
	org   person
	orgT  string // the organiser's token
	specT string // a spectator's
	seats []person
	seatT []string // by invitation
	mails int      // the mails checked so far
	kinds map[string]bool
}

// game plays a game of kind at n seats from its creation to its record.
func (d *deployment) game(t *testing.T, kind string, n int) {
	tb := &table{d: d, kind: kind, kinds: map[string]bool{}}
	tag := fmt.Sprintf("%s%d", kind, n)
	tb.org = person{Name: "Organiser", Email: "org-" + tag + "@conformance.test", Lang: "en"}
	for i := range n {
		tb.seats = append(tb.seats, person{Name: names[i%len(names)], Email: fmt.Sprintf("seat%d-%s@conformance.test", i, tag), Lang: langs[i%2]})
	}
	tb.create(t)
	tb.pages(t, "started")
	tb.playByAPI(t)
	tb.pages(t, "under way")
	tb.orders(t)
	tb.botsFinish(t)
	tb.pages(t, "over")
	tb.mailsCompose(t)
	for _, k := range []string{service.MailConfirm, service.MailInvite, service.MailAccepted, service.MailTurn, service.MailOver} {
		if !tb.kinds[k] {
			t.Errorf("no %q mail was sent (sent: %v)", k, tb.kinds)
		}
	}
	tb.record(t)
}

// mailTo is the newest mail of kind to addr.
func (tb *table) mailTo(t *testing.T, addr, kind string) mailbox.Mail {
	t.Helper()
	ms, err := tb.d.app.Mailbox.List(addr, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Tags["mail"] == kind && m.Tags["game"] == tb.id {
			return m
		}
	}
	t.Fatalf("no %s mail to %s", kind, addr)
	return mailbox.Mail{}
}

// linkToken is the token of the mail's link to path.
func linkToken(t *testing.T, m mailbox.Mail, path string) string {
	t.Helper()
	for _, l := range mailbox.Links(m.Text) {
		u, err := url.Parse(l)
		if err == nil && u.Path == path && u.Query().Get("t") != "" {
			return u.Query().Get("t")
		}
	}
	t.Fatalf("mail %q has no link to %s: %v", m.Subject, path, mailbox.Links(m.Text))
	return ""
}

// create makes the game through the API, confirms the organiser's
// address and accepts every seat from the mailed links, and starts it.
func (tb *table) create(t *testing.T) {
	var created service.Created
	tb.d.call(t, "POST", "/api/games", "", map[string]any{"kind": tb.kind, "organiser": tb.org, "seats": tb.seats}, &created, http.StatusCreated)
	tb.id, tb.orgT, tb.specT = created.ID, created.OrganiserToken, created.SpectatorToken
	if len(created.InviteTokens) != len(tb.seats) {
		t.Fatalf("%d invitations for %d seats", len(created.InviteTokens), len(tb.seats))
	}
	if created.Unconfirmed {
		tok := linkToken(t, tb.mailTo(t, tb.org.Email, service.MailConfirm), "/g/"+tb.id+"/confirm")
		tb.d.page(t, "/g/"+tb.id+"/confirm?lang=en&t="+tok, "en", http.StatusOK)
		tb.d.call(t, "POST", "/api/games/"+tb.id+"/confirm", tok, nil, nil, http.StatusOK)
	}
	tb.seatT = make([]string, len(tb.seats))
	for i, p := range tb.seats {
		tok := linkToken(t, tb.mailTo(t, p.Email, service.MailInvite), "/g/"+tb.id+"/invite")
		tb.d.page(t, "/g/"+tb.id+"/invite?lang="+p.Lang+"&t="+tok, p.Lang, http.StatusOK)
		var acc struct {
			SeatToken string `json:"seat_token"`
			Seat      int    `json:"seat"`
		}
		// The players play every decision themselves until the bots take over.
		tb.d.call(t, "POST", "/api/games/"+tb.id+"/accept", tok, map[string]any{"orders_off": true}, &acc, http.StatusOK)
		if acc.Seat != i || acc.SeatToken == "" {
			t.Fatalf("invitation %d accepted as seat %d", i, acc.Seat)
		}
		tb.seatT[i] = acc.SeatToken
	}
	if rec := tb.load(t); rec.Status != service.StatusPlaying {
		tb.d.call(t, "POST", "/api/games/"+tb.id+"/start", tb.orgT, map[string]any{}, nil, http.StatusOK)
	}
	if rec := tb.load(t); rec.Status != service.StatusPlaying {
		t.Fatalf("the game is %s after its start", rec.Status)
	}
}

func (tb *table) load(t *testing.T) *service.Record {
	t.Helper()
	rec, _, err := tb.d.app.Service.Load(t.Context(), tb.id)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func (tb *table) engine(t *testing.T, rec *service.Record) engine.Game {
	t.Helper()
	g, err := tb.d.app.Service.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// invite is the invitation that plays engine seat s.
func invite(rec *service.Record, s int) int {
	for i, p := range rec.Seats {
		if p.Engine == s {
			return i
		}
	}
	return -1
}

// seatName names engine seats as the pages do.
func seatName(rec *service.Record) func(int) string {
	return func(s int) string {
		if i := invite(rec, s); i >= 0 {
			return rec.Seats[i].Name
		}
		return fmt.Sprintf("#%d", s+1)
	}
}

// playByAPI: the seats that owe a decision make the bot's choice through
// the API, each one among the legal choices the API lists for the seat.
func (tb *table) playByAPI(t *testing.T) {
	for n := range apiMoves {
		rec := tb.load(t)
		g := tb.engine(t, rec)
		if g.Over() || len(g.Owing()) == 0 {
			return
		}
		s := g.Owing()[0]
		a, ok := g.Bot(s)
		if !ok {
			t.Fatalf("seat %d owes a decision and its bot has none", s)
		}
		inv := invite(rec, s)
		tok := tb.seatT[inv]
		var legal struct {
			Legal []engine.Choice `json:"legal"`
		}
		tb.d.call(t, "GET", "/api/games/"+tb.id+"/legal", tok, nil, &legal, http.StatusOK)
		if !slices.ContainsFunc(legal.Legal, func(c engine.Choice) bool { return c.Admits(a) }) {
			t.Fatalf("the bot's %+v is not among the legal choices the API lists for seat %d", a, s)
		}
		tb.d.call(t, "POST", "/api/games/"+tb.id+"/actions", tok,
			map[string]any{"action": a, "key": fmt.Sprintf("conformance-%d", n)}, nil, http.StatusOK)
	}
}

// orders: a seat's standing orders are the specs the service says, and
// the game's suggested ones are accepted; its orders page renders.
func (tb *table) orders(t *testing.T) {
	rec := tb.load(t)
	want, err := service.OrderSpecsOf(tb.d.gs.Engines(), rec)
	if err != nil {
		t.Fatal(err)
	}
	inv := len(tb.seats) - 1
	var got struct {
		Specs  []engine.OrderSpec `json:"specs"`
		Orders engine.Orders      `json:"orders"`
	}
	tb.d.call(t, "GET", "/api/games/"+tb.id+"/orders", tb.seatT[inv], nil, &got, http.StatusOK)
	if !slices.Equal(got.Specs, want) {
		t.Errorf("orders: the API lists %+v, the service %+v", got.Specs, want)
	}
	suggested := engine.Orders{}
	for _, s := range want {
		if s.Sensible != 0 {
			suggested[s.Name] = s.Sensible
		}
	}
	tb.d.call(t, "PUT", "/api/games/"+tb.id+"/orders", tb.seatT[inv], map[string]any{"orders": suggested}, &got, http.StatusOK)
	for k, v := range suggested {
		if got.Orders[k] != v {
			t.Errorf("orders set %v, read back %v", suggested, got.Orders)
			break
		}
	}
	if rec := tb.load(t); rec.Status == service.StatusPlaying {
		// What the orders played (if anything) was legal: the service
		// took it and the game replays.
		tb.engine(t, rec)
	}
	for _, l := range langs {
		tb.d.page(t, "/g/"+tb.id+"/orders?lang="+l+"&t="+tb.seatT[inv], l, http.StatusOK)
	}
}

// botsFinish: the organiser hands every seat to a bot, and the bots play
// the game to its end within maxTicks of the clock.
func (tb *table) botsFinish(t *testing.T) {
	for i := range tb.seats {
		if rec := tb.load(t); rec.Status != service.StatusPlaying {
			break
		}
		tb.d.call(t, "POST", "/api/games/"+tb.id+"/controls", tb.orgT,
			map[string]any{"control": service.ControlBot, "seat": i, "key": fmt.Sprintf("conformance-bot-%d", i)}, nil, http.StatusOK)
	}
	for range maxTicks {
		rec := tb.load(t)
		if rec.Status != service.StatusPlaying {
			break
		}
		if err := tb.d.app.Service.Tick(t.Context(), tb.id); err != nil {
			t.Fatal(err)
		}
	}
	rec := tb.load(t)
	if g := tb.engine(t, rec); !g.Over() {
		t.Fatalf("the bots did not finish the game in %d ticks: %s, %d moves", maxTicks, rec.Status, rec.Moves)
	}
	var result struct {
		Over   bool           `json:"over"`
		Scores []engine.Score `json:"scores"`
	}
	tb.d.call(t, "GET", "/api/games/"+tb.id+"/result", tb.specT, nil, &result, http.StatusOK)
	if !result.Over || len(result.Scores) != len(tb.seats) {
		t.Errorf("result: %+v", result)
	}
}

// reader is one who reads the game's pages.
type reader struct {
	who   string
	token string
	seat  int // engine seat; engine.Spectator for the organiser and spectators
	org   bool
	owner bool // a seat's player (its orders and deals pages)
}

// pages renders every page for every reader in both languages.
func (tb *table) pages(t *testing.T, stage string) {
	rec0 := tb.load(t)
	g := tb.engine(t, rec0)
	readers := []reader{{who: "organiser", token: tb.orgT, seat: engine.Spectator, org: true}, {who: "spectator", token: tb.specT, seat: engine.Spectator}}
	for i, tok := range tb.seatT {
		readers = append(readers, reader{who: fmt.Sprintf("seat %d", i), token: tok, seat: rec0.Seats[i].Engine, owner: true})
	}
	entries, err := tb.d.app.Service.FullLog(t.Context(), rec0)
	if err != nil {
		t.Fatal(err)
	}
	over := g.Over()
	board := present.Board(tb.d.gs.For(tb.kind)) != nil
	base := "/g/" + tb.id
	for _, rd := range readers {
		for _, l := range langs {
			q := "?lang=" + l + "&t=" + url.QueryEscape(rd.token)
			what := fmt.Sprintf("%s, %s, %s", stage, rd.who, l)
			var shown []string
			look := func(path string, want int) {
				t.Helper()
				page := tb.d.page(t, path+q, l, want)
				shown = append(shown, page)
			}
			look(base, http.StatusOK)
			if info, _ := tb.d.gs.Engines().Lookup(tb.kind); !info.Deals && strings.Contains(shown[len(shown)-1], base+"/deals") {
				t.Errorf("%s: the game page links to deals in a game without them", what)
			}
			if over && !rd.org {
				p := shown[len(shown)-1]
				if !strings.Contains(p, html.EscapeString(templates.T(l, "standings"))) {
					t.Errorf("%s: the game-over page shows no standings", what)
				}
				// The standings call the score what the game calls it
				// (present.Words), not another game's money.
				if w := tb.d.gs.For(tb.kind).Words(l).Worth; !strings.Contains(p, html.EscapeString(w)) {
					t.Errorf("%s: the standings do not call the score %q", what, w)
				}
			}
			look(base+"/log", http.StatusOK)
			if len(entries) > 0 {
				tb.d.page(t, base+"/log"+q+"&step="+strconv.Itoa(len(entries)/2+1), l, http.StatusOK)
			}
			look(base+"/talk", http.StatusOK)
			if rd.org {
				look(base+"/org", http.StatusOK)
				look(base+"/controls", http.StatusOK)
			}
			if rd.owner {
				look(base+"/orders", http.StatusOK)
				look(base+"/deals", http.StatusOK)
			}
			img := tb.d.do(t, "GET", base+"/board.svg"+q, "", nil)
			switch {
			case board && (img.status != http.StatusOK || !strings.HasPrefix(img.ctype, "image/svg+xml") || !bytes.Contains(img.body, []byte("<svg"))):
				t.Errorf("%s: board.svg: %d %s", what, img.status, img.ctype)
			case !board && img.status != http.StatusOK && img.status != http.StatusNotFound:
				t.Errorf("%s: board.svg of a game with no board: %d, want 404 (or a picture)", what, img.status)
			}
			doc := tb.d.do(t, "GET", base+"/record"+q, "", nil)
			switch {
			case over && (doc.status != http.StatusOK || !json.Valid(doc.body)):
				t.Errorf("%s: the record: %d", what, doc.status)
			case doc.status >= 500:
				t.Errorf("%s: the record before the end: %d %.200s", what, doc.status, doc.body)
			}
			// The log's pages that hold other seats' secrets (a page
			// lists a few dozen actions from its first).
			name := seatName(rec0)
			last, more := -1000, 0
			for _, e := range entries {
				if more == maxSecretPages || e.N < last+20 || !tb.secret(l, rd, e, name) {
					continue
				}
				last, more = e.N, more+1
				shown = append(shown, tb.d.page(t, base+"/log"+q+"&from="+strconv.Itoa(max(e.N, 1)), l, http.StatusOK))
			}
			tb.secrets(t, what, l, rd, name, entries, shown)
		}
		tb.apiSecrets(t, stage, rd, entries)
	}
}

// secrets: no page for a reader shows another seat's secret action as
// it was played (P-3): its full wording (the amount of a sealed bid) is
// not on it.
func (tb *table) secrets(t *testing.T, what, l string, rd reader, name func(int) string, entries []service.Entry, pages []string) {
	t.Helper()
	p := tb.d.gs.For(tb.kind)
	// What rd may see said the same way (its own bid of the same amount).
	own := map[string]bool{}
	for _, e := range entries {
		if !tb.d.gs.Engines().Secret(tb.kind, e.Action) || e.Seat == rd.seat {
			own[p.Command(l, e.Action, name)] = true
		}
	}
	for _, e := range entries {
		full := p.Command(l, e.Action, name)
		if !tb.secret(l, rd, e, name) || own[full] {
			continue
		}
		for _, page := range pages {
			if strings.Contains(page, html.EscapeString(full)) {
				t.Errorf("%s: a page shows seat %d's secret %q", what, e.Seat, full)
			}
		}
	}
}

// secret tells whether e is another seat's secret for rd whose wording
// tells more than its kind (a sealed bid's amount).
func (tb *table) secret(l string, rd reader, e service.Entry, name func(int) string) bool {
	if e.Seat == rd.seat || e.Seat < 0 || !tb.d.gs.Engines().Secret(tb.kind, e.Action) {
		return false
	}
	p := tb.d.gs.For(tb.kind)
	return p.Command(l, e.Action, name) != p.Command(l, engine.Action{Type: e.Action.Type}, name)
}

// apiSecrets: the API's log for a reader carries no other seat's secret
// action's fields, only its type.
func (tb *table) apiSecrets(t *testing.T, stage string, rd reader, entries []service.Entry) {
	t.Helper()
	var log struct {
		Log []struct {
			N      int           `json:"n"`
			Seat   int           `json:"seat"`
			Action engine.Action `json:"action"`
		} `json:"log"`
	}
	tb.d.call(t, "GET", "/api/games/"+tb.id+"/log", rd.token, nil, &log, http.StatusOK)
	if len(log.Log) != len(entries) {
		t.Errorf("%s, %s: the API's log has %d entries, the game %d", stage, rd.who, len(log.Log), len(entries))
		return
	}
	for i, e := range entries {
		got := log.Log[i].Action
		switch {
		case e.Seat != rd.seat && tb.d.gs.Engines().Secret(tb.kind, e.Action):
			if got != (engine.Action{Type: e.Action.Type}) {
				t.Errorf("%s, %s: the API shows seat %d's secret %+v", stage, rd.who, e.Seat, got)
			}
		case got != e.Action:
			t.Errorf("%s, %s: the API's entry %d is %+v, the game's %+v", stage, rd.who, i, got, e.Action)
		}
	}
}

// page GETs a page that must answer want in language l, rendered whole:
// HTML in that language with no text left unresolved.
func (d *deployment) page(t *testing.T, path, l string, want int) string {
	t.Helper()
	a := d.do(t, "GET", path, "", nil)
	if a.status != want {
		t.Errorf("GET %s: %d, want %d: %.300s", redact(path), a.status, want, visible(string(a.body)))
		return string(a.body)
	}
	page := string(a.body)
	if dir := os.Getenv("CONFORMANCE_DUMP"); dir != "" {
		f := strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "_").Replace(redact(path))
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%05d%s.txt", dumped.Add(1), f)), []byte(visible(page)), 0o644)
	}
	if !strings.HasPrefix(a.ctype, "text/html") {
		t.Errorf("GET %s: %s, not a page", redact(path), a.ctype)
	}
	if !strings.Contains(page, `<html lang="`+l+`"`) {
		t.Errorf("GET %s: not in %s", redact(path), l)
	}
	if bad := d.unresolved(visible(page)); bad != "" {
		t.Errorf("GET %s: %s", redact(path), bad)
	}
	return page
}

var (
	scriptRE = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)
	tagRE    = regexp.MustCompile(`(?s)<[^>]*>`)
	keyRE    = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)
)

// visible is the text a page shows.
func visible(page string) string {
	return html.UnescapeString(tagRE.ReplaceAllString(scriptRE.ReplaceAllString(page, " "), " "))
}

// unresolved tells what of text was left unfilled: a formatting error, a
// template's missing value, or a text key shown as it is.
func (d *deployment) unresolved(text string) string {
	for _, bad := range []string{"%!", "<no value>", "{{", "}}"} {
		if i := strings.Index(text, bad); i >= 0 {
			return fmt.Sprintf("shows %q: …%s…", bad, text[max(0, i-60):min(len(text), i+60)])
		}
	}
	for _, w := range keyRE.FindAllString(text, -1) {
		if d.keys[w] {
			return fmt.Sprintf("shows the text key %q", w)
		}
	}
	return ""
}

// mailsCompose: every mail of the game was composed whole — a subject and
// a body, in its reader's language, nothing left unresolved.
func (tb *table) mailsCompose(t *testing.T) {
	lang := map[string]string{strings.ToLower(tb.org.Email): tb.org.Lang}
	for _, p := range tb.seats {
		lang[strings.ToLower(p.Email)] = p.Lang
	}
	all, err := tb.d.app.Mailbox.List("", 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range all {
		l, ours := lang[strings.ToLower(m.To)]
		if !ours {
			continue
		}
		n++
		kind := m.Tags["mail"]
		if dir := os.Getenv("CONFORMANCE_DUMP"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("mail-%s-%03d-%s.txt", tb.kind, m.N, kind)), []byte(m.To+"\n"+m.Subject+"\n\n"+m.Text), 0o644)
		}
		tb.kinds[kind] = true
		what := fmt.Sprintf("mail %d (%s) to %s", m.N, kind, m.To)
		if strings.TrimSpace(m.Subject) == "" || strings.TrimSpace(m.Text) == "" {
			t.Errorf("%s: subject %q, %d bytes of text", what, m.Subject, len(m.Text))
			continue
		}
		if bad := tb.d.unresolved(m.Subject + "\n" + m.Text); bad != "" {
			t.Errorf("%s: %s", what, bad)
		}
		if m.HTML != "" {
			if bad := tb.d.unresolved(visible(m.HTML)); bad != "" {
				t.Errorf("%s (HTML): %s", what, bad)
			}
		}
		if info, _ := tb.d.gs.Engines().Lookup(tb.kind); !info.Deals && strings.Contains(m.Text, "/g/"+tb.id+"/deals") {
			t.Errorf("%s: links to deals in a game without them", what)
		}
		if w := tb.d.gs.For(tb.kind).Words(l).Worth; kind == service.MailOver && m.HTML != "" && !strings.Contains(visible(m.HTML), w) {
			t.Errorf("%s: the final standings do not call the score %q", what, w)
		}
		cyr := strings.ContainsFunc(m.Subject, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) })
		if cyr != (l == "ru") {
			t.Errorf("%s: subject %q is not in %s", what, m.Subject, l)
		}
	}
	if n == 0 {
		t.Error("no mail was sent")
	}
}

// record: the game's record decodes and verifies by replay, and imports
// back as the same game.
func (tb *table) record(t *testing.T) {
	a := tb.d.do(t, "GET", "/api/games/"+tb.id+"/record", tb.orgT, nil)
	if a.status != http.StatusOK {
		t.Fatalf("record: %d %.300s", a.status, a.body)
	}
	doc, err := gamerecord.Decode(bytes.NewReader(a.body))
	if err != nil {
		t.Fatalf("the record does not decode: %v", err)
	}
	rep, err := gamerecord.Verify(tb.d.gs.Engines(), doc)
	if err != nil {
		t.Fatalf("the record does not verify: %v", err)
	}
	if doc.Kind != tb.kind || len(doc.Seats) != len(tb.seats) || !doc.Result.Over || rep.Steps != len(doc.Commands) {
		t.Errorf("the record: kind %s, %d seats, over %v, %d steps of %d", doc.Kind, len(doc.Seats), doc.Result.Over, rep.Steps, len(doc.Commands))
	}
	var imp service.Imported
	tb.d.call(t, "POST", "/api/records", "", doc, &imp, http.StatusCreated)
	back := tb.d.do(t, "GET", "/api/games/"+imp.ID+"/record", imp.SpectatorToken, nil)
	if back.status != http.StatusOK {
		t.Fatalf("the imported game's record: %d %.300s", back.status, back.body)
	}
	again, err := gamerecord.Decode(bytes.NewReader(back.body))
	if err != nil {
		t.Fatal(err)
	}
	again.ID = doc.ID
	if x, y := mustJSON(t, doc), mustJSON(t, again); !bytes.Equal(x, y) {
		t.Errorf("the record does not round-trip:\n%.600s\n%.600s", x, y)
	}
	for _, l := range langs {
		tb.d.page(t, "/g/"+imp.ID+"?lang="+l+"&t="+url.QueryEscape(imp.SpectatorToken), l, http.StatusOK)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
