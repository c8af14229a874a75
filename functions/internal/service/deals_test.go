package service_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// dealsOf is the seat of invitation inv's view of deals now.
func (g *seededGame) dealsOf(t *testing.T, inv int) (service.DealsOf, engine.Game) {
	t.Helper()
	rec := g.load(t)
	eg, err := g.svc.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Deals(eg, inv), eg
}

// TestPreparedOfferMadeAnsweredLater (issue 23): an offer a player
// prepares between turns is made for them at the start of their next
// turn — the turn goes on —, mailed to the other side, answered days
// later (or declined at its deadline), carried out if it still can be or
// lapsed, and the game replays exactly from its log.
func TestPreparedOfferMadeAnsweredLater(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "businessman", `{"laps":6}`, 3)
	// Play, a minute a move, until two seats own lots and invitation 0
	// waits for its turn with an offer it may prepare.
	var offer engine.Action
	for n := 0; ; n++ {
		if n > 3000 {
			t.Fatal("no offer to prepare")
		}
		d, eg := g.dealsOf(t, 0)
		if eg.Over() {
			t.Fatal("the game ended first")
		}
		if eg.Turn() != 0 {
			if i := slices.IndexFunc(d.Preparable, func(c engine.Choice) bool { return c.Type == "offer_buy" }); i >= 0 {
				c := d.Preparable[i]
				offer = c.Action
				offer.Amount = c.Min
				break
			}
		}
		seat := eg.Owing()[0]
		*g.now = g.now.Add(time.Minute)
		if _, err := g.svc.Act(ctx, g.id, seat, g.pick(eg.Legal(seat)), fmt.Sprintf("deal-%05d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
		g.drain(t)
	}
	if err := g.svc.Prepare(ctx, g.id, 0, engine.Action{Type: "offer_buy", Cell: 999}); service.AsError(err).Code != service.CodeInvalid {
		t.Fatalf("an offer the engine does not list: %v", err)
	}
	if err := g.svc.Prepare(ctx, g.id, 0, offer); err != nil {
		t.Fatal(err)
	}
	if d, _ := g.dealsOf(t, 0); !slices.Contains(d.Prepared, offer) {
		t.Fatalf("prepared %v, want %v", d.Prepared, offer)
	}
	// Play on, every seat its default (no purchase, no sale: nothing
	// changes hands), until seat 0's turn: the offer is made at its start.
	g.sent = nil
	for n := 0; ; n++ {
		d, eg := g.dealsOf(t, 0)
		if len(d.Prepared) == 0 {
			break // made, or dropped as no longer possible
		}
		if n > 200 || eg.Over() {
			t.Fatalf("the prepared offer was not made: %+v", d)
		}
		seat := eg.Owing()[0]
		a, _ := eg.Default(seat)
		*g.now = g.now.Add(time.Minute)
		if _, err := g.svc.Act(ctx, g.id, seat, a, fmt.Sprintf("wait-%05d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
		g.drain(t)
	}
	rec := g.load(t)
	entries, _ := rec.Recent()
	made := -1
	for i, e := range entries {
		if e.By == service.ByPrepared {
			made = i
		}
	}
	if made < 0 || entries[made].Seat != 0 || entries[made].Action != offer {
		t.Fatalf("no command by %q of seat 0 making %v", service.ByPrepared, offer)
	}
	d, eg := g.dealsOf(t, 0)
	i := slices.IndexFunc(d.FromMe, func(x engine.Deal) bool { return x.Offer == offer })
	if i < 0 {
		t.Fatalf("the deal made is not open: %+v", d.FromMe)
	}
	deal := d.FromMe[i]
	if eg.Turn() != 0 || !slices.Contains(eg.Owing(), 0) {
		t.Fatalf("seat 0's turn does not go on: turn %d, owing %v", eg.Turn(), eg.Owing())
	}
	if !slices.Contains(g.sent, fmt.Sprintf("deal %d", deal.To)) {
		t.Fatalf("the other side was not mailed the deal: %v", g.sent)
	}
	if len(d.Prepared) != 0 {
		t.Errorf("still prepared after it was made: %v", d.Prepared)
	}
	// Days later the other side answers; the deal is carried out if it
	// still can be, else it lapses (the buyer may have spent its cash).
	*g.now = g.now.Add(40 * time.Hour)
	if _, err := g.svc.Act(ctx, g.id, deal.To, engine.Action{Type: engine.AcceptDeal, Deal: deal.ID}, "answer-0001", service.Precondition{}); err != nil {
		t.Fatal(err)
	}
	rec = g.load(t)
	entries, _ = rec.Recent()
	last := entries[len(entries)-1]
	var done, lapsed bool
	for _, e := range last.Events {
		done = done || e.Type == engine.EvDealDone
		lapsed = lapsed || e.Type == engine.EvDealLapsed
	}
	if !done && !lapsed {
		t.Fatalf("the answer neither carried the deal out nor let it lapse: %+v", last.Events)
	}
	if done && int(rec.Seats[0].Engine) != 0 {
		t.Fatal("seats moved")
	}
	if rec.DealDue[deal.ID] != 0 {
		t.Errorf("the deal's deadline outlived it: %v", rec.DealDue)
	}
	// A deal nobody answers is declined at its deadline, by the clock.
	if err := g.svc.Prepare(ctx, g.id, 0, offer); err != nil && !strings.Contains(err.Error(), "prepared") {
		// The offer may no longer be possible (the lot changed hands): then
		// the deadline part has nothing to show.
		t.Logf("the offer cannot be prepared again: %v", err)
	}
	g.replaysExactly(t)
}

// TestDealDeclinedAtItsDeadline: a deal its seat does not answer is
// declined at its deadline by the sweep's tick (its default, no miss
// counted) — not a second before, whatever other deal falls due first —,
// and the game replays exactly.
func TestDealDeclinedAtItsDeadline(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "businessman", `{"laps":6}`, 3)
	// Play, a minute a move, until the seat whose turn it is may offer to
	// buy: the deal is the one its offer opens. Other deals may be open
	// by then (a purchase kept for later), with deadlines of their own.
	var deal engine.Deal
	for n := 0; ; n++ {
		if n > 3000 {
			t.Fatal("no deal to offer")
		}
		rec := g.load(t)
		eg, err := g.svc.Engine(rec)
		if err != nil || eg.Over() {
			t.Fatalf("%v", err)
		}
		seat := eg.Owing()[0]
		legal := eg.Legal(seat)
		if i := slices.IndexFunc(legal, func(c engine.Choice) bool { return c.Type == "offer_buy" }); i >= 0 && seat == eg.Turn() {
			was := eg.(engine.Dealing).Deals()
			a := legal[i].Action
			a.Amount = legal[i].Min
			if _, err := g.svc.Act(ctx, g.id, seat, a, "offer-0001", service.Precondition{}); err != nil {
				t.Fatal(err)
			}
			eg, err = g.svc.Engine(g.load(t))
			if err != nil {
				t.Fatal(err)
			}
			open := eg.(engine.Dealing).Deals()
			j := slices.IndexFunc(open, func(d engine.Deal) bool {
				return !slices.ContainsFunc(was, func(w engine.Deal) bool { return w.ID == d.ID })
			})
			if j < 0 || open[j].From != seat || open[j].Offer != a {
				t.Fatalf("the offer %v opened no deal: %+v", a, open)
			}
			deal = open[j]
			break
		}
		*g.now = g.now.Add(time.Minute)
		if _, err := g.svc.Act(ctx, g.id, seat, g.pick(legal), fmt.Sprintf("deal-%05d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
		g.drain(t)
	}
	rec := g.load(t)
	due := rec.DealDue[deal.ID]
	if due == 0 {
		t.Fatalf("the deal has no deadline: %v", rec.DealDue)
	}
	// Just before, the seat that owes decisions finishes its turn: no
	// seat's own deadline passes with the deal's.
	*g.now = time.Unix(due-60, 0)
	eg, _ := g.svc.Engine(rec)
	for turn, n := eg.Turn(), 0; eg.Turn() == turn; n++ {
		seat := eg.Owing()[0]
		a, _ := eg.Default(seat)
		if _, err := g.svc.Act(ctx, g.id, seat, a, fmt.Sprintf("before-%04d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
		g.drain(t)
		eg, _ = g.svc.Engine(g.load(t))
	}
	rec = g.load(t)
	misses := slices.Clone(rec.Misses)
	// A second before its deadline the deal is still open; a deal whose
	// deadline came earlier is declined by then, each at its own.
	*g.now = time.Unix(due-1, 0)
	if err := g.svc.Tick(ctx, g.id); err != nil {
		t.Fatal(err)
	}
	rec = g.load(t)
	if rec.DealDue[deal.ID] != due {
		t.Fatalf("the deal did not wait for its deadline %d: %v", due, rec.DealDue)
	}
	for id, d := range rec.DealDue {
		if d <= g.now.Unix() {
			t.Fatalf("deal %d outlived its deadline %d: %v", id, d, rec.DealDue)
		}
	}
	// At its deadline it is declined.
	*g.now = time.Unix(due, 0)
	if err := g.svc.Tick(ctx, g.id); err != nil {
		t.Fatal(err)
	}
	rec = g.load(t)
	if _, ok := rec.DealDue[deal.ID]; ok {
		t.Fatalf("the deal outlived its deadline: %v", rec.DealDue)
	}
	for id, d := range rec.DealDue {
		if d <= g.now.Unix() {
			t.Fatalf("deal %d outlived its deadline %d: %v", id, d, rec.DealDue)
		}
	}
	if eg, err := g.svc.Engine(rec); err != nil || slices.ContainsFunc(eg.(engine.Dealing).Deals(), func(d engine.Deal) bool { return d.ID == deal.ID }) {
		t.Fatalf("the deal is still open in the game (%v)", err)
	}
	entries, _ := rec.Recent()
	found := false
	for _, e := range entries {
		if e.Action.Type == engine.DeclineDeal && e.Action.Deal == deal.ID && e.By == service.ByDeadline && e.Seat == int(deal.To) && e.At == due {
			found = true
		}
	}
	if !found {
		t.Fatalf("no decline of deal %d played by its deadline", deal.ID)
	}
	if !slices.Equal(rec.Misses, misses) {
		t.Errorf("a deal's deadline counted as a miss: %v → %v", misses, rec.Misses)
	}
	g.replaysExactly(t)
}
