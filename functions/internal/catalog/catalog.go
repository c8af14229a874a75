// Package catalog registers every game, once: its engine (engine/games)
// and its presentation (present), in one call a game. It is the one place
// outside a game's two folders that names the game; a new game is its
// two folders and a line here. Packages that look games up import it for
// its side effect.
package catalog

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/present"
	businessmanview "github.com/pbmgames/pbm/functions/internal/present/businessman"
	westernview "github.com/pbmgames/pbm/functions/internal/present/western"
)

// The games, the service's first game first: the create form offers it
// first (present.Kinds).
func init() {
	register(western.Def(), westernview.Presenter)
	register(businessman.Def(), businessmanview.Presenter)
}

// register adds one game's engine and presentation; both must name the
// same kind.
func register(d engine.Def, p present.Game) {
	if d.Info.Kind != p.Kind() {
		panic(fmt.Sprintf("catalog: engine %q registered with the presentation of %q", d.Info.Kind, p.Kind()))
	}
	games.Register(d)
	present.Register(p)
}
