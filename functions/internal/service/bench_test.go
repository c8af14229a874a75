package service

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// memStore is a minimal in-memory store, so the benchmark sees only the
// service's own work.
type memStore struct {
	mu    sync.Mutex
	games map[string]store.Game
}

func (m *memStore) GetGame(_ context.Context, id string) (store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.games[id]
	if !ok {
		return g, store.ErrNotFound
	}
	return g, nil
}

func (m *memStore) PutGame(_ context.Context, g store.Game, prev int64) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.games[g.ID].Version != prev {
		return 0, store.ErrConflict
	}
	g.Version = prev + 1
	m.games[g.ID] = g
	return g.Version, nil
}

func (m *memStore) PutChunk(context.Context, store.Chunk) error           { return nil }
func (m *memStore) Chunks(context.Context, string) ([]store.Chunk, error) { return nil, nil }
func (m *memStore) PendingOutbox(context.Context) ([]string, error)       { return nil, nil }
func (m *memStore) PendingMail(context.Context, string) ([]string, error) { return nil, nil }
func (m *memStore) Waking(context.Context, int64) ([]string, error)       { return nil, nil }

// BenchmarkActOwnTime is a move through the service with a store that
// costs nothing: the service's own time per move (load, decode, apply,
// encode, save), which SPEC §6 wants small beside the two DynamoDB calls.
//
//	go test ./functions/internal/service -run XXX -bench ActOwnTime -benchmem
func BenchmarkActOwnTime(b *testing.B) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": key})
	svc := New(Config{Store: &memStore{games: map[string]store.Game{}}, Keys: keys, Rand: testenv.Rand(b.Name())})
	ctx := context.Background()
	seats := make([]Person, 6)
	for i := range seats {
		seats[i] = Person{Name: fmt.Sprint("P", i), Email: fmt.Sprintf("p%d@example.org", i)}
	}
	c, err := svc.Create(ctx, CreateRequest{Kind: "western", Options: []byte(`{"laps":200}`), Organiser: Person{Email: "o@example.org"}, Seats: seats})
	if err != nil {
		b.Fatal(err)
	}
	if err := svc.Confirm(ctx, c.ID); err != nil {
		b.Fatal(err)
	}
	for i := range seats {
		if _, err := svc.Accept(ctx, c.ID, i); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Untimed: pick the seat, and empty the outbox as the notifier
		// would between moves.
		b.StopTimer()
		rec, _, _ := svc.Load(ctx, c.ID)
		var sent []string
		for _, m := range rec.Outbox {
			sent = append(sent, m.ID)
		}
		if err := svc.MarkSent(ctx, c.ID, sent, nil); err != nil {
			b.Fatal(err)
		}
		g, _ := svc.Engine(rec)
		inv := rec.inviteOf(g.Owing()[0])
		b.StartTimer()
		if _, err := svc.ActBot(ctx, c.ID, inv, fmt.Sprintf("bench-%07d", i)); err != nil {
			b.Fatal(err)
		}
	}
}
