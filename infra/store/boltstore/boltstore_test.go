package boltstore_test

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/store/storetest"
)

func open(t *testing.T, path string) *boltstore.Store {
	t.Helper()
	s, err := boltstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	storetest.Run(t, func(*testing.T) store.Store { return s })
}

func TestPlayersConformance(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	storetest.RunPlayers(t, func(*testing.T) store.PlayerStore { return s })
	storetest.RunMemberships(t, func(*testing.T) store.PlayerStore { return s })
}

func TestSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "games.db")
	s := open(t, path)
	if _, err := s.PutGame(ctx, store.Game{ID: "g1", Body: []byte("one"), UpdatedAt: 7}, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutGame(ctx, store.Game{ID: "g1", Body: []byte("two"), OutboxPending: true, UpdatedAt: 8, WakeAt: 9}, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.PutChunk(ctx, store.Chunk{GameID: "g1", Seq: 0, Body: []byte("log")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, path)
	defer s.Close()
	g, err := s.GetGame(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if g.Version != 2 || string(g.Body) != "two" || !g.OutboxPending || g.UpdatedAt != 8 || g.WakeAt != 9 {
		t.Fatalf("after reopen: %+v", g)
	}
	cs, err := s.Chunks(ctx, "g1")
	if err != nil || len(cs) != 1 || !bytes.Equal(cs[0].Body, []byte("log")) {
		t.Fatalf("chunks after reopen: %+v, %v", cs, err)
	}
	ids, err := s.PendingOutbox(ctx)
	if err != nil || !slices.Equal(ids, []string{"g1"}) {
		t.Fatalf("pending after reopen: %v, %v", ids, err)
	}
	ids, err = s.Waking(ctx, 9)
	if err != nil || !slices.Equal(ids, []string{"g1"}) {
		t.Fatalf("waking after reopen: %v, %v", ids, err)
	}
	// Versions go on where they were.
	if _, err := s.PutGame(ctx, store.Game{ID: "g1"}, 1); err == nil {
		t.Fatal("stale write accepted after reopen")
	}
	if v, err := s.PutGame(ctx, store.Game{ID: "g1"}, 2); err != nil || v != 3 {
		t.Fatalf("PutGame after reopen = %d, %v", v, err)
	}
}

// Games whose ids prefix one another keep their chunks apart.
func TestChunkKeysDoNotCollide(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	defer s.Close()
	ids := []string{"a", "ab", "a\x00", "\x01a", ""}
	for i, id := range ids[:4] {
		if err := s.PutChunk(ctx, store.Chunk{GameID: id, Seq: i, Body: []byte(id)}); err != nil {
			t.Fatal(err)
		}
	}
	for i, id := range ids[:4] {
		cs, err := s.Chunks(ctx, id)
		if err != nil || len(cs) != 1 || cs[0].Seq != i || string(cs[0].Body) != id {
			t.Fatalf("Chunks(%q) = %+v, %v", id, cs, err)
		}
	}
}

// The limit falls where DynamoDB puts it for the item the DynamoDB store
// would write (dynamostore's test checks the same edge against dynalite).
func TestSizeLimitEdge(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	defer s.Close()
	storetest.SizeLimitEdge(t, s, "edge")
}

func TestGuardConformance(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "games.db"))
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	storetest.RunGuard(t, func(*testing.T) store.GuardStore { return s })
}
