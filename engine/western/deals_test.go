package western

import (
	"slices"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// W-18 under rules version 3 (P-2): the offer is made and the turn goes
// on; the offered seat answers whenever it likes — its turn or not —, an
// accepted offer is carried out if it still can be, else it lapses and
// both read why; the deal's default is to decline.
func TestW18_ShareOfferAnsweredLater(t *testing.T) {
	setup := func(t *testing.T) *State {
		s := rtGame(t, 3)
		s.Owner[12], s.Owner[2] = 1, 0
		s.Players[0].Cash = 50_000
		rtLand(t, s, 0, 64)
		return s
	}
	s := setup(t)
	n, ev := rtApply(t, s, 0, engine.Action{Type: AOffer, Cell: 12, Target: 1})
	if len(n.Deals.Open) != 1 || rtFind(ev, 0, engine.EvDealOpen) < 0 {
		t.Fatalf("no deal opened: %+v, events %v", n.Deals, ev)
	}
	deal := n.Deals.Open[0]
	if deal.From != 0 || deal.To != 1 || deal.Offer != (engine.Action{Type: AOffer, Cell: 12, Target: 1, Amount: 7_500}) {
		t.Fatalf("deal %+v", deal)
	}
	if n.Phase == PhOffer || n.Turn != 1 || !slices.Equal(n.Owing(), []int{1}) {
		t.Fatalf("the turn waits: phase %v, turn %d, owing %v", n.Phase, n.Turn, n.Owing())
	}
	// Nobody but the offered seat answers it; an unknown deal is no deal.
	accept := engine.Action{Type: engine.AcceptDeal, Deal: deal.ID}
	rtRefused(t, n, 2, accept, engine.ErrIllegalAction)
	rtRefused(t, n, 1, engine.Action{Type: engine.AcceptDeal, Deal: deal.ID + 1}, engine.ErrIllegalAction)
	if d := engine.DealDefault(deal); d != (engine.Action{Type: engine.DeclineDeal, Deal: deal.ID}) {
		t.Errorf("default %v", d)
	}
	if got := engine.AnswersTo(n.OpenDeals(), 1); len(got) != 2 || !got[0].Default || got[0].Type != engine.DeclineDeal {
		t.Errorf("answers %v", got)
	}
	// Seat 2 plays on meanwhile; seat 1 answers out of its turn.
	n.Turn, n.Phase = 2, PhRoll
	acc, ev := rtApply(t, n, 1, accept)
	if acc.Owner[12] != 0 || acc.Players[0].Cash != 42_500 || acc.Players[1].Cash != s.Players[1].Cash+7_500 || acc.Bank != n.Bank {
		t.Errorf("accepted: owner %d, cash %d / %d", acc.Owner[12], acc.Players[0].Cash, acc.Players[1].Cash)
	}
	if rtFind(ev, 1, engine.EvDealDone) < 0 || rtSum(ev, 0, EvOfferDone) != -7_500 || len(acc.Deals.Open) != 0 || acc.Turn != 2 || acc.Phase != PhRoll {
		t.Errorf("accept: events %v, deals %v, turn %d %v", ev, acc.Deals.Open, acc.Turn, acc.Phase)
	}
	rtRefused(t, acc, 1, accept, engine.ErrIllegalAction) // answered once
	dec, ev := rtApply(t, n, 1, engine.Action{Type: engine.DeclineDeal, Deal: deal.ID})
	if dec.Owner[12] != 1 || rtFind(ev, 1, engine.EvDealDeclined) < 0 || len(dec.Deals.Open) != 0 {
		t.Errorf("declined: owner %d, events %v", dec.Owner[12], ev)
	}
	// The share sold to the bank meanwhile: accepting lapses.
	gone := n.Clone()
	gone.Owner[12] = -1
	lap, ev := rtApply(t, gone, 1, accept)
	if i := rtFind(ev, 1, engine.EvDealLapsed); i < 0 || ev[i].Other != engine.LapseGone || lap.Owner[12] != -1 || lap.Players[0].Cash != n.Players[0].Cash {
		t.Errorf("lapsed (sold): events %v", ev)
	}
	// The buyer short of the price by then: it lapses too.
	poor := n.Clone()
	poor.Players[0].Cash = 7_499
	lap, ev = rtApply(t, poor, 1, accept)
	if i := rtFind(ev, 1, engine.EvDealLapsed); i < 0 || ev[i].Other != engine.LapseCash || lap.Owner[12] != 1 {
		t.Errorf("lapsed (cash): events %v", ev)
	}
	// A side that leaves the game takes its deals with it.
	turn1 := n.Clone()
	turn1.Turn, turn1.Phase = 1, PhRoll
	left, ev := rtApply(t, turn1, 1, engine.Action{Type: AResign})
	if rtFind(ev, -1, engine.EvDealLapsed) < 0 || len(left.Deals.Open) != 0 {
		t.Errorf("the offered seat resigned: events %v", ev)
	}
	// Apply leaves its receiver alone, deals included.
	if len(n.Deals.Open) != 1 {
		t.Error("answering changed the state it was applied to")
	}
}

// W-5 under rules version 3: a seat may keep the holding it stopped on to
// decide later — the turn goes on, nobody else may buy it meanwhile, one
// such purchase at a time —, and buys it when it accepts, if it then has
// the price.
func TestW5_PurchaseKeptForLater(t *testing.T) {
	s := rtGame(t, 3)
	s.Players[0].Cash = 50_000
	rtLand(t, s, 0, 10)
	if !slices.Contains(rtTypes(s, 0), AHold) {
		t.Fatalf("no hold among %v", rtTypes(s, 0))
	}
	n, _ := rtApply(t, s, 0, engine.Action{Type: AHold, Cell: 10})
	if len(n.Deals.Open) != 1 || n.Deals.Open[0].From != engine.Bank || n.Turn == 0 || n.Owner[10] >= 0 {
		t.Fatalf("hold: deals %+v, turn %d", n.Deals.Open, n.Turn)
	}
	// Another seat stopping there may not buy it.
	other := n.Clone()
	rtLand(t, other, 1, 10)
	if slices.Contains(rtTypes(other, 1), ABuy) {
		t.Error("another seat may buy the holding kept for seat 0")
	}
	// Seat 0 stopping on another free holding may not keep a second.
	again := n.Clone()
	rtLand(t, again, 0, 2)
	if types := rtTypes(again, 0); slices.Contains(types, AHold) || !slices.Contains(types, ABuy) {
		t.Errorf("a second purchase kept: %v", types)
	}
	id := n.Deals.Open[0].ID
	bought, ev := rtApply(t, n, 0, engine.Action{Type: engine.AcceptDeal, Deal: id})
	if bought.Owner[10] != 0 || bought.Players[0].Cash != 50_000-Board[10].Price || rtSum(ev, 0, EvBuy) != -Board[10].Price {
		t.Errorf("bought later: owner %d, cash %d, events %v", bought.Owner[10], bought.Players[0].Cash, ev)
	}
	poor := n.Clone()
	poor.Players[0].Cash = Board[10].Price - 1
	if _, ev := rtApply(t, poor, 0, engine.Action{Type: engine.AcceptDeal, Deal: id}); rtFind(ev, 0, engine.EvDealLapsed) < 0 {
		t.Errorf("bought without the cash: %v", ev)
	}
	passed, _ := rtApply(t, n, 0, engine.DealDefault(n.Deals.Open[0]))
	if passed.Owner[10] >= 0 || len(passed.Deals.Open) != 0 {
		t.Error("passing bought it")
	}
	rtLand(t, passed, 1, 10)
	if !slices.Contains(rtTypes(passed, 1), ABuy) {
		t.Error("once passed, the holding cannot be bought by another")
	}
}

// P-1 with deals: a game whose seats propose, keep and answer deals
// replays exactly from its log.
func TestP1_DealsReplayExactly(t *testing.T) {
	for seed := byte(0); seed < 4; seed++ {
		s, err := New(Options{Laps: 3}, 4, [32]byte{seed, 23})
		if err != nil {
			t.Fatal(err)
		}
		o := engine.SensibleOrders(orderSpecs)
		var log []engine.Command
		deals := 0
		for steps := 0; !s.Over(); steps++ {
			if steps > 100_000 {
				t.Fatalf("seed %d: no end", seed)
			}
			var seat int
			var a engine.Action
			if len(s.Deals.Open) > 0 && steps%3 == 0 { // answered a while later
				d := s.Deals.Open[0]
				seat, a = d.To, engine.Action{Type: engine.AcceptDeal, Deal: d.ID}
				deals++
			} else {
				seat = s.Owing()[0]
				var ok bool
				if a, ok = engine.ByOrders(s, seat, o); !ok {
					if b, ok := s.BotOffer(seat); ok && s.Allows(seat, b) {
						a = b
					} else {
						a, _ = s.Bot(seat)
					}
				}
			}
			n, _, err := engine.Apply(s, seat, a)
			if err != nil {
				t.Fatalf("seed %d: %v of seat %d refused: %v", seed, a, seat, err)
			}
			log = append(log, engine.Command{Seat: seat, Action: a})
			s = n
		}
		r, err := Replay(Options{Laps: 3}, 4, [32]byte{seed, 23}, log)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := s.Marshal()
		b, _ := r.Marshal()
		if string(a) != string(b) {
			t.Fatalf("seed %d: replay differs", seed)
		}
		if deals == 0 {
			t.Errorf("seed %d: no deal answered", seed)
		}
	}
}
