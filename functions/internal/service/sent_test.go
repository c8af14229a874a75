package service_test

import (
	"encoding/json"
	"log/slog"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestSentMarker: marking mail sent writes the marker, not the game; the
// next Load drops that mail; two notifiers that raced both count; the
// next write of the game drops the mail for good and the marker forgets
// it; FoldSent writes a game once, only while it holds marked mail.
func TestSentMarker(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Sent: st, Keys: keys, Log: slog.New(slog.DiscardHandler), Rand: testenv.Rand(t.Name())})
	ctx := t.Context()
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "o@pbm.test"},
		Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
	rec, ver, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := outboxIDs(rec); !slices.Equal(got, []string{"invite-0", "invite-1"}) {
		t.Fatalf("outbox %q, want the two invitations", got)
	}
	// Two notifiers drained the same version: each marks one mail.
	for _, id := range []string{"invite-0", "invite-1"} {
		if err := svc.SettleSent(ctx, rec, ver, service.Drained{Sent: []string{id}}); err != nil {
			t.Fatal(err)
		}
	}
	if g, _ := st.GetGame(ctx, c.ID); g.Version != ver || !g.OutboxPending {
		t.Fatalf("the game after marking: version %d (want %d), pending %v: the marker alone is written", g.Version, ver, g.OutboxPending)
	}
	again, _, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Outbox) != 0 || !again.MarkedSent() {
		t.Fatalf("outbox after marking %q, marked %v; want both dropped", outboxIDs(again), again.MarkedSent())
	}

	// A move writes the game without them; the next mark forgets them.
	if _, err := svc.Accept(ctx, c.ID, 0); err != nil {
		t.Fatal(err)
	}
	rec, ver, err = svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := outboxIDs(rec); !slices.Equal(got, []string{"accepted-0"}) || rec.MarkedSent() {
		t.Fatalf("outbox after a move %q, marked %v; want the acceptance alone", got, rec.MarkedSent())
	}
	if err := svc.SettleSent(ctx, rec, ver, service.Drained{Sent: []string{"accepted-0"}}); err != nil {
		t.Fatal(err)
	}
	if ids := markedIDs(t, st, c.ID); !slices.Equal(ids, []string{"accepted-0"}) {
		t.Fatalf("the marker holds %q, want the acceptance alone", ids)
	}

	// The sweep's tidying: one write, then nothing to do.
	for i, want := range []int64{ver + 1, ver + 1} {
		if err := svc.FoldSent(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		if g, _ := st.GetGame(ctx, c.ID); g.Version != want || g.OutboxPending {
			t.Fatalf("fold %d: version %d (want %d), pending %v", i+1, g.Version, want, g.OutboxPending)
		}
	}
}

// markedIDs lists the mail a game's marker names.
func markedIDs(t *testing.T, st store.SentStore, id string) []string {
	t.Helper()
	m, err := st.GetSent(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	var marker struct {
		Sent []struct {
			ID string `json:"id"`
		} `json:"s"`
	}
	if err := json.Unmarshal(m.Body, &marker); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range marker.Sent {
		ids = append(ids, e.ID)
	}
	return ids
}
