package businessman

import (
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// B-4, B-6, B-9 under rules version 3 (P-2): the seat whose turn it is
// proposes, the turn goes on, and the other side answers in its own time;
// an accepted deal is carried out if it still can be, else it lapses.
func TestB4_DealsAnsweredLater(t *testing.T) {
	s := fresh(t, 3)
	own(s, 0, 2)
	own(s, 1, 8)
	refused(t, s, 1, engine.Action{Type: AOfferSell, Cell: 8, Target: 0, Amount: 10_000}, engine.ErrNotYourTurn)
	ev := act(t, s, 0, engine.Action{Type: AOfferBuy, Cell: 8, Target: 1, Amount: 45_000})
	if _, ok := findEvent(ev, engine.EvDealOpen, 0); !ok || len(s.Deals.Open) != 1 || s.Phase != PhRoll || s.Owing()[0] != 0 {
		t.Fatalf("the turn waits: phase %v, owing %v, deals %v", s.Phase, s.Owing(), s.Deals.Open)
	}
	id := s.Deals.Open[0].ID
	// The turn goes on: seat 0 rolls and ends; seat 1 answers later.
	act(t, s, 0, engine.Action{Type: ARoll})
	finishTurn(t, s)
	before := s.Clone()
	act(t, s, 1, engine.Action{Type: engine.AcceptDeal, Deal: id})
	if s.Owner[8] != 0 || s.Players[0].Cash != before.Players[0].Cash-45_000 || s.Players[1].Cash != before.Players[1].Cash+45_000 {
		t.Fatalf("owner %d cash %d/%d", s.Owner[8], s.Players[0].Cash, s.Players[1].Cash)
	}
	// Swap and sell: declined, and lapsed when the lot was pledged.
	s = fresh(t, 3)
	own(s, 0, 2, 4)
	own(s, 1, 8)
	act(t, s, 0, engine.Action{Type: AOfferSwap, Cell: 2, Target: 1, Amount: 8})
	act(t, s, 0, engine.Action{Type: AOfferSell, Cell: 4, Target: 2, Amount: 30_000})
	if len(s.Deals.Open) != 2 {
		t.Fatalf("deals %v", s.Deals.Open)
	}
	swap, sell := s.Deals.Open[0], s.Deals.Open[1]
	refused(t, s, 2, engine.Action{Type: engine.AcceptDeal, Deal: swap.ID}, engine.ErrIllegalAction) // not its deal
	ev = act(t, s, 1, engine.DealDefault(swap))
	if _, ok := findEvent(ev, engine.EvDealDeclined, 1); !ok || s.Owner[2] != 0 || s.Owner[8] != 1 {
		t.Fatalf("declined swap: %v", ev)
	}
	act(t, s, 0, engine.Action{Type: AMortgage, Cell: 4})
	ev = act(t, s, 2, engine.Action{Type: engine.AcceptDeal, Deal: sell.ID})
	if e, ok := findEvent(ev, engine.EvDealLapsed, 2); !ok || e.Other != engine.LapseGone || s.Owner[4] != 0 {
		t.Fatalf("a pledged lot changed hands: %v", ev)
	}
	// A swap accepted: the lots change hands, no money.
	s = fresh(t, 3)
	own(s, 0, 2)
	own(s, 1, 8)
	act(t, s, 0, engine.Action{Type: AOfferSwap, Cell: 2, Target: 1, Amount: 8})
	act(t, s, 1, engine.Action{Type: engine.AcceptDeal, Deal: s.Deals.Open[0].ID})
	if s.Owner[2] != 1 || s.Owner[8] != 0 {
		t.Fatalf("swap: owners %d %d", s.Owner[2], s.Owner[8])
	}
	// At most MaxOpenDeals open from one proposer; the deals of a seat
	// that leaves the game lapse.
	s = fresh(t, 4)
	own(s, 0, 2, 4, 6)
	for i, c := range []int{2, 4, 6} {
		act(t, s, 0, engine.Action{Type: AOfferSell, Cell: c, Target: 1 + i%3, Amount: 1_000})
	}
	if has(s.Legal(0), AOfferSell, 0) || len(s.Deals.Open) != MaxOpenDeals {
		t.Fatalf("more than %d deals open from one seat: %v", MaxOpenDeals, s.Deals.Open)
	}
	s.Turn, s.Phase = 1, PhRoll
	ev = act(t, s, 1, engine.Action{Type: engine.Resign})
	if _, ok := findEvent(ev, engine.EvDealLapsed, -1); !ok || len(s.Deals.Open) != MaxOpenDeals-1 {
		t.Fatalf("the leaver's deals: %v, open %v", ev, s.Deals.Open)
	}
}

// B-6 under rules version 3: a seat may keep the lot it stopped on to
// decide later — abroad with its surcharge (B-22) —, nobody else may buy
// it meanwhile, and buys it when it accepts if it has the price then.
func TestB6_PurchaseKeptForLater(t *testing.T) {
	s := fresh(t, 3)
	rollTo(t, s, 6)
	if !has(s.Legal(0), AHold, 6) {
		t.Fatalf("no hold among %v", s.Legal(0))
	}
	act(t, s, 0, engine.Action{Type: AHold, Cell: 6})
	if len(s.Deals.Open) != 1 || s.Deals.Open[0].From != engine.Bank || has(s.Legal(0), ABuy, 6) {
		t.Fatalf("kept: %v, legal %v", s.Deals.Open, s.Legal(0))
	}
	id := s.Deals.Open[0].ID
	finishTurn(t, s)
	// Seat 1 stops there: it may not buy it.
	s.Players[1].Cell, s.Spot, s.Phase = 6, 6, PhAct
	if has(s.Legal(1), ABuy, 6) {
		t.Fatal("another seat may buy the kept lot")
	}
	cash := s.Players[0].Cash
	ev := act(t, s, 0, engine.Action{Type: engine.AcceptDeal, Deal: id})
	if s.Owner[6] != 0 || s.Players[0].Cash != cash-Board[6].Price {
		t.Fatalf("bought later: owner %d, cash %d, events %v", s.Owner[6], s.Players[0].Cash, ev)
	}
}

// P-1 with deals: a game whose seats propose, keep and answer deals
// replays exactly from its log.
func TestP1_DealsReplayExactly(t *testing.T) {
	for seed := byte(0); seed < 4; seed++ {
		s, err := New(Options{Laps: 4, RentClaim: RentAuto}, 4, [32]byte{seed, 29})
		if err != nil {
			t.Fatal(err)
		}
		o := engine.SensibleOrders(orderSpecs)
		var log []engine.Command
		answered := 0
		for steps := 0; !s.Over(); steps++ {
			if steps > 100_000 {
				t.Fatalf("seed %d: no end", seed)
			}
			var seat int
			var a engine.Action
			if len(s.Deals.Open) > 0 && steps%3 == 0 { // answered a while later
				d := s.Deals.Open[0]
				seat = d.To
				a, _ = s.DealAnswer(d, nil, true)
				if steps%2 == 0 {
					a = engine.Action{Type: engine.AcceptDeal, Deal: d.ID}
				}
				answered++
			} else {
				seat = s.Owing()[0]
				var ok bool
				if a, ok = engine.ByOrders(s, seat, o); !ok {
					if b, ok := s.BotOffer(seat); ok && s.allowed(seat, b) {
						a = b
					} else {
						a, _ = s.Bot(seat)
					}
				}
			}
			cash := cashOf(s)
			ev, err := engine.Play(s, seat, a, nil)
			if err != nil {
				t.Fatalf("seed %d: %v of seat %d refused: %v", seed, a, seat, err)
			}
			checkInvariants(t, s, cash, ev)
			log = append(log, engine.Command{Seat: seat, Action: a})
		}
		r, err := Replay(Options{Laps: 4, RentClaim: RentAuto}, 4, [32]byte{seed, 29}, log)
		if err != nil {
			t.Fatal(err)
		}
		if stateHash(t, s) != stateHash(t, r) {
			t.Fatalf("seed %d: replay differs", seed)
		}
		if answered == 0 {
			t.Errorf("seed %d: no deal answered", seed)
		}
	}
}
