package browser

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/templates"
)

// TestTurnResumesFromItsMailInChromium (issue 10, symptom 1): a player
// opens their "your move" mail, rolls, leaves the page, and opens the same
// mail again: while the turn still owes decisions the page shows their
// buttons; once the turn is played out the same mail says it is done and
// offers none. The bots play the other moves; the test holds for any seed.
func TestTurnResumesFromItsMailInChromium(t *testing.T) {
	s := newSite(t, "browser resume")
	ctx := t.Context()
	c := s.twoSeatGame(t)
	state := func() (*service.Record, engine.Game) {
		rec, _, err := s.svc.Load(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		g, err := s.svc.Engine(rec)
		if err != nil {
			t.Fatal(err)
		}
		return rec, g
	}
	invite := func(rec *service.Record, seat int) int {
		for i, st := range rec.Seats {
			if st.Engine == seat {
				return i
			}
		}
		t.Fatalf("no invitation for seat %d", seat)
		return -1
	}
	// botsUntil lets the bots play until stop holds.
	botsUntil := func(stop func(g engine.Game) bool) {
		for n := 0; n < 5000; n++ {
			rec, g := state()
			if g.Over() {
				t.Fatal("the game ended before a roll left decisions in the turn")
			}
			if stop(g) {
				return
			}
			if _, err := s.svc.ActBot(ctx, c.ID, invite(rec, g.Owing()[0]), ""); err != nil {
				t.Fatal(err)
			}
		}
		t.Fatal("the bots did not get there")
	}
	atRoll := func(g engine.Game) bool {
		seat := g.Owing()[0]
		return seat == g.Turn() && slices.ContainsFunc(g.Legal(seat), func(ch engine.Choice) bool { return ch.Type == western.ARoll })
	}
	b := newBrowser(t, s.url)
	rollSel := choiceSel + `:has(input[name="type"][value="roll"]) ` + submitSel
	done := templates.T("en", "already_done")
	notice := func() string {
		return eval[string](b, `(document.querySelector('[role=status]')||{innerText:""}).innerText`)
	}
	for tries := 0; tries < 40; tries++ {
		botsUntil(atRoll)
		rec, g := state()
		seat := g.Turn()
		addr := rec.Seats[invite(rec, seat)].Email
		link := s.latest(t, addr).link("/g/"+c.ID, false)
		if link == "" {
			t.Fatalf("the latest mail to %s has no link to the game", addr)
		}
		b.open("seat", link)
		if b.count(rollSel) != 1 {
			t.Fatalf("the turn mail's page has no roll button")
		}
		b.press("seat", rollSel, nil)
		if _, g = state(); !slices.Contains(g.Owing(), seat) || g.Turn() != seat {
			continue // that roll ended the turn: try the next one
		}
		// The player closes the tab and opens the same mail again.
		b.do(chromedp.Navigate("about:blank"))
		b.open("seat, reopened", link)
		if n := b.count(choiceSel); n == 0 || strings.Contains(notice(), done) {
			t.Fatalf("the mail reopened after rolling shows %d decisions and %q, while the turn owes more", n, notice())
		}
		b.screenshot("resume-after-roll", desktopWidth)
		// The turn played out, the same mail is done.
		botsUntil(func(g engine.Game) bool { return !slices.Contains(g.Owing(), seat) })
		b.open("seat, done", link)
		if n := b.count(choiceSel); n != 0 || !strings.Contains(notice(), done) {
			t.Fatalf("the mail of a finished turn shows %d decisions and %q", n, notice())
		}
		return
	}
	t.Fatal("no roll in 40 turns left decisions in its turn")
}
