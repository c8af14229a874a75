package games

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/conformance"
)

// FuzzOrdersReplay (issue 25): whatever the standing orders of each seat
// (any value of any order, in range or not, or none) and whatever the
// seats decide themselves around them, every move the orders play
// replays exactly: asking a game what its orders play changes nothing of
// it (its state, and what it does next: a twin of the game that was
// never asked applies the same move to the same state and events), and
// the whole log, from the seed, replays to the game reached (P-1). Both
// games, every seat count they take; the seat that owes, the choices and
// their amounts are drawn from pick.
func FuzzOrdersReplay(f *testing.F) {
	for kind := range uint8(2) {
		f.Add(kind, []byte("orders"), uint8(0), uint16(400), uint64(1))
		f.Add(kind, []byte{1, 1, 1, 1, 0, 0, 255, 7, 3, 9, 200, 14, 2, 80}, uint8(3), uint16(1500), uint64(7))
		f.Add(kind, []byte("every seat its own orders, most of them set"), uint8(1), uint16(3000), uint64(2027))
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte, seats uint8, steps uint16, pick uint64) {
		infos := reg.List()
		info := infos[int(kind)%len(infos)]
		n := info.MinSeats + int(seats)%(info.MaxSeats-info.MinSeats+1)
		var seed [32]byte
		copy(seed[:], data)
		rules := reg.CurrentRules(info.Kind)
		g, err := reg.New(info.Kind, rules, nil, n, seed)
		if err != nil {
			t.Fatal(err)
		}
		twin, err := reg.New(info.Kind, rules, nil, n, seed)
		if err != nil {
			t.Fatal(err)
		}
		standing, ok := g.(engine.Standing)
		if !ok {
			t.Skipf("%s takes no standing orders", info.Kind)
		}
		// Each seat's orders from the data: a byte a spec (the data read
		// round again, each seat's otherwise), a third of them unset, the
		// others spread over a little more than the spec's range (out of
		// range included).
		orders := make([]engine.Orders, n)
		specs := standing.OrderSpecs()
		for s := range orders {
			orders[s] = engine.Orders{}
			for i, spec := range specs {
				if len(data) == 0 {
					break
				}
				k := s*len(specs) + i
				b := data[k%len(data)] ^ byte(k*37)
				if b%3 != 0 {
					orders[s][spec.Name] = spec.Min - 1 + int64(b)*(spec.Max-spec.Min+3)/255
				}
			}
		}
		rng := rand.New(rand.NewPCG(pick, uint64(len(data))))
		var log []engine.Command
		byOrders := 0
		// Up to 3,000 commands: a default game of either, and fast
		// enough for the fuzzer to try many.
		for step := 0; step < int(steps)%3000+1 && !g.Over(); step++ {
			owing := g.Owing()
			seat := owing[rng.IntN(len(owing))]
			before := state(t, g)
			a, ok := g.(engine.Standing).ByOrders(seat, orders[seat])
			if ok {
				byOrders++
				if after := state(t, g); !bytes.Equal(before, after) {
					t.Fatalf("step %d: asking seat %d's orders changed the game", step, seat)
				}
			} else {
				a = conformance.RandomChoice(rng, g.Legal(seat))
			}
			next, ev, err := g.Apply(seat, a)
			if err != nil {
				t.Fatalf("step %d: seat %d %v (by orders: %v) refused: %v", step, seat, a, ok, err)
			}
			twinNext, twinEv, err := twin.Apply(seat, a)
			if err != nil {
				t.Fatalf("step %d: the twin refuses seat %d %v: %v", step, seat, a, err)
			}
			if ok && (!bytes.Equal(state(t, next), state(t, twinNext)) || !bytes.Equal(mustJSON(t, ev), mustJSON(t, twinEv))) {
				t.Fatalf("step %d: seat %d's order %v plays otherwise than the same move replayed", step, seat, a)
			}
			g, twin = next, twinNext
			log = append(log, engine.Command{Seat: seat, Action: a})
		}
		r, err := reg.Replay(info.Kind, rules, nil, n, seed, log)
		if err != nil {
			t.Fatalf("the log of %d commands (%d by orders) does not replay: %v", len(log), byOrders, err)
		}
		if !bytes.Equal(state(t, r), state(t, g)) {
			t.Fatalf("the log of %d commands (%d by orders) replays to another state", len(log), byOrders)
		}
		if testing.Verbose() {
			t.Logf("%s, %d seats: %d commands, %d by orders, over: %v", info.Kind, n, len(log), byOrders, g.Over())
		}
	})
}

func state(t *testing.T, g engine.Game) []byte {
	t.Helper()
	b, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
