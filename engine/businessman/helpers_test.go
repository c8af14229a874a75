package businessman

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// fresh is a new game with seat 0 to roll.
func fresh(t testing.TB, seats int) *State {
	t.Helper()
	s, err := New(DefaultOptions(), seats, [32]byte{42})
	if err != nil {
		t.Fatal(err)
	}
	s.Turn, s.Phase, s.Spot = 0, PhRoll, CellStart
	return s
}

// act plays a legal action and checks the invariants.
func act(t testing.TB, s *State, seat int, a engine.Action) []engine.Event {
	t.Helper()
	cash := cashOf(s)
	ev, err := engine.Play(s, seat, a, nil)
	if err != nil {
		t.Fatalf("%v: %v (phase %v, legal %v)", a, err, s.Phase, s.Legal(seat))
	}
	checkInvariants(t, s, cash, ev)
	return ev
}

// refused asserts that a is refused with kind and changes nothing.
func refused(t testing.TB, s *State, seat int, a engine.Action, kind error) {
	t.Helper()
	before, _ := s.Marshal()
	if _, err := engine.Play(s, seat, a, nil); !errors.Is(err, kind) {
		t.Fatalf("%v by %d: err %v, want %v", a, seat, err, kind)
	}
	if after, _ := s.Marshal(); string(after) != string(before) {
		t.Fatalf("refused %v changed the state", a)
	}
}

// rig sets the generator so that the next dice are exactly dice.
func rig(s *State, dice ...int) {
	for i := uint64(0); ; i++ {
		var seed [32]byte
		binary.LittleEndian.PutUint64(seed[:], i)
		r := engine.NewRNG(seed)
		peek, ok := r, true
		for _, d := range dice {
			if peek.Die() != d {
				ok = false
				break
			}
		}
		if ok {
			s.RNG = r
			return
		}
	}
}

// rollTo rolls seat 0's token from cell−4 onto cell (dice 1 and 3).
func rollTo(t testing.TB, s *State, cell int) []engine.Event {
	t.Helper()
	from := cell - 4
	if cell <= BigLast && from < 1 {
		from += BigLast
	}
	s.Players[s.Turn].Cell = from
	s.Phase = PhRoll
	rig(s, 1, 3)
	return act(t, s, s.Turn, engine.Action{Type: ARoll})
}

// has tells whether legal lists an action of type typ (and cell, if > 0).
func has(legal []engine.Choice, typ string, cell int) bool {
	for _, c := range legal {
		if c.Type == typ && (cell == 0 || c.Cell == cell) {
			return true
		}
	}
	return false
}

// findEvent returns the first event of type typ for seat.
func findEvent(ev []engine.Event, typ string, seat int) (engine.Event, bool) {
	for _, e := range ev {
		if e.Type == typ && e.Seat == seat {
			return e, true
		}
	}
	return engine.Event{}, false
}

// cardOf returns the id of the first exchange card of kind with up/down points.
func cardOf(t testing.TB, kind XKind, up, down int) int {
	t.Helper()
	for id, c := range XCards {
		if c.Kind == kind && c.Up == up && c.Down == down {
			return id
		}
	}
	t.Fatalf("no card %v %d %d", kind, up, down)
	return -1
}

// withCard gives seat 0 exactly the card id and opens the exchange in PhAct.
func withCard(s *State, id int) {
	p := &s.Players[0]
	p.Hand, p.NHand = [MaxHand]uint8{uint8(id)}, 1
	s.Phase, s.Exch, s.Spot = PhAct, true, p.Cell
}

// own gives seat the cells.
func own(s *State, seat int, cells ...int) {
	for _, c := range cells {
		s.Owner[c] = int8(seat)
	}
}

// setCash sets a seat's cash, keeping the bank's ledger balanced.
func setCash(s *State, seat int, v int64) {
	s.Bank += v - s.Players[seat].Cash
	s.Players[seat].Cash = v
}

// finishTurn plays the defaults until the turn passes.
func finishTurn(t testing.TB, s *State) {
	t.Helper()
	turn := s.Turn
	for !s.Over() && s.Turn == turn {
		seat := s.Owing()[0]
		d, _ := s.Default(seat)
		act(t, s, seat, d)
	}
}
