package dynamostore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/store/storetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// newTable creates a table of a fresh random name on the test dynalite.
func newTable(t *testing.T, client *dynamodb.Client) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	table := "games-" + hex.EncodeToString(b)
	if err := dynamostore.CreateTable(context.Background(), client, table); err != nil {
		t.Fatal(err)
	}
	return table
}

func TestConformance(t *testing.T) {
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	storetest.Run(t, func(*testing.T) store.Store { return s })
}

// A move costs one read and one conditional write: one request each.
func TestRequestsPerCall(t *testing.T) {
	ctx := context.Background()
	counter := &testenv.CountingTransport{}
	client := testenv.DynamoClient(t, testenv.Dynalite(t), func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: counter}
	})
	s := dynamostore.New(client, newTable(t, client))

	check := func(what string, want int64) {
		t.Helper()
		if n := counter.Reset(); n != want {
			t.Errorf("%s took %d requests, want %d", what, n, want)
		}
	}
	counter.Reset()
	if _, err := s.PutGame(ctx, store.Game{ID: "g", Body: []byte("one")}, 0); err != nil {
		t.Fatal(err)
	}
	check("PutGame (create)", 1)
	g, err := s.GetGame(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	check("GetGame", 1)
	if _, err := s.PutGame(ctx, store.Game{ID: "g", Body: []byte("two"), OutboxPending: true}, g.Version); err != nil {
		t.Fatal(err)
	}
	check("PutGame (update)", 1)
	if _, err := s.PutGame(ctx, store.Game{ID: "g", Body: []byte("stale")}, g.Version); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale PutGame: %v", err)
	}
	check("PutGame (conflict)", 1)
	if _, err := s.GetGame(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetGame(missing): %v", err)
	}
	check("GetGame (missing)", 1)
	c := store.Chunk{GameID: "g", Seq: 0, Body: []byte("log")}
	if err := s.PutChunk(ctx, c); err != nil {
		t.Fatal(err)
	}
	check("PutChunk", 1)
}

// The errors keep the service's error in their chain next to the store's.
func TestConflictWrapsServiceError(t *testing.T) {
	ctx := context.Background()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	if _, err := s.PutGame(ctx, store.Game{ID: "g"}, 0); err != nil {
		t.Fatal(err)
	}
	_, err := s.PutGame(ctx, store.Game{ID: "g"}, 0)
	var ccf interface{ ErrorCode() string }
	if !errors.Is(err, store.ErrConflict) || !errors.As(err, &ccf) || ccf.ErrorCode() != "ConditionalCheckFailedException" {
		t.Fatalf("conflict error = %v", err)
	}
}

// Where dynalite puts the size limit; boltstore's test checks the same edge.
func TestSizeLimitEdge(t *testing.T) {
	ctx := context.Background()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	s := dynamostore.New(client, newTable(t, client))
	const id = "edge"
	// pk, sk, ver 1, upd 1700000000, body, outbox "1": names and values.
	overhead := 2 + len("GAME#"+id) + 2 + 4 + 3 + 2 + 3 + 2 + 4 + 6 + 1
	g := store.Game{ID: id, Body: make([]byte, 400*1024-overhead+1), UpdatedAt: 1700000000, OutboxPending: true}
	if _, err := s.PutGame(ctx, g, 0); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("one byte over: %v, want ErrTooLarge", err)
	}
	g.Body = g.Body[1:]
	if _, err := s.PutGame(ctx, g, 0); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	// pk, sk "LOG#00000000", body.
	overhead = 2 + len("GAME#"+id) + 2 + 12 + 4
	c := store.Chunk{GameID: id, Body: make([]byte, 400*1024-overhead+1)}
	if err := s.PutChunk(ctx, c); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("chunk one byte over: %v, want ErrTooLarge", err)
	}
	c.Body = c.Body[1:]
	if err := s.PutChunk(ctx, c); err != nil {
		t.Fatalf("chunk at the limit: %v", err)
	}
}
