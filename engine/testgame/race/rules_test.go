package race

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

var (
	roll   = engine.Action{Type: ARoll}
	rest   = engine.Action{Type: ARest}
	resign = engine.Action{Type: AResign}
)

func newState(t *testing.T, track int) *State {
	t.Helper()
	s, err := New(Options{Track: track}, 2, [32]byte{7})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func types(ev []engine.Event) []string {
	var out []string
	for _, e := range ev {
		out = append(out, e.Type)
	}
	return out
}

// TestR1_Seats: two players exactly, both on the start with no coins, the
// first drawn by the generator.
func TestR1_Seats(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4} {
		if _, err := New(DefaultOptions(), n, [32]byte{}); !errors.Is(err, engine.ErrBadOptions) {
			t.Errorf("%d seats: %v", n, err)
		}
	}
	first := map[int]bool{}
	for i := range 32 {
		s, err := New(DefaultOptions(), 2, [32]byte{byte(i)})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Players {
			if p != (Player{}) {
				t.Fatalf("a player starts as %+v", p)
			}
		}
		first[s.Turn] = true
	}
	if !first[0] || !first[1] {
		t.Errorf("the first player is always one seat: %v", first)
	}
}

// TestR2_Track: the track is 10 to 40 cells, 20 when absent.
func TestR2_Track(t *testing.T) {
	for _, tc := range []struct {
		opts string
		ok   bool
		want int
	}{
		{``, true, 20},
		{`{}`, true, 20},
		{`{"track":10}`, true, 10},
		{`{"track":40}`, true, 40},
		{`{"track":9}`, false, 0},
		{`{"track":41}`, false, 0},
		{`{"laps":3}`, false, 0},
	} {
		g, err := Def().New(CurrentRules, json.RawMessage(tc.opts), 2, [32]byte{})
		if tc.ok != (err == nil) || (err != nil && !errors.Is(err, engine.ErrBadOptions)) {
			t.Errorf("%s: %v", tc.opts, err)
			continue
		}
		if err == nil {
			if got := g.(Game).S.Opts.Track; got != tc.want {
				t.Errorf("%s: track %d, want %d", tc.opts, got, tc.want)
			}
		}
	}
	if got := string(Def().Info.Defaults()); got != `{"track":20}` {
		t.Errorf("mail options %s", got)
	}
}

// TestR3_Decision: one decision a turn, roll or rest; a rest gains a
// coin and passes the turn; a roll moves 1–6 and passes the turn; rest
// is refused at the coin cap.
func TestR3_Decision(t *testing.T) {
	for _, tc := range []struct {
		name   string
		coins  int64
		a      engine.Action
		refuse bool
		events []string
	}{
		{"rest", 0, rest, false, []string{EvCoin, engine.EvTurn}},
		{"rest below the cap", 4, rest, false, []string{EvCoin, engine.EvTurn}},
		{"rest at the cap", 5, rest, true, nil},
		{"roll", 5, roll, false, []string{EvRoll, EvMove, engine.EvTurn}},
		{"an amount", 0, engine.Action{Type: ARoll, Amount: 3}, true, nil},
		{"an unknown action", 0, engine.Action{Type: "fly"}, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newState(t, 20)
			me := s.Turn
			s.Players[me].Coins, s.Bank = tc.coins, tc.coins
			wantLegal := []engine.Choice{{Action: roll, Default: true}, {Action: rest}, {Action: resign}}
			if tc.coins >= s.Rules.MaxCoins {
				wantLegal = slices.Delete(wantLegal, 1, 2)
			}
			if got := s.Legal(me); !slices.Equal(got, wantLegal) {
				t.Fatalf("legal %v, want %v", got, wantLegal)
			}
			if got := s.Legal(other(me)); got != nil {
				t.Fatalf("the other seat has choices %v", got)
			}
			n, ev, err := engine.Apply(s, me, tc.a)
			if tc.refuse {
				if !errors.Is(err, engine.ErrIllegalAction) {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(types(ev), tc.events) {
				t.Fatalf("events %v, want %v", types(ev), tc.events)
			}
			if n.Turn != other(me) {
				t.Fatalf("the turn stays with seat %d", n.Turn)
			}
			p := n.Players[me]
			switch tc.a.Type {
			case ARest:
				if p.Coins != tc.coins+1 || p.Cell != 0 || ev[0].Amount != 1 {
					t.Fatalf("after a rest %+v, %+v", p, ev[0])
				}
			case ARoll:
				if p.Cell < 1 || p.Cell > 6 || p.Cell != n.Roll || ev[0].Other != n.Roll || p.Coins != tc.coins {
					t.Fatalf("after a roll of %d: %+v", n.Roll, p)
				}
			}
		})
	}
	s := newState(t, 20)
	if _, _, err := engine.Apply(s, other(s.Turn), roll); !errors.Is(err, engine.ErrNotYourTurn) {
		t.Errorf("out of turn: %v", err)
	}
}

// TestR3_Dice: the rolls are 1–6, each face comes up.
func TestR3_Dice(t *testing.T) {
	seen := map[int]int{}
	s := newState(t, 40)
	for range 600 {
		s.Players[0].Cell, s.Players[1].Cell = 0, 0
		if _, err := engine.Play(s, s.Turn, roll, nil); err != nil {
			t.Fatal(err)
		}
		seen[s.Roll]++
	}
	for f := 1; f <= 6; f++ {
		if seen[f] < 50 {
			t.Errorf("face %d came up %d times in 600", f, seen[f])
		}
	}
	if len(seen) != 6 {
		t.Errorf("faces %v", seen)
	}
}

// TestR4_Finish: a roll that reaches or passes the finish stops on it and
// ends the game; the finisher ranks first.
func TestR4_Finish(t *testing.T) {
	for _, track := range []int{10, 20, 40} {
		s := newState(t, track)
		me := s.Turn
		s.Players[me].Cell = track - 1
		s.Players[other(me)].Cell, s.Players[other(me)].Coins, s.Bank = track-1, 5, 5
		n, ev, err := engine.Apply(s, me, roll)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{EvRoll, EvMove, EvFinish, engine.EvGameOver}; !slices.Equal(types(ev), want) {
			t.Fatalf("events %v, want %v", types(ev), want)
		}
		if end := ev[len(ev)-1]; end.Other != OverFinish || end.Seat != -1 {
			t.Fatalf("game over %+v", end)
		}
		if !n.Over() || n.Players[me].Cell != track || !n.Players[me].Finished || len(n.Owing()) != 0 {
			t.Fatalf("after the finish: %+v, over %v", n.Players[me], n.Over())
		}
		sc := n.Score()
		if sc[me].Place != 1 || sc[other(me)].Place != 2 || sc[me].Parts[PartFinish] != 100 {
			t.Fatalf("scores %+v", sc)
		}
		if _, _, err := engine.Apply(n, other(me), roll); !errors.Is(err, engine.ErrGameOver) {
			t.Fatalf("a move after the end: %v", err)
		}
	}
}

// TestR5_Resign: resigning ends a game of two; the other is the last one
// left and ranks first.
func TestR5_Resign(t *testing.T) {
	s := newState(t, 20)
	me := s.Turn
	s.Players[other(me)].Cell = 1
	s.Players[me].Cell = 15
	n, ev, err := engine.Apply(s, me, resign)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{engine.EvResign, engine.EvGameOver}; !slices.Equal(types(ev), want) || ev[1].Other != engine.OverLastOne {
		t.Fatalf("events %+v", ev)
	}
	sc := n.Score()
	if !n.Over() || !sc[me].Bankrupt || sc[me].Place != 2 || sc[other(me)].Place != 1 {
		t.Fatalf("over %v, scores %+v", n.Over(), sc)
	}
}

// TestR6_Score: cells + coins (+ the finish), ties by seat order; the
// organiser's End scores the game as it stands.
func TestR6_Score(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		cell0, cell1           int
		coins0, coins1         int64
		place0, place1, worth0 int64
	}{
		{"ahead", 12, 8, 0, 0, 1, 2, 12},
		{"coins count", 8, 10, 3, 0, 1, 2, 11},
		{"a tie keeps seat order", 9, 10, 1, 0, 1, 2, 10},
		{"behind", 2, 10, 5, 0, 2, 1, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newState(t, 20)
			s.Players[0] = Player{Cell: tc.cell0, Coins: tc.coins0}
			s.Players[1] = Player{Cell: tc.cell1, Coins: tc.coins1}
			s.Bank = tc.coins0 + tc.coins1
			n, ev, err := engine.Apply(s, engine.Organiser, engine.Action{Type: engine.End})
			if err != nil {
				t.Fatal(err)
			}
			if len(ev) != 1 || ev[0].Type != engine.EvGameOver || ev[0].Other != engine.OverEnded {
				t.Fatalf("events %+v", ev)
			}
			sc := n.Score()
			if int64(sc[0].Place) != tc.place0 || int64(sc[1].Place) != tc.place1 || sc[0].NetWorth != tc.worth0 {
				t.Fatalf("scores %+v", sc)
			}
			if sc[0].Parts[PartCells] != int64(tc.cell0) || sc[0].Parts[PartCoins] != tc.coins0 || sc[0].Parts[PartFinish] != 0 {
				t.Fatalf("parts %v", sc[0].Parts)
			}
		})
	}
}

// TestR7_DefaultAndOrders: a missed deadline rolls; the order roll rolls,
// no orders play nothing; a seat that owes nothing gets neither.
func TestR7_DefaultAndOrders(t *testing.T) {
	s := newState(t, 20)
	me := s.Turn
	if a, ok := s.Default(me); !ok || a != roll {
		t.Errorf("default %v %v", a, ok)
	}
	if _, ok := s.Default(other(me)); ok {
		t.Error("a default for a seat that owes nothing")
	}
	for _, tc := range []struct {
		o  engine.Orders
		ok bool
	}{
		{engine.Orders{engine.OrderRoll: 1}, true},
		{engine.Orders{engine.OrderRoll: 0}, false},
		{nil, false},
	} {
		a, ok := engine.ByOrders(s, me, tc.o)
		if ok != tc.ok || (ok && a != roll) {
			t.Errorf("orders %v play %v %v", tc.o, a, ok)
		}
		if _, ok := engine.ByOrders(s, other(me), tc.o); ok {
			t.Errorf("orders %v play for a seat that owes nothing", tc.o)
		}
	}
	if err := engine.CheckOrders(s.OrderSpecs(), engine.Orders{engine.OrderBuyBelow: 1}); err == nil {
		t.Error("an order «Гонка» does not take was accepted")
	}
}

// TestR8_View: every seat sees the whole position, and no view carries
// the generator.
func TestR8_View(t *testing.T) {
	s := newState(t, 20)
	s.Players[0] = Player{Cell: 3, Coins: 2}
	s.Bank = 2
	stored, _ := s.Marshal()
	if !strings.Contains(string(stored), `"rng"`) {
		t.Fatal("the stored state has no generator: the test below proves nothing")
	}
	var views []string
	for _, seat := range []engine.Seat{engine.Spectator, 0, 1} {
		v := s.View(seat)
		if v.Seat != seat || v.Track != 20 || len(v.Players) != 2 || v.Players[0].Cell != 3 || v.Players[0].Coins != 2 {
			t.Fatalf("seat %d sees %+v", seat, v)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "rng") {
			t.Fatalf("seat %d's view carries the generator: %s", seat, b)
		}
		v.Seat = 0
		b, _ = json.Marshal(v)
		views = append(views, string(b))
	}
	if views[0] != views[1] || views[1] != views[2] {
		t.Errorf("the seats see different positions: %v", views)
	}
	if Secret(roll) || Secret(rest) || Secret(resign) {
		t.Error("an action of «Гонка» is secret")
	}
}

// TestLoadedRefuses: the stored form is checked when it is read.
func TestLoadedRefuses(t *testing.T) {
	s := newState(t, 20)
	good, _ := s.Marshal()
	if _, err := Unmarshal(good); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*State){
		"format":          func(s *State) { s.Format = 2 },
		"three seats":     func(s *State) { s.Players = append(s.Players, Player{}) },
		"past the finish": func(s *State) { s.Players[0].Cell = 21 },
		"negative coins":  func(s *State) { s.Players[0].Coins, s.Bank = -1, -1 },
		"coins unbanked":  func(s *State) { s.Players[0].Coins = 1 },
		"finished in play": func(s *State) {
			s.Players[0].Cell, s.Players[0].Finished = 20, true
		},
		"track": func(s *State) { s.Opts.Track = 99 },
	} {
		c := s.Clone()
		edit(c)
		b, _ := c.Marshal()
		if _, err := Unmarshal(b); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}
