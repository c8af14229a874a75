// Package catalog is the one place that names the games: importing it
// registers each game's engine with the registry (engine/games). Packages
// that look games up import it for its side effect.
package catalog

import (
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/engine/western"
)

func init() {
	games.Register(western.Def())
	games.Register(businessman.Def())
}
