package service_test

import (
	"slices"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

func outboxIDs(rec *service.Record) []string {
	var ids []string
	for _, m := range rec.Outbox {
		ids = append(ids, m.ID)
	}
	return ids
}

// TestSettleAtVersionRead: a drain marks its mail sent with one write on
// the version it drained, leaving the caller's record as it was; when a
// move has committed meanwhile, it settles on the newer version and keeps
// the mail that move added.
func TestSettleAtVersionRead(t *testing.T) {
	svc, _ := guardWorld(t, servicetest.Roomy)
	ctx := t.Context()
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "o@pbm.test"},
		Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
	rec, ver, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := outboxIDs(rec); !slices.Equal(got, []string{"invite-0", "invite-1"}) {
		t.Fatalf("outbox %v after confirming", got)
	}

	// The version read is still the newest: one write on it.
	if err := svc.SettleAt(ctx, rec, ver, service.Drained{Sent: []string{"invite-0"}}); err != nil {
		t.Fatal(err)
	}
	if got := outboxIDs(rec); len(got) != 2 {
		t.Fatalf("SettleAt changed the caller's record: outbox %v", got)
	}
	now, nver, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if nver != ver+1 || !slices.Equal(outboxIDs(now), []string{"invite-1"}) {
		t.Fatalf("version %d outbox %v, want %d [invite-1]", nver, outboxIDs(now), ver+1)
	}

	// A move commits between the drain's read and its mark.
	if _, err := svc.Accept(ctx, c.ID, 0); err != nil {
		t.Fatal(err)
	}
	if err := svc.SettleAt(ctx, now, nver, service.Drained{Sent: []string{"invite-1"}}); err != nil {
		t.Fatal(err)
	}
	last, lver, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if lver != nver+2 || !slices.Equal(outboxIDs(last), []string{"accepted-0"}) {
		t.Fatalf("after a racing move: version %d outbox %v, want %d [accepted-0]", lver, outboxIDs(last), nver+2)
	}
}
