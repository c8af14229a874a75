package games

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// TestEndNow: the organiser's End ends either game where it stands, scored
// by net worth (W-40, B-0); it is refused once the game is over, and any
// other organiser command is refused; a replay of a log that holds it
// reaches the same state (P-1).
func TestEndNow(t *testing.T) {
	for _, kind := range []string{"western", "businessman"} {
		t.Run(kind, func(t *testing.T) {
			seed := [32]byte{7, 1, 7}
			g, err := reg.New(kind, reg.CurrentRules(kind), nil, 3, seed)
			if err != nil {
				t.Fatal(err)
			}
			var log []engine.Command
			for range 40 { // some way into the game
				seat := g.Owing()[0]
				a, _ := g.Bot(seat)
				if g, _, err = g.Apply(seat, a); err != nil {
					t.Fatal(err)
				}
				log = append(log, engine.Command{Seat: seat, Action: a})
			}
			if _, _, err := g.Apply(engine.Organiser, engine.Action{Type: engine.Resign}); !errors.Is(err, engine.ErrIllegalAction) {
				t.Fatalf("organiser's resign: %v", err)
			}
			if _, _, err := g.Apply(engine.Organiser, engine.Action{Type: engine.End, Amount: 1}); !errors.Is(err, engine.ErrIllegalAction) {
				t.Fatalf("end with an amount: %v", err)
			}
			before := g.Score()
			end := engine.Action{Type: engine.End}
			over, ev, err := g.Apply(engine.Organiser, end)
			if err != nil {
				t.Fatal(err)
			}
			if g.Over() {
				t.Fatal("Apply changed its receiver")
			}
			if !over.Over() || len(over.Owing()) != 0 {
				t.Fatalf("after End: over %v, owing %v", over.Over(), over.Owing())
			}
			if last := ev[len(ev)-1]; last.Type != "game_over" || last.Other != engine.OverEnded {
				t.Fatalf("events %v", ev)
			}
			for i, sc := range over.Score() {
				if sc.NetWorth != before[i].NetWorth || sc.Place != before[i].Place {
					t.Fatalf("score %d: %+v, before the end %+v", i, sc, before[i])
				}
			}
			if _, _, err := over.Apply(engine.Organiser, end); !errors.Is(err, engine.ErrGameOver) {
				t.Fatalf("end twice: %v", err)
			}
			log = append(log, engine.Command{Seat: engine.Organiser, Action: end})
			re, err := reg.Replay(kind, reg.CurrentRules(kind), nil, 3, seed, log)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := over.MarshalJSON()
			b, _ := re.MarshalJSON()
			if !bytes.Equal(a, b) {
				t.Fatal("the replay differs from the game")
			}
		})
	}
}
