package western

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// checkInvariants holds after every action of every game: money balances
// against the bank, the events account for every dollar that moved, and no
// balance, stock or owner is out of range.
func checkInvariants(before, after *State, ev []engine.Event) error {
	var sum int64
	for i, p := range after.Players {
		sum += p.Cash + p.Deposit
		if p.Cash < 0 || p.Deposit < 0 || p.Credit < 0 || p.ColonyLoan < 0 || p.Narco < 0 || p.Skip < 0 {
			return fmt.Errorf("seat %d has a negative balance: %+v", i, p)
		}
		for g, n := range p.Goods {
			if n < 0 {
				return fmt.Errorf("seat %d holds %d of good %d", i, n, g)
			}
		}
		if p.CreditLap > CreditPerLap {
			return fmt.Errorf("seat %d took %d credit this lap", i, p.CreditLap)
		}
		if p.Labour < -LabourMax || p.Labour > LabourMax {
			return fmt.Errorf("seat %d labour marker %d", i, p.Labour)
		}
		if p.Cell < 1 || p.Cell > NumCells {
			return fmt.Errorf("seat %d on cell %d", i, p.Cell)
		}
		if p.Bankrupt && (p.Cash != 0 || p.Deposit != 0) {
			return fmt.Errorf("bankrupt seat %d keeps money", i)
		}
		var moved int64
		for _, e := range ev {
			if e.Seat == i {
				moved += e.Amount
			}
		}
		b := before.Players[i]
		if delta := p.Cash + p.Deposit - b.Cash - b.Deposit; delta != moved {
			return fmt.Errorf("seat %d money changed by %d but its events say %d", i, delta, moved)
		}
	}
	if want := int64(StartLoan*len(after.Players)) + after.Bank; sum != want {
		return fmt.Errorf("players hold %d, the bank ledger says %d", sum, want)
	}
	for cell, o := range after.Owner {
		if o < 0 {
			continue
		}
		if Board[cell].Kind != KHolding {
			return fmt.Errorf("cell %d is not a holding but has owner %d", cell, o)
		}
		if int(o) >= len(after.Players) || after.Players[o].Bankrupt {
			return fmt.Errorf("cell %d owned by %d, who cannot own", cell, o)
		}
	}
	for i, r := range after.Rates {
		if r < MinRate || r > MaxRate {
			return fmt.Errorf("leading company %d rate %d", leading[i], r)
		}
	}
	if !after.Over() && len(after.Owing()) == 0 {
		return errors.New("nobody owes a decision in a running game")
	}
	return nil
}

func mustJSON(t testing.TB, s *State) []byte {
	t.Helper()
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fuzzTypes are the action types garbage is built from, plus some nonsense.
var fuzzTypes = []string{ARoll, AFork, ABuy, ASell, ASpecSell, ACredit, ADeposit, AWithdraw, ARepay,
	ARepayLoan, ASellGood, ADropGood, AOffer, AAccept, ADecline, ABid, APass, ANarcoBuy, ANarcoSell,
	ABribe, ASurrender, APrison, AColonyLoan, ATrinkets, AEnd, "", "fly", "roll "}

// FuzzWestern plays games driven by the fuzzer's bytes: mostly legal
// actions chosen from Legal, sometimes arbitrary actions from arbitrary
// seats. Nothing may panic; refusals are typed and change nothing;
// invariants hold after every action; the log replays to the same state.
func FuzzWestern(f *testing.F) {
	f.Add([]byte("seed the first game"))
	f.Add(bytes.Repeat([]byte{7, 200, 3, 1, 255, 0, 42}, 300))
	f.Add(bytes.Repeat([]byte{0}, 2000))
	f.Fuzz(playFuzzed)
}

func playFuzzed(t *testing.T, data []byte) {
	{
		r := bytes.NewReader(data)
		next := func() byte { b, _ := r.ReadByte(); return b }
		var seed [32]byte
		copy(seed[:], data)
		seats := MinSeats + int(next())%(MaxSeats-MinSeats+1)
		opts := Options{Laps: 1 + int(next())%4, Beginners: next()%4 == 0}
		s, err := New(opts, seats, seed)
		if err != nil {
			t.Fatal(err)
		}
		var log []engine.Command
		for steps := 0; r.Len() > 0 && !s.Over() && steps < 2000; steps++ {
			op := next()
			var seat int
			var a engine.Action
			if op < 200 {
				seat = s.Owing()[int(next())%len(s.Owing())]
				legal := s.Legal(seat)
				c := legal[int(next())%len(legal)]
				a = c.Action
				if c.Ranged() {
					var buf [8]byte
					r.Read(buf[:])
					a.Amount = c.Min + int64(binary.LittleEndian.Uint64(buf[:])%uint64(c.Max-c.Min+1))
				}
			} else {
				var buf [8]byte
				seat = int(int8(next())) % 8
				a = engine.Action{Type: fuzzTypes[int(next())%len(fuzzTypes)], Cell: int(int8(next())),
					Target: int(int8(next())), Good: []string{"", "oil", "gold", "cars", "cola", "x"}[next()%6]}
				r.Read(buf[:])
				a.Amount = int64(binary.LittleEndian.Uint64(buf[:]))
			}
			prev := s.Clone()
			ev, err := engine.Play(s, seat, a, nil)
			if err != nil {
				if !errors.Is(err, engine.ErrIllegalAction) && !errors.Is(err, engine.ErrNotYourTurn) && !errors.Is(err, engine.ErrGameOver) {
					t.Fatalf("untyped refusal of %v by seat %d: %v", a, seat, err)
				}
				if !reflect.DeepEqual(prev, s) {
					t.Fatalf("refused action %v changed the state", a)
				}
				continue
			}
			log = append(log, engine.Command{Seat: seat, Action: a})
			if err := checkInvariants(prev, s, ev); err != nil {
				t.Fatalf("after %v by seat %d: %v", a, seat, err)
			}
		}
		replayed, err := Replay(opts, seats, seed, log)
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		if !bytes.Equal(mustJSON(t, replayed), mustJSON(t, s)) {
			t.Fatal("replay of the log differs from the played state")
		}
		if s.Over() {
			if _, err := engine.Play(s, 0, engine.Action{Type: ARoll}, nil); !errors.Is(err, engine.ErrGameOver) {
				t.Fatalf("action after the end: %v", err)
			}
		}
	}
}

// TestBotGamesKeepInvariants plays whole bot games of every size and checks
// the invariants after every action, the JSON round trip, Apply's
// immutability and the state size limit.
func TestBotGamesKeepInvariants(t *testing.T) {
	for seats := MinSeats; seats <= MaxSeats; seats++ {
		for i := 0; i < 6; i++ {
			var seed [32]byte
			seed[0], seed[1] = byte(seats), byte(i)
			s, _ := New(Options{Laps: 20, Beginners: i == 5}, seats, seed)
			for n := 0; !s.Over(); n++ {
				seat := s.Owing()[0]
				a, ok := s.Bot(seat)
				if !ok {
					t.Fatalf("bot of seat %d has nothing to do", seat)
				}
				before := mustJSON(t, s)
				next, ev, err := engine.Apply(s, seat, a)
				if err != nil {
					t.Fatalf("bot chose an illegal action %v: %v", a, err)
				}
				if !bytes.Equal(before, mustJSON(t, s)) {
					t.Fatal("Apply changed its input")
				}
				if err := checkInvariants(s, next, ev); err != nil {
					t.Fatalf("seats %d seed %d action %d %v: %v", seats, i, n, a, err)
				}
				if n%97 == 0 {
					b := mustJSON(t, next)
					back, err := Unmarshal(b)
					if err != nil || !bytes.Equal(mustJSON(t, back), b) {
						t.Fatalf("JSON round trip: %v", err)
					}
					if len(b) > maxStateBytes {
						t.Fatalf("state of %d seats is %d bytes", seats, len(b))
					}
				}
				s = next
			}
		}
	}
}

// maxStateBytes is SPEC §6: a 6-seat game's state stays ≤ 20 KB.
const maxStateBytes = 20 * 1024
