package businessman

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// TestP3_HiddenCardsPropertyB2: over random and bot games, nothing a seat
// may see (its view, the events visible to it, its legal list) names a
// card still in another seat's hand (B-2, P-3).
func TestP3_HiddenCardsPropertyB2(t *testing.T) {
	for i := range 12 {
		r := rand.New(rand.NewPCG(uint64(i), 33))
		s, _ := New(Options{Laps: 6, RentClaim: RentAuto}, 2+i%5, [32]byte{byte(i), 3})
		for step := 0; step < 1500 && !s.Over(); step++ {
			seat := s.Owing()[0]
			var a engine.Action
			if i%2 == 0 {
				a, _ = s.Bot(seat)
			} else {
				legal := s.Legal(seat)
				a = pick(r, legal[r.IntN(len(legal)-1)])
			}
			ev, err := engine.Play(s, seat, a, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkHidden(t, s, ev)
		}
	}
}

func checkHidden(t *testing.T, s *State, ev []engine.Event) {
	t.Helper()
	for v := -1; v < len(s.Players); v++ {
		secret := map[int]bool{}
		for o := range s.Players {
			if o != v {
				for _, c := range s.Players[o].hand() {
					secret[int(c)] = true
				}
			}
		}
		for _, e := range ev {
			if !e.VisibleTo(v) {
				continue
			}
			if (e.Type == EvXDrawn || e.Type == EvXPlayed) && secret[e.Cell] {
				t.Fatalf("seat %d sees %v, a card in another hand", v, e)
			}
			if e.Type == EvXDrawn && e.Seat != v {
				t.Fatalf("seat %d sees another's draw %v", v, e)
			}
		}
		b, _ := json.Marshal(s.View(v))
		l, _ := json.Marshal(s.Legal(v))
		for c := range secret {
			code := `"` + XCards[c].Code + `"`
			if strings.Contains(string(b), code) {
				t.Fatalf("seat %d's view shows %s", v, code)
			}
			for _, ch := range s.Legal(v) {
				if ch.Type == APlayCard && ch.Cell == c {
					t.Fatalf("seat %d may play another's card %d: %s", v, c, l)
				}
			}
		}
		view := s.View(v).(View)
		for o, pv := range view.Players {
			if pv.Cards != s.Players[o].NHand {
				t.Fatalf("hand size of %d shown as %d", o, pv.Cards)
			}
		}
		if v >= 0 && len(view.Hand) != s.Players[v].NHand {
			t.Fatalf("seat %d sees %d of its %d cards", v, len(view.Hand), s.Players[v].NHand)
		}
	}
}
