package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
)

// seatedGame is a game made through the service with every seat
// accepted, for a test that brings it to a moment with the bots.
type seatedGame struct {
	s  *site
	id string
	n  int // moves played by the bots
}

func newSeatedGame(t *testing.T, s *site, kind, options string, people []service.Person) *seatedGame {
	t.Helper()
	c, err := s.svc.Create(t.Context(), service.CreateRequest{Kind: kind, Options: []byte(options),
		Organiser: service.Person{Name: "Org", Email: "org@pbm.test", Lang: "en"}, Seats: people})
	if err != nil {
		t.Fatal(err)
	}
	if c.Unconfirmed { // the organiser confirms their address first
		servicetest.Confirm(t, s.svc, c.ID)
	}
	servicetest.OrdersOff(t, s.svc, c.ID) // the bots bring the game to its moment, a decision at a time
	for i := range people {
		if _, err := s.svc.Accept(t.Context(), c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	return &seatedGame{s: s, id: c.ID}
}

// game is the game as stored now.
func (g *seatedGame) game(t *testing.T) (*service.Record, engine.Game) {
	t.Helper()
	rec, _, err := g.s.svc.Load(t.Context(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	eg, err := g.s.svc.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	return rec, eg
}

// invite is the invitation index of engine seat.
func invite(rec *service.Record, seat int) int {
	for i, s := range rec.Seats {
		if s.Accepted && s.Engine == seat {
			return i
		}
	}
	return -1
}

// playUntil lets the bots play the first seat owing until stop says so.
func (g *seatedGame) playUntil(t *testing.T, stop func(engine.Game) bool) {
	t.Helper()
	for {
		rec, eg := g.game(t)
		if stop(eg) {
			return
		}
		if eg.Over() || g.n > 20_000 {
			t.Fatal("the game ended before the moment the test wants")
		}
		if _, err := g.s.svc.ActBot(t.Context(), g.id, invite(rec, eg.Owing()[0]), fmt.Sprintf("bot-move-%05d", g.n)); err != nil {
			t.Fatal(err)
		}
		g.n++
	}
}

// link is a page of the game for invitation inv (linksign.NoSeat and the
// spectator purpose for a spectator).
func (g *seatedGame) link(t *testing.T, path string, p linksign.Purpose, inv int, lang string) string {
	t.Helper()
	tok, err := g.s.svc.Token(p, g.id, inv, 0, service.SeatTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	return g.s.url + "/g/" + g.id + path + "?t=" + tok + "&lang=" + lang
}

// text is the page's visible text.
func (b *browser) text() string {
	b.t.Helper()
	return eval[string](b, `document.body.innerText`)
}

// TestSealedAuctionPassAndReveal (issue 10, 13): a seat that passes a
// sealed auction reads that it passed, not «Ваша закрытая ставка: 0 $»;
// once the auction closes, every reader sees every seat's bid.
func TestSealedAuctionPassAndReveal(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	people := []service.Person{{Name: "Вера", Email: "v@pbm.test", Lang: "ru"}, {Name: "Борис", Email: "b@pbm.test", Lang: "ru"},
		{Name: "Анна", Email: "a@pbm.test", Lang: "ru"}}
	g := newSeatedGame(t, s, western.Name, `{"laps":20}`, people)
	g.playUntil(t, func(eg engine.Game) bool {
		v := eg.View(engine.Spectator).(western.View)
		return v.Phase == western.PhAuction && len(eg.Owing()) >= 2
	})
	rec, eg := g.game(t)
	passer := eg.Owing()[0]
	if _, err := s.svc.Act(t.Context(), g.id, invite(rec, passer), engine.Action{Type: western.APass}, "sealed-pass-1", service.Precondition{}); err != nil {
		t.Fatal(err)
	}
	b.open("seat", g.link(t, "", linksign.PurposeSeat, invite(rec, passer), "ru"))
	page := b.text()
	if strings.Contains(page, "закрытая ставка: 0") || strings.Contains(page, "ставка: 0\u00a0$") {
		t.Errorf("the page of a seat that passed says it bid 0:\n%s", page)
	}
	if !strings.Contains(page, "Вы не участвуете в этих торгах") {
		t.Errorf("the page of a seat that passed does not say so:\n%s", page)
	}
	b.screenshot("issue10-auction-pass-360", phoneWidth)

	// The others answer; the auction closes; every reader sees the bids.
	g.playUntil(t, func(eg engine.Game) bool {
		return eg.View(engine.Spectator).(western.View).Phase != western.PhAuction
	})
	rec, _ = g.game(t)
	b.open("log", g.link(t, "/log", linksign.PurposeSpectator, linksign.NoSeat, "ru"))
	page = b.text()
	for _, p := range people {
		if !strings.Contains(page, "Торги за") || !strings.Contains(page, ": "+p.Name+" — ") {
			t.Errorf("once the auction closed, a spectator's log does not show %s's bid", p.Name)
		}
	}
	if !strings.Contains(page, people[invite(rec, passer)].Name+" — без ставки") {
		t.Errorf("the log does not show that %s passed", people[invite(rec, passer)].Name)
	}
}

// phone puts the tab in a phone's viewport, 360 px wide.
func (b *browser) phone() {
	b.t.Helper()
	b.do(chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile))
}

// smallestText is the smallest font size, in CSS pixels, of any visible
// text on the page outside the board picture, with the element it is in.
const smallestText = `(() => {
	let min = 1e9, where = "";
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!n.textContent.trim() || !el || el.closest("svg") || !el.getClientRects().length) continue;
		const s = getComputedStyle(el);
		if (s.visibility === "hidden" || s.display === "none") continue;
		const px = parseFloat(s.fontSize);
		if (px < min) { min = px; where = el.tagName + ": " + n.textContent.trim().slice(0, 40); }
	}
	return {px: min, where};
})()`

// TestSquaresLegibleOnPhone (issue 10, 8): at 360 px the seat page of
// each game lists every square of the board by its number, with its
// owner's name, in text no smaller than 12 px (the picture's cells are
// ~11 px there, their numbers ~4 px).
func TestSquaresLegibleOnPhone(t *testing.T) {
	for _, kind := range []string{western.Name, businessman.Name} {
		t.Run(kind, func(t *testing.T) {
			s := newSite(t, t.Name())
			b := newBrowser(t, s.url)
			people := []service.Person{{Name: "Вера", Email: "v@pbm.test", Lang: "ru"}, {Name: "Борис", Email: "b@pbm.test", Lang: "ru"},
				{Name: "Анна", Email: "a@pbm.test", Lang: "ru"}}
			g := newSeatedGame(t, s, kind, `{"laps":20}`, people)
			g.playUntil(t, func(eg engine.Game) bool { return g.n >= 150 })
			rec, eg := g.game(t)
			names := make([]string, eg.Seats())
			for _, st := range rec.Seats {
				names[st.Engine] = st.Name
			}
			want := testGames.For(kind).Squares("ru", eg.View(0), func(i int) string { return names[i] })
			owned := 0
			for _, sq := range want {
				if sq.Seat >= 0 {
					owned++
				}
			}
			if owned == 0 {
				t.Fatal("nobody owns a square yet: nothing to check")
			}
			b.phone()
			b.open("seat", g.link(t, "", linksign.PurposeSeat, invite(rec, 0), "ru"))
			b.screenshot("issue10-squares-"+kind+"-360", phoneWidth)
			b.phone()
			type item struct {
				N    int    `json:"n"`
				Text string `json:"text"`
				Px   string `json:"px"`
			}
			// A list item's number is its marker: the one before plus one,
			// or its value attribute.
			got := eval[[]item](b, `(() => { let n = 0; return [...document.querySelectorAll("ol.sq > li")].filter(li => li.getClientRects().length).map(li => {
				n = li.hasAttribute("value") ? li.value : n + 1;
				return {n, text: li.innerText, px: getComputedStyle(li, "::marker").fontSize};
			}); })()`)
			if len(got) != len(want) {
				t.Fatalf("the page lists %d squares in words, the board has %d", len(got), len(want))
			}
			for i, sq := range want {
				if got[i].N != sq.N || !strings.Contains(got[i].Text, sq.Name) || sq.Seat >= 0 && !strings.Contains(got[i].Text, sq.Owner) {
					t.Errorf("square %d %s (owner %q) is listed as %d %q", sq.N, sq.Name, sq.Owner, got[i].N, got[i].Text)
				}
			}
			small := eval[struct {
				Px    float64 `json:"px"`
				Where string  `json:"where"`
			}](b, smallestText)
			t.Logf("smallest text at 360 px: %.1f px (%s)", small.Px, small.Where)
			if small.Px < 12 {
				t.Errorf("text of %.1f px at 360 px: %s", small.Px, small.Where)
			}
			if w := eval[int](b, `document.documentElement.scrollWidth`); w > phoneWidth {
				t.Errorf("the seat page is %d px wide at %d px", w, phoneWidth)
			}
		})
	}
}

// TestNoPageWiderThanPhone (issue 10, 9): with the longest names a player
// may have (40 characters, no space to break at) and 64-character
// addresses, no page of any kind is wider than a 360 px phone.
func TestNoPageWiderThanPhone(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	long := func(r rune, n int) string { return strings.Repeat(string(r), n) }
	var people []service.Person
	for i, r := range []rune{'Ж', 'W', 'Щ'} {
		email := long(rune('a'+i), 64-len("@pbm.test")) + "@pbm.test"
		people = append(people, service.Person{Name: long(r, service.MaxNameLen), Email: email, Lang: []string{"ru", "en", "ru"}[i]})
	}
	c, err := s.svc.Create(t.Context(), service.CreateRequest{Kind: western.Name, Options: []byte(`{"laps":1}`),
		Organiser: service.Person{Name: long('О', service.MaxNameLen), Email: long('o', 55) + "@pbm.test", Lang: "ru"}, Seats: people})
	if err != nil {
		t.Fatal(err)
	}
	if c.Unconfirmed { // the organiser confirms their address first
		servicetest.Confirm(t, s.svc, c.ID)
	}
	// The bots bring the game to its moment a decision at a time; the
	// first seat keeps its suggested orders, so its page's line about
	// them is drawn at a phone's width too.
	for inv := 1; inv < len(people); inv++ {
		if err := s.svc.SetOrders(t.Context(), c.ID, inv, engine.Orders{}); err != nil {
			t.Fatal(err)
		}
	}
	g := &seatedGame{s: s, id: c.ID}
	check := func(kind, link string) {
		t.Helper()
		b.phone()
		b.open(kind, link)
		b.phone()
		if w := eval[int](b, `document.documentElement.scrollWidth`); w > phoneWidth {
			wide := eval[string](b, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest("svg")).slice(0, 3).map(e => e.tagName + "." + e.className + ": " + (e.innerText || "").slice(0, 30)).join(" | ")`)
			t.Errorf("the %s page is %d px wide at %d px: %s", kind, w, phoneWidth, wide)
			b.screenshot("issue10-wide-"+strings.NewReplacer(" ", "-", ",", "").Replace(kind), phoneWidth)
		}
	}
	tok := func(p linksign.Purpose, game string, seat int) string {
		tk, err := s.svc.Token(p, game, seat, 0, service.SeatTokenTTL)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	org := s.url + "/g/" + c.ID + "/org?lang=ru&t=" + tok(linksign.PurposeOrganiser, c.ID, linksign.NoSeat)
	check("home", s.url+"/?lang=ru")
	check("organiser, invited", org)
	check("invitation", s.url+"/g/"+c.ID+"/invite?lang=en&t="+tok(linksign.PurposeInvite, c.ID, 1))
	for i := range people {
		if _, err := s.svc.Accept(t.Context(), c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	g.playUntil(t, func(eg engine.Game) bool { return g.n >= 40 })
	check("seat", g.link(t, "", linksign.PurposeSeat, 0, "ru"))
	check("spectator", g.link(t, "", linksign.PurposeSpectator, linksign.NoSeat, "en"))
	check("organiser", org)
	check("log", g.link(t, "/log", linksign.PurposeSeat, 1, "en"))
	check("replay", g.link(t, "/log", linksign.PurposeSeat, 1, "ru")+"&step=10")
	check("my games", s.url+"/me?lang=ru&t="+tok(linksign.PurposeMyGames, people[0].Email, linksign.NoSeat))
	g.playUntil(t, func(eg engine.Game) bool { return eg.Over() })
	check("game over", g.link(t, "", linksign.PurposeSeat, 2, "ru"))
	check("organiser, game over", org)
}

// openStatus navigates to link and returns the status the page came with.
func (b *browser) openStatus(link string) int64 {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(link))
	if err != nil || resp == nil {
		b.t.Fatalf("open %s: %v", link, err)
	}
	return resp.Status
}

// TestPagesForWrongTurns (issue 10, 15): an unknown address gets the
// service's own page in the reader's language, not Go's bare text; a link
// that does not open says where the working ones are («Мои игры»); a form
// posted on a page the game has left ends on the game's own address, so a
// reload posts nothing; a folded group of one decision shows no count.
func TestPagesForWrongTurns(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	for _, tc := range []struct{ path, want string }{
		{"/no/such/page?lang=ru", "Такой страницы здесь нет"},
		{"/no/such/page", "There is no such page here"},
		{"/g/abc/nothing?lang=en", "There is no such page here"},
	} {
		if st := b.openStatus(s.url + tc.path); st != 404 {
			t.Errorf("%s: status %d", tc.path, st)
		}
		if text := b.text(); !strings.Contains(text, tc.want) || b.count("main .error") != 1 {
			t.Errorf("%s shows %q, not the service's page", tc.path, text)
		}
	}

	people := []service.Person{{Name: "Вера", Email: "v@pbm.test", Lang: "ru"}, {Name: "Борис", Email: "b@pbm.test", Lang: "ru"}}
	g := newSeatedGame(t, s, western.Name, `{"laps":5}`, people)
	if st := b.openStatus(s.url + "/g/" + g.id + "?lang=ru&t=v1.k1.garbage.zz"); st != 401 {
		t.Errorf("a bad link: status %d", st)
	}
	if text := b.text(); !strings.Contains(text, "Мои игры") {
		t.Errorf("a bad link's page does not point to «Мои игры»: %q", text)
	}

	// The seat to move opens its page; the same move is made elsewhere
	// (another tab, the API); the stale page's button is pressed.
	g.playUntil(t, func(eg engine.Game) bool { return g.n >= 6 && eg.Turn() == eg.Owing()[0] })
	rec, eg := g.game(t)
	mover := eg.Owing()[0]
	b.open("seat", g.link(t, "", linksign.PurposeSeat, invite(rec, mover), "ru"))
	badges := eval[[]string](b, `[...document.querySelectorAll("details.grp summary .badge, .more .badge")].map(e => e.textContent)`)
	for _, n := range badges {
		if n == "1" {
			t.Errorf("a folded group of one decision shows the count «1»")
		}
	}
	if _, err := s.svc.ActBot(t.Context(), g.id, invite(rec, mover), "elsewhere-00001"); err != nil {
		t.Fatal(err)
	}
	_, _, ver, _ := loadVersion(t, g)
	b.press("seat", `form[data-choice] `+submitSel, nil)
	if path := b.location(); path != "/g/"+g.id {
		t.Errorf("after a stale form the page is at %s, where a reload posts it again", path)
	}
	if text := b.text(); !strings.Contains(text, "Этот ход уже сделан") {
		t.Errorf("the page after a stale form does not say the move was made: %.300q", text)
	}
	b.do(chromedp.Reload())
	if _, _, after, _ := loadVersion(t, g); after != ver {
		t.Errorf("reloading the page changed the game: version %d → %d", ver, after)
	}
}

func loadVersion(t *testing.T, g *seatedGame) (*service.Record, engine.Game, int64, error) {
	t.Helper()
	rec, ver, err := g.s.svc.Load(t.Context(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	eg, err := g.s.svc.Engine(rec)
	return rec, eg, ver, err
}

// TestGameOverSaysWhy (issue 10, 12): the game-over page and mail say
// what ended the game, for each game.
func TestGameOverSaysWhy(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	for _, kind := range []string{western.Name, businessman.Name} {
		people := []service.Person{{Name: "Вера", Email: kind + "-v@pbm.test", Lang: "ru"}, {Name: "Bob", Email: kind + "-b@pbm.test", Lang: "en"}}
		g := newSeatedGame(t, s, kind, `{"laps":1}`, people)
		g.playUntil(t, func(eg engine.Game) bool { return eg.Over() })
		why := map[string][]string{
			"ru": {"Игра окончена: ", "последний круг", "остаётся один игрок"},
			"en": {"The game is over: ", "last lap", "one player is left"},
		}
		says := func(text, l string) bool {
			w := why[l]
			return strings.Contains(text, w[0]) && (strings.Contains(text, w[1]) || strings.Contains(text, w[2]))
		}
		for i, p := range people {
			b.open("game over", g.link(t, "", linksign.PurposeSeat, i, p.Lang))
			if text := b.text(); !says(text, p.Lang) {
				t.Errorf("%s: the game-over page does not say what ended the game: %.400q", kind, text)
			}
			if m := s.latest(t, p.Email); !says(m.Body.Text, p.Lang) {
				t.Errorf("%s: the game-over mail %q does not say what ended the game: %.400q", kind, m.Subject, m.Body.Text)
			}
		}
	}
}

// TestRulesPage (issue 10, 12): the invitation and the turn card link to
// one page of rules for their game, in the reader's language, that a phone
// shows whole and axe-core passes.
func TestRulesPage(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	want := map[string]map[string]string{
		western.Name:     {"ru": "Правила игры «Вестерн»", "en": "The rules of «Western»"},
		businessman.Name: {"ru": "Правила игры «Бизнесмен»", "en": "The rules of «Businessman»"},
	}
	for _, kind := range []string{western.Name, businessman.Name} {
		people := []service.Person{{Name: "Вера", Email: kind + "-v@pbm.test", Lang: "ru"}, {Name: "Bob", Email: kind + "-b@pbm.test", Lang: "en"}}
		c, err := s.svc.Create(t.Context(), service.CreateRequest{Kind: kind, Options: []byte(`{"laps":5}`),
			Organiser: service.Person{Name: "Org", Email: "org@pbm.test", Lang: "en"}, Seats: people})
		if err != nil {
			t.Fatal(err)
		}
		if c.Unconfirmed { // the organiser confirms their address first
			servicetest.Confirm(t, s.svc, c.ID)
		}
		g := &seatedGame{s: s, id: c.ID}
		for i, p := range people {
			b.open("invitation", g.link(t, "/invite", linksign.PurposeInvite, i, p.Lang))
			b.press("rules", `a[href^="/rules/`+kind+`"]`, nil)
			if h := eval[string](b, `document.querySelector("h1").textContent`); h != want[kind][p.Lang] {
				t.Errorf("the invitation's rules link leads to %q, want %q", h, want[kind][p.Lang])
			}
			if n := b.count("main h2"); n < 3 {
				t.Errorf("the rules of %s in %s have %d sections", kind, p.Lang, n)
			}
			if _, err := s.svc.Accept(t.Context(), c.ID, i); err != nil {
				t.Fatal(err)
			}
		}
		b.phone()
		b.open("rules", s.url+"/rules/"+kind+"?lang=ru")
		if w := eval[int](b, `document.documentElement.scrollWidth`); w > phoneWidth {
			t.Errorf("the rules page is %d px wide at %d px", w, phoneWidth)
		}
		b.screenshot("issue10-rules-"+kind+"-360", phoneWidth)
		for _, v := range b.axe("rules").grave() {
			t.Errorf("the rules page of %s: %s", kind, v)
		}
		rec, eg := g.game(t)
		b.open("seat", g.link(t, "", linksign.PurposeSeat, invite(rec, eg.Owing()[0]), "en"))
		if b.count(`section.act a[href^="/rules/`+kind+`"]`) != 1 {
			t.Errorf("the turn card of %s has no link to the rules", kind)
		}
	}
	if st := b.openStatus(s.url + "/rules/chess?lang=en"); st != 404 {
		t.Errorf("the rules of an unknown game: status %d", st)
	}
}

// TestCreateFormErrorsNameTheRow (issue 10, 10): an error on the create
// form says whose field is wrong — the organiser's, or which player's —
// and on the English form a player's language starts as English.
func TestCreateFormErrorsNameTheRow(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	b.open("home", s.url+"/?lang=en")
	langs := eval[[]string](b, `[...document.querySelectorAll('select[name^="lang"]')].map(s => s.value)`)
	for i, l := range langs {
		if l != "en" {
			t.Errorf("on the English form player %d's language starts as %q", i+1, l)
		}
	}
	for _, tc := range []struct {
		fill map[string]string
		want string
	}{
		{map[string]string{"name0": "Вера", "email0": "vera@pbm.test", "name1": "Bob", "email1": "bob@"}, "Player «Bob»: invalid email address «bob@»"},
		{map[string]string{"name0": "Вера", "email0": "vera@pbm.test", "name1": strings.Repeat("B", 41), "email1": "bob@pbm.test"}, "The player with address «bob@pbm.test»: a name must be 1 to 40 characters"},
	} {
		b.open("home", s.url+"/?lang=en")
		b.do(chromedp.SendKeys(chromedp.CSS(`input[name="org_email"]`), "org@pbm.test"))
		for name, v := range tc.fill {
			// Set directly: the fields' own limits (maxlength, type=email)
			// would stop a browser before the service is asked.
			b.do(chromedp.SetAttributeValue(chromedp.CSS(`[name="`+name+`"]`), "value", v), chromedp.SetValue(chromedp.CSS(`[name="`+name+`"]`), v))
		}
		b.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('form[action^="/games"]').noValidate = true; document.querySelectorAll('[maxlength]').forEach(e => e.removeAttribute('maxlength'))`))
		ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
		_, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(`form[action^="/games"] `+submitSel)))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if msg := eval[string](b, `(document.querySelector(".error,[role=alert]")||document.body).innerText`); !strings.Contains(msg, tc.want) {
			t.Errorf("the form says %q, want it to name the row: %q", msg, tc.want)
		}
	}
}

// TestMailDeadlinesInPlayersZone (issue 10, 17): "my games" guesses the
// player's time zone from the browser; once saved, the deadlines in their
// mails are written in it, not in UTC.
func TestMailDeadlinesInPlayersZone(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	people := []service.Person{{Name: "Вера", Email: "vera@pbm.test", Lang: "ru"}, {Name: "Bob", Email: "bob@pbm.test", Lang: "en"}}
	g := newSeatedGame(t, s, western.Name, `{"laps":5}`, people)
	if _, err := chromedp.Call(b.ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"}); err != nil {
		t.Fatal(err)
	}
	tok, err := s.svc.Token(linksign.PurposeMyGames, people[0].Email, linksign.NoSeat, 0, service.OrganiserTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	b.open("my games", s.url+"/me?lang=ru&t="+tok)
	// Issue 10, 11: games are listed by their kind and players, not an id.
	if name := eval[string](b, `document.querySelector(".people .who b").textContent`); name != "«Вестерн» (Вера, Bob)" {
		t.Errorf("«my games» lists the game as %q", name)
	}
	if tz := eval[string](b, `document.querySelector("input[name=tz]").value`); tz != "Asia/Tokyo" {
		t.Fatalf("«my games» guesses the zone %q, the browser's is Asia/Tokyo", tz)
	}
	b.press("my games", `form[action^="/me"] `+submitSel, nil)
	if p, err := s.svc.Player(t.Context(), people[0].Email); err != nil || p.TimeZone != "Asia/Tokyo" {
		t.Fatalf("saved zone %q (%v)", p.TimeZone, err)
	}
	before := s.latest(t, people[0].Email).MessageID
	g.playUntil(t, func(eg engine.Game) bool {
		m := s.latest(t, people[0].Email)
		return m.MessageID != before && strings.Contains(m.Body.Text, "Ответить до")
	})
	if m := s.latest(t, people[0].Email); !strings.Contains(m.Body.Text, " Asia/Tokyo.") || strings.Contains(m.Body.Text, " UTC.") {
		t.Errorf("the deadline in Вера's mail is not in her zone: %.600q", m.Body.Text)
	}
}
