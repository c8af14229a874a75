package businessman

import (
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
)

// BenchmarkBotGame plays whole 6-seat bot games in place, each action
// checked against the legal list (Play), and reports actions per second.
func BenchmarkBotGame(b *testing.B) {
	b.ReportAllocs()
	var actions int
	var longest time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		s, err := New(DefaultOptions(), 6, [32]byte{byte(i), byte(i >> 8), 1})
		if err != nil {
			b.Fatal(err)
		}
		ev := make([]engine.Event, 0, 64)
		for !s.Over() {
			seat := s.owing()
			a, _ := s.Bot(seat)
			if ev, err = engine.Play(s, seat, a, ev[:0]); err != nil {
				b.Fatal(err)
			}
			actions++
		}
		longest = max(longest, time.Since(start))
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(actions)/sec, "actions/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(actions), "ns/action")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(float64(longest.Microseconds())/1000, "max-ms/game")
}
