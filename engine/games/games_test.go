package games

import (
	"errors"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

func TestNewValidatesOptions(t *testing.T) {
	var seed [32]byte
	for _, tc := range []struct {
		name, kind, opts string
		seats            int
		ok               bool
	}{
		{"defaults", "western", "", 3, true},
		{"laps", "western", `{"laps":5}`, 2, true},
		{"beginners", "western", `{"laps":5,"beginners":true}`, 6, true},
		{"unknown game", "chess", "", 2, false},
		{"unknown option", "western", `{"laps":5,"speed":9}`, 2, false},
		{"laps out of range", "western", `{"laps":0}`, 2, false},
		{"not an object", "western", `[1]`, 2, false},
		{"one seat", "western", "", 1, false},
		{"seven seats", "western", "", 7, false},
		{"businessman defaults", "businessman", "", 2, true},
		{"businessman options", "businessman", `{"laps":5,"rent_claim":"claim"}`, 6, true},
		{"businessman bad rent mode", "businessman", `{"rent_claim":"never"}`, 3, false},
		{"businessman unknown option", "businessman", `{"beginners":true}`, 3, false},
		{"businessman one seat", "businessman", "", 1, false},
		{"businessman seven seats", "businessman", "", 7, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := reg.New(tc.kind, reg.CurrentRules(tc.kind), []byte(tc.opts), tc.seats, seed)
			if tc.ok != (err == nil) {
				t.Fatalf("err = %v", err)
			}
			if err != nil && !errors.Is(err, engine.ErrBadOptions) {
				t.Fatalf("error %v is not ErrBadOptions", err)
			}
			if err == nil && (g.Kind() != tc.kind || g.Seats() != tc.seats) {
				t.Fatalf("made %s with %d seats", g.Kind(), g.Seats())
			}
		})
	}
}

// TestLoadAndReplay: a stored state loads back, and a replay of the log
// reaches the same state (P-1).
func TestLoadAndReplay(t *testing.T) {
	for _, kind := range []string{"western", "businessman"} {
		t.Run(kind, func(t *testing.T) { loadAndReplay(t, kind) })
	}
}

func loadAndReplay(t *testing.T, kind string) {
	seed := [32]byte{1, 2, 3}
	g, err := reg.New(kind, reg.CurrentRules(kind), []byte(`{"laps":2}`), 3, seed)
	if err != nil {
		t.Fatal(err)
	}
	var log []engine.Command
	for i := 0; i < 200 && !g.Over(); i++ {
		seat := g.Owing()[0]
		a, _ := g.Bot(seat)
		if g, _, err = g.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
		log = append(log, engine.Command{Seat: seat, Action: a})
	}
	state, _ := g.MarshalJSON()
	loaded, err := reg.Load(kind, reg.CurrentRules(kind), state)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := loaded.MarshalJSON()
	replayed, err := reg.Replay(kind, reg.CurrentRules(kind), []byte(`{"laps":2}`), 3, seed, log)
	if err != nil {
		t.Fatal(err)
	}
	viaReplay, _ := replayed.MarshalJSON()
	if string(again) != string(state) || string(viaReplay) != string(state) {
		t.Fatal("load or replay differs from the played state")
	}
	if _, err := reg.Load(kind, reg.CurrentRules(kind), []byte(`{"v":99}`)); err == nil {
		t.Fatal("a state of an unknown format loaded")
	}
	if len(reg.List()) < 2 {
		t.Fatal("no games listed")
	}
}
