package service_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestWakeKeyKeptWhileTurnsPass: the wake index key of a game stays put
// while turns pass and each new deadline lies beyond it (a changed key is
// two index writes, issue 16); when it falls due the sweep ticks the game
// early, which plays and mails nothing and moves the key to the next wake.
func TestWakeKeyKeptWhileTurnsPass(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler),
		Rand: testenv.Rand(t.Name())})
	ctx := context.Background()
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", DeadlineHours: 4, Options: []byte(`{"laps":20}`),
		Organiser: service.Person{Email: "o@pbm.test"}, Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
	for i := 0; i < 2; i++ {
		if _, err := svc.Accept(ctx, c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	stored := func() int64 {
		g, err := st.GetGame(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return g.WakeAt
	}
	load := func() *service.Record {
		rec, _, err := svc.Load(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	owner := func() int {
		rec := load()
		g, _ := svc.Engine(rec)
		for i, s := range rec.Seats {
			if s.Engine == g.Turn() {
				return i
			}
		}
		t.Fatal("nobody's turn")
		return -1
	}
	key := stored()
	if want := now.Add(3 * time.Hour).Unix(); key != want {
		t.Fatalf("wake key %d after the start, want the first reminder %d", key, want)
	}
	// Ten minutes later the turn passes: the next reminder is later than
	// the key, which stays.
	now = now.Add(10 * time.Minute)
	first := owner()
	for n := 0; owner() == first; n++ {
		if n > 50 {
			t.Fatal("the turn does not pass")
		}
		if _, err := svc.ActBot(ctx, c.ID, first, fmt.Sprintf("bot-%d", n)); err != nil {
			t.Fatal(err)
		}
	}
	next := now.Add(3 * time.Hour).Unix()
	if got := stored(); got != key {
		t.Fatalf("wake key moved from %d to %d as the turn passed (next wake %d)", key, got, next)
	}
	// The key falls due: an early tick plays and mails nothing, and moves
	// the key to the next reminder.
	now = time.Unix(key, 0)
	before := load()
	if _, err := svc.TickAll(ctx); err != nil {
		t.Fatal(err)
	}
	after := load()
	if after.Moves != before.Moves || len(after.Outbox) != len(before.Outbox) {
		t.Fatalf("the early tick played or mailed: moves %d→%d, outbox %d→%d", before.Moves, after.Moves, len(before.Outbox), len(after.Outbox))
	}
	if got := stored(); got != next {
		t.Fatalf("wake key %d after the early tick, want the next reminder %d", got, next)
	}
	if ids, _ := st.Waking(ctx, now.Unix()); len(ids) != 0 {
		t.Fatalf("still waking after the tick: %v", ids)
	}
}
