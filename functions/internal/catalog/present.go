// Package catalog registers every game, once: its engine and its
// presentation. It is the one place outside a game's two folders that
// names the game; a new game is two folders and a line each here.
package catalog

import (
	"github.com/pbmgames/pbm/functions/internal/present"
	businessmanview "github.com/pbmgames/pbm/functions/internal/present/businessman"
	westernview "github.com/pbmgames/pbm/functions/internal/present/western"
)

// The presenters, the service's first game first: the create form
// offers it first (present.Kinds).
func init() {
	present.Register(westernview.Presenter)
	present.Register(businessmanview.Presenter)
}
