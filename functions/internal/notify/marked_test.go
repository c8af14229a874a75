package notify_test

import (
	"context"
	"fmt"
	"log/slog"
	mathrand "math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestCrashInjectionMarked is TestCrashInjection with the mail marked sent
// in the games' sent markers (service.Config.Sent) rather than on the
// games, drained as in AWS from the commit's record or from the stream's
// image of it, sometimes by two notifiers at once. No mail is ever lost;
// duplicates come only from the crashes after sending and the races; the
// game item is written by the moves alone, and the markers stay small.
func TestCrashInjectionMarked(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	sender := &crashySender{delivered: map[string]int{}}
	n := &notify.Notifier{Sender: sender, Log: slog.New(slog.DiscardHandler)}
	rnd := mathrand.New(mathrand.NewPCG(5, 6))
	var crashBeforeSend, crashAfterSend, images, races, inFlight int
	planned := map[string]bool{}
	hook := func(ctx context.Context, rec *service.Record, ver int64) {
		for _, m := range rec.Outbox {
			planned[rec.ID+"/"+m.ID] = true
		}
		image := func() error {
			g, err := st.GetGame(ctx, rec.ID)
			if err != nil {
				return err
			}
			if g.Version != ver {
				return fmt.Errorf("image of version %d, want %d", g.Version, ver)
			}
			return n.DrainImage(ctx, g)
		}
		switch r := rnd.IntN(10); {
		case r == 0:
			crashBeforeSend++
		case r == 1:
			crashAfterSend++
			inFlight += len(rec.Outbox)
			sender.mu.Lock()
			sender.dieAfter = true
			sender.mu.Unlock()
			_ = n.DrainRecord(ctx, rec, ver)
			sender.mu.Lock()
			sender.dieAfter = false
			sender.mu.Unlock()
		case r == 2:
			images++
			if err := image(); err != nil {
				t.Error(err)
			}
		case r == 3:
			// The in-process notifier and the stream's at once.
			races++
			inFlight += len(rec.Outbox)
			var wg sync.WaitGroup
			errs := make([]error, 2)
			wg.Go(func() { errs[0] = n.DrainRecord(ctx, rec, ver) })
			wg.Go(func() { errs[1] = image() })
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
		default:
			n.Committed(ctx, rec, ver)
		}
	}
	svc := service.New(service.Config{Store: st, Sent: st, Keys: keys, Log: slog.New(slog.DiscardHandler), Committed: hook,
		Rand: testenv.Rand(t.Name())})
	obsolete := map[string]bool{}
	n.Service, n.Composer = svc, obsoleteCounter{compose.New(compose.Config{Service: svc, BaseURL: "http://pbm.test", NoPicture: true}), obsolete, &sync.Mutex{}}
	ctx := context.Background()

	for game := 0; game < 4; game++ {
		var seats []service.Person
		for _, name := range []string{"a", "b", "c"} {
			seats = append(seats, service.Person{Name: name, Email: fmt.Sprintf("%s%d@pbm.test", name, game)})
		}
		c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", Options: []byte(`{"laps":3}`),
			Organiser: service.Person{Email: "org@pbm.test"}, Seats: seats})
		for i := range seats {
			if _, err := svc.Accept(ctx, c.ID, i); err != nil {
				t.Fatal(err)
			}
		}
		// The engine's bots play every seat; only their moves write the game.
		for moves := 0; ; moves++ {
			before, _ := st.GetGame(ctx, c.ID)
			inv, over := owingInvite(t, svc, c.ID)
			if over {
				break
			}
			if _, err := svc.ActBot(ctx, c.ID, inv, fmt.Sprintf("move-%05d", moves)); err != nil {
				t.Fatal(err)
			}
			if after, _ := st.GetGame(ctx, c.ID); after.Version != before.Version+1 {
				t.Fatalf("game %d move %d: version %d → %d: only the move writes the game", game, moves, before.Version, after.Version)
			}
		}
		// The scheduled sweep: everything still pending goes out, and the
		// game is written without its sent mail.
		if err := n.Drain(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		if err := svc.FoldSent(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		if g, _ := st.GetGame(ctx, c.ID); g.OutboxPending {
			t.Fatalf("game %d: still flagged pending after the sweep", game)
		}
		if rec, _, _ := svc.Load(ctx, c.ID); len(rec.Outbox) != 0 || rec.MarkedSent() {
			t.Fatalf("game %d: %d mails still pending after the sweep", game, len(rec.Outbox))
		}
		if m, err := st.GetSent(ctx, c.ID); err != nil || len(m.Body) > 1024 {
			t.Fatalf("game %d: marker of %d bytes, %v; want one under 1 KB", game, len(m.Body), err)
		}
	}
	lost, dup := 0, 0
	for id := range planned {
		switch k := sender.delivered[id]; {
		case k == 0 && obsolete[id]:
		case k == 0:
			lost++
		case k > 1:
			dup += k - 1
		}
	}
	t.Logf("%d mails; crashes: %d between commit and send, %d between send and mark; %d drained from the image, %d raced (%d mails in flight); lost %d, duplicated %d",
		len(planned), crashBeforeSend, crashAfterSend, images, races, inFlight, lost, dup)
	if lost != 0 {
		t.Fatalf("%d mails lost", lost)
	}
	if dup > inFlight {
		t.Fatalf("%d duplicates, but only %d mails were in flight at a crash after sending or a race", dup, inFlight)
	}
	if crashBeforeSend == 0 || crashAfterSend == 0 || images == 0 || races == 0 {
		t.Fatal("the injection did not hit every window")
	}
}

// TestSweepFoldsMarkedGames: a game whose mail went out and was marked in
// its marker stays in the outbox index with that mail, which the sweep
// neither sends again nor writes away before FoldIdle; then it writes the
// game once without it, and the index lets it go.
func TestSweepFoldsMarkedGames(t *testing.T) {
	ctx := context.Background()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	sender := &recorder{}
	log := slog.New(slog.DiscardHandler)
	n := &notify.Notifier{Sender: sender, Log: log, Now: clock}
	svc := service.New(service.Config{Store: st, Sent: st, Keys: keys, Now: clock, Log: log, Committed: n.Committed, Rand: testenv.Rand(t.Name())})
	n.Service, n.Composer = svc, compose.New(compose.Config{Service: svc, BaseURL: "http://pbm.test", NoPicture: true})
	c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "org@pbm.test"},
		Seats: []service.Person{{Name: "Anna", Email: "anna@pbm.test"}, {Name: "Bob", Email: "bob@pbm.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, c.ID)
	sent := len(sender.sent)
	if len(sender.to("anna@pbm.test")) != 1 {
		t.Fatalf("the invitation to Anna went %d times, want once", len(sender.to("anna@pbm.test")))
	}
	stored := func() store.Game {
		g, err := st.GetGame(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	marked := stored()
	if !marked.OutboxPending {
		t.Fatal("the game holding its sent invitations is not in the outbox index")
	}
	for _, after := range []time.Duration{notify.SweepIdle, notify.FoldIdle - notify.SweepIdle - time.Second} {
		now = now.Add(after)
		if err := n.Sweep(ctx, svc.PendingOutbox); err != nil {
			t.Fatal(err)
		}
		if g := stored(); g.Version != marked.Version || len(sender.sent) != sent {
			t.Fatalf("after %s: version %d → %d, %d mails more: the sweep must neither write nor send", after, marked.Version, g.Version, len(sender.sent)-sent)
		}
	}
	now = now.Add(2 * time.Second)
	if err := n.Sweep(ctx, svc.PendingOutbox); err != nil {
		t.Fatal(err)
	}
	g := stored()
	if g.Version != marked.Version+1 || g.OutboxPending || len(sender.sent) != sent {
		t.Fatalf("after %s: version %d → %d, pending %v, %d mails more; want one write without the sent mail, nothing sent",
			notify.FoldIdle, marked.Version, g.Version, g.OutboxPending, len(sender.sent)-sent)
	}
	if ids, _ := st.PendingOutbox(ctx); slices.Contains(ids, c.ID) {
		t.Fatal("the outbox index still lists the game")
	}
}

// owingInvite is the invitation of the first seat game id waits for, or
// over when the game is.
func owingInvite(t *testing.T, svc *service.Service, id string) (inv int, over bool) {
	t.Helper()
	rec, _, err := svc.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status == service.StatusOver {
		return -1, true
	}
	g, err := svc.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	owing := g.Owing()[0]
	return slices.IndexFunc(rec.Seats, func(s service.SeatInfo) bool { return s.Engine == owing }), false
}
