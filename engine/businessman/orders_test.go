package businessman

import (
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// stopped is a game with seat 0 stopped on cell in PhAct with cash.
func stopped(t *testing.T, cell int, cash int64) *State {
	t.Helper()
	s := fresh(t, 3)
	s.Phase, s.Spot = PhAct, cell
	s.Players[0].Cell, s.Players[0].Cash = cell, cash
	return s
}

func TestByOrders(t *testing.T) {
	sensible := engine.SensibleOrders(orderSpecs)
	with := func(name string, v int64) engine.Orders {
		c := engine.Orders{}
		for k, x := range sensible {
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
		{"no orders cover nothing", func(t *testing.T) *State { return fresh(t, 3) }, 0, nil, none},
		{"roll at once", func(t *testing.T) *State { return fresh(t, 3) }, 0, engine.Orders{engine.OrderRoll: 1}, want{engine.Action{Type: ARoll}, true}},
		{"not my turn", func(t *testing.T) *State { return fresh(t, 3) }, 2, sensible, none},
		{"build before rolling", func(t *testing.T) *State {
			s := fresh(t, 3)
			for _, l := range Groups[0].Lots {
				s.Owner[l] = 0
			}
			s.Players[0].Cash = 1_000_000
			return s
		}, 0, sensible, want{engine.Action{Type: ABuild, Cell: Groups[0].Lots[0]}, true}},
		{"build beyond spend_pct: roll instead", func(t *testing.T) *State {
			s := fresh(t, 3)
			for _, l := range Groups[0].Lots {
				s.Owner[l] = 0
			}
			s.Players[0].Cash = 45_000
			return s
		}, 0, sensible, want{engine.Action{Type: ARoll}, true}},
		{"cheap lot: buy", func(t *testing.T) *State { return stopped(t, 2, 500_000) }, 0, sensible, want{engine.Action{Type: ABuy, Cell: 2}, true}},
		{"lot over a fifth of cash: kept for the player to decide later", func(t *testing.T) *State { return stopped(t, 2, 60_000) }, 0, sensible,
			want{engine.Action{Type: AHold, Cell: 2}, true}},
		{"lot over a fifth of cash with one kept already: the player's", func(t *testing.T) *State {
			s := stopped(t, 2, 60_000)
			s.Deals.Propose(engine.Bank, 0, engine.Action{Type: ABuy, Cell: 3, Amount: Board[3].Price}, nil)
			return s
		}, 0, sensible, none},
		{"lot over a fifth of cash, rules 2: the player's", func(t *testing.T) *State {
			s := stopped(t, 2, 60_000)
			s.Rules = Rulebook[2]
			return s
		}, 0, sensible, none},
		{"lot above buy_below: end", func(t *testing.T) *State { return stopped(t, 28, 1_000_000) }, 0, with(engine.OrderBuyBelow, 30_000), want{engine.Action{Type: AEnd}, true}},
		{"plain stop: end", func(t *testing.T) *State { return stopped(t, 12, 100_000) }, 0, sensible, want{engine.Action{Type: AEnd}, true}},
		{"plain stop without end_turn", func(t *testing.T) *State { return stopped(t, 12, 100_000) }, 0, with(engine.OrderEndTurn, 0), none},
		{"broker skipped", func(t *testing.T) *State { return stopped(t, 14, 100_000) }, 0, sensible, want{engine.Action{Type: AEnd}, true}},
		{"broker without skip_extras: the player's", func(t *testing.T) *State { return stopped(t, 14, 100_000) }, 0, with(engine.OrderSkip, 0), none},
		{"claim rent", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Phase, s.Claim = PhClaim, Claim{Owner: 1, Payer: 0, Cell: 2, Amount: 2_000}
			s.Owner[2] = 1
			return s
		}, 1, sensible, want{engine.Action{Type: AClaim, Cell: 2, Target: 0}, true}},
		{"gift: the colour held most", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Phase, s.Gift = PhChoose, 3
			s.Players[0].Shares = [NumColours]int64{1, 1, 4, 1, 1, 1}
			return s
		}, 0, sensible, want{engine.Action{Type: ATake, Good: Groups[2].Key, Amount: 3}, true}},
		{"deal offered: sensible orders leave it to the player", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Owner[2] = 1
			s.Phase, s.Offer = PhOffer, Offer{Kind: AOfferBuy, From: 0, To: 1, Cell: 2, Price: 40_000, Resume: PhRoll}
			return s
		}, 1, sensible, none},
		{"offer at 200% with accept at 150%: accept", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Owner[2] = 1
			s.Phase, s.Offer = PhOffer, Offer{Kind: AOfferBuy, From: 0, To: 1, Cell: 2, Price: 40_000, Resume: PhRoll}
			return s
		}, 1, engine.Orders{OrderOfferAccept: 150}, want{engine.Action{Type: AAccept}, true}},
		{"offer at 50% with decline below 100%: decline", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Owner[2] = 1
			s.Phase, s.Offer = PhOffer, Offer{Kind: AOfferBuy, From: 0, To: 1, Cell: 2, Price: 10_000, Resume: PhRoll}
			return s
		}, 1, engine.Orders{OrderOfferDecline: 100, OrderOfferAccept: 150}, want{engine.Action{Type: ADecline}, true}},
		{"customs sells what the default picks", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Phase, s.Sell = PhCustoms, 2
			s.Players[0].Shares = [NumColours]int64{1, 3, 0, 0, 0, 1}
			return s
		}, 0, sensible, want{engine.Action{Type: ASellShares, Good: Groups[1].Key, Amount: 2}, true}},
		{"customs without the order: the player's", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Phase, s.Sell = PhCustoms, 2
			s.Players[0].Shares = [NumColours]int64{1, 3, 0, 0, 0, 1}
			return s
		}, 0, with(OrderCustoms, 0), none},
		{"roulette off an exit, cash to spare: spin", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Phase, s.RoulPos, s.RoulLeft = PhRoulette, 0, 2
			s.Players[0].Cash = 500_000
			return s
		}, 0, sensible, want{engine.Action{Type: ASpin}, true}},
		{"roulette whose worst loss is over a fifth of the cash: the player's", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Phase, s.RoulPos, s.RoulLeft = PhRoulette, 0, 2
			s.Players[0].Cash = 100_000
			return s
		}, 0, sensible, none},
		{"roulette on an exit: leave", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Phase, s.RoulPos, s.RoulLeft = PhRoulette, 2, 2
			s.Players[0].Cash = 100_000
			return s
		}, 0, sensible, want{engine.Action{Type: ALeave}, true}},
		{"debt is never an order's", func(t *testing.T) *State {
			s := fresh(t, 3)
			s.Owner[2] = 0
			s.Phase, s.Resume = PhDebt, PhAct
			s.Debts = []Debt{{Seat: 0, To: -1, Amount: 300_000, Why: "fine"}}
			return s
		}, 0, sensible, none},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.state(t)
			a, ok := engine.ByOrders(s, c.seat, c.o)
			if ok != c.want.ok || a != c.want.a {
				t.Fatalf("ByOrders = %v %v, want %v %v (legal %v)", a, ok, c.want.a, c.want.ok, s.Legal(c.seat))
			}
			// Cases set cash directly, so money is not conserved here: only
			// legality is checked.
			if _, _, err := engine.Apply(s, c.seat, a); ok && err != nil {
				t.Fatalf("%v refused: %v", a, err)
			}
		})
	}
}

// TestOrdersPlayWholeGames: sensible orders only ever play legal moves,
// never loop, and a game played by them (the rest by bots) replays exactly.
func TestOrdersPlayWholeGames(t *testing.T) {
	for seed := byte(0); seed < 6; seed++ {
		s, err := New(DefaultOptions(), 3, [32]byte{seed, 7})
		if err != nil {
			t.Fatal(err)
		}
		o := engine.SensibleOrders(orderSpecs)
		var log []engine.Command
		byOrders := 0
		for steps := 0; !s.Over(); steps++ {
			if steps > 200_000 {
				t.Fatalf("seed %d: no end after %d steps", seed, steps)
			}
			seat := s.Owing()[0]
			cash := s.Players[seat].Cash
			a, ok := engine.ByOrders(s, seat, o)
			ordered := ok
			if ok {
				byOrders++
				if s.Phase == PhOffer {
					t.Fatalf("seed %d: sensible orders answered a deal: %v", seed, a)
				}
			} else if a, ok = s.Bot(seat); !ok {
				t.Fatalf("seed %d: seat %d owes with no bot move", seed, seat)
			}
			n, _, err := engine.Apply(s, seat, a)
			if err != nil {
				t.Fatalf("seed %d: %v refused: %v", seed, a, err)
			}
			// The contract with the people: whatever an order chooses (the
			// roll is the dice's) costs at most a fifth of the cash.
			if spent := cash - n.Players[seat].Cash; ordered && a.Type != ARoll && spent > cash/5 {
				t.Fatalf("seed %d: sensible orders spent %d of %d on %v", seed, spent, cash, a)
			}
			log = append(log, engine.Command{Seat: seat, Action: a})
			s = n
		}
		if byOrders == 0 {
			t.Fatalf("seed %d: orders played nothing", seed)
		}
		r, err := Replay(DefaultOptions(), 3, [32]byte{seed, 7}, log)
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
		s, err := New(Options{Laps: 2, RentClaim: RentClaim}, 3, seed)
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
			seat := s.Owing()[0]
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
