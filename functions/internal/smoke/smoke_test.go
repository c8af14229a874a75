package smoke_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/smoke"
	"github.com/pbmgames/pbm/functions/internal/wiring/localrun"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestSmokeLocally runs the smoke game against the local runner (`make
// run`'s wiring and handler, served over HTTP), so that `make smoke` keeps
// working. What differs from a deployed stack: no SES, so the mail goes to
// the local mailbox and the bounce is made to arrive as the bounces
// function records one (Bounced); no schedule, so the test moves the
// runner's clock past the reminder and runs the sweep's tick itself
// (Sweep); the records are read from the runner's store, not the table.
func TestSmokeLocally(t *testing.T) {
	dir := t.TempDir()
	var now atomic.Int64
	now.Store(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Unix())
	clock := func() time.Time { return time.Unix(now.Load(), 0) }
	var app *localrun.App
	srv := httptest.NewServer(httpHandler(&app))
	t.Cleanup(srv.Close)
	var err error
	app, err = localrun.New(localrun.Config{Dir: dir, BaseURL: srv.URL, Now: clock, Rand: testenv.Rand(t.Name()),
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	keys, err := linksign.EnsureKeyFile(filepath.Join(dir, "link-keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	err = smoke.Run(context.Background(), smoke.Config{
		URL:     srv.URL,
		Keys:    keys,
		Success: func(label string) string { return label + "@smoke.test" },
		Bounce:  "bounce@smoke.test",
		Bounced: func(ctx context.Context, addr string) error {
			return app.Store.Suppress(ctx, addr, "Permanent", clock().Unix())
		},
		Suppressed: func(ctx context.Context, addr string) (bool, error) {
			p, err := app.Service.Prefs(ctx, addr)
			return p.Suppressed, err
		},
		Reminded: func(ctx context.Context, game string, seat int) (bool, error) {
			rec, _, err := app.Service.Load(ctx, game)
			if err != nil {
				return false, err
			}
			return seat < len(rec.Reminded) && rec.Reminded[seat], nil
		},
		Sweep: func(ctx context.Context) error {
			now.Add(50 * 60) // past the reminder, 45 minutes in
			_, err := app.Service.TickAll(ctx)
			return err
		},
		SuppressWait: time.Second, ReminderWait: time.Second, Poll: 10 * time.Millisecond,
		Log: &log, Now: clock,
	})
	t.Logf("make smoke against the local runner:\n%s", log.String())
	if err != nil {
		t.Fatal(err)
	}
}

// httpHandler serves the app's handler once it is made (the server's URL
// is the app's base URL, so the server comes first).
func httpHandler(app **localrun.App) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*app).Handler().ServeHTTP(w, r) })
}
