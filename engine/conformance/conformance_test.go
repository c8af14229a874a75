package conformance_test

import (
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/conformance"
	"github.com/pbmgames/pbm/engine/testgame/race"
	"github.com/pbmgames/pbm/engine/western"
)

// TestConformance holds every game, the two real ones and the test-only
// «Гонка», to the contract of every game.
func TestConformance(t *testing.T) {
	if testing.Short() {
		conformance.Seeds = 1
	}
	for _, d := range []engine.Def{western.Def(), businessman.Def(), race.Def()} {
		t.Run(d.Info.Kind, func(t *testing.T) {
			t.Parallel()
			conformance.Run(t, d)
		})
	}
}
