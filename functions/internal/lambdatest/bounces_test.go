//go:build linux

package lambdatest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// TestBouncesFunction runs the bounces function's binary under the
// emulator with an SNS event as the MailEventsTopic subscription delivers
// it (testdata/sns_bounce.json): an SES Bounce event of type Permanent,
// then a Transient one. The permanently bounced address is suppressed in
// dynalite; the other is left alone.
func TestBouncesFunction(t *testing.T) {
	w := newWorld(t)
	event, err := os.ReadFile(filepath.Join("testdata", "sns_bounce.json"))
	if err != nil {
		t.Fatal(err)
	}
	bin := build(t, bouncesFunction)
	fn := startEmulator(t, buildRIE(t), bin, w.env(bouncesFunction, filepath.Dir(bin)))
	if out := fn.invoke(event); string(out) != "null" {
		t.Errorf("answer %s, want null (the handler returns only an error)", out)
	}

	ctx := context.Background()
	p, err := w.store.GetPlayer(ctx, "gone.player@example.org")
	if err != nil {
		t.Fatalf("the permanently bounced address: %v", err)
	}
	if !p.Suppressed || !strings.Contains(p.SuppressedReason, "bounce") || p.SuppressedAt == 0 {
		t.Errorf("the permanently bounced address: suppressed %v, reason %q, at %d", p.Suppressed, p.SuppressedReason, p.SuppressedAt)
	}
	if p, err := w.store.GetPlayer(ctx, "full.box@example.net"); err == nil && p.Suppressed {
		t.Error("a transient bounce suppressed its address")
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}

	// SNS retries a delivery; the same event again changes nothing.
	fn.invoke(event)
	again, err := w.store.GetPlayer(ctx, "gone.player@example.org")
	if err != nil || !again.Suppressed {
		t.Errorf("after the event again: %+v, %v", again, err)
	}
}
