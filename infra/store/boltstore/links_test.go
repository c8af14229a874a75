package boltstore_test

import (
	"path/filepath"
	"testing"

	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/store/storetest"
)

func TestLinksConformance(t *testing.T) {
	s, err := boltstore.Open(filepath.Join(t.TempDir(), "links.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	storetest.RunLinks(t, func(*testing.T) storetest.LinkPlayers { return s })
}
