package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/service"
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
	s := newSite(t)
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
