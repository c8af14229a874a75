package conformance_test

import (
	"testing"

	enginesuite "github.com/pbmgames/pbm/engine/conformance"

	"github.com/pbmgames/pbm/engine/testgame/race"
	"github.com/pbmgames/pbm/functions/internal/catalog"
	"github.com/pbmgames/pbm/functions/internal/conformance"
	raceview "github.com/pbmgames/pbm/functions/internal/present/testgame/race"
)

// testGames are the games the suite holds to the service: the catalog's
// and the test-only «Гонка», which proves the shared code assumes nothing
// of the real games. This is the one place outside the test game's own
// two folders that names it (catalog's TestGamesLiveInTheirFolders).
var testGames = catalog.GamesWith(catalog.Game{Def: race.Def(), Present: raceview.Presenter})

// known are the checks each game is known to fail for an assumption of
// the shared code: issue 26's work list, empty now (the last, «2–2
// игрока», went with engine.Info's seat range said as one count).
var known = map[string]conformance.Known{}

// TestEnginesConform holds every game's engine, the catalog's and the
// test game's, to the contract of every game (engine/conformance).
func TestEnginesConform(t *testing.T) {
	if testing.Short() {
		enginesuite.Seeds = 1
	}
	for _, kind := range testGames.Kinds() {
		d, _ := testGames.Engines().Def(kind)
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			enginesuite.Run(t, d)
		})
	}
}

// TestGamesConform (issue 26): every game the tests serve passes the
// same service-level suite.
func TestGamesConform(t *testing.T) {
	kinds := testGames.Kinds()
	if len(kinds) < 3 {
		t.Fatalf("games %v: the catalog's and the test game", kinds)
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			conformance.Run(t, testGames, kind, known[kind])
		})
	}
}
