package present_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
)

// TestPhrasesNameTypes: a game's phrases.json is keyed by the types of
// its engine's actions and events, so a key the engine does not have (a
// typo, a renamed type) fails here rather than falling back to the code.
func TestPhrasesNameTypes(t *testing.T) {
	for _, gm := range bothGames {
		b, ok := present.File(testGames.For(gm.kind), "phrases.json")
		if !ok {
			t.Fatalf("%s: no phrases.json", gm.kind)
		}
		var p present.Phrases
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatalf("%s: %v", gm.kind, err)
		}
		actions := append(constants(t, gm.dir, "A"), engine.Resign, engine.AcceptDeal, engine.DeclineDeal)
		for typ := range p.Actions {
			if !slices.Contains(actions, typ) {
				t.Errorf("%s: phrase of action %q, which the engine does not have", gm.kind, typ)
			}
		}
		events := append(constants(t, gm.dir, "Ev"), engine.EvTurn, engine.EvResign, engine.EvGameOver)
		for typ := range p.Events {
			if !slices.Contains(events, typ) {
				t.Errorf("%s: phrase of event %q, which the engine does not have", gm.kind, typ)
			}
		}
		if len(p.Actions) == 0 || len(p.Events) == 0 {
			t.Errorf("%s: %d action and %d event phrases", gm.kind, len(p.Actions), len(p.Events))
		}
	}
}
