package dynamostore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// GetGames reads a batch of games as GetGame reads each, leaving out the
// ids with no game.
func TestGetGames(t *testing.T) {
	ctx := context.Background()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	var ids []string
	for i := range store.MaxBatch - 1 {
		id := fmt.Sprintf("g%03d", i)
		g := store.Game{ID: id, Body: []byte(id), UpdatedAt: int64(i), WakeAt: int64(i % 3), OutboxPending: i%2 == 0}
		if _, err := s.PutGame(ctx, g, 0); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	games, err := s.GetGames(ctx, append(ids, "absent"))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(ids) {
		t.Fatalf("%d games, want %d", len(games), len(ids))
	}
	for _, id := range ids {
		want, err := s.GetGame(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got := games[id]
		if got.ID != want.ID || got.Version != want.Version || string(got.Body) != string(want.Body) ||
			got.UpdatedAt != want.UpdatedAt || got.WakeAt != want.WakeAt || got.OutboxPending != want.OutboxPending {
			t.Fatalf("GetGames[%s] = %+v, GetGame %+v", id, got, want)
		}
	}
	if _, err := s.GetGames(ctx, make([]string, store.MaxBatch+1)); err == nil {
		t.Fatal("more than a batch: no error")
	}
}
