package dynamostore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// batchGames writes n games of various attributes to a new table, and
// returns their store and ids.
func batchGames(t *testing.T, n int) (*dynamostore.Store, []string) {
	t.Helper()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	var ids []string
	for i := range n {
		id := fmt.Sprintf("g%03d", i)
		g := store.Game{ID: id, Body: []byte(id), UpdatedAt: int64(i), WakeAt: int64(i % 3), OutboxPending: i%2 == 0}
		if _, err := s.PutGame(context.Background(), g, 0); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return s, ids
}

// sameGames checks that a batch read the games of ids, and no other, as
// GetGame reads each.
func sameGames(t *testing.T, s *dynamostore.Store, ids []string, games map[string]store.Game) {
	t.Helper()
	if len(games) != len(ids) {
		t.Fatalf("%d games, want %d", len(games), len(ids))
	}
	for _, id := range ids {
		want, err := s.GetGame(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if got := games[id]; got.ID != want.ID || got.Version != want.Version || string(got.Body) != string(want.Body) ||
			got.UpdatedAt != want.UpdatedAt || got.WakeAt != want.WakeAt || got.OutboxPending != want.OutboxPending {
			t.Fatalf("batch[%s] = %+v, GetGame %+v", id, got, want)
		}
	}
}

// GetGames reads a batch of games as GetGame reads each, leaving out the
// ids with no game.
func TestGetGames(t *testing.T) {
	ctx := context.Background()
	s, ids := batchGames(t, store.MaxBatch-1)
	games, err := s.GetGames(ctx, append(ids, "absent"))
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, s, ids, games)
	if _, err := s.GetGames(ctx, make([]string, store.MaxBatch+1)); err == nil {
		t.Fatal("more than a batch: no error")
	}
}

// GetGamesSent reads a batch of games and their sent markers as GetGame
// and GetSent read each, leaving out the ids with no game or no marker.
func TestGetGamesSent(t *testing.T) {
	ctx := context.Background()
	s, ids := batchGames(t, store.MaxBatch/2-1)
	for i, id := range ids {
		for v := range i % 3 { // markers of versions 0 (none), 1 and 2
			if _, err := s.PutSent(ctx, store.Sent{GameID: id, Body: fmt.Appendf(nil, "%s-%d", id, v)}, int64(v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	games, markers, err := s.GetGamesSent(ctx, append(ids, "absent"))
	if err != nil {
		t.Fatal(err)
	}
	sameGames(t, s, ids, games)
	for i, id := range ids {
		m, ok := markers[id]
		wantM, err := s.GetSent(ctx, id)
		if i%3 == 0 {
			if ok || !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("GetGamesSent: marker of %s %+v, %v; GetSent %v", id, m, ok, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if m.GameID != wantM.GameID || m.Version != wantM.Version || string(m.Body) != string(wantM.Body) {
			t.Fatalf("GetGamesSent: marker of %s %+v, GetSent %+v", id, m, wantM)
		}
	}
	if _, _, err := s.GetGamesSent(ctx, make([]string, store.MaxBatch/2+1)); err == nil {
		t.Fatal("more than a batch: no error")
	}
}
