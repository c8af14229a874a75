package notify_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
)

// TestControlMailsFollowPreferences: the organiser's controls are mailed
// to the table under each player's mail preference: at once to one who
// takes every mail, never to one who takes only their own moves, into the
// digest of one who chose it.
func TestControlMailsFollowPreferences(t *testing.T) {
	ctx := context.Background()
	_, svc, _, sender, _ := mailingWorld(t)
	const all, turns, digest = "all@pbm.test", "turns@pbm.test", "digest@pbm.test"
	if err := svc.SetPrefs(ctx, turns, "en", store.MailTurns, "", false); err != nil {
		t.Fatal(err)
	}
	if err := svc.SetPrefs(ctx, digest, "en", store.MailDigest, "", false); err != nil {
		t.Fatal(err)
	}
	c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "org@pbm.test"},
		Seats: []service.Person{{Name: "All", Email: all, Lang: "en"}, {Name: "Turns", Email: turns}, {Name: "Digest", Email: digest}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, c.ID)
	for i := range 3 {
		if _, err := svc.Accept(ctx, c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Control(ctx, c.ID, service.ControlRequest{Control: service.ControlPause}); err != nil {
		t.Fatal(err)
	}
	control := func(email string) bool {
		return slices.ContainsFunc(sender.to(email), func(id string) bool { return strings.HasPrefix(id, c.ID+"/control-") })
	}
	if !control(all) || control(turns) || control(digest) {
		t.Fatalf("the pause mailed at once: all %v, turns only %v, digest %v", control(all), control(turns), control(digest))
	}
	rec, _, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Outbox) != 0 {
		t.Fatalf("%d mails left in the outbox", len(rec.Outbox))
	}
	for _, m := range sender.sent {
		if m.To == all && strings.HasPrefix(m.ID, c.ID+"/control-") && !strings.Contains(m.Text, "The organiser has paused the game") {
			t.Fatalf("the pause mail says: %s", m.Text)
		}
	}
}
