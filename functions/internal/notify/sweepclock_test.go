package notify_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestSweepClock: the sweep tells a game left alone by the notifier's
// clock, not the machine's, so a simulated clock (the calendar simulator)
// drives it too — here three years ahead of the machine's.
func TestSweepClock(t *testing.T) {
	ctx := context.Background()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Now().AddDate(3, 0, 0)
	clock := func() time.Time { return now }
	sender := &recorder{fail: true}
	log := slog.New(slog.DiscardHandler)
	n := &notify.Notifier{Sender: sender, Log: log, Now: clock}
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: clock, Log: log, AfterCommit: n.AfterCommit, Rand: testenv.Rand(t.Name())})
	n.Service, n.Composer = svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true})
	c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "org@pbm.test"},
		Seats: []service.Person{{Name: "Anna", Email: "anna@pbm.test"}, {Name: "Bob", Email: "bob@pbm.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Confirm(ctx, c.ID); err != nil { // the organiser's address: the invitations may go
		t.Fatal(err)
	}
	sender.fail = false // SES is back; the invitations wait in the outbox
	for _, after := range []time.Duration{0, notify.SweepIdle - time.Second} {
		now = now.Add(after)
		if err := n.Sweep(ctx, svc.PendingOutbox); err != nil {
			t.Fatal(err)
		}
		if len(sender.sent) != 0 {
			t.Fatalf("sent %d mails %s after the game was written: the stream's notifier has it", len(sender.sent), after)
		}
	}
	now = now.Add(2 * time.Second)
	if err := n.Sweep(ctx, svc.PendingOutbox); err != nil {
		t.Fatal(err)
	}
	if len(sender.to("anna@pbm.test")) != 1 || len(sender.to("bob@pbm.test")) != 1 {
		t.Fatalf("after %s left alone, the sweep sent %d mails, want the two invitations of %s", notify.SweepIdle, len(sender.sent), c.ID)
	}
}
