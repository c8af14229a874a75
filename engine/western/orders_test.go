package western

import (
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// orderState is a game with seat 0 stopped on cell in PhAct with cash.
func orderState(t *testing.T, cell int, cash int64) *State {
	t.Helper()
	s := rtGame(t, 3)
	s.Phase = PhAct
	s.Players[0].Cell = cell
	s.Players[0].Cash = cash
	return s
}

func TestByOrders(t *testing.T) {
	sensible := engine.SensibleOrders(orderSpecs)
	with := func(o engine.Orders, name string, v int64) engine.Orders {
		c := engine.Orders{}
		for k, x := range o {
			c[k] = x
		}
		c[name] = v
		return c
	}
	type want struct {
		a  engine.Action
		ok bool
	}
	none := want{}
	cases := []struct {
		name  string
		state func(t *testing.T) *State
		seat  int
		o     engine.Orders
		want  want
	}{
		{"no orders cover nothing", func(t *testing.T) *State { return rtGame(t, 3) }, 0, nil, none},
		{"roll at once", func(t *testing.T) *State { return rtGame(t, 3) }, 0, engine.Orders{engine.OrderRoll: 1}, want{engine.Action{Type: ARoll}, true}},
		{"roll off", func(t *testing.T) *State { return rtGame(t, 3) }, 0, engine.Orders{engine.OrderRoll: 0, OrderForkMain: 1}, none},
		{"not my turn", func(t *testing.T) *State { return rtGame(t, 3) }, 1, sensible, none},
		{"fork: main road", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase, s.Players[0].Cell = PhFork, 5
			return s
		}, 0, sensible, want{engine.Action{Type: AFork, Cell: 6}, true}},
		{"cheap holding with cash to spare: buy", func(t *testing.T) *State { return orderState(t, 2, 50_000) }, 0, sensible,
			want{engine.Action{Type: ABuy, Cell: 2}, true}},
		{"holding above buy_below but within the cap: decline and end", func(t *testing.T) *State { return orderState(t, 10, 200_000) }, 0, with(sensible, engine.OrderBuyBelow, 5_000),
			want{engine.Action{Type: AEnd}, true}},
		{"holding over a fifth of cash: kept for the player to decide later", func(t *testing.T) *State { return orderState(t, 10, 50_000) }, 0, sensible,
			want{engine.Action{Type: AHold, Cell: 10}, true}},
		{"holding over a fifth of cash with one kept already: the player's", func(t *testing.T) *State {
			s := orderState(t, 10, 50_000)
			s.Deals.Propose(engine.Bank, 0, engine.Action{Type: ABuy, Cell: 2, Amount: Board[2].Price}, nil)
			return s
		}, 0, sensible, none},
		{"holding over a fifth of cash, rules 2: the player's", func(t *testing.T) *State {
			s := orderState(t, 10, 50_000)
			s.Rules = Rulebook[2]
			return s
		}, 0, sensible, none},
		{"buy would break keep_cash: end", func(t *testing.T) *State { return orderState(t, 2, 11_000) }, 0, with(sensible, engine.OrderSpendPct, 100),
			want{engine.Action{Type: AEnd}, true}},
		{"no buy order: kept for the player", func(t *testing.T) *State { return orderState(t, 2, 50_000) }, 0, engine.Orders{engine.OrderEndTurn: 1},
			want{engine.Action{Type: AHold, Cell: 2}, true}},
		{"no buy order nor end_turn: the player's", func(t *testing.T) *State { return orderState(t, 2, 50_000) }, 0, engine.Orders{engine.OrderKeepCash: 1000}, none},
		{"plain cell, end_turn: end", func(t *testing.T) *State { return orderState(t, 13, 50_000) }, 0, sensible, want{engine.Action{Type: AEnd}, true}},
		{"plain cell, no end_turn", func(t *testing.T) *State { return orderState(t, 13, 50_000) }, 0, with(sensible, engine.OrderEndTurn, 0), none},
		{"market: sell all cars", func(t *testing.T) *State {
			s := orderState(t, 15, 50_000)
			s.Players[0].Goods[Cars] = 7
			return s
		}, 0, sensible, want{engine.Action{Type: ASellGood, Good: Cars.String(), Amount: 7}, true}},
		{"speculation ×3: sell", func(t *testing.T) *State {
			s := orderState(t, 18, 50_000)
			s.Owner[2] = 0
			return s
		}, 0, sensible, want{engine.Action{Type: ASpecSell, Cell: 2}, true}},
		{"speculation ×1.5 below spec_pct: end", func(t *testing.T) *State {
			s := orderState(t, 24, 50_000)
			s.Owner[2] = 0
			return s
		}, 0, sensible, want{engine.Action{Type: AEnd}, true}},
		{"bank: repay the credit in full within the limits", func(t *testing.T) *State {
			s := orderState(t, 8, 200_000)
			s.Players[0].Credit = 30_000
			return s
		}, 0, sensible, want{engine.Action{Type: ARepay, Amount: 30_000}, true}},
		{"bank: a repayment over spend_pct is left, end", func(t *testing.T) *State {
			s := orderState(t, 8, 50_000)
			s.Players[0].Credit = 30_000
			return s
		}, 0, sensible, want{engine.Action{Type: AEnd}, true}},
		{"bank: withdraw up to keep_cash", func(t *testing.T) *State {
			s := orderState(t, 8, 4_000)
			s.Players[0].Deposit = 20_000
			return s
		}, 0, sensible, want{engine.Action{Type: AWithdraw, Amount: 6_000}, true}},
		{"bank: credit up to credit_upto", func(t *testing.T) *State { return orderState(t, 8, 1_000) }, 0, with(sensible, OrderCreditUpTo, 5_000),
			want{engine.Action{Type: ACredit, Amount: 5_000}, true}},
		{"bank: never take credit, end", func(t *testing.T) *State { return orderState(t, 8, 1_000) }, 0, sensible, want{engine.Action{Type: AEnd}, true}},
		{"bribe: skipped by skip_extras", func(t *testing.T) *State { return orderState(t, 4, 50_000) }, 0, sensible, want{engine.Action{Type: AEnd}, true}},
		{"bribe without skip_extras: the player's", func(t *testing.T) *State { return orderState(t, 4, 50_000) }, 0, with(sensible, engine.OrderSkip, 0), none},
		{"raid, small loot: surrender", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase, s.Players[0].Loot = PhRaid, 1_000
			return s
		}, 0, sensible, want{engine.Action{Type: ASurrender}, true}},
		{"raid, small loot but over a fifth of the cash: prison", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase, s.Players[0].Loot, s.Players[0].Cash = PhRaid, 4_000, 10_000
			return s
		}, 0, sensible, want{engine.Action{Type: APrison}, true}},
		{"raid, big loot: prison", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase, s.Players[0].Loot = PhRaid, 9_000
			return s
		}, 0, sensible, want{engine.Action{Type: APrison}, true}},
		{"offer: sensible orders leave it to the player", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase, s.Offer = PhOffer, Offer{Cell: 2, From: 0, To: 1, Price: 3_000}
			s.Owner[2] = 1
			return s
		}, 1, sensible, none},
		{"offer at or above offer_accept: accept", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase, s.Offer = PhOffer, Offer{Cell: 2, From: 0, To: 1, Price: 3_000}
			s.Owner[2] = 1
			return s
		}, 1, engine.Orders{OrderOfferAccept: 3_000}, want{engine.Action{Type: AAccept}, true}},
		{"offer below offer_decline: decline", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase, s.Offer = PhOffer, Offer{Cell: 2, From: 0, To: 1, Price: 3_000}
			s.Owner[2] = 1
			return s
		}, 1, engine.Orders{OrderOfferDecline: 5_000, OrderOfferAccept: 9_000}, want{engine.Action{Type: ADecline}, true}},
		{"auction: bid up to the cap", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase = PhAuction
			s.Auction.Cell, s.Auction.Min = 2, 2_000
			return s
		}, 1, sensible, want{engine.Action{Type: ABid, Cell: 2, Amount: 10_000}, true}},
		{"auction: minimum above what orders spend, pass", func(t *testing.T) *State {
			s := rtGame(t, 3)
			s.Phase = PhAuction
			s.Auction.Cell, s.Auction.Min = 10, 20_000
			return s
		}, 2, sensible, want{engine.Action{Type: APass}, true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.state(t)
			a, ok := engine.ByOrders(s, c.seat, c.o)
			if ok != c.want.ok || a != c.want.a {
				t.Fatalf("ByOrders = %v %v, want %v %v (legal %v)", a, ok, c.want.a, c.want.ok, s.Legal(c.seat))
			}
			if ok {
				rtApply(t, s, c.seat, a)
			}
		})
	}
}

// TestOrdersPlayWholeGames: sensible orders, and every seat's orders
// fully set, only ever play legal moves, never loop, and a game played by
// them (the rest by bots) replays exactly from its log.
func TestOrdersPlayWholeGames(t *testing.T) {
	for seed := byte(0); seed < 6; seed++ {
		s, err := New(Options{Laps: 3}, 4, [32]byte{seed, 9})
		if err != nil {
			t.Fatal(err)
		}
		o := engine.SensibleOrders(orderSpecs)
		o[OrderCreditUpTo] = 20_000
		var log []engine.Command
		byOrders := 0
		for steps := 0; !s.Over(); steps++ {
			if steps > 100_000 {
				t.Fatalf("seed %d: no end after %d steps", seed, steps)
			}
			seat := s.Owing()[0]
			a, ok := engine.ByOrders(s, seat, o)
			ordered := ok
			if ok {
				byOrders++
				// The contract with the simulator: sensible orders never
				// answer another player's offer, nor spend more than a
				// fifth of the cash at once.
				cash := s.Players[seat].Cash
				switch {
				case s.Phase == PhOffer:
					t.Fatalf("seed %d: sensible orders answered an offer: %v", seed, a)
				case a.Type == ABid && a.Amount > cash/5,
					a.Type == ABuy && Board[a.Cell].Price > cash/5,
					a.Type == ARepay && a.Amount > cash/5:
					t.Fatalf("seed %d: sensible orders spend %v of %d", seed, a, cash)
				}
			} else if a, ok = s.Bot(seat); !ok {
				t.Fatalf("seed %d: seat %d owes with no bot move", seed, seat)
			}
			n, _, err := engine.Apply(s, seat, a)
			if err != nil {
				t.Fatalf("seed %d: %v refused: %v", seed, a, err)
			}
			// Whatever an order chooses (the roll is the die's) costs at
			// most a fifth of the cash it had.
			before, after := s.Players[seat], n.Players[seat]
			if spent := before.Cash + before.Deposit - after.Cash - after.Deposit; ordered && a.Type != ARoll && spent > before.Cash/5 {
				t.Fatalf("seed %d: sensible orders' %v cost %d of %d cash", seed, a, spent, before.Cash)
			}
			log = append(log, engine.Command{Seat: seat, Action: a})
			s = n
		}
		if byOrders == 0 {
			t.Fatalf("seed %d: orders played nothing", seed)
		}
		r, err := Replay(Options{Laps: 3}, 4, [32]byte{seed, 9}, log)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := s.Marshal()
		b, _ := r.Marshal()
		if string(a) != string(b) {
			t.Fatalf("seed %d: replay differs", seed)
		}
	}
}

// FuzzByOrders: whatever the orders (any value of any spec, in or out of
// range) and whatever the state reached, what they play is legal.
func FuzzByOrders(f *testing.F) {
	f.Add([]byte("orders"), uint16(40))
	f.Add([]byte{1, 1, 1, 1, 0, 0, 255, 7, 3}, uint16(400))
	f.Fuzz(func(t *testing.T, data []byte, steps uint16) {
		var seed [32]byte
		copy(seed[:], data)
		s, err := New(Options{Laps: 2}, 3, seed)
		if err != nil {
			t.Fatal(err)
		}
		o := engine.Orders{}
		for i, spec := range orderSpecs {
			if i < len(data) && data[i]%3 != 0 {
				o[spec.Name] = int64(data[i]) * (spec.Max + 2) / 255
			}
		}
		for n := 0; n < int(steps) && !s.Over(); n++ {
			seat := s.Owing()[n%len(s.Owing())]
			a, ok := engine.ByOrders(s, seat, o)
			if !ok {
				a, _ = s.Bot(seat)
			}
			next, _, err := engine.Apply(s, seat, a)
			if err != nil {
				t.Fatalf("step %d: orders %v played %v: %v", n, o, a, err)
			}
			s = next
		}
	})
}
