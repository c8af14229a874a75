package boltstore_test

import (
	"path/filepath"
	"testing"

	"github.com/pbmgames/pbm/infra/store/storetest"
)

func TestSentConformance(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	storetest.RunSent(t, func(*testing.T) storetest.SentGames { return s })
}
