package service_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// sensibleOrders are the game's Sensible orders.
func sensibleOrders(t *testing.T, g *seededGame) engine.Orders {
	t.Helper()
	rec, _, err := g.svc.Load(context.Background(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := g.svc.OrderSpecs(rec)
	if err != nil || len(specs) == 0 {
		t.Fatalf("specs %v: %v", specs, err)
	}
	return engine.SensibleOrders(specs)
}

// TestOrdersReplayExactly: a whole game where two of three seats play by
// standing orders replays exactly from its log; the orders' moves are the
// seats' own commands marked as made by order; and no seat is mailed for
// a decision its orders covered.
func TestOrdersReplayExactly(t *testing.T) {
	for _, f := range mailFixtures {
		t.Run(f.kind, func(t *testing.T) {
			ctx := context.Background()
			g := newSeededGame(t, f.kind, f.options, f.seats)
			o := sensibleOrders(t, g)
			for inv := 0; inv < 2; inv++ {
				if err := g.svc.SetOrders(ctx, g.id, inv, o); err != nil {
					t.Fatal(err)
				}
			}
			g.play(t, 20_000)
			rec, _, err := g.svc.Load(ctx, g.id)
			if err != nil {
				t.Fatal(err)
			}
			log, err := g.svc.FullLog(ctx, rec)
			if err != nil {
				t.Fatal(err)
			}
			var cmds []engine.Command
			byOrder := map[int]int{}
			for _, e := range log {
				cmds = append(cmds, engine.Command{Seat: e.Seat, Action: e.Action})
				if e.By == service.ByOrder {
					byOrder[e.Seat]++
				}
			}
			if byOrder[0] == 0 || byOrder[1] == 0 || byOrder[2] != 0 {
				t.Fatalf("moves by order per seat: %v", byOrder)
			}
			r, err := testGames.Engines().Replay(rec.Kind, rec.Rules, rec.Options, len(rec.Seats), [32]byte(rec.Seed), cmds)
			if err != nil {
				t.Fatal(err)
			}
			state, _ := r.MarshalJSON()
			if string(state) != string(rec.State) {
				t.Fatal("the replayed game differs from the stored one")
			}
			// The seats with orders were mailed less than the one without.
			turns := map[string]int{}
			for _, m := range g.sent {
				turns[m]++
			}
			t.Logf("mails with sensible orders for seats 0 and 1 (seat 2 none): %v", turns)
			if turns["turn 0"] >= turns["turn 2"] || turns["turn 1"] >= turns["turn 2"] {
				t.Fatalf("turn mails %v: the orders did not spare their seats", turns)
			}
		})
	}
}

// owingSeat is the first seat that owes a decision.
func owingSeat(t *testing.T, g *seededGame) (int, *service.Record) {
	t.Helper()
	rec, _, err := g.svc.Load(context.Background(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	eg, err := g.svc.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	return eg.Owing()[0], rec
}

// TestOrdersChangeMidGame: orders set mid-game play the seat's next
// decision (the one it owes now included), and orders cleared stop
// playing from the next one, which is mailed again.
func TestOrdersChangeMidGame(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "western", `{"laps":2}`, 3)
	seat, rec := owingSeat(t, g)
	moves := rec.Moves
	// Set while the seat owes its roll: the roll is played at once.
	if err := g.svc.SetOrders(ctx, g.id, seat, engine.Orders{engine.OrderRoll: 1}); err != nil {
		t.Fatal(err)
	}
	rec = g.drain(t)
	entries, _ := rec.Recent()
	if rec.Moves != moves+1 || entries[len(entries)-1].By != service.ByOrder || entries[len(entries)-1].Action.Type != "roll" {
		t.Fatalf("the roll was not played by order: %d moves, last %+v", rec.Moves-moves, entries[len(entries)-1])
	}
	// Play on until that seat's next turn: it rolls by order again, unasked.
	rolled := 0
	for n := 0; n < 500 && rolled < 2; n++ {
		s, rec := owingSeat(t, g)
		eg, _ := g.svc.Engine(rec)
		if _, err := g.svc.Act(ctx, g.id, s, eg.Legal(s)[0].Action, fmt.Sprintf("chg-%06d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
		rec = g.drain(t)
		rolled = 0
		entries, _ := rec.Recent()
		for _, e := range entries {
			if e.Seat == seat && e.By == service.ByOrder {
				rolled++
			}
		}
	}
	if rolled < 2 {
		t.Fatal("the orders did not play the seat's next roll")
	}
	// Cleared: from its next decision on, the seat is asked (and mailed).
	if err := g.svc.SetOrders(ctx, g.id, seat, nil); err != nil {
		t.Fatal(err)
	}
	got, err := g.svc.Orders(ctx, g.id, seat)
	if err != nil || len(got) != 0 {
		t.Fatalf("orders after clearing: %v %v", got, err)
	}
	g.sent = nil
	for n := 0; n < 500; n++ {
		s, rec := owingSeat(t, g)
		eg, _ := g.svc.Engine(rec)
		if s == seat && eg.Legal(s)[0].Type == "roll" {
			mailed := false
			for _, m := range g.sent {
				mailed = mailed || m == fmt.Sprintf("turn %d", seat)
			}
			if !mailed {
				t.Fatal("the seat owes its roll unmailed after its orders were cleared")
			}
			return
		}
		if _, err := g.svc.Act(ctx, g.id, s, eg.Legal(s)[0].Action, fmt.Sprintf("clr-%06d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
		g.drain(t)
	}
	t.Fatal("the seat's turn never came back")
}

// TestSetOrdersRefusesBadOrders: unknown names and values out of range are
// refused and change nothing.
func TestSetOrdersRefusesBadOrders(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "businessman", `{"laps":2}`, 2)
	_, before, _ := g.svc.Load(ctx, g.id)
	for _, o := range []engine.Orders{{"nonsense": 1}, {engine.OrderRoll: 2}, {engine.OrderSpendPct: 101}, {engine.OrderKeepCash: -1}} {
		err := g.svc.SetOrders(ctx, g.id, 0, o)
		var se *service.Error
		if !errors.As(err, &se) || se.Code != service.CodeInvalid {
			t.Fatalf("%v: %v, want invalid", o, err)
		}
	}
	if _, after, _ := g.svc.Load(ctx, g.id); after != before {
		t.Fatal("refused orders changed the game")
	}
	if err := g.svc.SetOrders(ctx, g.id, 7, engine.Orders{}); err == nil {
		t.Fatal("orders for a seat that does not exist were taken")
	}
}

// coverAll are «Вестерн» orders that answer every decision.
var coverAll = engine.Orders{engine.OrderRoll: 1, "fork_main": 1, engine.OrderBuyBelow: 10_000_000, engine.OrderKeepCash: 0,
	"sell_goods": 1, "spec_pct": 1000, "bank": 1, "credit_upto": 0, "surrender_below": 5_000, "offer_decline": 10_000_000,
	"bid_upto": 0, engine.OrderSkip: 1, engine.OrderEndTurn: 1}

// TestOrdersPlayWholeTurnsAtOnce: a table whose orders cover everything
// plays at once, beyond one commit's bound through the sweep (not at the
// deadlines), and mails nobody a decision.
func TestOrdersPlayWholeTurnsAtOnce(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "western", `{"laps":3}`, 3)
	g.sent = nil // the start's mails, before any orders
	for inv := range 3 {
		if err := g.svc.SetOrders(ctx, g.id, inv, coverAll); err != nil {
			t.Fatal(err)
		}
	}
	rec := g.drain(t)
	if rec.Status != service.StatusOver && (rec.Moves < 40 || !rec.PlayOn) {
		t.Fatalf("orders covering everything played %d moves in one commit, play on %v: want many, to the commit's bound, and more to come", rec.Moves, rec.PlayOn)
	}
	for ticks := 0; rec.Status != service.StatusOver; ticks++ {
		if ticks > 100 {
			t.Fatal("the sweep does not play the game on")
		}
		// A minute on: far before any deadline.
		*g.now = g.now.Add(time.Minute)
		if _, err := g.svc.TickAll(ctx); err != nil {
			t.Fatal(err)
		}
		rec = g.drain(t)
	}
	log, err := g.svc.FullLog(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		if e.By != service.ByOrder {
			t.Fatalf("entry %d was played by %q, not by order", e.N, e.By)
		}
	}
	for _, m := range g.sent {
		if strings.HasPrefix(m, "turn") || strings.HasPrefix(m, "decision") || strings.HasPrefix(m, "reminder") {
			t.Fatalf("mail %q although the orders covered everything", m)
		}
	}
	t.Logf("%d moves, all by order; mails: %v", len(log), g.sent)
}

// TestOrdersClearedAskTheDecisionLeftToThem: a decision left to orders
// (past one commit's bound) whose orders are then cleared is mailed.
func TestOrdersClearedAskTheDecisionLeftToThem(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "western", `{"laps":5}`, 3)
	for inv := range 3 {
		if err := g.svc.SetOrders(ctx, g.id, inv, coverAll); err != nil {
			t.Fatal(err)
		}
	}
	rec := g.drain(t)
	if !rec.PlayOn {
		t.Fatalf("after %d moves the orders have nothing left to play", rec.Moves)
	}
	seat, _ := owingSeat(t, g)
	g.sent = nil
	if err := g.svc.SetOrders(ctx, g.id, seat, nil); err != nil {
		t.Fatal(err)
	}
	g.drain(t)
	if !slices.Contains(g.sent, fmt.Sprintf("turn %d", seat)) && !slices.Contains(g.sent, fmt.Sprintf("decision %d", seat)) {
		t.Fatalf("seat %d owes a decision nobody plays now, unmailed: %v", seat, g.sent)
	}
}

// TestOrdersSetBeforeTheStart: orders set while the game waits for its
// players play from its first decision.
func TestOrdersSetBeforeTheStart(t *testing.T) {
	ctx := context.Background()
	g := newInvitedGame(t, "businessman", `{"laps":2}`, 3)
	svc, id := g.svc, g.id
	for inv := range 3 {
		if _, err := svc.Accept(ctx, id, inv); err != nil {
			t.Fatal(err)
		}
		if inv == 1 {
			// Two have accepted; the last one sets orders first.
			for o := range 3 {
				if err := svc.SetOrders(ctx, id, o, engine.Orders{engine.OrderRoll: 1}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	rec, _, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := rec.Recent()
	if rec.Status != service.StatusPlaying || len(entries) == 0 || entries[0].By != service.ByOrder || entries[0].Action.Type != "roll" {
		t.Fatalf("status %s, log %+v: the first roll was not played by order", rec.Status, entries)
	}
	for _, m := range rec.Outbox {
		if m.Kind == service.MailTurn && m.Moves == 0 {
			t.Fatalf("the start mailed a roll the orders played: %+v", m)
		}
	}
}

// TestNewSeatsStartWithSuggestedOrders: every seat of a new game, and a
// substitute, starts with its game's suggested orders (SPEC §1.7), which
// play its routine decisions unasked; a seat whose player turned them off
// is mailed every decision, as a game without orders always was.
func TestNewSeatsStartWithSuggestedOrders(t *testing.T) {
	ctx := context.Background()
	for _, f := range mailFixtures {
		t.Run(f.kind, func(t *testing.T) {
			g := newInvitedGame(t, f.kind, f.options, f.seats)
			// newInvitedGame turns orders off; a game made now has them.
			people := []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}
			c, err := g.svc.Create(ctx, service.CreateRequest{Kind: f.kind, Options: []byte(f.options),
				Organiser: service.Person{Email: "o@pbm.test"}, Seats: people})
			if err != nil {
				t.Fatal(err)
			}
			rec, _, err := g.svc.Load(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			specs, err := g.svc.OrderSpecs(rec)
			if err != nil {
				t.Fatal(err)
			}
			for inv := range people {
				o, err := g.svc.Orders(ctx, c.ID, inv)
				if err != nil {
					t.Fatal(err)
				}
				if want := engine.SensibleOrders(specs); !maps.Equal(o, want) {
					t.Errorf("invitation %d starts with orders %v, want the suggested %v", inv, o, want)
				}
			}
		})
	}
	// One seat of three turns its orders off: it is mailed its every
	// decision; the others, whose suggested orders roll for them, are
	// mailed fewer, none for a roll.
	g := newInvitedGame(t, "western", `{"laps":1}`, 3)
	rec, _, err := g.svc.Load(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	specs, _ := g.svc.OrderSpecs(rec)
	for inv := 1; inv < 3; inv++ {
		if err := g.svc.SetOrders(ctx, g.id, inv, engine.SensibleOrders(specs)); err != nil {
			t.Fatal(err)
		}
		if _, err := g.svc.Accept(ctx, g.id, inv); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.svc.Accept(ctx, g.id, 0); err != nil {
		t.Fatal(err)
	}
	g.drain(t)
	asked := map[int]int{}
	for n := 0; n < 5000; n++ {
		rec = g.drain(t)
		if rec.Status == service.StatusOver {
			break
		}
		eg, err := g.svc.Engine(rec)
		if err != nil {
			t.Fatal(err)
		}
		seat := eg.Owing()[0]
		inv := slices.IndexFunc(rec.Seats, func(s service.SeatInfo) bool { return s.Engine == seat })
		legal := eg.Legal(seat)
		if seat == rec.Seats[0].Engine {
			asked[len(legal)]++
		} else if legal[0].Type == "roll" {
			t.Fatalf("seat %d (suggested orders) owes a roll: %v", seat, legal)
		}
		if _, err := g.svc.Act(ctx, g.id, inv, g.pick(legal), fmt.Sprintf("off-%05d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	turns := map[string]int{}
	for _, m := range g.sent {
		turns[m]++
	}
	if turns["turn 0"] == 0 || turns["turn 0"] <= turns["turn 1"] || turns["turn 0"] <= turns["turn 2"] {
		t.Errorf("turn mails %v: the seat with orders off is not mailed its every turn", turns)
	}
	rec = g.drain(t)
	log, err := g.svc.FullLog(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		if e.Seat == rec.Seats[0].Engine && e.By == service.ByOrder {
			t.Fatalf("entry %d: orders played for the seat that turned them off", e.N)
		}
	}
}
