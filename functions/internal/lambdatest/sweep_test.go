//go:build linux

package lambdatest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

// TestSweepFunction runs the sweep's binary under the emulator with a
// scheduled event (testdata/scheduled.json). Two games have their
// invitations pending: one last written longer ago than the sweep's idle
// time (created with the service's clock set back, so its UpdatedAt is
// old, as if the stream's retries had run out), which the sweep drains,
// and a fresh one, which it leaves to the stream's notifier.
func TestSweepFunction(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	then := time.Now().Add(-notify.SweepIdle - 5*time.Minute)
	old, err := w.service(func() time.Time { return then }).Create(ctx, w.createRequest("sweep-old"))
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, w.service(func() time.Time { return then }), old.ID)
	fresh, err := w.service(nil).Create(ctx, w.createRequest("sweep-fresh"))
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, w.service(nil), fresh.ID)
	svc := w.service(nil)
	oldRec, _, err := svc.Load(ctx, old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := w.store.GetGame(ctx, old.ID); err != nil || g.UpdatedAt != then.Unix() || !g.OutboxPending {
		t.Fatalf("the old game as stored: updated %d (want %d), pending %v, %v", g.UpdatedAt, then.Unix(), g.OutboxPending, err)
	}
	pending, err := w.store.PendingOutbox(ctx)
	if err != nil || len(pending) != 2 {
		t.Fatalf("the outbox index lists %v, %v; want both games", pending, err)
	}

	event, err := os.ReadFile(filepath.Join("testdata", "scheduled.json"))
	if err != nil {
		t.Fatal(err)
	}
	bin := build(t, sweepFunction)
	fn := startEmulator(t, buildRIE(t), bin, w.env(sweepFunction, filepath.Dir(bin)))
	if out := fn.invoke(event); string(out) != "null" {
		t.Errorf("answer %s, want null", out)
	}

	w.checkMailed("sweep-old", recipients(oldRec))
	if after, _, err := svc.Load(ctx, old.ID); err != nil || len(after.Outbox) != 0 {
		t.Errorf("the old game's outbox after the sweep: %+v, %v", after.Outbox, err)
	}
	if after, _, err := svc.Load(ctx, fresh.ID); err != nil || len(after.Outbox) == 0 {
		t.Errorf("the fresh game's outbox after the sweep: %+v, %v; want it left to the stream", after.Outbox, err)
	}
	w.checkMailed("sweep-fresh", nil)
	if pending, err := w.store.PendingOutbox(ctx); err != nil || len(pending) != 1 || pending[0] != fresh.ID {
		t.Errorf("the outbox index lists %v, %v; want the fresh game only", pending, err)
	}
}
