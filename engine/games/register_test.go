package games

import (
	"testing"

	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
)

// reg is the registry the tests play: both games, as the program lists
// them in functions/internal/catalog, which the engine may not import.
var reg = New(western.Def(), businessman.Def())

func TestRegistryRefusesADuplicateOrNamelessGame(t *testing.T) {
	t.Run("twice", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Error("no panic")
			}
		}()
		New(western.Def(), western.Def())
	})
	t.Run("no kind", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Error("no panic")
			}
		}()
		d := western.Def()
		d.Info.Kind = ""
		New(d)
	})
}

func TestRegistryKeepsItsOrder(t *testing.T) {
	if got := reg.Kinds(); len(got) != 2 || got[0] != western.Name || got[1] != businessman.Name {
		t.Errorf("Kinds() = %v, want the order given", got)
	}
	if _, ok := reg.Lookup("nope"); ok {
		t.Error("an unknown kind looked up")
	}
	var empty Registry
	if len(empty.List()) != 0 || empty.CurrentRules(western.Name) != 0 {
		t.Error("the zero registry has games")
	}
}
