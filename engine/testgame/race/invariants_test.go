package race

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/conformance"
)

// TestConformance holds «Гонка» to the contract of every game.
func TestConformance(t *testing.T) { conformance.Run(t, Def()) }

// checkInvariants holds after every action: coins are never negative,
// never above the cap, match the bank's ledger and the events' amounts;
// cells stay on the track and only move forward.
func checkInvariants(before, after *State, ev []engine.Event) error {
	var sum int64
	for i, p := range after.Players {
		b := before.Players[i]
		if p.Coins < 0 || p.Coins > after.Rules.MaxCoins {
			return fmt.Errorf("seat %d holds %d coins", i, p.Coins)
		}
		if p.Cell < b.Cell || p.Cell > after.Opts.Track {
			return fmt.Errorf("seat %d moved from %d to %d", i, b.Cell, p.Cell)
		}
		if p.Cell-b.Cell > after.Rules.Sides {
			return fmt.Errorf("seat %d moved %d cells", i, p.Cell-b.Cell)
		}
		var moved int64
		for _, e := range ev {
			if e.Seat == i {
				moved += e.Amount
			}
		}
		if p.Coins-b.Coins != moved {
			return fmt.Errorf("seat %d's coins changed by %d, its events say %d", i, p.Coins-b.Coins, moved)
		}
		sum += p.Coins
	}
	if sum != after.Bank {
		return fmt.Errorf("players hold %d coins, the bank paid %d", sum, after.Bank)
	}
	return nil
}

// TestBotsFinish: many seeded games of the engine's bots end within a
// bound (each seat rests at most MaxCoins times, each roll moves), every
// move among the legal ones, the invariants held at each, and the log
// replays exactly (P-1).
func TestBotsFinish(t *testing.T) {
	for _, track := range []int{MinTrack, DefaultTrack, MaxTrack} {
		for i := range 200 {
			seed := [32]byte{byte(i), byte(i >> 8), byte(track)}
			s, err := New(Options{Track: track}, 2, seed)
			if err != nil {
				t.Fatal(err)
			}
			bound := 2 * (track + int(s.Rules.MaxCoins))
			var log []engine.Command
			for !s.Over() {
				if len(log) > bound {
					t.Fatalf("track %d, seed %d: not over after %d actions", track, i, len(log))
				}
				seat := s.Turn
				a, ok := s.Bot(seat)
				if !ok || engine.Find(s.Legal(seat), a) < 0 {
					t.Fatalf("the bot plays %v (%v), not among %v", a, ok, s.Legal(seat))
				}
				n, ev, err := engine.Apply(s, seat, a)
				if err != nil {
					t.Fatal(err)
				}
				if err := checkInvariants(s, n, ev); err != nil {
					t.Fatalf("track %d, seed %d, action %d: %v", track, i, len(log), err)
				}
				log = append(log, engine.Command{Seat: seat, Action: a})
				s = n
			}
			winners := 0
			for _, p := range s.Players {
				if p.Finished {
					winners++
				}
			}
			if winners != 1 || s.Score()[0].Place+s.Score()[1].Place != 3 {
				t.Fatalf("track %d, seed %d: %d finishers, scores %+v", track, i, winners, s.Score())
			}
			r, err := Replay(Options{Track: track}, 2, seed, log)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := s.Marshal()
			got, _ := r.Marshal()
			if !bytes.Equal(want, got) {
				t.Fatalf("track %d, seed %d: the replay differs", track, i)
			}
		}
	}
}

// TestCoinCapBoundsTheGame: seats that rest whenever they may still end
// the game: resting stops at the cap, then only rolls are left.
func TestCoinCapBoundsTheGame(t *testing.T) {
	s, err := New(Options{Track: MaxTrack}, 2, [32]byte{42})
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for ; !s.Over(); steps++ {
		a := engine.Action{Type: ARoll}
		if s.mayRest(s.Turn) {
			a = engine.Action{Type: ARest}
		}
		if _, err := engine.Play(s, s.Turn, a, nil); err != nil {
			t.Fatal(err)
		}
	}
	if max := 2 * (MaxTrack + int(s.Rules.MaxCoins)); steps > max {
		t.Fatalf("%d steps, more than %d", steps, max)
	}
	for i, p := range s.Players {
		if p.Coins != s.Rules.MaxCoins {
			t.Errorf("seat %d rested %d times", i, p.Coins)
		}
	}
}
