package httpapi_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"log/slog"
	mathrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

// maxPage is the most a page may weigh with its board (SPEC §6).
const maxPage = 60 << 10

// maxSeatPage is the most a game's own page (a seat's, a spectator's,
// the organiser's view of it, a page of one group of decisions) may
// weigh (issue 27): the board's full picture is an image of its own.
const maxSeatPage = 40 << 10

// pageFixture runs the pages on a store of its own, with a fixed clock
// and seeded randomness: the same games every run.
type pageFixture struct {
	t   *testing.T
	svc *service.Service
	st  *boltstore.Store
	srv *httptest.Server
}

func newPageFixture(t *testing.T) *pageFixture {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(fastTempDir(t), "pages.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	quiet := slog.New(slog.DiscardHandler)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Log: quiet, Now: clock, Limits: servicetest.Roomy,
		Rand: mathrand.NewChaCha8([32]byte{'p', 'a', 'g', 'e', 's'})})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: quiet, Now: clock}))
	t.Cleanup(srv.Close)
	return &pageFixture{t: t, svc: svc, st: st, srv: srv}
}

// fastTempDir is a temporary folder in memory where the system has one:
// the fixtures commit thousands of moves, each synced to disk.
func fastTempDir(t testing.TB) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "pbm-pages-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

var fixtureNames = []string{"Анна Каренина-Вронская", "Bob O'Neil", "Владимир", "Григорий Распутин-Новых", "Дмитрий Карамазов", "Элеонора Рузвельт"}

// create makes a game of «Вестерн» of seats players; accepted of them accept.
func (f *pageFixture) create(seats, laps, accepted int) service.Created {
	f.t.Helper()
	return f.createKind("western", map[string]any{"laps": laps}, seats, accepted)
}

// createKind makes a game of kind with options of seats players; accepted
// of them accept.
func (f *pageFixture) createKind(kind string, options map[string]any, seats, accepted int) service.Created {
	f.t.Helper()
	req := service.CreateRequest{Kind: kind, Organiser: service.Person{Name: "Org", Email: "org@pbm.test", Lang: "ru"}}
	req.Options, _ = json.Marshal(options)
	for i := range seats {
		req.Seats = append(req.Seats, service.Person{Name: fixtureNames[i], Email: fmt.Sprintf("p%d@pbm.test", i), Lang: "ru"})
	}
	c, err := f.svc.Create(f.t.Context(), req)
	if err != nil {
		f.t.Fatal(err)
	}
	servicetest.Confirm(f.t, f.svc, c.ID)
	// The pages are drawn at moments the tests step to, decision by
	// decision: no standing orders play any of them.
	servicetest.OrdersOff(f.t, f.svc, c.ID)
	for i := range accepted {
		if _, err := f.svc.Accept(f.t.Context(), c.ID, i); err != nil {
			f.t.Fatal(err)
		}
	}
	return c
}

// game loads a game and its engine state.
func (f *pageFixture) game(id string) (*service.Record, engine.Game) {
	f.t.Helper()
	rec, _, err := f.svc.Load(f.t.Context(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	g, err := f.svc.Engine(rec)
	if err != nil {
		f.t.Fatal(err)
	}
	return rec, g
}

// invite is the invitation index of an engine seat.
func invite(rec *service.Record, seat int) int {
	for i, s := range rec.Seats {
		if s.Accepted && s.Engine == seat {
			return i
		}
	}
	return -1
}

// playUntil lets the bots play until stop says so or the game ends.
func (f *pageFixture) playUntil(id string, stop func(g engine.Game, moves int) bool) {
	f.t.Helper()
	for {
		rec, g := f.game(id)
		if g.Over() || stop(g, rec.Moves) {
			return
		}
		if _, err := f.svc.ActBot(f.t.Context(), id, invite(rec, g.Owing()[0]), ""); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *pageFixture) token(p linksign.Purpose, game string, seat int) string {
	f.t.Helper()
	tok, err := f.svc.Token(p, game, seat, 0, time.Hour)
	if err != nil {
		f.t.Fatal(err)
	}
	return tok
}

// page GETs a page of the service.
func (f *pageFixture) page(path string, q url.Values) (int, string) {
	f.t.Helper()
	resp, err := http.Get(f.srv.URL + path + "?" + q.Encode())
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestPageKinds renders every kind of page of a late 6-seat game of each
// game — the seat to move with the most decisions the game offered it, a
// seat waiting, a spectator, the organiser, the log and its replay, the
// game-over page with its chart — and the home, invitation and "my
// games" pages, in both languages. Each must weigh at most 60 KB with its
// board, refer to nothing outside the service, and pass the accessibility
// checks.
func TestPageKinds(t *testing.T) {
	for _, kind := range []string{"western", "businessman"} {
		t.Run(kind, func(t *testing.T) { pageKinds(t, kind) })
	}
}

func pageKinds(t *testing.T, game string) {
	f := newPageFixture(t)
	c := f.createKind(game, map[string]any{"laps": 12}, 6, 6)
	// Late in the game, at the turn with the most decisions on the page:
	// found by playing the same bots over the same seed in memory first.
	rec, g := f.game(c.ID)
	most, at := 0, 0
	sim, err := testGames.Engines().New(rec.Kind, rec.Rules, rec.Options, g.Seats(), [32]byte(rec.Seed))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; !sim.Over(); n++ {
		seat := sim.Owing()[0]
		if k := len(sim.Legal(seat)); len(sim.Owing()) == 1 && k >= most {
			most, at = k, n
		}
		a, _ := sim.Bot(seat)
		if sim, _, err = sim.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
	}
	if most < 35 {
		t.Fatalf("the game's busiest turn has %d decisions: too few to weigh the page", most)
	}
	f.playUntil(c.ID, func(_ engine.Game, moves int) bool { return moves == at })
	rec, g = f.game(c.ID)
	t.Logf("the seat to move has %d decisions after %d moves", len(g.Legal(g.Owing()[0])), rec.Moves)
	def, _ := g.Default(g.Owing()[0])
	mover := invite(rec, g.Owing()[0])
	waiter := (mover + 1) % 6
	type kind struct {
		name, path string
		q          url.Values
		want       []string
	}
	kinds := func(l string) []kind {
		tq := func(tok string, kv ...string) url.Values {
			q := url.Values{"t": {tok}, "lang": {l}}
			for i := 0; i+1 < len(kv); i += 2 {
				q.Set(kv[i], kv[i+1])
			}
			return q
		}
		seat := func(i int) string { return f.token(linksign.PurposeSeat, c.ID, i) }
		org := f.token(linksign.PurposeOrganiser, c.ID, linksign.NoSeat)
		return []kind{
			{"seat to move", "/g/" + c.ID, tq(seat(mover)), []string{`data-choice="` + def.Type + `"`, `role="img"`}},
			{"seat waiting", "/g/" + c.ID, tq(seat(waiter)), []string{`role="img"`}},
			{"spectator", "/g/" + c.ID, tq(f.token(linksign.PurposeSpectator, c.ID, linksign.NoSeat)), []string{`role="img"`}},
			{"organiser", "/g/" + c.ID + "/org", tq(org), nil},
			{"organiser's view", "/g/" + c.ID, tq(org), nil},
			{"log", "/g/" + c.ID + "/log", tq(seat(mover)), []string{"step="}},
			{"log start", "/g/" + c.ID + "/log", tq(seat(mover), "from", "1"), nil},
			{"replay", "/g/" + c.ID + "/log", tq(seat(waiter), "step", fmt.Sprint(rec.Moves-1)), []string{`role="img"`}},
			{"my games", "/me", tq(f.token(linksign.PurposeMyGames, "p0@pbm.test", linksign.NoSeat)), nil},
			{"standing orders", "/g/" + c.ID + "/orders", tq(seat(mover)), []string{`name="o_roll"`}},
			{"deals", "/g/" + c.ID + "/deals", tq(seat(waiter)), []string{`value="prepare"`}},
			{"home", "/", url.Values{"lang": {l}}, []string{`name="kind"`}},
		}
	}
	check := func(t *testing.T, k kind) {
		code, body := f.page(k.path, k.q)
		if code != http.StatusOK {
			t.Fatalf("status %d:\n%s", code, body)
		}
		if len(body) > maxPage {
			t.Errorf("%d bytes, over %d", len(body), maxPage)
		}
		if k.path == "/g/"+c.ID && len(body) > maxSeatPage {
			t.Errorf("a game's page of %d bytes, over %d", len(body), maxSeatPage)
		}
		for _, w := range k.want {
			if !strings.Contains(body, w) {
				t.Errorf("no %q on the page", w)
			}
		}
		checkPage(t, body)
		if dir := os.Getenv("PBM_DUMP"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, strings.NewReplacer(" ", "_", "'", "", ",", "").Replace(k.name)+"-"+k.q.Get("lang")+".html"), []byte(body), 0o644)
		}
		t.Logf("%s (%s): %d bytes", k.name, k.q.Get("lang"), len(body))
	}
	for _, l := range []string{"ru", "en"} {
		for _, k := range kinds(l) {
			t.Run(k.name+"/"+l, func(t *testing.T) { check(t, k) })
		}
	}
	// The seat to move has every decision on its page, the default
	// first, or behind a link to a page of the group.
	seatQ := url.Values{"t": {f.token(linksign.PurposeSeat, c.ID, mover)}, "lang": {"ru"}}
	_, body := f.page("/g/"+c.ID, seatQ)
	fs := forms(body)
	if len(fs) == 0 || fs[0].values.Get("type") != def.Type {
		t.Fatalf("the first form is not the default")
	}
	seen := map[string]bool{}
	note := func(fs []form) {
		for _, x := range fs {
			for _, k := range x.decisions() {
				seen[k] = true
			}
		}
	}
	note(fs)
	for _, m := range moreRE.FindAllStringSubmatch(body, -1) {
		u, err := url.Parse(html.UnescapeString(m[1]))
		if err != nil {
			t.Fatal(err)
		}
		code, sub := f.page(u.Path, u.Query())
		if code != http.StatusOK || len(sub) > maxSeatPage {
			t.Errorf("%s: status %d, %d bytes", u.Query().Get("show"), code, len(sub))
		}
		checkPage(t, sub)
		t.Logf("seat to move, %s: %d bytes", u.Query().Get("show"), len(sub))
		if dir := os.Getenv("PBM_DUMP"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, "focus-"+u.Query().Get("show")+".html"), []byte(sub), 0o644)
		}
		if fs := forms(sub); fs[0].values.Get("type") != def.Type {
			t.Errorf("%s: the first form is not the default", u.Query().Get("show"))
		} else {
			note(fs)
		}
	}
	want := map[string]bool{}
	for _, ch := range g.Legal(g.Owing()[0]) {
		want[decisionKey(ch)] = true
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("decision %s is legal but on no page", k)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("%d decisions reachable from the page, %d legal", len(seen), len(want))
	}

	// An invitation, before the game starts.
	inv := f.createKind(game, map[string]any{"laps": 20}, 6, 2)
	for _, l := range []string{"ru", "en"} {
		check(t, kind{"invitation", "/g/" + inv.ID + "/invite", url.Values{"t": {inv.InviteTokens[3]}, "lang": {l}}, []string{`action="/g/` + inv.ID + `/accept`}})
		check(t, kind{"organiser, invited", "/g/" + inv.ID + "/org", url.Values{"t": {inv.OrganiserToken}, "lang": {l}}, []string{"/invite?"}})
	}

	// The end: standings, net worth broken down, the chart.
	f.playUntil(c.ID, func(engine.Game, int) bool { return false })
	for _, l := range []string{"ru", "en"} {
		for _, k := range kinds(l)[:5] {
			k.name = "over, " + k.name
			k.want = nil
			if k.path == "/g/"+c.ID {
				k.want = []string{`class="chart"`, `role="img"`}
			}
			t.Run(k.name+"/"+l, func(t *testing.T) { check(t, k) })
		}
	}
}

var (
	moreRE     = regexp.MustCompile(`<a href="([^"]*(?:[?&]|&amp;)show=[^"]*)"`)
	externalRE = regexp.MustCompile(`(?i)\b(?:src|href|action|xlink:href)\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:|//)`)
	cssURLRE   = regexp.MustCompile(`(?i)url\(|@import`)
)

// checkPage checks what every page must be: nothing from another origin,
// the language set, every control labelled, every picture named.
func checkPage(t *testing.T, body string) {
	t.Helper()
	if m := externalRE.FindString(body); m != "" {
		t.Errorf("refers outside the service: %q", m)
	}
	if m := cssURLRE.FindString(body); m != "" {
		t.Errorf("styles load something: %q", m)
	}
	dec := xml.NewDecoder(strings.NewReader(body))
	dec.Strict, dec.AutoClose, dec.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	labelFor := map[string]bool{}
	var ids []string // controls by id, checked at the end
	var stack []xml.StartElement
	var lang bool
	type open struct {
		name  string
		text  strings.Builder
		label string
	}
	var buttons []*open
	svgTitle := map[int]bool{}
	svgDepth := -1
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range e.Attr {
				attr[a.Name.Local] = a.Value
			}
			inLabel := false
			for _, s := range stack {
				inLabel = inLabel || s.Name.Local == "label"
			}
			switch e.Name.Local {
			case "html":
				lang = attr["lang"] == "ru" || attr["lang"] == "en"
			case "label":
				if attr["for"] != "" {
					labelFor[attr["for"]] = true
				}
			case "input", "select", "textarea":
				if attr["type"] == "hidden" || inLabel || attr["aria-label"] != "" {
					break
				}
				if attr["id"] == "" {
					t.Errorf("<%s name=%q> has no label", e.Name.Local, attr["name"])
				}
				ids = append(ids, attr["id"])
			case "button":
				buttons = append(buttons, &open{name: "button", label: attr["aria-label"]})
			case "svg":
				if svgDepth < 0 {
					svgDepth = len(stack)
					if attr["role"] != "img" {
						t.Errorf("an <svg> without role=img")
					}
				}
			case "title":
				if len(stack) == svgDepth+1 {
					svgTitle[svgDepth] = true
				}
			case "img":
				if attr["alt"] == "" {
					t.Errorf("an <img> without alt")
				}
			}
			stack = append(stack, e)
		case xml.EndElement:
			for len(stack) > 0 {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if top.Name.Local == "svg" && len(stack) == svgDepth {
					if !svgTitle[svgDepth] {
						t.Errorf("an <svg> without a <title>")
					}
					svgDepth = -1
				}
				if top.Name.Local == e.Name.Local {
					break
				}
			}
			if e.Name.Local == "button" && len(buttons) > 0 {
				b := buttons[len(buttons)-1]
				buttons = buttons[:len(buttons)-1]
				if strings.TrimSpace(b.text.String()) == "" && b.label == "" {
					t.Errorf("a button without a name")
				}
			}
		case xml.CharData:
			if len(buttons) > 0 {
				buttons[len(buttons)-1].text.Write(e)
			}
		}
	}
	if !lang {
		t.Errorf("no lang on <html>")
	}
	for _, id := range ids {
		if !labelFor[id] {
			t.Errorf("control #%s has no label", id)
		}
	}
}
