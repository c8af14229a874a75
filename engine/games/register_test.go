package games

import (
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
)

// The registry's tests play both games; the program registers them in
// functions/internal/catalog, which the engine may not import.
func init() {
	Register(western.Def())
	Register(businessman.Def())
}
