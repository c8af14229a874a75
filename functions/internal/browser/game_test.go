package browser

import (
	"fmt"
	mathrand "math/rand/v2"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pbmgames/pbm/functions/internal/service"
)

// The seat page's decisions: one form a choice, the first the default.
const (
	choiceSel = `form[data-choice]`
	submitSel = `button:not([type=button]),input[type=submit]`
)

// midGameVisit is the visit whose seat page is checked and photographed
// with the pages around it; a 2-lap game takes about a hundred.
const midGameVisit = 24

// How the pages say what the standing orders play, and that there are
// none, by language.
var (
	ordersSummaryStart = map[string]string{"ru": "За вас сразу играют приказы:", "en": "Standing orders play for you at once:"}
	ordersNone         = map[string]string{"ru": "Приказов нет", "en": "No orders"}
)

// players of the game: name, address and language.
var players = []struct{ name, email, lang string }{
	{"Аня", "p0@pbm.test", "ru"},
	{"Bob", "p1@pbm.test", "en"},
	{"Вера", "p2@pbm.test", "ru"},
}

// played is what the tab went through in the game: every page it
// loaded, what axe-core found on each kind of page, the screenshots.
type played struct {
	kind, id, origin string
	pages            []pageLoad
	requests         []string // every request the tab made, pages or not
	axe              []axeReport
	shots            []string
	visits, presses  int
	moves            int
	others, folded   int // decisions other than the default; of them, in a folded group
	took             time.Duration
}

// kinds are the games the browser plays, each in its own game; «Бизнесмен»
// with rent on claim, so that owners decide out of turn too.
var kinds = []struct {
	kind    string
	options map[string]string // option field → value on the home form
}{
	{"western", map[string]string{"opt_western_laps": "2"}},
	{"businessman", map[string]string{"opt_businessman_laps": "2", "opt_businessman_rent_claim": "claim"}},
}

var (
	gamesMu sync.Mutex
	games   = map[string]*gameOnce{}
)

type gameOnce struct {
	once sync.Once
	game *played
}

// playedGame plays the game of kind once for the package's tests, with the
// first test that asks: its failures are that test's, and the others then
// fail saying so.
func playedGame(t *testing.T, kind string) *played {
	t.Helper()
	gamesMu.Lock()
	g, ok := games[kind]
	if !ok {
		g = &gameOnce{}
		games[kind] = g
	}
	gamesMu.Unlock()
	g.once.Do(func() {
		for _, k := range kinds {
			if k.kind == kind {
				g.game = play(t, k.kind, k.options)
			}
		}
	})
	if g.game == nil {
		t.Fatalf("the game of %s was not played to its end in the browser: see the first test's failure", kind)
	}
	return g.game
}

// eachKind runs f as a subtest for each game.
func eachKind(t *testing.T, f func(t *testing.T, g *played)) {
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) { f(t, playedGame(t, k.kind)) })
	}
}

// play has the organiser create a 3-seat game of kind of 2 laps on the
// home page, each player accept from the invitation mail, and then, while
// a player's latest mail leads to a page with decisions on it, that
// player follow the link and click through the decisions: mostly the
// default (the first form), sometimes another (opening its folded group
// first), never leaving the game. On the way each kind of page is checked
// with axe-core and the pages the issue asks for are photographed
// («Вестерн»'s as they are named, «Бизнесмен»'s with its name first).
func play(t *testing.T, kind string, options map[string]string) *played {
	start := time.Now()
	s := newSite(t, "browser "+kind)
	b := newBrowser(t, s.url)
	p := &played{kind: kind, origin: s.url}
	checked := map[string]bool{}
	check := func(page string) {
		if !checked[page] {
			checked[page] = true
			p.axe = append(p.axe, b.axe(page))
		}
	}
	prefix := ""
	if kind != "western" {
		prefix = kind + "-"
	}
	shot := func(name string, width int64) { p.shots = append(p.shots, b.screenshot(prefix+name, width)) }

	// The organiser fills in the form on the home page (the fields by the
	// names POST /games reads).
	b.open("home", s.url+"/")
	check("home")
	if n := eval[string](b, `document.querySelector('select[name="kind"]').value`); n != "western" {
		t.Errorf("the home page offers %q first, not «Вестерн»", n)
	}
	shot("home", desktopWidth)
	b.do(chromedp.SetValue(chromedp.CSS(`select[name="kind"]`), kind))
	for name, v := range options {
		b.do(chromedp.SetValue(chromedp.CSS(`[name="`+name+`"]`), v))
	}
	if kind != "western" {
		shot("home-options", desktopWidth)
	}
	b.do(
		chromedp.SendKeys(chromedp.CSS(`input[name="org_name"]`), "Org"),
		chromedp.SendKeys(chromedp.CSS(`input[name="org_email"]`), "org@pbm.test"),
		chromedp.SetValue(chromedp.CSS(`select[name="org_lang"]`), "en"),
	)
	for i, pl := range players {
		n := fmt.Sprint(i)
		b.do(
			chromedp.SendKeys(chromedp.CSS(`input[name="name`+n+`"]`), pl.name),
			chromedp.SendKeys(chromedp.CSS(`input[name="email`+n+`"]`), pl.email),
			chromedp.SetValue(chromedp.CSS(`select[name="lang`+n+`"]`), pl.lang),
		)
	}
	b.press("organiser", `form[action^="/games"] `+submitSel, nil)
	orgURL := eval[string](b, `location.href`)
	u, _ := url.Parse(orgURL)
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) != 3 || parts[0] != "g" || parts[2] != "org" {
		t.Fatalf("creating the game led to %s, not to the organiser's page", u.Path)
	}
	p.id = parts[1]
	// The organiser confirms their address from the mail; only then do
	// the invitations leave.
	check("organiser, to confirm")
	if len(s.mails(t)) != 1 {
		t.Fatalf("before the organiser confirmed, the service sent %d mails, want 1: the confirmation", len(s.mails(t)))
	}
	link := s.latest(t, "org@pbm.test").link("/g/"+p.id+"/confirm", false)
	if link == "" {
		t.Fatal("the organiser's mail has no confirmation link")
	}
	b.open("confirm", link)
	check("confirm")
	b.press("organiser", `form[method=post] `+submitSel, nil)
	check("organiser, invitations out")
	shot("organiser-invited", desktopWidth)

	// Each player accepts from the invitation mail. The invitation says
	// what the suggested standing orders will play, and offers to accept
	// without them. The first player accepts with them, reads the same on
	// their page and turns them off there with one click; the others
	// accept without: every decision is theirs, and the test follows it.
	for i, pl := range players {
		link := s.latest(t, pl.email).link("/g/"+p.id+"/invite", false)
		if link == "" {
			t.Fatalf("the latest mail to %s has no invitation link", pl.email)
		}
		b.open("invitation", link)
		check("invitation")
		if n := b.count(`form[method=post] ` + submitSel); n != 2 {
			t.Fatalf("the invitation page has %d buttons, want two: accept, accept without standing orders", n)
		}
		if !strings.Contains(b.text(), ordersSummaryStart[pl.lang]) {
			t.Fatalf("the invitation page does not say what the standing orders play: %q", b.text())
		}
		if i > 0 {
			b.press("seat", `button[name=orders][value=off]`, nil)
			continue
		}
		b.press("seat", `form[method=post] `+submitSel, nil)
		line := eval[string](b, `(document.querySelector(".orders-line")||{innerText:""}).innerText`)
		if !strings.Contains(line, ordersSummaryStart[pl.lang]) || b.count(`form.orders-off button`) != 1 {
			t.Fatalf("the seat page does not say what the orders play near its top: %q", line)
		}
		b.press("orders", `form.orders-off button`, nil)
		if got := b.text(); !strings.Contains(got, ordersNone[pl.lang]) {
			t.Fatalf("after one click on «turn the orders off» the orders page says %q", got)
		}
	}

	// The game: whose latest mail leads to decisions plays them.
	rnd := mathrand.New(mathrand.NewPCG(1, 2))
	opened := map[string]string{} // address → the mail last followed
	midGame := false
	for visit := 0; ; visit++ {
		if visit > 2000 {
			t.Fatal("the game does not end")
		}
		latest := s.latestAll(t)
		find := func(onlyNew bool) (string, string) {
			for _, pl := range players {
				m, ok := latest[pl.email]
				link := m.link("/g/"+p.id, false)
				if !ok || link == "" || onlyNew && opened[pl.email] == m.MessageID {
					continue
				}
				opened[pl.email] = m.MessageID
				b.open("seat", link)
				if b.count(choiceSel) > 0 {
					return pl.email, link
				}
			}
			return "", ""
		}
		who, link := find(true)
		if who == "" {
			who, link = find(false)
		}
		if who == "" {
			break
		}
		p.visits++
		for presses := 0; presses < 40; presses++ {
			if b.count(choiceSel) == 0 {
				break
			}
			if !midGame && visit >= midGameVisit {
				// A seat page in the middle of the game, with its
				// decisions; the log, "my games" and the organiser's
				// page at that moment; then back to the decisions.
				midGame = true
				check("seat, decisions")
				shot("seat-1280", desktopWidth)
				shot("seat-360", phoneWidth)
				b.press("log", `a[href*="/log?"]`, nil)
				check("log")
				shot("log", desktopWidth)
				me := latest[who].link("/me", false)
				if me == "" {
					t.Fatalf("the mail to %s has no link to «my games»", who)
				}
				b.open("my games", me)
				check("my games")
				shot("my-games", desktopWidth)
				// Its links and sign-ins, and the sign-in form (issue 17).
				b.press("links", `a[href^="/me/links?"]`, nil)
				check("links and sign-ins")
				b.open("sign-in", s.url+"/signin")
				check("sign-in")
				b.open("seat", link)
				b.press("standing orders", `a[href*="/orders?"]`, nil)
				check("standing orders")
				shot("orders", desktopWidth)
				b.open("organiser", orgURL)
				check("organiser, mid-game")
				shot("organiser", desktopWidth)
				shot("organiser-360", phoneWidth)
				b.open("seat", link)
			}
			other, folded := b.choose(rnd)
			p.presses++
			if other {
				p.others++
			}
			if folded {
				p.folded++
			}
		}
	}
	if !midGame {
		t.Fatalf("the game ended after %d visits, before the middle of the game was seen", p.visits)
	}

	// Over: everyone's latest mail is the result, and its link shows the
	// game-over page with the standings and the chart.
	latest := s.latestAll(t)
	for _, pl := range players {
		if sub := latest[pl.email].Subject; !strings.Contains(sub, "окончена") && !strings.Contains(sub, "is over") {
			t.Fatalf("no one has a decision to make, but the latest mail to %s is %q", pl.email, sub)
		}
	}
	b.open("game over", latest[players[1].email].link("/g/"+p.id, false))
	if n := b.count(`ol.standings > li`); n != len(players) {
		t.Fatalf("the game-over page ranks %d players, want %d", n, len(players))
	}
	if n := b.count(`svg.chart`); n != 1 {
		t.Fatalf("the game-over page has %d net-worth charts, want 1", n)
	}
	if n := b.count(choiceSel); n != 0 {
		t.Fatalf("the game-over page offers %d decisions", n)
	}
	check("game over")
	shot("game-over", desktopWidth)
	shot("game-over-360", phoneWidth)
	// The whole log, pages of it, and the home page at a phone's width
	// (its table of lengths scrolls there), each checked by axe-core.
	b.press("log", `a[href*="/log?"]`, nil)
	check("log, game over")
	b.do(chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile))
	b.open("home", s.url+"/")
	check("home, phone")
	b.do(chromedp.EmulateViewport(desktopWidth, desktopHeight))
	b.open("organiser", orgURL)
	check("organiser, game over")
	rec, _, err := s.svc.Load(t.Context(), p.id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != service.StatusOver {
		t.Fatalf("the pages say the game is over, the store says %s", rec.Status)
	}
	if rec.Kind != kind || !strings.Contains(string(rec.Options), `"laps":2`) {
		t.Fatalf("the home form made a game of %s with %s, not %s of 2 laps", rec.Kind, rec.Options, kind)
	}
	p.moves = rec.Moves
	p.pages, p.requests, p.took = b.pages, b.net.urls(), time.Since(start)
	return p
}

// choose makes one decision on the seat page: the default (the first
// form) seven times in ten, else any other but leaving the game, opening
// the folded group it is in first. It tells whether it chose another than
// the default, and whether it had to unfold it.
func (b *browser) choose(rnd *mathrand.Rand) (other, folded bool) {
	b.t.Helper()
	type form struct {
		Choice  string `json:"choice"`
		Details int    `json:"details"` // its closed <details>, or -1
	}
	forms := eval[[]form](b, `(() => {
		const ds = [...document.querySelectorAll("details")];
		return [...document.querySelectorAll(`+fmt.Sprintf("%q", choiceSel)+`)].map(f => {
			const d = f.closest("details");
			return {choice: f.dataset.choice, details: d && !d.open ? ds.indexOf(d) : -1};
		});
	})()`)
	pick := 0
	if rnd.IntN(10) < 3 {
		var others []int
		for i, f := range forms {
			if i > 0 && f.Choice != "resign" {
				others = append(others, i)
			}
		}
		if len(others) > 0 {
			pick = others[rnd.IntN(len(others))]
		}
	}
	d := forms[pick].Details
	if d >= 0 {
		b.do(chromedp.Click(chromedp.CSS("summary"), chromedp.FromNode(b.nodes("details")[d])))
	}
	// An amount the page leaves to the player (issue 27): they type the
	// least allowed, as the page's script hears it.
	eval[bool](b, fmt.Sprintf(`(() => { const i = document.querySelectorAll(%q)[%d].querySelector("input[name=amount]");
		if (i && !i.value) { i.value = i.min; i.dispatchEvent(new Event("input")); } return true; })()`, choiceSel, pick))
	b.press("seat", submitSel, b.nodes(choiceSel)[pick])
	return pick > 0, d >= 0
}
