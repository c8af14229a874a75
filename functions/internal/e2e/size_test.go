package e2e

import (
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
)

// maxItemBytes is SPEC §6: no item over 100 KB.
const maxItemBytes = 100 << 10

// TestLongGameItemSize plays a 6-seat 30-lap game of each game through
// the service on dynalite (the engine's bots choosing) and reports the
// largest game item written; it must stay under 100 KB however long the
// game.
func TestLongGameItemSize(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole long game: skipped in -short runs")
	}
	t.Parallel()
	for _, kind := range []string{"western", "businessman"} {
		t.Run(kind, func(t *testing.T) { longGameItemSize(t, kind) })
	}
}

func longGameItemSize(t *testing.T, kind string) {
	e := newEnv(t)
	e.mail.enabled.Store(true) // the notifier keeps the outbox drained, as in service
	id, _ := e.startGame(kind, 6, `{"laps":30}`)
	moves := e.playOutWithBots(id)
	rec, _, _ := e.svc.Load(t.Context(), id)
	if rec.Status != service.StatusOver || len(rec.Outbox) != 0 {
		t.Fatalf("status %s with %d unsent mails", rec.Status, len(rec.Outbox))
	}
	t.Logf("%s, 6 seats, 30 laps: %d moves, %d log chunks, largest game item %d bytes (limit %d)",
		kind, moves, rec.Chunks, e.store.largest, maxItemBytes)
	if e.store.largest > maxItemBytes {
		t.Fatalf("largest item %d bytes > %d", e.store.largest, maxItemBytes)
	}
}
