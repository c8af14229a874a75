package boltstore_test

import (
	"path/filepath"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/storetest"
)

func TestTalkConformance(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	storetest.RunTalk(t, func(*testing.T) store.TalkStore { return s })
}
