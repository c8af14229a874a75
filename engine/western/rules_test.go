package western

// Rule by rule tests of RULES.md (W-0 … W-41, P-1 … P-4): each test builds
// a situation directly on the State, drives it through Legal / Apply (or,
// where a die would have to be forced, through move / land / lap), and
// checks the state and the signed event amounts.

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// ---- helpers ----

// rtGame starts a game with seat 0 to roll.
func rtGame(t *testing.T, seats int) *State {
	t.Helper()
	s, err := New(Options{Laps: 20}, seats, [32]byte{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	s.Turn, s.Phase = 0, PhRoll
	return s
}

// rtForceDie reseeds the generator so that the next roll is d: the seed is
// plain data of the state, and the roll still goes through the RNG.
func rtForceDie(t *testing.T, s *State, d int) {
	t.Helper()
	for k := 0; k < 10_000; k++ {
		r := engine.NewRNG([32]byte{byte(k), byte(k >> 8), 0xd1, 0xe5})
		peek := r
		if peek.Die() == d {
			s.RNG = r
			return
		}
	}
	t.Fatalf("no seed rolls %d", d)
}

// rtApply applies a to s and fails the test if the engine refuses.
func rtApply(t *testing.T, s *State, seat int, a engine.Action) (*State, []engine.Event) {
	t.Helper()
	n, ev, err := engine.Apply(s, seat, a)
	if err != nil {
		t.Fatalf("seat %d %v refused: %v", seat, a, err)
	}
	rtNoNegative(t, n)
	return n, ev
}

// rtRefused checks that the engine refuses a with the given kind.
func rtRefused(t *testing.T, s *State, seat int, a engine.Action, kind error) {
	t.Helper()
	before, _ := s.Marshal()
	if _, _, err := engine.Apply(s, seat, a); !errors.Is(err, kind) {
		t.Errorf("seat %d %v: err %v, want %v", seat, a, err, kind)
	}
	if after, _ := s.Marshal(); !bytes.Equal(before, after) {
		t.Errorf("refused %v changed the state", a)
	}
}

// rtOffered tells whether a is one of seat's legal actions.
func rtOffered(s *State, seat int, a engine.Action) bool {
	return engine.Find(s.Legal(seat), a) >= 0
}

// rtChoice finds seat's legal choice of type typ (and cell / good when set).
func rtChoice(s *State, seat int, typ string, cell int, good string) (engine.Choice, bool) {
	for _, c := range s.Legal(seat) {
		if c.Type == typ && (cell == 0 || c.Cell == cell) && (good == "" || c.Good == good) {
			return c, true
		}
	}
	return engine.Choice{}, false
}

// rtTypes lists the action types of seat's legal choices.
func rtTypes(s *State, seat int) []string {
	var out []string
	for _, c := range s.Legal(seat) {
		if !slices.Contains(out, c.Type) {
			out = append(out, c.Type)
		}
	}
	return out
}

// rtSum adds up the Amounts of the events of type typ ("" = all) for seat.
func rtSum(ev []engine.Event, seat int, typ string) int64 {
	var n int64
	for _, e := range ev {
		if e.Seat == seat && (typ == "" || e.Type == typ) {
			n += e.Amount
		}
	}
	return n
}

// rtFind returns the index of the first event of type typ for seat (−1: any
// seat), or −1.
func rtFind(ev []engine.Event, seat int, typ string) int {
	for i, e := range ev {
		if e.Type == typ && (seat < 0 || e.Seat == seat) {
			return i
		}
	}
	return -1
}

// rtNoNegative checks W-14's "cash never goes negative" on every balance.
func rtNoNegative(t *testing.T, s *State) {
	t.Helper()
	for i, p := range s.Players {
		if p.Cash < 0 || p.Deposit < 0 || p.Credit < 0 || p.ColonyLoan < 0 || p.Narco < 0 {
			t.Errorf("seat %d has a negative balance: %+v", i, p)
		}
		for g, n := range p.Goods {
			if n < 0 {
				t.Errorf("seat %d holds %d of good %d", i, n, g)
			}
		}
	}
}

// rtLand puts seat on cell as the turn seat and applies the cell.
func rtLand(t *testing.T, s *State, seat, cell int) []engine.Event {
	t.Helper()
	s.Turn = seat
	s.Players[seat].Cell = cell
	ev := s.land(seat, nil)
	rtNoNegative(t, s)
	return ev
}

// rtWalk follows the first path steps cells from cell.
func rtWalk(cell, steps int) int {
	for ; steps > 0; steps-- {
		cell = Board[cell].Next[0]
	}
	return cell
}

func rtWorth(t *testing.T, s *State, seat int) int64 {
	t.Helper()
	nw, _ := s.NetWorth(seat)
	return nw
}

// ---- W-0 … W-41 ----

// W-0: the richest after the agreed laps wins, or the last one not bankrupt.
func TestW0_WinnerIsRichestOrLastStanding(t *testing.T) {
	t.Run("richest after the laps", func(t *testing.T) {
		s := rtGame(t, 3)
		s.Players[0].Laps = s.Opts.Laps - 1
		s.Players[0].Cell = 90
		s.Players[1].Cash = 90_000 // the richest, though not the one who ends it
		s.Players[2].Cash = 10_000
		rtForceDie(t, s, 2)
		n, ev := rtApply(t, s, 0, engine.Action{Type: ARoll})
		if !n.Over() || rtFind(ev, -1, engine.EvGameOver) < 0 {
			t.Fatalf("game not over after seat 0 completed %d laps", n.Opts.Laps)
		}
		if e := ev[rtFind(ev, -1, engine.EvGameOver)]; e.Other != engine.OverLaps {
			t.Errorf("game over for reason %d, want the laps", e.Other)
		}
		sc := n.Score()
		if sc[1].Place != 1 || sc[0].Place != 2 || sc[2].Place != 3 {
			t.Errorf("places = %d %d %d, want 2 1 3", sc[0].Place, sc[1].Place, sc[2].Place)
		}
		for _, x := range sc {
			if nw := rtWorth(t, n, x.Seat); x.NetWorth != nw {
				t.Errorf("seat %d score %d, net worth %d", x.Seat, x.NetWorth, nw)
			}
		}
	})
	t.Run("last one not bankrupt", func(t *testing.T) {
		s := rtGame(t, 2)
		s.Players[0].Cash = 0
		s.Players[1].Cash = 0
		s.Players[1].Credit = 10_000
		// Seat 0 is broke but richer on paper than seat 1 ever was.
		s.Players[0].Deposit = 0
		ev := rtLand(t, s, 0, 111) // mutiny costs $1,000 it cannot pay
		if !s.Players[0].Bankrupt || !s.Over() || rtFind(ev, 0, EvBankrupt) < 0 {
			t.Fatalf("bankrupt=%v over=%v", s.Players[0].Bankrupt, s.Over())
		}
		if i := rtFind(ev, -1, engine.EvGameOver); i < 0 || ev[i].Other != engine.OverLastOne {
			t.Errorf("game over events %v: want the reason «last one standing»", ev)
		}
		sc := s.Score()
		if sc[1].Place != 1 || sc[0].Place != 2 || !sc[0].Bankrupt {
			t.Errorf("scores %+v: the last one standing must win", sc)
		}
	})
}

// W-1: $50,000 in cash each, and net worth 0 because it is subtracted again.
func TestW1_StartLoanCashAndZeroWorth(t *testing.T) {
	for seats := MinSeats; seats <= MaxSeats; seats++ {
		s, err := New(Options{Laps: 20}, seats, [32]byte{byte(seats)})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Players) != seats {
			t.Fatalf("%d players, want %d", len(s.Players), seats)
		}
		for i, p := range s.Players {
			nw, parts := s.NetWorth(i)
			if p.Cash != 50_000 || p.Credit != 0 || p.Deposit != 0 || p.Cell != 1 {
				t.Errorf("seats %d: seat %d starts with %+v", seats, i, p)
			}
			if nw != 0 || parts[PartStartLoan] != -50_000 || parts[PartCash] != 50_000 {
				t.Errorf("seats %d: seat %d net worth %d parts %v", seats, i, nw, parts)
			}
		}
	}
	if _, err := New(Options{Laps: 20}, 1, [32]byte{}); !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("one player accepted: %v", err)
	}
	if _, err := New(Options{Laps: 20}, 7, [32]byte{}); !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("seven players accepted: %v", err)
	}
}

// W-2: one six-sided die, the token goes that many cells along Next.
func TestW2_DieMovesAlongArrows(t *testing.T) {
	seen := map[int]bool{}
	for i := 0; i < 300; i++ {
		s, err := New(Options{Laps: 20}, 2, [32]byte{byte(i), byte(i >> 8), 9})
		if err != nil {
			t.Fatal(err)
		}
		seat := s.Turn
		start := []int{10, 86, 30, 60}[i%4] // no fork within six cells
		s.Players[seat].Cell = start
		n, ev := rtApply(t, s, seat, engine.Action{Type: ARoll})
		d := n.Die
		if d < 1 || d > 6 {
			t.Fatalf("roll %d", d)
		}
		seen[d] = true
		if k := rtFind(ev, seat, EvRoll); k != 0 {
			t.Errorf("the roll event is at %d, want first", k)
		} else if ev[k].Other != d && ev[k].Amount != int64(d) {
			t.Errorf("roll event %+v does not carry the die %d", ev[k], d)
		}
		if got, want := n.Players[seat].Cell, rtWalk(start, d); got != want {
			t.Errorf("from %d rolled %d: on %d, want %d", start, d, got, want)
		}
	}
	for d := 1; d <= 6; d++ {
		if !seen[d] {
			t.Errorf("%d never rolled in 300 games", d)
		}
	}
	// A forced roll of each value.
	for d := 1; d <= 6; d++ {
		s := rtGame(t, 2)
		s.Players[0].Cell = 10
		rtForceDie(t, s, d)
		n, _ := rtApply(t, s, 0, engine.Action{Type: ARoll})
		if n.Die != d || n.Players[0].Cell != 10+d {
			t.Errorf("forced %d: die %d cell %d", d, n.Die, n.Players[0].Cell)
		}
	}
}

// W-3: passing or landing on cell 1 settles the lap: $5,000, dividends,
// 15% credit interest, 10% deposit interest.
func TestW3_LapIncomeAndDividends(t *testing.T) {
	setup := func(t *testing.T, cell int) *State {
		s := rtGame(t, 2)
		p := &s.Players[0]
		p.Cell = cell
		p.Credit, p.CreditLap, p.Deposit, p.Protected = 10_000, 30_000, 20_000, true
		s.Owner[12], s.Owner[21] = 0, 0 // profits 1,000 and 750
		s.Owner[2] = 1                  // a rival's holding pays the rival, not seat 0
		return s
	}
	check := func(t *testing.T, s *State, ev []engine.Event, cashBefore int64) {
		t.Helper()
		p := s.Players[0]
		if p.Laps != 1 || rtFind(ev, 0, EvLap) < 0 {
			t.Errorf("laps %d, want 1", p.Laps)
		}
		if got := rtSum(ev, 0, EvIncome); got != 5_000 {
			t.Errorf("income %d, want 5000", got)
		}
		if got := rtSum(ev, 0, EvDividend); got != 1_750 {
			t.Errorf("dividends %d, want 1750", got)
		}
		if got := rtSum(ev, 0, EvInterest); got != -1_500 {
			t.Errorf("credit interest %d, want −1500 (15%% of 10,000)", got)
		}
		if got := rtSum(ev, 0, EvDepositInt); got != 2_000 {
			t.Errorf("deposit interest %d, want 2000 (10%% of 20,000)", got)
		}
		if p.Cash != cashBefore+5_000+1_750-1_500 || p.Deposit != 22_000 || p.Credit != 10_000 {
			t.Errorf("after the lap %+v", p)
		}
		if p.CreditLap != 0 || p.Protected {
			t.Errorf("lap did not reset credit_lap / protection: %+v", p)
		}
		if rtSum(ev, 1, "") != 0 {
			t.Errorf("seat 1 got money from seat 0's lap")
		}
	}
	t.Run("passing cell 1 by a roll", func(t *testing.T) {
		s := setup(t, 90)
		rtForceDie(t, s, 3)
		n, ev := rtApply(t, s, 0, engine.Action{Type: ARoll})
		if n.Players[0].Cell != 3 {
			t.Fatalf("on %d, want 3", n.Players[0].Cell)
		}
		check(t, n, ev, 50_000)
	})
	t.Run("passing cell 1 mid-move", func(t *testing.T) {
		s := setup(t, 89)
		ev := s.move(0, 3, 0, nil) // 90, 1, 2
		if s.Players[0].Cell != 2 {
			t.Fatalf("on %d, want 2", s.Players[0].Cell)
		}
		check(t, s, ev, 50_000)
	})
	t.Run("landing on cell 1", func(t *testing.T) {
		s := setup(t, 88)
		ev := s.move(0, 3, 0, nil) // 89, 90, 1
		if s.Players[0].Cell != 1 {
			t.Fatalf("on %d, want 1", s.Players[0].Cell)
		}
		check(t, s, ev, 50_000)
		if s.Turn != 1 {
			t.Errorf("cell 1 offers nothing; the turn should pass, turn = %d", s.Turn)
		}
	})
	t.Run("not reaching cell 1", func(t *testing.T) {
		s := setup(t, 10)
		ev := s.move(0, 3, 0, nil)
		if s.Players[0].Laps != 0 || rtFind(ev, 0, EvIncome) >= 0 || s.Players[0].Cash != 50_000 {
			t.Errorf("a lap without reaching cell 1: %+v", s.Players[0])
		}
	})
}

// W-4: forks ask mid-move with the steps left, and the move goes on along
// the chosen path.
func TestW4_ForksAskMidMove(t *testing.T) {
	tests := []struct {
		fork, start, die, left int
		paths                  []int
		want                   map[int]int // path → cell the token stops on
	}{
		{5, 3, 4, 2, []int{6, 91}, map[int]int{6: 7, 91: 92}},
		{48, 46, 4, 2, []int{49, 111}, map[int]int{49: 50, 111: 112}},
		{57, 55, 3, 1, []int{58, 114}, map[int]int{58: 58, 114: 114}},
		{77, 75, 5, 3, []int{78, 84}, map[int]int{78: 80, 84: 86}},
		{100, 98, 4, 2, []int{101, 104}, map[int]int{101: 102, 104: 105}},
		{129, 127, 3, 1, []int{130, 111}, map[int]int{130: 130, 111: 111}},
	}
	for _, tt := range tests {
		for _, path := range tt.paths {
			t.Run(strconv.Itoa(tt.fork)+"→"+strconv.Itoa(path), func(t *testing.T) {
				s := rtGame(t, 2)
				s.Players[0].Cell = tt.start
				rtForceDie(t, s, tt.die)
				n, ev := rtApply(t, s, 0, engine.Action{Type: ARoll})
				if n.Phase != PhFork || n.Players[0].Cell != tt.fork || n.Steps != tt.left {
					t.Fatalf("phase %v cell %d steps %d, want fork at %d with %d left",
						n.Phase, n.Players[0].Cell, n.Steps, tt.fork, tt.left)
				}
				if k := rtFind(ev, 0, EvForkAsked); k < 0 || ev[k].Cell != tt.fork {
					t.Errorf("no fork_asked event for %d: %+v", tt.fork, ev)
				}
				var forks []int
				for _, c := range n.Legal(0) {
					if c.Type == AFork {
						forks = append(forks, c.Cell)
						if c.Default != (c.Cell == tt.paths[0]) {
							t.Errorf("fork %d default=%v", c.Cell, c.Default)
						}
					}
				}
				if !slices.Equal(forks, tt.paths) {
					t.Errorf("forks offered %v, want %v", forks, tt.paths)
				}
				if len(n.Legal(1)) != 0 {
					t.Errorf("the other seat is offered %v", n.Legal(1))
				}
				rtRefused(t, n, 0, engine.Action{Type: AFork, Cell: tt.fork + 2}, engine.ErrIllegalAction)
				cash := n.Players[0].Cash
				m, ev := rtApply(t, n, 0, engine.Action{Type: AFork, Cell: path})
				if got := m.Players[0].Cell; got != tt.want[path] {
					t.Errorf("took %d with %d left: on %d, want %d", path, tt.left, got, tt.want[path])
				}
				if m.Steps != 0 {
					t.Errorf("steps %d after the move", m.Steps)
				}
				if tt.fork == 57 && path == 114 {
					if rtSum(ev, 0, EvFee) != -700 || m.Players[0].Cash != cash-700 {
						t.Errorf("travel agency: fees %d, want −500 fare −200 colony", rtSum(ev, 0, EvFee))
					}
				}
			})
		}
	}
	t.Run("57 closed without $500", func(t *testing.T) {
		s := rtGame(t, 2)
		s.Players[0].Cell = 55
		s.Players[0].Cash = 499
		rtForceDie(t, s, 3)
		n, ev := rtApply(t, s, 0, engine.Action{Type: ARoll})
		if rtFind(ev, 0, EvForkAsked) >= 0 || n.Players[0].Cell != 58 || n.Players[0].Cash != 499 {
			t.Errorf("with $499 the fork was asked or charged: cell %d cash %d", n.Players[0].Cell, n.Players[0].Cash)
		}
	})
	t.Run("a fork landed on is asked on the next roll", func(t *testing.T) {
		s := rtGame(t, 2)
		s.Players[0].Cell = 3
		rtForceDie(t, s, 2)
		n, ev := rtApply(t, s, 0, engine.Action{Type: ARoll})
		if n.Players[0].Cell != 5 || rtFind(ev, 0, EvForkAsked) >= 0 {
			t.Fatalf("landing on 5: cell %d, asked %v", n.Players[0].Cell, rtFind(ev, 0, EvForkAsked) >= 0)
		}
		n.Turn, n.Phase = 0, PhRoll
		rtForceDie(t, n, 1)
		m, _ := rtApply(t, n, 0, engine.Action{Type: ARoll})
		if m.Phase != PhFork || m.Steps != 1 {
			t.Fatalf("from the fork: phase %v steps %d", m.Phase, m.Steps)
		}
		m, _ = rtApply(t, m, 0, engine.Action{Type: AFork, Cell: 91})
		if m.Players[0].Cell != 91 {
			t.Errorf("on %d, want 91", m.Players[0].Cell)
		}
	})
}

// W-5: an unowned holding one stops on may be bought; one owner per holding.
func TestW5_BuyUnownedHolding(t *testing.T) {
	tests := []struct {
		name  string
		owner int8
		cash  int64
		buy   bool
	}{
		{"free, can pay", -1, 50_000, true},
		{"free, exact price", -1, 5_000, true},
		{"free, cannot pay", -1, 4_999, false},
		{"a rival's", 1, 50_000, false},
		{"one's own", 0, 50_000, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rtGame(t, 2)
			s.Owner[12] = tt.owner // the saloon, $5,000
			s.Players[0].Cash = tt.cash
			rtLand(t, s, 0, 12)
			buy := engine.Action{Type: ABuy, Cell: 12}
			if got := rtOffered(s, 0, buy); got != tt.buy {
				t.Fatalf("buy offered = %v, want %v", got, tt.buy)
			}
			if !tt.buy {
				if s.Turn != 1 || s.Owner[12] != tt.owner || s.Players[0].Cash != tt.cash {
					t.Errorf("nothing to do should end the turn and change nothing: turn %d", s.Turn)
				}
				return
			}
			c, _ := rtChoice(s, 0, ABuy, 12, "")
			if c.Default {
				t.Error("buying is the default")
			}
			rtRefused(t, s, 0, engine.Action{Type: ABuy, Cell: 11}, engine.ErrIllegalAction)
			n, ev := rtApply(t, s, 0, buy)
			if n.Owner[12] != 0 || n.Players[0].Cash != tt.cash-5_000 || rtSum(ev, 0, EvBuy) != -5_000 {
				t.Errorf("after buying: owner %d cash %d events %v", n.Owner[12], n.Players[0].Cash, ev)
			}
			if rtOffered(n, 0, buy) || rtOffered(n, 1, buy) {
				t.Error("a holding bought twice")
			}
		})
	}
}

// W-6: profit is paid at the lap; landing on a rival's holding costs nothing.
func TestW6_NoRentDividendsAtLap(t *testing.T) {
	s := rtGame(t, 2)
	s.Owner[12] = 1
	ev := rtLand(t, s, 0, 12)
	if s.Players[0].Cash != 50_000 || s.Players[1].Cash != 50_000 || rtSum(ev, 0, "") != 0 || rtSum(ev, 1, "") != 0 {
		t.Errorf("landing on a rival's holding moved money: %+v", ev)
	}
	ev = s.lap(0, nil)
	if rtSum(ev, 0, EvDividend) != 0 {
		t.Error("seat 0 paid dividends on seat 1's holding")
	}
	ev = s.lap(1, nil)
	if got := rtSum(ev, 1, EvDividend); got != Board[12].Profit {
		t.Errorf("owner's dividend %d, want %d", got, Board[12].Profit)
	}
}

// W-7: during one's own turn any holding may be sold to the bank at par.
func TestW7_SellAtParOnOwnTurn(t *testing.T) {
	phases := []struct {
		name  string
		setup func(s *State)
	}{
		{"roll", func(s *State) {}},
		{"fork", func(s *State) { s.Phase, s.Steps = PhFork, 1; s.Players[0].Cell = 5 }},
		{"act", func(s *State) { s.Phase = PhAct; s.Players[0].Cell = 8 }},
	}
	for _, ph := range phases {
		t.Run(ph.name, func(t *testing.T) {
			s := rtGame(t, 2)
			s.Owner[12], s.Owner[56], s.Owner[21] = 0, 0, 1
			s.Rates[leadIndex(56)] = 20 // worth 80,000 at the rate, sold at par
			ph.setup(s)
			for _, cell := range []int{12, 56} {
				if !rtOffered(s, 0, engine.Action{Type: ASell, Cell: cell}) {
					t.Errorf("sell %d not offered in %s", cell, ph.name)
				}
			}
			rtRefused(t, s, 0, engine.Action{Type: ASell, Cell: 21}, engine.ErrIllegalAction)
			rtRefused(t, s, 0, engine.Action{Type: ASell, Cell: 11}, engine.ErrIllegalAction)
			if c, _ := rtChoice(s, 1, ASell, 0, ""); c.Type != "" {
				t.Error("seat 1 may sell on seat 0's turn")
			}
			rtRefused(t, s, 1, engine.Action{Type: ASell, Cell: 21}, engine.ErrNotYourTurn)
			n, ev := rtApply(t, s, 0, engine.Action{Type: ASell, Cell: 56})
			if n.Owner[56] != -1 || n.Players[0].Cash != 90_000 || rtSum(ev, 0, EvSell) != 40_000 {
				t.Errorf("sold МММ: owner %d cash %d events %v", n.Owner[56], n.Players[0].Cash, ev)
			}
			if n.Phase != s.Phase || n.Turn != 0 {
				t.Errorf("a sale changed the phase %v→%v", s.Phase, n.Phase)
			}
		})
	}
}

// W-8: МММ and ЭМА produce a unit per full $10,000 of value at the rate;
// «Бампер» pays 100% of its nominal a lap.
func TestW8_LeadingCompaniesProduce(t *testing.T) {
	tests := []struct {
		cell, rate int
		good       Good
		units      int64
	}{
		{56, 10, Cola, 4}, // 40,000
		{56, 15, Cola, 6}, // 60,000
		{56, 12, Cola, 4}, // 48,000: full tens only
		{56, 2, Cola, 0},  // 8,000
		{65, 10, Cars, 6}, // 60,000
		{65, 1, Cars, 0},  // 6,000
		{65, 30, Cars, 18},
	}
	for _, tt := range tests {
		s := rtGame(t, 2)
		s.Owner[tt.cell] = 0
		s.Rates[leadIndex(tt.cell)] = tt.rate
		ev := s.lap(0, nil)
		if got := s.Players[0].Goods[tt.good]; got != tt.units {
			t.Errorf("%d at rate %d: %d units of %v, want %d", tt.cell, tt.rate, got, tt.good, tt.units)
		}
		if rtSum(ev, 0, EvDividend) != 0 {
			t.Errorf("%d paid a money dividend", tt.cell)
		}
		if k := rtFind(ev, 0, EvProduce); (k >= 0) != (tt.units > 0) || (k >= 0 && ev[k].Other != int(tt.units)) {
			t.Errorf("%d at rate %d: produce event %v", tt.cell, tt.rate, ev)
		}
	}
	for _, rate := range []int{10, 20, 3} {
		s := rtGame(t, 2)
		s.Owner[cellBumper] = 0
		s.Rates[leadIndex(cellBumper)] = rate
		ev := s.lap(0, nil)
		if got := rtSum(ev, 0, EvDividend); got != Board[cellBumper].Price {
			t.Errorf("«Бампер» at rate %d paid %d, want 100%% of nominal %d", rate, got, Board[cellBumper].Price)
		}
		if s.Players[0].Goods[Oil] != 0 {
			t.Errorf("«Бампер» produced %d oil instead of paying profit", s.Players[0].Goods[Oil])
		}
	}
}

// W-9: a leading share is worth price × points / 10; it starts at 10 points.
func TestW9_StockRateValue(t *testing.T) {
	s := rtGame(t, 2)
	for i := range leading {
		if s.Rates[i] != 10 {
			t.Errorf("leading %d starts at %d points", leading[i], s.Rates[i])
		}
	}
	tests := []struct {
		cell, rate int
		want       int64
	}{
		{56, 10, 40_000}, {56, 1, 4_000}, {56, 13, 52_000}, {65, 25, 150_000}, {117, 7, 21_000},
	}
	for _, tt := range tests {
		s := rtGame(t, 2)
		s.Owner[tt.cell] = 0
		s.Rates[leadIndex(tt.cell)] = tt.rate
		_, parts := s.NetWorth(0)
		if parts[PartShares] != tt.want {
			t.Errorf("%d at %d points: worth %d, want %d", tt.cell, tt.rate, parts[PartShares], tt.want)
		}
	}
	s.Owner[12] = 0
	s.Rates[0] = 30
	if _, parts := s.NetWorth(0); parts[PartShares] != Board[12].Price {
		t.Errorf("an ordinary holding goes by the rate: %d", parts[PartShares])
	}
}

// W-10: ХММ's owner gets 10% of МММ's and ЭМА's product value from the bank;
// each newspaper or TV company raises the owner's leading rates a point a lap.
func TestW10_HMMShareAndMedia(t *testing.T) {
	t.Run("ХММ", func(t *testing.T) {
		s := rtGame(t, 3)
		s.Owner[cellHMM] = 1
		s.Owner[56], s.Owner[65], s.Owner[cellBumper] = 0, 0, 0
		ev := s.lap(0, nil)
		// 4 cola × 1,500 and 6 cars × 2,000 at 10 points: 6,000 + 12,000.
		if got := rtSum(ev, 1, EvHMM); got != 600+1_200 {
			t.Errorf("ХММ got %d, want 1800", got)
		}
		if s.Players[1].Cash != 51_800 {
			t.Errorf("ХММ owner's cash %d", s.Players[1].Cash)
		}
		if got := s.Players[0].Cash; got != 50_000+5_000+Board[cellBumper].Profit {
			t.Errorf("the producer paid ХММ's share: cash %d", got)
		}
		if rtSum(ev, 2, "") != 0 {
			t.Error("an uninvolved seat got money")
		}
	})
	tests := []struct {
		name   string
		media  []int
		labour int
		want   int
	}{
		{"no media", nil, 0, 10},
		{"one newspaper", []int{35}, 0, 11},
		{"newspapers and TV: still one point", []int{35, 60, 84}, 0, 11},
		{"media against a low marker", []int{60}, -1, 10},
		{"media and a high marker", []int{35, 60}, 2, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rtGame(t, 2)
			s.Owner[56], s.Owner[65] = 0, 1
			for _, m := range tt.media {
				s.Owner[m] = 0
			}
			s.Players[0].Labour = tt.labour
			s.lap(0, nil)
			if s.Rates[0] != tt.want || s.Rates[1] != 10 {
				t.Errorf("rates МММ %d ЭМА %d, want %d and 10 (a rival's)", s.Rates[0], s.Rates[1], tt.want)
			}
		})
	}
	s := rtGame(t, 2)
	s.Owner[56], s.Owner[35], s.Owner[60] = 0, 0, 0
	s.Rates[0] = MaxRate - 1
	s.lap(0, nil)
	if s.Rates[0] != MaxRate {
		t.Errorf("rate %d past the top %d", s.Rates[0], MaxRate)
	}
}

// W-11: credit, deposit, withdrawal and repayment only on the bank cells;
// at most $50,000 of credit a lap.
func TestW11_BankCellsAndCreditCap(t *testing.T) {
	banks := []int{8, 20, 27, 45, 72, 118}
	for cell := 1; cell <= NumCells; cell++ {
		s := rtGame(t, 2)
		s.Players[0].Deposit = 1_000
		s.Players[0].Credit = 1_000
		if Board[cell].Kind == KHolding {
			s.Owner[cell] = -1
		}
		rtLand(t, s, 0, cell)
		bank := slices.Contains(banks, cell)
		types := rtTypes(s, 0)
		for _, typ := range []string{ACredit, ADeposit, AWithdraw, ARepay} {
			if slices.Contains(types, typ) != bank {
				t.Errorf("cell %d: %s offered = %v", cell, typ, !bank)
			}
		}
		if bank {
			c, _ := rtChoice(s, 0, ACredit, 0, "")
			if c.Min != 1 || c.Max != 50_000 || !c.Ranged() {
				t.Errorf("bank %d credit choice %+v", cell, c)
			}
		}
	}
	s := rtGame(t, 2)
	s.Players[0].CreditLap, s.Players[0].Credit = 30_000, 30_000
	rtLand(t, s, 0, 8)
	if c, _ := rtChoice(s, 0, ACredit, 0, ""); c.Max != 20_000 {
		t.Errorf("with 30,000 taken this lap the credit is up to %d", c.Max)
	}
	rtRefused(t, s, 0, engine.Action{Type: ACredit, Amount: 20_001}, engine.ErrIllegalAction)
	n, ev := rtApply(t, s, 0, engine.Action{Type: ACredit, Amount: 20_000})
	if p := n.Players[0]; p.Credit != 50_000 || p.CreditLap != 50_000 || p.Cash != 70_000 || rtSum(ev, 0, EvCredit) != 20_000 {
		t.Errorf("after credit %+v", p)
	}
	if rtOffered(n, 0, engine.Action{Type: ACredit, Amount: 1}) {
		t.Error("credit past 50,000 a lap")
	}
	n.lap(0, nil)
	if n.Players[0].CreditLap != 0 {
		t.Errorf("the lap did not reopen the credit: %d", n.Players[0].CreditLap)
	}
	// Deposit and withdrawal at a bank.
	n.Phase, n.Turn = PhAct, 0
	n.Players[0].Cell = 20
	cash := n.Players[0].Cash
	m, ev := rtApply(t, n, 0, engine.Action{Type: ADeposit, Amount: 10_000})
	if m.Players[0].Cash != cash-10_000 || m.Players[0].Deposit != 10_000 || rtSum(ev, 0, "") != 0 {
		t.Errorf("deposit: %+v", m.Players[0])
	}
	m, _ = rtApply(t, m, 0, engine.Action{Type: AWithdraw, Amount: 4_000})
	if m.Players[0].Cash != cash-6_000 || m.Players[0].Deposit != 6_000 {
		t.Errorf("withdraw: %+v", m.Players[0])
	}
	rtRefused(t, m, 0, engine.Action{Type: AWithdraw, Amount: 6_001}, engine.ErrIllegalAction)
}

// W-12: credit is repaid only at a bank; 15% interest a lap, halved above 0
// and doubled below 0 on the labour exchange.
func TestW12_RepayAtBankAndInterest(t *testing.T) {
	s := rtGame(t, 2)
	s.Players[0].Credit = 10_000
	s.Owner[12] = -1
	rtLand(t, s, 0, 12)
	if slices.Contains(rtTypes(s, 0), ARepay) {
		t.Error("repay offered off a bank cell")
	}
	s = rtGame(t, 2)
	s.Players[0].Credit = 10_000
	s.Players[0].Cash = 6_000
	rtLand(t, s, 0, 45)
	if c, ok := rtChoice(s, 0, ARepay, 0, ""); !ok || c.Max != 6_000 {
		t.Errorf("repay up to the cash: %+v", c)
	}
	n, ev := rtApply(t, s, 0, engine.Action{Type: ARepay, Amount: 4_000})
	if p := n.Players[0]; p.Credit != 6_000 || p.Cash != 2_000 || rtSum(ev, 0, EvRepay) != -4_000 {
		t.Errorf("after repaying 4,000: %+v", p)
	}
	rtRefused(t, n, 0, engine.Action{Type: ARepay, Amount: 2_001}, engine.ErrIllegalAction)

	tests := []struct {
		labour int
		want   int64
	}{
		{0, 1_500}, {1, 750}, {4, 750}, {-1, 3_000}, {-4, 3_000},
	}
	for _, tt := range tests {
		s := rtGame(t, 2)
		s.Players[0].Credit = 10_000
		s.Players[0].Labour = tt.labour
		ev := s.lap(0, nil)
		if got := rtSum(ev, 0, EvInterest); got != -tt.want {
			t.Errorf("labour %d: interest %d, want −%d", tt.labour, got, tt.want)
		}
		if s.Players[0].Credit != 10_000 {
			t.Errorf("interest was added to the credit: %d", s.Players[0].Credit)
		}
	}
}

// W-13: a deposit earns 10% a lap, into the deposit.
func TestW13_DepositInterest(t *testing.T) {
	for _, tt := range []struct{ dep, want int64 }{{10_000, 1_000}, {12_345, 1_234}, {0, 0}} {
		s := rtGame(t, 2)
		s.Players[0].Deposit = tt.dep
		ev := s.lap(0, nil)
		if got := rtSum(ev, 0, EvDepositInt); got != tt.want {
			t.Errorf("deposit %d: interest %d, want %d", tt.dep, got, tt.want)
		}
		if p := s.Players[0]; p.Deposit != tt.dep+tt.want || p.Cash != 55_000 {
			t.Errorf("deposit %d: after the lap %+v", tt.dep, p)
		}
	}
}

// W-14: short of cash, the deposit goes first, then goods, then holdings
// (cheapest first); if that is not enough, bankruptcy, and the holdings go
// back to the bank. Cash never goes negative.
func TestW14_ForcedSalesThenBankruptcy(t *testing.T) {
	const fee = 1_000 // mutiny on the ship, cell 111
	if Board[111].Amount != fee {
		t.Fatalf("mutiny costs %d", Board[111].Amount)
	}
	tests := []struct {
		name              string
		cash, dep         int64
		cars, cola        int64
		owns              []int
		wantCash, wantDep int64
		wantCars, wantCol int64
		wantOwns          []int
		bankrupt          bool
	}{
		{"cash suffices", 1_000, 500, 1, 1, []int{2}, 0, 500, 1, 1, []int{2}, false},
		{"deposit first", 100, 2_000, 1, 1, []int{2}, 0, 1_100, 1, 1, []int{2}, false},
		{"then goods: cars first", 100, 300, 1, 3, []int{2}, 1_400, 0, 0, 3, []int{2}, false},
		{"then goods: cola", 100, 300, 0, 3, []int{2}, 900, 0, 0, 2, []int{2}, false},
		{"then the cheapest holding", 0, 0, 0, 0, []int{12, 2, 56}, 1_000, 0, 0, 0, []int{12, 56}, false},
		{"bankrupt", 10, 20, 0, 0, nil, 0, 0, 0, 0, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := rtGame(t, 3)
			p := &s.Players[0]
			p.Cash, p.Deposit, p.Goods[Cars], p.Goods[Cola] = tt.cash, tt.dep, tt.cars, tt.cola
			for _, c := range tt.owns {
				s.Owner[c] = 0
			}
			ev := rtLand(t, s, 0, 111)
			if p.Cash != tt.wantCash || p.Deposit != tt.wantDep || p.Goods[Cars] != tt.wantCars || p.Goods[Cola] != tt.wantCol {
				t.Errorf("cash %d dep %d cars %d cola %d, want %d %d %d %d",
					p.Cash, p.Deposit, p.Goods[Cars], p.Goods[Cola], tt.wantCash, tt.wantDep, tt.wantCars, tt.wantCol)
			}
			var owns []int
			for c := 1; c <= NumCells; c++ {
				if s.Owner[c] == 0 {
					owns = append(owns, c)
				}
			}
			if !slices.Equal(owns, tt.wantOwns) {
				t.Errorf("owns %v, want %v", owns, tt.wantOwns)
			}
			if p.Bankrupt != tt.bankrupt {
				t.Errorf("bankrupt = %v", p.Bankrupt)
			}
			if !tt.bankrupt && rtSum(ev, 0, EvFee) != -fee {
				t.Errorf("fee events %d", rtSum(ev, 0, EvFee))
			}
			if tt.bankrupt && (rtFind(ev, 0, EvBankrupt) < 0 || rtSum(ev, 0, EvFee) != -30 || s.Turn != 1 || s.Over()) {
				t.Errorf("bankruptcy: events %v turn %d", ev, s.Turn)
			}
		})
	}
	t.Run("order of the sales and bankruptcy at the lap", func(t *testing.T) {
		s := rtGame(t, 3)
		p := &s.Players[0]
		p.Cell = 90
		p.Cash, p.Deposit, p.Credit = 0, 100, 1_000_000
		p.Goods[Oil], p.Narco, p.Skip = 2, 5, 0
		s.Owner[2], s.Owner[12], s.Owner[56] = 0, 0, 0
		ev := s.move(0, 2, 0, nil)
		iw, ig, ih, ib := rtFind(ev, 0, EvWithdraw), rtFind(ev, 0, EvSellGood), -1, rtFind(ev, 0, EvBankrupt)
		for i, e := range ev {
			if e.Type == EvForced && e.Cell != 0 {
				ih = i
				if e.Cell != 2 {
					t.Errorf("first holding sold is %d, want the cheapest, 2", e.Cell)
				}
				break
			}
		}
		if !(iw >= 0 && iw < ig && ig < ih && ih < ib) {
			t.Errorf("order withdraw %d goods %d holdings %d bankrupt %d: %v", iw, ig, ih, ib, ev)
		}
		if !p.Bankrupt || p.Cash != 0 || p.Deposit != 0 || p.Goods != [numGoods]int64{} || p.Narco != 0 {
			t.Errorf("bankrupt seat keeps %+v", *p)
		}
		for c := 1; c <= NumCells; c++ {
			if s.Owner[c] == 0 {
				t.Errorf("bankrupt seat still owns %d", c)
			}
		}
		if s.Turn != 1 || s.Phase != PhRoll || s.Over() {
			t.Errorf("turn %d phase %v after the bankruptcy", s.Turn, s.Phase)
		}
		if len(s.Legal(0)) != 0 || slices.Contains(s.Owing(), 0) {
			t.Error("a bankrupt seat is still asked")
		}
		// The bankrupt seat is skipped from now on.
		s.endTurn(nil)
		s.endTurn(nil)
		if s.Turn != 1 {
			t.Errorf("turn %d, want 1 again (seat 0 is out)", s.Turn)
		}
	})
}

// W-15: goods sell at the markets at the exchange rate; the tanker raises
// oil, the Klondike gold, the newspaper's owner may drop a good.
func TestW15_MarketsAndGoodRates(t *testing.T) {
	for _, cell := range []int{15, 26, 33} {
		s := rtGame(t, 2)
		p := &s.Players[0]
		p.Goods = [numGoods]int64{0, 3, 2, 1, 1}
		s.GoodPts[Oil] = 12
		rtLand(t, s, 0, cell)
		for g := Cars; g < numGoods; g++ {
			c, ok := rtChoice(s, 0, ASellGood, 0, g.String())
			if !ok || c.Min != 1 || c.Max != p.Goods[g] {
				t.Errorf("market %d: %v choice %+v", cell, g, c)
			}
		}
		n, ev := rtApply(t, s, 0, engine.Action{Type: ASellGood, Good: "oil", Amount: 1})
		if got := rtSum(ev, 0, EvGain); got != 300*12 || n.Players[0].Goods[Oil] != 0 {
			t.Errorf("market %d: oil at 12 points brought %d", cell, got)
		}
		n, ev = rtApply(t, n, 0, engine.Action{Type: ASellGood, Good: "cars", Amount: 2})
		if got := rtSum(ev, 0, EvGain); got != 2*2_000 || n.Players[0].Goods[Cars] != 1 {
			t.Errorf("market %d: two cars brought %d", cell, got)
		}
	}
	s := rtGame(t, 2)
	s.Players[0].Goods[Cars] = 3
	rtLand(t, s, 0, 8)
	if slices.Contains(rtTypes(s, 0), ASellGood) {
		t.Error("goods sold at a bank")
	}
	s = rtGame(t, 2)
	rtLand(t, s, 0, 89)
	if s.GoodPts[Oil] != 11 || s.Players[0].Goods[Oil] != Board[89].Amount {
		t.Errorf("tanker: oil at %d points, %d units", s.GoodPts[Oil], s.Players[0].Goods[Oil])
	}
	s = rtGame(t, 2)
	rtLand(t, s, 0, 121)
	if s.GoodPts[Gold] != 11 || s.Players[0].Goods[Gold] != Board[121].Amount {
		t.Errorf("Klondike: gold at %d points, %d units", s.GoodPts[Gold], s.Players[0].Goods[Gold])
	}
	s = rtGame(t, 2)
	s.Owner[cellNewspaper] = 0
	s.GoodPts[Gold] = MinRate
	rtLand(t, s, 0, cellNewspaper)
	var drops []string
	for _, c := range s.Legal(0) {
		if c.Type == ADropGood {
			drops = append(drops, c.Good)
		}
	}
	if !slices.Equal(drops, []string{"cars", "cola", "oil"}) {
		t.Errorf("drops offered %v (gold is at the floor)", drops)
	}
	n, _ := rtApply(t, s, 0, engine.Action{Type: ADropGood, Good: "cola"})
	if n.GoodPts[Cola] != 10-NewspaperDrop {
		t.Errorf("cola at %d points after the drop", n.GoodPts[Cola])
	}
	s = rtGame(t, 2)
	s.Owner[cellNewspaper] = 1
	rtLand(t, s, 0, cellNewspaper)
	if slices.Contains(rtTypes(s, 0), ADropGood) {
		t.Error("a non-owner dropped a rate")
	}
}

// W-16: the labour marker stays in −4…+4; below 0 only half of the cars and
// cola sell, above 0 everything does; leading rates follow the marker.
func TestW16_LabourExchange(t *testing.T) {
	tests := []struct{ cell, from, want int }{
		{7, 0, 1}, {7, 4, 4}, {7, -4, -3}, {19, 0, -1}, {19, -4, -4}, {19, 2, 1},
		{30, 3, 4}, {41, -3, -4}, {53, 0, 1}, {62, 0, -1}, {75, 0, 1}, {85, 0, -1},
	}
	for _, tt := range tests {
		s := rtGame(t, 2)
		s.Players[0].Labour = tt.from
		ev := rtLand(t, s, 0, tt.cell)
		if got := s.Players[0].Labour; got != tt.want {
			t.Errorf("cell %d from %d: marker %d, want %d", tt.cell, tt.from, got, tt.want)
		}
		if k := rtFind(ev, 0, EvLabour); k < 0 || ev[k].Other != tt.want {
			t.Errorf("cell %d: labour event %v", tt.cell, ev)
		}
	}
	sells := []struct {
		labour                 int
		cars, cola, oil, gold  int64
		wCars, wCola, wO, wGol int64
	}{
		{-1, 5, 4, 3, 2, 2, 2, 3, 2},
		{-4, 1, 7, 3, 2, 0, 3, 3, 2},
		{0, 5, 4, 3, 2, 5, 4, 3, 2},
		{3, 5, 4, 3, 2, 5, 4, 3, 2},
	}
	for _, tt := range sells {
		s := rtGame(t, 2)
		s.Players[0].Labour = tt.labour
		s.Players[0].Goods = [numGoods]int64{0, tt.cars, tt.cola, tt.oil, tt.gold}
		rtLand(t, s, 0, 15)
		want := map[string]int64{"cars": tt.wCars, "cola": tt.wCola, "oil": tt.wO, "gold": tt.wGol}
		for g, w := range want {
			c, ok := rtChoice(s, 0, ASellGood, 0, g)
			if (w == 0) == ok || (ok && c.Max != w) {
				t.Errorf("labour %d: %s sellable %d (offered %v), want %d", tt.labour, g, c.Max, ok, w)
			}
		}
	}
	for _, tt := range []struct{ labour, want int }{{1, 11}, {4, 11}, {0, 10}, {-1, 9}, {-4, 9}} {
		s := rtGame(t, 2)
		s.Owner[65] = 0
		s.Players[0].Labour = tt.labour
		s.lap(0, nil)
		if s.Rates[1] != tt.want {
			t.Errorf("labour %d: ЭМА at %d after the lap, want %d", tt.labour, s.Rates[1], tt.want)
		}
	}
	s := rtGame(t, 2)
	s.Owner[65] = 0
	s.Rates[1] = MinRate
	s.Players[0].Labour = -2
	s.lap(0, nil)
	if s.Rates[1] != MinRate {
		t.Errorf("rate %d below the floor", s.Rates[1])
	}
}

// W-17: speculation sells shares to the bank at ×3 (18) and ×1.5 (24, 81).
func TestW17_Speculation(t *testing.T) {
	tests := []struct {
		at, cell, rate int
		want           int64
	}{
		{18, 12, 10, 15_000},
		{24, 12, 10, 7_500},
		{81, 12, 10, 7_500},
		{18, 56, 12, 144_000}, // 48,000 at the rate ×3
		{24, 56, 12, 72_000},
		{81, 2, 10, 3_000},
	}
	for _, tt := range tests {
		s := rtGame(t, 2)
		s.Owner[tt.cell], s.Owner[21] = 0, 1
		s.Rates[0] = tt.rate
		rtLand(t, s, 0, tt.at)
		if rtOffered(s, 0, engine.Action{Type: ASpecSell, Cell: 21}) {
			t.Errorf("%d: a rival's share offered", tt.at)
		}
		n, ev := rtApply(t, s, 0, engine.Action{Type: ASpecSell, Cell: tt.cell})
		if got := rtSum(ev, 0, EvSpecSell); got != tt.want || n.Owner[tt.cell] != -1 || n.Players[0].Cash != 50_000+tt.want {
			t.Errorf("at %d sold %d (rate %d) for %d, want %d", tt.at, tt.cell, tt.rate, got, tt.want)
		}
	}
	s := rtGame(t, 2)
	s.Owner[12] = 0
	rtLand(t, s, 0, 8)
	if slices.Contains(rtTypes(s, 0), ASpecSell) {
		t.Error("speculation at a bank")
	}
}

// W-18: at an exchange the player may offer a rival 1.5× a share's price;
// the rival decides, by default declining.
func TestW18_ShareOffer(t *testing.T) {
	// Rules version 2: the turn waits for the offered seat's answer.
	setup := func(t *testing.T, cash int64) *State {
		s := rtGame(t, 3)
		s.Rules = Rulebook[2]
		s.Owner[12], s.Owner[56], s.Owner[2] = 1, 2, 0
		s.Players[0].Cash = cash
		rtLand(t, s, 0, 64)
		return s
	}
	s := setup(t, 50_000)
	var offers []engine.Action
	for _, c := range s.Legal(0) {
		if c.Type == AOffer {
			offers = append(offers, c.Action)
		}
	}
	want := []engine.Action{{Type: AOffer, Cell: 12, Target: 1}}
	if !slices.Equal(offers, want) { // МММ at 60,000 is beyond the cash; cell 2 is one's own
		t.Fatalf("offers %v, want %v", offers, want)
	}
	rtRefused(t, s, 0, engine.Action{Type: AOffer, Cell: 12, Target: 2}, engine.ErrIllegalAction)
	n, _ := rtApply(t, s, 0, offers[0])
	if n.Phase != PhOffer || !slices.Equal(n.Owing(), []int{1}) || n.Offer.Price != 7_500 {
		t.Fatalf("phase %v owing %v offer %+v", n.Phase, n.Owing(), n.Offer)
	}
	if len(n.Legal(0)) != 0 || len(n.Legal(2)) != 0 {
		t.Error("someone else may answer the offer")
	}
	if d, ok := n.Default(1); !ok || d.Type != ADecline {
		t.Errorf("default answer %v", d)
	}
	acc, ev := rtApply(t, n, 1, engine.Action{Type: AAccept})
	if acc.Owner[12] != 0 || acc.Players[0].Cash != 42_500 || acc.Players[1].Cash != 57_500 {
		t.Errorf("accepted: owner %d cash %d / %d", acc.Owner[12], acc.Players[0].Cash, acc.Players[1].Cash)
	}
	if rtSum(ev, 0, EvOfferDone) != -7_500 || rtSum(ev, 1, EvOfferDone) != 7_500 || acc.Bank != n.Bank {
		t.Errorf("accept events %v, bank %d→%d", ev, n.Bank, acc.Bank)
	}
	dec, ev := rtApply(t, n, 1, engine.Action{Type: ADecline})
	if dec.Owner[12] != 1 || dec.Players[0].Cash != 50_000 || dec.Players[1].Cash != 50_000 || rtFind(ev, 1, EvOfferNo) < 0 {
		t.Errorf("declined: owner %d cash %d / %d", dec.Owner[12], dec.Players[0].Cash, dec.Players[1].Cash)
	}
	if acc.Phase == PhOffer || dec.Phase == PhOffer {
		t.Error("the offer is still pending")
	}
	s = setup(t, 7_499)
	if slices.Contains(rtTypes(s, 0), AOffer) {
		t.Error("an offer the player cannot pay")
	}
	s = rtGame(t, 3)
	s.Rules = Rulebook[2]
	s.Owner[12] = 1
	rtLand(t, s, 0, 11) // a free holding: something to do, but no offer
	if types := rtTypes(s, 0); !slices.Contains(types, ABuy) || slices.Contains(types, AOffer) {
		t.Error("an offer off an exchange")
	}
}

// W-19: the auction of a random free firm from half its nominal, by sealed
// bids of every seat still playing.
func TestW19_SealedAuction(t *testing.T) {
	setup := func(t *testing.T, turn int) *State {
		s := rtGame(t, 4)
		for c := 1; c <= NumCells; c++ {
			if Board[c].Group == GFirm && c != 12 {
				s.Owner[c] = 3
			}
		}
		s.Players[2].Bankrupt = true
		rtLand(t, s, turn, 9)
		if s.Phase != PhAuction || s.Auction.Cell != 12 || s.Auction.Min != 2_500 {
			t.Fatalf("auction: phase %v %+v", s.Phase, s.Auction)
		}
		if !slices.Equal(s.Owing(), []int{0, 1, 3}) {
			t.Fatalf("owing %v, want every seat still playing", s.Owing())
		}
		return s
	}
	bid := func(n int64) engine.Action { return engine.Action{Type: ABid, Cell: 12, Amount: n} }
	pass := engine.Action{Type: APass}
	tests := []struct {
		name   string
		turn   int
		bids   map[int]engine.Action
		winner int
		price  int64
	}{
		{"highest wins", 0, map[int]engine.Action{0: bid(3_000), 1: bid(5_000), 3: pass}, 1, 5_000},
		{"the turn seat may win", 1, map[int]engine.Action{0: pass, 1: bid(2_500), 3: pass}, 1, 2_500},
		{"tie from the turn seat on", 1, map[int]engine.Action{0: bid(4_000), 1: pass, 3: bid(4_000)}, 3, 4_000},
		{"tie wraps round", 3, map[int]engine.Action{0: bid(4_000), 1: bid(4_000), 3: pass}, 0, 4_000},
		{"tie with the turn seat", 1, map[int]engine.Action{0: bid(4_000), 1: bid(4_000), 3: bid(2_600)}, 1, 4_000},
		{"no bids: unsold", 0, map[int]engine.Action{0: pass, 1: pass, 3: pass}, -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := setup(t, tt.turn)
			var ev []engine.Event
			for _, seat := range []int{3, 0, 1} {
				if _, ok := s.Bot(seat); !ok {
					t.Fatalf("seat %d owes no bid", seat)
				}
				var e []engine.Event
				s, e = rtApply(t, s, seat, tt.bids[seat])
				ev = append(ev, e...)
				if s.Phase == PhAuction && slices.Contains(s.Owing(), seat) {
					t.Fatalf("seat %d still owes after bidding", seat)
				}
				if s.Phase == PhAuction {
					rtRefused(t, s, seat, bid(9_000), engine.ErrNotYourTurn)
				}
			}
			if tt.winner < 0 {
				if s.Owner[12] != -1 || rtFind(ev, -1, EvAuctionNil) < 0 {
					t.Errorf("unsold firm has owner %d", s.Owner[12])
				}
			} else if s.Owner[12] != int8(tt.winner) || s.Players[tt.winner].Cash != 50_000-tt.price ||
				rtSum(ev, tt.winner, EvAuctionWon) != -tt.price {
				t.Errorf("owner %d cash %d, want seat %d paying %d", s.Owner[12], s.Players[tt.winner].Cash, tt.winner, tt.price)
			}
			for seat := range s.Players {
				if seat != tt.winner && s.Players[seat].Cash != 50_000 {
					t.Errorf("loser %d paid: cash %d", seat, s.Players[seat].Cash)
				}
			}
			// Once closed, every bid is shown to all, the winner's first.
			var shown []engine.Event
			for _, e := range ev {
				if e.Type == EvBidShown {
					shown = append(shown, e)
				}
			}
			if len(shown) != 3 || tt.winner >= 0 && shown[0].Seat != tt.winner {
				t.Errorf("bids shown: %+v", shown)
			}
			for _, e := range shown {
				if e.Private || int64(e.Other) != tt.bids[e.Seat].Amount || e.Cell != 12 {
					t.Errorf("seat %d's bid %+v shown as %+v", e.Seat, tt.bids[e.Seat], e)
				}
			}
			next := (tt.turn + 1) % 4
			if next == 2 { // bankrupt
				next = 3
			}
			if s.Phase != PhRoll || s.Turn != next {
				t.Errorf("after the auction: phase %v turn %d", s.Phase, s.Turn)
			}
		})
	}
	t.Run("bids out of range", func(t *testing.T) {
		s := setup(t, 0)
		s.Players[1].Cash = 2_000
		rtRefused(t, s, 0, bid(2_499), engine.ErrIllegalAction)
		rtRefused(t, s, 0, bid(50_001), engine.ErrIllegalAction)
		rtRefused(t, s, 0, engine.Action{Type: ABid, Cell: 13, Amount: 3_000}, engine.ErrIllegalAction)
		rtRefused(t, s, 2, pass, engine.ErrNotYourTurn)
		if !slices.Equal(rtTypes(s, 1), []string{APass, AResign}) {
			t.Errorf("a seat short of the minimum may only pass (or leave): %v", rtTypes(s, 1))
		}
	})
	t.Run("a random free firm", func(t *testing.T) {
		seen := map[int]bool{}
		for i := 0; i < 60; i++ {
			s, _ := New(Options{Laps: 20}, 2, [32]byte{byte(i), 77})
			s.Owner[6] = 0
			rtLand(t, s, s.Turn, 9)
			c := s.Auction.Cell
			if Board[c].Group != GFirm || s.Owner[c] >= 0 || s.Auction.Min != Board[c].Price/2 {
				t.Fatalf("auctioned %d (group %d owner %d) from %d", c, Board[c].Group, s.Owner[c], s.Auction.Min)
			}
			seen[c] = true
		}
		if len(seen) < 5 {
			t.Errorf("only %d different firms in 60 auctions", len(seen))
		}
	})
	t.Run("no free firm", func(t *testing.T) {
		s := rtGame(t, 2)
		for c := 1; c <= NumCells; c++ {
			if Board[c].Group == GFirm {
				s.Owner[c] = 1
			}
		}
		ev := rtLand(t, s, 0, 9)
		if s.Phase != PhRoll || s.Turn != 1 || rtFind(ev, -1, EvAuctionNil) < 0 {
			t.Errorf("nothing to auction: phase %v turn %d", s.Phase, s.Turn)
		}
	})
}

// W-20: the clan doubles the cash; crimes pay.
func TestW20_ClanAndCrimes(t *testing.T) {
	tests := []struct {
		cell       int
		cash, want int64
	}{
		{91, 12_345, 24_690},
		{91, 0, 0},
		{91, 1_500_000, 1_500_000 + ClanCap}, // filled-in cap on what the clan adds
		{93, 1_000, 4_000},
		{95, 1_000, 6_000},
		{97, 1_000, 11_000},
		{104, 1_000, 16_000},
	}
	for _, tt := range tests {
		s := rtGame(t, 2)
		s.Players[0].Cash = tt.cash
		s.Players[0].Loot = 100
		ev := rtLand(t, s, 0, tt.cell)
		p := s.Players[0]
		if p.Cash != tt.want || rtSum(ev, 0, EvGain) != tt.want-tt.cash || p.Loot != 100+tt.want-tt.cash {
			t.Errorf("cell %d: cash %d loot %d, want %d", tt.cell, p.Cash, p.Loot, tt.want)
		}
	}
	s := rtGame(t, 2)
	s.Players[0].Cell = 3
	rtForceDie(t, s, 3) // 4, 5 and the fork with one step left
	n, _ := rtApply(t, s, 0, engine.Action{Type: ARoll})
	n, _ = rtApply(t, n, 0, engine.Action{Type: AFork, Cell: 91})
	if n.Players[0].Cash != 100_000 || n.Players[0].Cell != 91 {
		t.Errorf("by the slippery path to the clan: cell %d cash %d", n.Players[0].Cell, n.Players[0].Cash)
	}
}

// W-21: narcotics at $100 a ton on cell 3, sold at 300, 500, 700, 1,000.
func TestW21_Narcotics(t *testing.T) {
	s := rtGame(t, 2)
	s.Players[0].Cash = 1_234
	rtLand(t, s, 0, 3)
	if c, ok := rtChoice(s, 0, ANarcoBuy, 0, ""); !ok || c.Min != 1 || c.Max != 12 {
		t.Errorf("narcotics buy choice %+v", c)
	}
	n, ev := rtApply(t, s, 0, engine.Action{Type: ANarcoBuy, Amount: 10})
	if n.Players[0].Narco != 10 || n.Players[0].Cash != 234 || rtSum(ev, 0, EvFee) != -1_000 {
		t.Errorf("after buying 10 tons: %+v", n.Players[0])
	}
	rtRefused(t, s, 0, engine.Action{Type: ANarcoBuy, Amount: 13}, engine.ErrIllegalAction)
	for _, tt := range []struct {
		cell  int
		price int64
	}{{94, 300}, {98, 500}, {102, 700}, {108, 1_000}} {
		s := rtGame(t, 2)
		s.Players[0].Narco = 10
		rtLand(t, s, 0, tt.cell)
		if c, _ := rtChoice(s, 0, ANarcoSell, 0, ""); c.Max != 10 {
			t.Errorf("cell %d: sell up to %d", tt.cell, c.Max)
		}
		n, ev := rtApply(t, s, 0, engine.Action{Type: ANarcoSell, Amount: 4})
		if got := rtSum(ev, 0, EvGain); got != 4*tt.price || n.Players[0].Narco != 6 || n.Players[0].Loot != 4*tt.price {
			t.Errorf("cell %d: 4 tons brought %d", tt.cell, got)
		}
	}
	s = rtGame(t, 2)
	s.Players[0].Narco = 10
	s.Owner[12] = 1
	rtLand(t, s, 0, 12)
	if slices.Contains(rtTypes(s, 0), ANarcoSell) {
		t.Error("narcotics sold off the slippery path")
	}
}

// W-22: prisons cost turns, doubled with narcotics; a missed turn passes on.
func TestW22_PrisonSkipsTurns(t *testing.T) {
	for _, cell := range []int{92, 96, 101, 103, 105, 107, 110} {
		for _, narco := range []int64{0, 3} {
			s := rtGame(t, 2)
			s.Players[0].Narco = narco
			ev := rtLand(t, s, 0, cell)
			want := Board[cell].Turns
			if narco > 0 {
				want *= 2
			}
			if k := rtFind(ev, 0, EvPrison); s.Players[0].Skip != want || k < 0 || ev[k].Other != want {
				t.Errorf("prison %d narco %d: skip %d, want %d", cell, narco, s.Players[0].Skip, want)
			}
			if s.Turn != 1 {
				t.Errorf("prison %d: the turn did not pass", cell)
			}
		}
	}
	s := rtGame(t, 3)
	s.Players[0].Narco = 1
	rtLand(t, s, 0, 92) // two turns with narcotics
	turns := []int{s.Turn}
	for i := 0; i < 6; i++ {
		s.endTurn(nil)
		turns = append(turns, s.Turn)
	}
	if want := []int{1, 2, 1, 2, 1, 2, 0}; !slices.Equal(turns, want) {
		t.Errorf("turns %v, want %v (seat 0 misses two)", turns, want)
	}
}

// W-23: the police bribe protects from 92, 96, 101 and 103 for a lap, not
// from 105, 107, 110.
func TestW23_PoliceBribe(t *testing.T) {
	s := rtGame(t, 2)
	rtLand(t, s, 0, 4)
	n, ev := rtApply(t, s, 0, engine.Action{Type: ABribe})
	if !n.Players[0].Protected || n.Players[0].Cash != 50_000-Board[4].Price || rtSum(ev, 0, EvBribe) != -Board[4].Price {
		t.Errorf("after the bribe %+v", n.Players[0])
	}
	n.Turn, n.Phase = 0, PhAct
	if rtOffered(n, 0, engine.Action{Type: ABribe}) {
		t.Error("bribe offered twice")
	}
	s = rtGame(t, 2)
	s.Players[0].Cash = Board[4].Price - 1
	rtLand(t, s, 0, 4)
	if rtOffered(s, 0, engine.Action{Type: ABribe}) {
		t.Error("bribe without the money")
	}
	for _, tt := range []struct {
		cell int
		safe bool
	}{{92, true}, {96, true}, {101, true}, {103, true}, {105, false}, {107, false}, {110, false}} {
		s := rtGame(t, 2)
		s.Players[0].Protected = true
		ev := rtLand(t, s, 0, tt.cell)
		if (s.Players[0].Skip == 0) != tt.safe || (rtFind(ev, 0, EvProtected) >= 0) != tt.safe {
			t.Errorf("protected at %d: skip %d", tt.cell, s.Players[0].Skip)
		}
	}
	s = rtGame(t, 2)
	s.Players[0].Protected = true
	s.lap(0, nil)
	rtLand(t, s, 0, 92)
	if s.Players[0].Protected || s.Players[0].Skip != 1 {
		t.Errorf("protection outlived the lap: %+v", s.Players[0])
	}
}

// W-24: the godfather takes half the loot; a raid offers surrender of the
// loot or prison (the default).
func TestW24_GodfatherAndRaids(t *testing.T) {
	s := rtGame(t, 2)
	s.Players[0].Cash, s.Players[0].Loot = 20_000, 10_001
	ev := rtLand(t, s, 0, 106)
	if p := s.Players[0]; p.Cash != 15_000 || p.Loot != 5_001 || rtSum(ev, 0, EvFee) != -5_000 {
		t.Errorf("godfather: %+v", p)
	}
	for _, cell := range []int{99, 109} {
		for _, tt := range []struct {
			name              string
			a                 engine.Action
			cash, loot, narco int64
			wantCash          int64
			wantSkip          int
		}{
			{"surrender", engine.Action{Type: ASurrender}, 20_000, 8_000, 0, 12_000, 0},
			{"surrender more than the cash", engine.Action{Type: ASurrender}, 3_000, 8_000, 0, 0, 0},
			{"prison", engine.Action{Type: APrison}, 20_000, 8_000, 0, 20_000, Board[cell].Turns},
			{"prison with narcotics", engine.Action{Type: APrison}, 20_000, 8_000, 1, 20_000, 2 * Board[cell].Turns},
		} {
			s := rtGame(t, 2)
			p := &s.Players[0]
			p.Cash, p.Loot, p.Narco = tt.cash, tt.loot, tt.narco
			rtLand(t, s, 0, cell)
			if s.Phase != PhRaid {
				t.Fatalf("raid %d: phase %v", cell, s.Phase)
			}
			var got []engine.Action
			for _, c := range s.Legal(0) {
				got = append(got, c.Action)
			}
			if !slices.Equal(got, []engine.Action{{Type: APrison}, {Type: ASurrender}, {Type: AResign}}) {
				t.Errorf("raid offers %v", got)
			}
			n, _ := rtApply(t, s, 0, tt.a)
			q := n.Players[0]
			if q.Cash != tt.wantCash || q.Skip != tt.wantSkip || n.Turn != 1 {
				t.Errorf("raid %d %s: cash %d skip %d turn %d", cell, tt.name, q.Cash, q.Skip, n.Turn)
			}
			if tt.a.Type == ASurrender && q.Loot != 0 || tt.a.Type == APrison && q.Loot != tt.loot {
				t.Errorf("raid %d %s: loot %d", cell, tt.name, q.Loot)
			}
		}
	}
}

// W-25: out of the slippery path from 110 to the red market 26.
func TestW25_ExitToRedMarket(t *testing.T) {
	s := rtGame(t, 2)
	s.Players[0].Cell, s.Players[0].Loot = 109, 9_000
	rtForceDie(t, s, 2)
	n, _ := rtApply(t, s, 0, engine.Action{Type: ARoll})
	if p := n.Players[0]; p.Cell != 26 || p.Loot != 0 || p.Skip != 0 {
		t.Errorf("from 109 by two: %+v", p)
	}
	s = rtGame(t, 2)
	s.Players[0].Cell = 110
	s.move(0, 3, 0, nil)
	if s.Players[0].Cell != 28 {
		t.Errorf("from 110 by three: on %d, want 28", s.Players[0].Cell)
	}
}

// W-30: the colony by sea from 48 (mutiny, pirates, reefs) or by the travel
// agency at 57 for $500 to «Порт-Янки».
func TestW30_WayToColony(t *testing.T) {
	s := rtGame(t, 2)
	s.Players[0].Cell = 47
	rtForceDie(t, s, 5) // 48, then four by sea: 111, 112, 113, 114
	n, _ := rtApply(t, s, 0, engine.Action{Type: ARoll})
	n, ev := rtApply(t, n, 0, engine.Action{Type: AFork, Cell: 111})
	if n.Players[0].Cell != 114 || Board[114].RU != "Порт-Янки" || rtSum(ev, 0, "") != -200 {
		t.Errorf("by sea: on %d, money %d", n.Players[0].Cell, rtSum(ev, 0, ""))
	}
	s = rtGame(t, 2)
	ev = rtLand(t, s, 0, 111)
	if rtSum(ev, 0, EvFee) != -Board[111].Amount {
		t.Errorf("mutiny costs %d", -rtSum(ev, 0, EvFee))
	}
	s = rtGame(t, 2)
	s.Players[0].Cash = 30_001
	ev = rtLand(t, s, 0, 112)
	if s.Players[0].Cash != 15_001 || rtSum(ev, 0, EvFee) != -15_000 {
		t.Errorf("pirates left %d", s.Players[0].Cash)
	}
	s = rtGame(t, 2)
	s.Players[0].Cell = 57
	rtForceDie(t, s, 1)
	n, _ = rtApply(t, s, 0, engine.Action{Type: ARoll})
	n, ev = rtApply(t, n, 0, engine.Action{Type: AFork, Cell: 114})
	if n.Players[0].Cell != 114 || n.Players[0].Cash != 49_300 {
		t.Errorf("travel agency: on %d with %d", n.Players[0].Cell, n.Players[0].Cash)
	}
	if k := rtFind(ev, 0, EvFee); k < 0 || ev[k].Cell != 57 || ev[k].Amount != -TravelFee {
		t.Errorf("travel fare event %v", ev)
	}
}

// W-31: every colony cell stopped on costs $200 to the bank; passing is free.
func TestW31_ColonyCellFee(t *testing.T) {
	for cell := 111; cell <= NumCells; cell++ {
		s := rtGame(t, 2)
		s.Players[0].Cash = 10_000
		ev := rtLand(t, s, 0, cell)
		fee := false
		for _, e := range ev {
			if e.Type == EvFee && e.Cell == cell && e.Amount == -ColonyCellFee {
				fee = true
			}
		}
		if fee != Board[cell].Colony {
			t.Errorf("cell %d: colony fee %v", cell, fee)
		}
		if Board[cell].Colony && Board[cell].Kind != KPirates && s.Players[0].Cash != 10_000-ColonyCellFee {
			t.Errorf("cell %d: cash %d after landing", cell, s.Players[0].Cash)
		}
	}
	s := rtGame(t, 2)
	s.Players[0].Cell = 114
	ev := s.move(0, 4, 0, nil) // passes 115..117, stops on 118
	if got := rtSum(ev, 0, ""); got != -ColonyCellFee {
		t.Errorf("four colony steps cost %d, want one fee", got)
	}
	s = rtGame(t, 2)
	s.Players[0].Cash = 100
	ev = rtLand(t, s, 0, 123)
	if !s.Players[0].Bankrupt || rtSum(ev, 0, EvFee) != -100 {
		t.Errorf("a fee beyond the means: %+v", s.Players[0])
	}
}

// W-32: plantations' profits, the interest-free loan of 200% of cash, the
// trinkets at $200, Klondike gold.
func TestW32_ColonyIncome(t *testing.T) {
	s := rtGame(t, 2)
	s.Owner[115], s.Owner[116], s.Owner[117] = 0, 0, 0
	ev := s.lap(0, nil)
	for _, tt := range []struct {
		cell int
		want int64
	}{{115, 40_000}, {116, 15_000}, {117, 30_000}} {
		var got int64
		for _, e := range ev {
			if e.Type == EvDividend && e.Cell == tt.cell {
				got += e.Amount
			}
		}
		if got != tt.want || got*100/Board[tt.cell].Price != map[int]int64{115: 200, 116: 100, 117: 100}[tt.cell] {
			t.Errorf("plantation %d paid %d, want %d", tt.cell, got, tt.want)
		}
	}

	s = rtGame(t, 2)
	s.Players[0].Cash = 10_200
	rtLand(t, s, 0, 119)
	n, ev := rtApply(t, s, 0, engine.Action{Type: AColonyLoan})
	if p := n.Players[0]; p.ColonyLoan != 20_000 || p.Cash != 30_000 || rtSum(ev, 0, "") != 20_000 {
		t.Errorf("colony loan: %+v", p)
	}
	n.Turn, n.Phase = 0, PhAct
	if rtOffered(n, 0, engine.Action{Type: AColonyLoan}) {
		t.Error("a second colony loan")
	}
	ev = n.lap(0, nil)
	if rtFind(ev, 0, EvInterest) >= 0 || n.Players[0].ColonyLoan != 20_000 {
		t.Errorf("interest on the colony loan: %v", ev)
	}
	if _, parts := n.NetWorth(0); parts[PartLoan] != -20_000 {
		t.Errorf("the loan is not a debt in the net worth: %v", parts)
	}
	n.Turn = 0
	rtLand(t, n, 0, 8)
	m, _ := rtApply(t, n, 0, engine.Action{Type: ARepayLoan, Amount: 20_000})
	if m.Players[0].ColonyLoan != 0 || m.Players[0].Cash != n.Players[0].Cash-20_000 {
		t.Errorf("repaying the colony loan: %+v", m.Players[0])
	}

	s = rtGame(t, 2)
	s.Players[0].Cash = 1_000
	rtLand(t, s, 0, 120)
	n, ev = rtApply(t, s, 0, engine.Action{Type: ATrinkets})
	if p := n.Players[0]; p.Cash != 800-200+Board[120].Amount || p.ColonyCash != Board[120].Amount-200 || rtSum(ev, 0, EvFee) != -200 {
		t.Errorf("trinkets: %+v", p)
	}
	s = rtGame(t, 2)
	s.Players[0].Cash = 199 + ColonyCellFee
	rtLand(t, s, 0, 120)
	if rtOffered(s, 0, engine.Action{Type: ATrinkets}) {
		t.Error("trinkets without $200")
	}

	s = rtGame(t, 2)
	rtLand(t, s, 0, 121)
	if p := s.Players[0]; p.Goods[Gold] != 1 || p.ColonyGold != 1 || s.GoodPts[Gold] != 11 {
		t.Errorf("Klondike: %+v gold at %d", p, s.GoodPts[Gold])
	}
}

// W-33: the reefs and the expropriation take what the colony paid.
func TestW33_ReefsAndExpropriation(t *testing.T) {
	tests := []struct {
		cell                   int
		cash, colony           int64
		gold, colGold          int64
		wantCash, wantGold     int64
		wantTaken, wantGoldOut int64
	}{
		{113, 10_000, 1_800, 3, 1, 8_200, 2, -1_800, 1},
		{129, 10_000, 1_800, 3, 1, 8_000, 2, -2_000, 1}, // with the $200 fee
		{113, 500, 1_800, 0, 2, 0, 0, -500, 0},
		{113, 10_000, 0, 2, 0, 10_000, 2, 0, 0},
	}
	for _, tt := range tests {
		s := rtGame(t, 2)
		p := &s.Players[0]
		p.Cash, p.ColonyCash, p.Goods[Gold], p.ColonyGold = tt.cash, tt.colony, tt.gold, tt.colGold
		ev := rtLand(t, s, 0, tt.cell)
		if p.Cash != tt.wantCash || p.Goods[Gold] != tt.wantGold || p.ColonyCash != 0 || p.ColonyGold != 0 || p.Bankrupt {
			t.Errorf("cell %d: %+v", tt.cell, *p)
		}
		if rtSum(ev, 0, EvFee) != tt.wantTaken {
			t.Errorf("cell %d took %d, want %d", tt.cell, rtSum(ev, 0, EvFee), tt.wantTaken)
		}
		if k := rtFind(ev, 0, EvGoodLost); (k >= 0) != (tt.wantGoldOut > 0) {
			t.Errorf("cell %d gold events %v", tt.cell, ev)
		}
	}
}

// W-34: two colony laps at most; from 129 by the desert island back to 90.
func TestW34_ColonyLapsAndIsland(t *testing.T) {
	s := rtGame(t, 2)
	s.Players[0].Cell = 129
	rtForceDie(t, s, 2)
	n, _ := rtApply(t, s, 0, engine.Action{Type: ARoll})
	if n.Phase != PhFork {
		t.Fatalf("first time at 129: phase %v", n.Phase)
	}
	n, _ = rtApply(t, n, 0, engine.Action{Type: AFork, Cell: 111})
	if n.Players[0].ColonyLaps != 1 || n.Players[0].Cell != 112 {
		t.Fatalf("second colony lap: %+v", n.Players[0])
	}
	n.Players[0].Cell, n.Players[0].ColonyCash = 129, 500
	n.Turn, n.Phase = 0, PhRoll
	rtForceDie(t, n, 2)
	m, ev := rtApply(t, n, 0, engine.Action{Type: ARoll})
	if rtFind(ev, 0, EvForkAsked) >= 0 || m.Players[0].Cell != 90 {
		t.Errorf("third time round: fork asked or not home, on %d", m.Players[0].Cell)
	}
	if p := m.Players[0]; p.ColonyLaps != 0 || p.ColonyCash != 500 { // W-33's tally outlives the island
		t.Errorf("the island did not close the colony: %+v", p)
	}
	c := n.Clone()
	c.Phase, c.Steps = PhFork, 2
	if rtOffered(c, 0, engine.Action{Type: AFork, Cell: 111}) || !rtOffered(c, 0, engine.Action{Type: AFork, Cell: 130}) {
		t.Errorf("after two colony laps the forks are %v", c.Legal(0))
	}
	s = rtGame(t, 2)
	s.Players[0].Cell = 130
	s.move(0, 2, 0, nil)
	if s.Players[0].Cell != 1 || s.Players[0].Laps != 1 {
		t.Errorf("from the island by two: on %d, laps %d", s.Players[0].Cell, s.Players[0].Laps)
	}
}

// W-40: the end (laps or last one standing) and the net worth formula.
func TestW40_EndAndNetWorth(t *testing.T) {
	s := rtGame(t, 3)
	p := &s.Players[1]
	p.Cash, p.Deposit, p.Credit, p.ColonyLoan = 10_000, 5_000, 7_000, 1_000
	p.Goods[Oil], p.Goods[Gold], p.Narco = 2, 1, 9
	s.Owner[56], s.Owner[2] = 1, 1
	s.Rates[0] = 12
	nw, parts := s.NetWorth(1)
	want := map[string]int64{
		PartCash: 10_000, PartDeposit: 5_000, PartShares: 48_000 + 2_000, PartGoods: 2*3_000 + 5_000,
		PartCredit: -7_000, PartLoan: -1_000, PartStartLoan: -50_000,
	}
	for k, v := range want {
		if parts[k] != v {
			t.Errorf("part %s = %d, want %d", k, parts[k], v)
		}
	}
	if len(parts) != len(want) || nw != 10_000+5_000+50_000+11_000-7_000-1_000-50_000 {
		t.Errorf("net worth %d parts %v", nw, parts)
	}

	for _, laps := range []int{1, 3} {
		s, _ := New(Options{Laps: laps}, 2, [32]byte{4})
		s.Turn = 1
		s.Players[1].Laps, s.Players[1].Cell = laps-1, 88
		rtForceDie(t, s, 4) // 89, 90, 1: the game stops there
		n, ev := rtApply(t, s, 1, engine.Action{Type: ARoll})
		if !n.Over() || n.Players[1].Cell != 1 || rtFind(ev, 1, engine.EvGameOver) < 0 || len(n.Owing()) != 0 {
			t.Errorf("laps %d: over %v on %d", laps, n.Over(), n.Players[1].Cell)
		}
		if len(n.Legal(0)) != 0 || len(n.Legal(1)) != 0 {
			t.Error("legal actions after the end")
		}
		rtRefused(t, n, 0, engine.Action{Type: ARoll}, engine.ErrGameOver)
	}
	s = rtGame(t, 3)
	s.Players[0].Laps = 18
	s.lap(0, nil)
	if s.Over() {
		t.Error("over a lap early")
	}
	s = rtGame(t, 3)
	s.Players[2].Bankrupt = true
	s.Players[0].Cash = 0
	rtLand(t, s, 0, 111)
	if !s.Over() || s.Score()[1].Place != 1 {
		t.Errorf("two of three bankrupt: over %v", s.Over())
	}
	s = rtGame(t, 3)
	s.Players[0].Cash = 0
	rtLand(t, s, 0, 111)
	if s.Over() {
		t.Error("over with two players left")
	}
}

// W-41: in the beginners' variant the labour cells do nothing and the rates
// never change.
func TestW41_BeginnersVariant(t *testing.T) {
	s, _ := New(Options{Laps: 20, Beginners: true}, 2, [32]byte{5})
	s.Turn = 0
	for _, cell := range []int{7, 19, 30, 41, 53, 62, 75, 85} {
		ev := rtLand(t, s, 0, cell)
		if s.Players[0].Labour != 0 || rtFind(ev, 0, EvLabour) >= 0 {
			t.Errorf("beginners: cell %d moved the marker", cell)
		}
	}
	for _, labour := range []int{-2, 0, 3} {
		s, _ := New(Options{Laps: 20, Beginners: true}, 2, [32]byte{5})
		s.Owner[56], s.Owner[35], s.Owner[60] = 0, 0, 0
		s.Players[0].Labour = labour
		s.Players[0].Credit = 10_000
		s.Players[0].Goods[Cars] = 5
		ev := s.lap(0, nil)
		if s.Rates != [len(leading)]int{10, 10, 10} || rtFind(ev, 0, EvRate) >= 0 {
			t.Errorf("beginners, labour %d: rates %v", labour, s.Rates)
		}
		if got := rtSum(ev, 0, EvInterest); got != -1_500 {
			t.Errorf("beginners, labour %d: interest %d, want the plain 15%%", labour, got)
		}
		if s.sellable(0, Cars) != 5 {
			t.Errorf("beginners, labour %d: %d cars sellable", labour, s.sellable(0, Cars))
		}
	}
}

// ---- P-1 … P-4 ----

// rtBotGame plays n bot actions and returns the state and the log.
func rtBotGame(t *testing.T, seed [32]byte, n int) (*State, []engine.Command, []int) {
	t.Helper()
	s, err := New(Options{Laps: 20}, 4, seed)
	if err != nil {
		t.Fatal(err)
	}
	var log []engine.Command
	var dice []int
	for i := 0; i < n && !s.Over(); i++ {
		seat := s.Owing()[0]
		a, _ := s.Bot(seat)
		ev, err := engine.Play(s, seat, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Type == ARoll {
			dice = append(dice, s.Die)
		}
		_ = ev
		log = append(log, engine.Command{Seat: seat, Action: a})
	}
	return s, log, dice
}

// P-1: the same seed and commands replay to the same state; another seed
// plays differently.
func TestP1_SeededReplay(t *testing.T) {
	seedA, seedB := [32]byte{'a'}, [32]byte{'b'}
	s, log, diceA := rtBotGame(t, seedA, 600)
	live, _ := s.Marshal()
	for i := 0; i < 2; i++ {
		r, err := Replay(Options{Laps: 20}, 4, seedA, log)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := r.Marshal(); !bytes.Equal(got, live) {
			t.Fatal("replay differs from the live game")
		}
	}
	// Through the JSON round trip and on from there.
	back, err := Unmarshal(live)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Over() {
		seat := s.Owing()[0]
		a, _ := s.Bot(seat)
		x, _, err1 := engine.Apply(s, seat, a)
		y, _, err2 := engine.Apply(back, seat, a)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		bx, _ := x.Marshal()
		by, _ := y.Marshal()
		if !bytes.Equal(bx, by) {
			t.Error("a restored state continues differently")
		}
	}
	a0, _ := New(Options{Laps: 20}, 4, seedA)
	b0, _ := New(Options{Laps: 20}, 4, seedB)
	ja, _ := a0.Marshal()
	jb, _ := b0.Marshal()
	if bytes.Equal(ja, jb) {
		t.Error("two seeds give the same state")
	}
	_, _, diceB := rtBotGame(t, seedB, 600)
	k := min(len(diceA), len(diceB), 40)
	if k < 20 || slices.Equal(diceA[:k], diceB[:k]) {
		t.Errorf("two seeds roll the same dice: %v", diceA[:k])
	}
	// Auction draws are seeded too.
	x, _ := New(Options{Laps: 20}, 2, seedA)
	y, _ := New(Options{Laps: 20}, 2, seedA)
	rtLand(t, x, x.Turn, 9)
	rtLand(t, y, y.Turn, 9)
	if x.Auction != y.Auction {
		t.Errorf("same seed, different auctions: %+v %+v", x.Auction, y.Auction)
	}
	// Apply leaves its receiver alone.
	g := Game{S: a0}
	before, _ := g.MarshalJSON()
	if _, _, err := g.Apply(a0.Turn, engine.Action{Type: ARoll}); err != nil {
		t.Fatal(err)
	}
	if after, _ := g.MarshalJSON(); !bytes.Equal(before, after) {
		t.Error("Apply changed the game it was called on")
	}
}

// P-2: the offered seat and the bidders owe the decision, by default no.
func TestP2_OtherSeatsDecisions(t *testing.T) {
	s := rtGame(t, 3)
	s.Rules = Rulebook[2] // the offer the turn waits for (rules 3: TestW18_ShareOfferAnsweredLater)
	s.Owner[12] = 2
	rtLand(t, s, 0, 14)
	s, _ = rtApply(t, s, 0, engine.Action{Type: AOffer, Cell: 12, Target: 2})
	g := Game{S: s}
	if !slices.Equal(g.Owing(), []int{2}) {
		t.Errorf("offer: owing %v, want the offered seat", g.Owing())
	}
	if d, ok := g.Default(2); !ok || d.Type != ADecline {
		t.Errorf("offer default %v", d)
	}
	for _, seat := range []int{0, 1} {
		if _, ok := g.Default(seat); ok {
			t.Errorf("seat %d has a default in someone else's decision", seat)
		}
	}
	n, _, err := g.Apply(2, engine.Action{Type: ADecline})
	if err != nil || n.(Game).S.Owner[12] != 2 {
		t.Errorf("declining by default: %v", err)
	}

	s = rtGame(t, 3)
	rtLand(t, s, 1, 9)
	g = Game{S: s}
	if !slices.Equal(g.Owing(), []int{0, 1, 2}) {
		t.Fatalf("auction: owing %v", g.Owing())
	}
	for seat := 0; seat < 3; seat++ {
		if d, ok := g.Default(seat); !ok || d.Type != APass {
			t.Errorf("seat %d auction default %v", seat, d)
		}
	}
	for _, seat := range []int{2, 0, 1} {
		d, _ := g.Default(seat)
		ng, _, err := g.Apply(seat, d)
		if err != nil {
			t.Fatal(err)
		}
		g = ng.(Game)
	}
	if g.S.Phase != PhRoll || g.S.Turn != 2 {
		t.Errorf("all defaults: phase %v turn %d", g.S.Phase, g.S.Turn)
	}
}

// P-3: a seat's view does not show the others' sealed bids.
func TestP3_ViewHidesBids(t *testing.T) {
	s := rtGame(t, 3)
	rtLand(t, s, 0, 9)
	const secret = 23_457
	s, ev := rtApply(t, s, 0, engine.Action{Type: ABid, Cell: s.Auction.Cell, Amount: secret})
	for _, e := range ev {
		if e.Other == secret || e.Amount == secret {
			if !e.Private || e.VisibleTo(1) || e.VisibleTo(engine.Spectator) || !e.VisibleTo(0) {
				t.Errorf("the bid shows in %+v", e)
			}
		}
	}
	for _, seat := range []int{1, 2, engine.Spectator} {
		b, err := json.Marshal(Game{S: s}.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), strconv.Itoa(secret)) {
			t.Errorf("seat %d's view shows the bid: %s", seat, b)
		}
		if !strings.Contains(string(b), `"answered":[true,false,false]`) {
			t.Errorf("seat %d's view does not say who answered", seat)
		}
	}
	b, _ := json.Marshal(s.View(0))
	if !strings.Contains(string(b), `"my_bid":`+strconv.Itoa(secret)) {
		t.Errorf("the bidder's own view lacks the bid: %s", b)
	}
	// The stored state keeps it (for storage only).
	if raw, _ := s.Marshal(); !strings.Contains(string(raw), strconv.Itoa(secret)) {
		t.Error("the bid is lost from the stored state")
	}
}

// P-4: every phase's default is legal and is the no-optional-action choice.
func TestP4_DefaultsAreLegalAndPassive(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) (*State, int)
		want  engine.Action
	}{
		{"roll", func(t *testing.T) (*State, int) {
			s := rtGame(t, 2)
			s.Owner[12] = 0
			return s, 0
		}, engine.Action{Type: ARoll}},
		{"fork", func(t *testing.T) (*State, int) {
			s := rtGame(t, 2)
			s.Players[0].Cell = 57
			s.Phase, s.Steps = PhFork, 2
			return s, 0
		}, engine.Action{Type: AFork, Cell: 58}},
		{"act on a free holding", func(t *testing.T) (*State, int) {
			s := rtGame(t, 2)
			rtLand(t, s, 0, 12)
			return s, 0
		}, engine.Action{Type: AEnd}},
		{"act at a bank", func(t *testing.T) (*State, int) {
			s := rtGame(t, 2)
			rtLand(t, s, 0, 8)
			return s, 0
		}, engine.Action{Type: AEnd}},
		{"raid", func(t *testing.T) (*State, int) {
			s := rtGame(t, 2)
			rtLand(t, s, 0, 99)
			return s, 0
		}, engine.Action{Type: APrison}},
		{"offer", func(t *testing.T) (*State, int) {
			s := rtGame(t, 2)
			s.Rules = Rulebook[2] // rules 3's deals: engine.DealDefault
			s.Owner[12] = 1
			rtLand(t, s, 0, 14)
			s, _ = rtApply(t, s, 0, engine.Action{Type: AOffer, Cell: 12, Target: 1})
			return s, 1
		}, engine.Action{Type: ADecline}},
		{"auction", func(t *testing.T) (*State, int) {
			s := rtGame(t, 2)
			rtLand(t, s, 0, 9)
			return s, 1
		}, engine.Action{Type: APass}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, seat := tt.setup(t)
			d, ok := s.Default(seat)
			if !ok || d != tt.want {
				t.Fatalf("default %v, want %v", d, tt.want)
			}
			defaults := 0
			for _, c := range s.Legal(seat) {
				if c.Default {
					defaults++
				}
			}
			if defaults != 1 {
				t.Errorf("%d choices marked default", defaults)
			}
			n, _ := rtApply(t, s, seat, d)
			if n.Owner != s.Owner || n.Players[seat].Credit != s.Players[seat].Credit {
				t.Error("the default bought, sold or borrowed")
			}
		})
	}
	// A stop that leaves nothing to decide ends the turn by itself, so no
	// deadline is spent on pressing "end".
	for _, tt := range []struct {
		name string
		cell int
		prep func(p *Player)
		a    engine.Action
	}{
		{"narcotics bought", 3, func(p *Player) {}, engine.Action{Type: ANarcoBuy, Amount: 5}},
		{"narcotics sold", 94, func(p *Player) { p.Narco = 5 }, engine.Action{Type: ANarcoSell, Amount: 5}},
		{"last good sold", 15, func(p *Player) { p.Goods[Oil] = 2 }, engine.Action{Type: ASellGood, Good: "oil", Amount: 2}},
		{"bribe paid", 4, func(p *Player) {}, engine.Action{Type: ABribe}},
	} {
		s := rtGame(t, 2)
		tt.prep(&s.Players[0])
		rtLand(t, s, 0, tt.cell)
		n, ev := rtApply(t, s, 0, tt.a)
		if n.Turn != 1 || n.Phase != PhRoll || rtFind(ev, 1, engine.EvTurn) < 0 {
			t.Errorf("%s: turn %d phase %v, want the turn passed", tt.name, n.Turn, n.Phase)
		}
	}
	s := rtGame(t, 2)
	s.Players[0].Goods[Oil], s.Players[0].Goods[Gold] = 2, 1
	rtLand(t, s, 0, 15)
	n, _ := rtApply(t, s, 0, engine.Action{Type: ASellGood, Good: "oil", Amount: 2})
	if n.Turn != 0 || n.Phase != PhAct {
		t.Error("the turn ended with gold still to sell")
	}
	s = rtGame(t, 2)
	s.finish()
	if _, ok := s.Default(0); ok {
		t.Error("a default after the end")
	}
	// Playing only defaults ends the game.
	g := rtGame(t, 3)
	for i := 0; i < 100_000 && !g.Over(); i++ {
		seat := g.Owing()[0]
		d, ok := g.Default(seat)
		if !ok {
			t.Fatalf("seat %d owes but has no default in %v", seat, g.Phase)
		}
		if _, err := engine.Play(g, seat, d, nil); err != nil {
			t.Fatalf("default %v refused: %v", d, err)
		}
	}
	if !g.Over() {
		t.Error("a game of defaults did not end")
	}
}

// TestP4_ResignLeavesTheGame: a seat that owes a decision may leave the
// game (the service also plays it for a player dropped after missed
// deadlines, P-4): its money goes to the bank, its holdings back to the
// bank, and the game goes on without it — an offer to it lapses, an open
// auction closes without its bid, and the last seat left wins (W-40).
func TestP4_ResignLeavesTheGame(t *testing.T) {
	t.Run("on its turn", func(t *testing.T) {
		s := rtGame(t, 3)
		s.Turn, s.Phase = 1, PhRoll
		s.Owner[12] = 1
		s.Players[1].Deposit = 7_000
		n, ev := rtApply(t, s, 1, engine.Action{Type: AResign})
		if !n.Players[1].Bankrupt || n.Owner[12] != -1 || n.Players[1].Cash != 0 || n.Players[1].Deposit != 0 {
			t.Fatalf("after resigning: %+v, owner of 12 %d", n.Players[1], n.Owner[12])
		}
		if rtSum(ev, 1, engine.EvResign) != -(StartLoan+7_000) || n.Turn != 2 || n.Phase != PhRoll {
			t.Fatalf("money %d, turn %d phase %s", rtSum(ev, 1, engine.EvResign), n.Turn, n.Phase)
		}
		if n.Over() {
			t.Fatal("two players are left: the game goes on")
		}
	})
	t.Run("offered a sale", func(t *testing.T) {
		s := rtGame(t, 3)
		s.Turn, s.Phase, s.Players[0].Cell = 0, PhOffer, 14
		s.Owner[12], s.Owner[16] = 2, 1
		s.Offer = Offer{Cell: 12, From: 0, To: 2, Price: 7_500}
		// The offer lapses and the seat on turn carries on at its stop
		// (seat 1's share is still there to offer for).
		n, _ := rtApply(t, s, 2, engine.Action{Type: AResign})
		if n.Phase != PhAct || n.Turn != 0 || n.Owner[12] != -1 || !n.Players[2].Bankrupt {
			t.Fatalf("phase %s turn %d owner %d", n.Phase, n.Turn, n.Owner[12])
		}
	})
	t.Run("in an auction", func(t *testing.T) {
		s := rtGame(t, 3)
		s.Turn, s.Phase = 0, PhAuction
		s.Auction.reset()
		s.Auction.Cell, s.Auction.Min = 12, 2_500
		s.Auction.Bids[1] = 3_000
		s.Auction.Bids[2] = 0
		// The seat that opened it leaves before bidding: the auction
		// closes with the bids it has.
		n, _ := rtApply(t, s, 0, engine.Action{Type: AResign})
		if n.Owner[12] != 1 || n.Phase == PhAuction || n.Turn != 1 {
			t.Fatalf("owner %d phase %s turn %d", n.Owner[12], n.Phase, n.Turn)
		}
	})
	t.Run("the last but one", func(t *testing.T) {
		s := rtGame(t, 2)
		s.Turn, s.Phase = 0, PhRoll
		n, _ := rtApply(t, s, 0, engine.Action{Type: AResign})
		if !n.Over() || n.Score()[1].Place != 1 {
			t.Fatalf("over %v, scores %+v", n.Over(), n.Score())
		}
	})
	t.Run("not without owing", func(t *testing.T) {
		s := rtGame(t, 3)
		s.Turn, s.Phase = 0, PhRoll
		rtRefused(t, s, 1, engine.Action{Type: AResign}, engine.ErrNotYourTurn)
	})
}
