package businessman

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// cashOf lists every seat's cash.
func cashOf(s *State) []int64 {
	out := make([]int64, len(s.Players))
	for i := range s.Players {
		out[i] = s.Players[i].Cash
	}
	return out
}

// checkInvariants holds after every action: money is conserved against
// the bank's ledger, the events' amounts match each seat's change of cash,
// the exchange stays on its board, nobody's cash or shares go negative,
// and the owing seat has a sane list of choices.
func checkInvariants(t testing.TB, s *State, before []int64, ev []engine.Event) {
	t.Helper()
	var sum int64
	for i := range s.Players {
		p := &s.Players[i]
		sum += p.Cash
		if p.Cash < 0 {
			t.Fatalf("seat %d has negative cash %d", i, p.Cash)
		}
		for k, n := range p.Shares {
			if n < 0 {
				t.Fatalf("seat %d has %d shares of %d", i, n, k)
			}
		}
		if p.Bankrupt && (p.Cash != 0 || p.NHand != 0) {
			t.Fatalf("bankrupt seat %d keeps %d cash, %d cards", i, p.Cash, p.NHand)
		}
	}
	if want := int64(len(s.Players))*StartCash + s.Bank; sum != want {
		t.Fatalf("money not conserved: players hold %d, start + bank paid out = %d", sum, want)
	}
	if before != nil {
		delta := make([]int64, len(s.Players))
		for _, e := range ev {
			if e.Amount != 0 {
				if e.Seat < 0 || e.Seat >= len(s.Players) {
					t.Fatalf("money event for seat %d: %+v", e.Seat, e)
				}
				delta[e.Seat] += e.Amount
			}
		}
		for i := range s.Players {
			if got := s.Players[i].Cash - before[i]; got != delta[i] {
				t.Fatalf("seat %d: cash changed by %d, events say %d: %+v", i, got, delta[i], ev)
			}
		}
	}
	for k, pt := range s.Points {
		if pt < MinPoints || pt > MaxPoints {
			t.Fatalf("colour %d at %d points", k, pt)
		}
	}
	b, e := s.piecesUsed()
	if b > Pieces.Branches || e > Pieces.Enterprises {
		t.Fatalf("%d branches, %d enterprises on the board", b, e)
	}
	for c := 1; c < NumCells; c++ {
		if s.Owner[c] >= 0 && s.Players[s.Owner[c]].Bankrupt {
			t.Fatalf("cell %d owned by bankrupt seat %d", c, s.Owner[c])
		}
		if s.Mort[c] >= 0 && s.Level[c] > 0 {
			t.Fatalf("cell %d pledged with buildings", c)
		}
	}
	if s.Over() {
		if len(s.Owing()) != 0 {
			t.Fatal("a finished game owes decisions")
		}
		return
	}
	owing := s.Owing()
	if len(owing) != 1 || s.Players[owing[0]].Bankrupt {
		t.Fatalf("owing %v in phase %v", owing, s.Phase)
	}
	legal := s.Legal(owing[0])
	defs := 0
	for _, c := range legal {
		if c.Default {
			defs++
		}
	}
	if len(legal) < 2 || defs != 1 || legal[len(legal)-1].Type != engine.Resign || legal[len(legal)-1].Default {
		t.Fatalf("phase %v: bad legal list %v", s.Phase, legal)
	}
	if d, ok := s.Default(owing[0]); !ok || engine.Find(legal, d) < 0 || !legal[engine.Find(legal, d)].Default {
		t.Fatalf("default %v is not the marked choice of %v", d, legal)
	} else if marked := legal[engine.Find(legal, d)].Action; marked != d {
		t.Fatalf("the marked choice %v is not the default %v: a client taking it as it is would be refused", marked, d)
	}
	if a, ok := s.Bot(owing[0]); !ok || engine.Find(legal, a) < 0 || a.Type == engine.Resign {
		t.Fatalf("bot chose %v, not among %v", a, legal)
	}
}

// pick draws one concrete action from a choice.
func pick(r *rand.Rand, c engine.Choice) engine.Action {
	a := c.Action
	if c.Ranged() {
		n := (c.Max - c.Min) / c.Step
		a.Amount = c.Min + r.Int64N(n+1)*c.Step
	}
	return a
}

var actionTypes = []string{ARoll, AEnd, ABuy, ATake, AClaim, AWaive, AAccept, ADecline, ASpin, ALeave, ABroker,
	AHighway, AAbroad, AHotelAbroad, AHotelRoulette, AHotelExchange, AUsePass, APlayCard, ABuyShares, ASellShares,
	AOfferShare, ABuild, ASellBuilding, AMortgage, ARedeem, ASellBank, AOfferSell, AOfferBuy, AOfferSwap, AResign, "", "fly"}

// garbage is a random, mostly illegal action.
func garbage(r *rand.Rand) engine.Action {
	goods := []string{"", "red", "blue", "purple", "silver", "x"}
	return engine.Action{Type: actionTypes[r.IntN(len(actionTypes))], Cell: r.IntN(90) - 5, Target: r.IntN(8) - 1,
		Good: goods[r.IntN(len(goods))], Amount: r.Int64N(400_000) - 1_000}
}

// playRandom plays a game of random legal and garbage actions, checking
// everything it can after each, and returns the log.
func playRandom(t testing.TB, opts Options, seats int, seed [32]byte, r *rand.Rand, steps int, resignOK bool) (*State, []engine.Command) {
	s, err := New(opts, seats, seed)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, s, nil, nil)
	var log []engine.Command
	for i := 0; i < steps && !s.Over(); i++ {
		var seat int
		var a engine.Action
		if r.IntN(4) == 0 {
			seat, a = r.IntN(seats+2)-1, garbage(r)
		} else {
			seat = s.Owing()[0]
			legal := s.Legal(seat)
			if !resignOK && r.IntN(50) != 0 {
				legal = legal[:len(legal)-1]
			}
			a = pick(r, legal[r.IntN(len(legal))])
		}
		before, cash := s.Clone(), cashOf(s)
		ev, err := engine.Play(s, seat, a, nil)
		if err != nil {
			if !errors.Is(err, engine.ErrNotYourTurn) && !errors.Is(err, engine.ErrIllegalAction) && !errors.Is(err, engine.ErrGameOver) {
				t.Fatalf("untyped refusal %v", err)
			}
			if !reflect.DeepEqual(before, s) {
				t.Fatalf("refused %v changed the state", a)
			}
			continue
		}
		log = append(log, engine.Command{Seat: seat, Action: a})
		checkInvariants(t, s, cash, ev)
	}
	again, err := Replay(opts, seats, seed, log)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, s) {
		t.Fatal("replay differs")
	}
	return s, log
}

func FuzzBusinessman(f *testing.F) {
	f.Add([]byte{0}, uint8(2), false)
	f.Add([]byte{1, 2, 3}, uint8(4), true)
	f.Add([]byte{9, 9, 9, 9, 9, 9, 9, 9, 1}, uint8(6), false)
	f.Fuzz(func(t *testing.T, data []byte, seats uint8, claim bool) {
		var seed [32]byte
		copy(seed[:], data)
		opts := Options{Laps: 3, RentClaim: RentAuto}
		if claim {
			opts.RentClaim = RentClaim
		}
		n := MinSeats + int(seats)%(MaxSeats-MinSeats+1)
		r := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), uint64(len(data))))
		playRandom(t, opts, n, seed, r, 3000, len(data)%3 == 0)
	})
}

// TestRandomGames is the fuzz target's body over a fixed set of seeds.
func TestRandomGames(t *testing.T) {
	for i := range 40 {
		seed := [32]byte{byte(i), 7}
		opts := Options{Laps: 4, RentClaim: []string{RentAuto, RentClaim}[i%2]}
		r := rand.New(rand.NewPCG(uint64(i), 1))
		playRandom(t, opts, MinSeats+i%5, seed, r, 4000, i%4 == 0)
	}
}

// TestCheckAgreesWithLegal: an action passes the engine's check exactly
// when Legal lists a choice admitting it, on states reached by play.
func TestCheckAgreesWithLegal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s, _ := New(Options{Laps: 5, RentClaim: RentClaim}, 4, [32]byte{5})
	for i := 0; i < 3000 && !s.Over(); i++ {
		for seat := -1; seat <= 4; seat++ {
			legal := s.Legal(seat)
			for range 5 {
				a := garbage(r)
				if len(legal) > 0 && r.IntN(2) == 0 {
					a = pick(r, legal[r.IntN(len(legal))])
				}
				if (s.check(seat, a) == nil) != (engine.Find(legal, a) >= 0) {
					t.Fatalf("seat %d %v: check %v, legal %v", seat, a, s.check(seat, a), legal)
				}
			}
		}
		seat := s.Owing()[0]
		legal := s.Legal(seat)
		a := pick(r, legal[r.IntN(len(legal)-1)])
		if _, err := engine.Play(s, seat, a, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// TestApplyDoesNotMutate: Apply leaves its receiver as it was.
func TestApplyDoesNotMutate(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	s, _ := New(DefaultOptions(), 3, [32]byte{8})
	for i := 0; i < 2000 && !s.Over(); i++ {
		seat := s.Owing()[0]
		legal := s.Legal(seat)
		a := pick(r, legal[r.IntN(len(legal)-1)])
		keep := s.Clone()
		n, _, err := engine.Apply(s, seat, a)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(keep, s) {
			t.Fatalf("Apply(%v) changed its receiver", a)
		}
		s = n
	}
}
