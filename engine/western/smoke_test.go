package western

import (
	"testing"

	"github.com/pbmgames/pbm/engine"
)

func TestSmoke(t *testing.T) {
	for i := 0; i < 200; i++ {
		var seed [32]byte
		seed[0], seed[1] = byte(i), byte(i>>8)
		s, err := New(Options{Laps: 20}, 2+i%5, seed)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for !s.Over() {
			seat := s.Owing()[0]
			a, _ := s.Bot(seat)
			if _, err := s.Play(seat, a, nil); err != nil {
				t.Fatal(err)
			}
			n++
			if n > 200000 {
				t.Fatalf("seed %d: no end", i)
			}
		}
		if i%40 == 0 {
			sc := s.Score()
			t.Logf("seed %d seats %d: %d actions, scores %+v", i, len(s.Players), n, sc[0])
		}
		_ = engine.Spectator
	}
}
