// Package catalog lists the games the service serves, once: each one's
// engine (engine.Def) and its presentation (present.Game). It is the one
// place outside a game's two folders that names the game; a new game is
// its two folders and a line here. The programs' wiring calls Games and
// hands the value to what needs it: no package keeps a list of games of
// its own.
package catalog

import (
	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/present"
	businessmanview "github.com/pbmgames/pbm/functions/internal/present/businessman"
	westernview "github.com/pbmgames/pbm/functions/internal/present/western"
)

// Game is one game: its engine and its presentation.
type Game struct {
	Def     engine.Def
	Present present.Game
}

// list is the service's games, its first game first: the create form
// offers it first.
func list() []Game {
	return []Game{
		{western.Def(), westernview.Presenter},
		{businessman.Def(), businessmanview.Presenter},
	}
}

// Games are the service's games. Each call makes a new value; a program
// makes one.
func Games() *present.Games { return GamesWith() }

// GamesWith are the service's games and more after them: the tests'
// wiring hands the test-only game this way.
func GamesWith(more ...Game) *present.Games {
	all := append(list(), more...)
	defs := make([]engine.Def, len(all))
	ps := make([]present.Game, len(all))
	for i, g := range all {
		defs[i], ps[i] = g.Def, g.Present
	}
	return present.NewGames(games.New(defs...), ps...)
}
