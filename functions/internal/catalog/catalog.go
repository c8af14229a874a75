// Package catalog lists the games the service serves, once: each one's
// engine (engine.Def) and its presentation (present.Game). It is the one
// place outside a game's two folders that names the game; a new game is
// its two folders and a line here. The programs' wiring calls Games and
// hands the value to what needs it: no package keeps a list of games of
// its own.
package catalog

import (
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/present"
	businessmanview "github.com/pbmgames/pbm/functions/internal/present/businessman"
	westernview "github.com/pbmgames/pbm/functions/internal/present/western"
)

// Games are the service's games, its first game first: the create form
// offers it first. Each call makes a new value; a program makes one.
func Games() *present.Games {
	return present.NewGames(
		games.New(western.Def(), businessman.Def()),
		westernview.Presenter, businessmanview.Presenter,
	)
}
