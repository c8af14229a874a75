// Package catalog registers every game, once: its engine and its
// presentation. It is the one place outside a game's two folders that
// names the game; a new game is two folders and a line each here.
package catalog

import (
	"github.com/pbmgames/pbm/functions/internal/present"
	businessmanview "github.com/pbmgames/pbm/functions/internal/present/businessman"
	westernview "github.com/pbmgames/pbm/functions/internal/present/western"
)

// The presenters, in the order of the engines' registration.
func init() {
	present.Register(westernview.Presenter)
	present.Register(businessmanview.Presenter)
}
