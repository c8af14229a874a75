package western

import (
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// BenchmarkBotGame plays whole 6-seat 20-lap games: every action chosen by
// the bots and checked against the legal list by Play (SPEC §6: ≥ 1,000,000
// actions/s, a whole game ≤ 10 ms).
//
//	go test ./engine/western -run XXX -bench BotGame -benchmem
func BenchmarkBotGame(b *testing.B) {
	var actions int
	var ev []engine.Event
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		var seed [32]byte
		seed[0], seed[1], seed[2] = byte(i), byte(i>>8), byte(i>>16)
		s, err := New(Options{Laps: 20}, 6, seed)
		if err != nil {
			b.Fatal(err)
		}
		for !s.Over() {
			seat := s.Turn
			if !s.owes(seat) {
				seat = s.Owing()[0]
			}
			a, _ := s.Bot(seat)
			if ev, err = engine.Play(s, seat, a, ev[:0]); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(actions), "ns/action")
}

// BenchmarkApply is one checked, immutable Apply (clone included), the
// path the service takes for a player's move.
func BenchmarkApply(b *testing.B) {
	var seed [32]byte
	s, _ := New(Options{Laps: 20}, 6, seed)
	for range 400 { // somewhere in mid-game
		seat := s.Owing()[0]
		a, _ := s.Bot(seat)
		s, _, _ = engine.Apply(s, seat, a)
	}
	b.ReportAllocs()
	for b.Loop() {
		seat := s.Owing()[0]
		a, _ := s.Bot(seat)
		if _, _, err := engine.Apply(s, seat, a); err != nil {
			b.Fatal(err)
		}
	}
}
