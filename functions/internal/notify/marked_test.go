package notify_test

import (
	"context"
	"fmt"
	"log/slog"
	mathrand "math/rand/v2"
	"slices"
	"strconv"
	"strings"
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
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Sent: st, Keys: keys, Log: slog.New(slog.DiscardHandler), Committed: hook,
		Rand: testenv.Rand(t.Name())})
	obsolete := map[string]bool{}
	n.Service, n.Composer = svc, obsoleteCounter{compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true}), obsolete, &sync.Mutex{}}
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

// markedGame makes a game through a service keeping sent markers, on a
// clock the test moves, whose invitations went out at once (the
// notifier run after each commit) and were marked in its marker: the game
// item still holds them, listed in the outbox index under the key of the
// commit that left them.
func markedGame(t *testing.T) (st storeAll, svc *service.Service, n *notify.Notifier, id string, now *time.Time, sender *recorder) {
	t.Helper()
	bolt, keys := servicetest.Bolt(t), servicetest.Keys(t)
	at := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	now = &at
	clock := func() time.Time { return *now }
	sender = &recorder{}
	log := slog.New(slog.DiscardHandler)
	n = &notify.Notifier{Sender: sender, Log: log, Now: clock}
	svc = service.New(service.Config{Games: testGames.Engines(), Store: bolt, Sent: bolt, Keys: keys, Now: clock, Log: log, Committed: n.Committed, Rand: testenv.Rand(t.Name())})
	n.Service, n.Composer = svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true})
	c, err := svc.Create(t.Context(), service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "org@pbm.test"},
		Seats: []service.Person{{Name: "Anna", Email: "anna@pbm.test"}, {Name: "Bob", Email: "bob@pbm.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, c.ID)
	if len(sender.to("anna@pbm.test")) != 1 {
		t.Fatalf("the invitation to Anna went %d times, want once", len(sender.to("anna@pbm.test")))
	}
	return bolt, svc, n, c.ID, now, sender
}

// mailPeriodEnd is when the period of a mail key ends (service.mailKey).
func mailPeriodEnd(t *testing.T, key string) int64 {
	t.Helper()
	p, err := strconv.ParseInt(strings.TrimPrefix(key, "m"), 10, 64)
	if err != nil {
		t.Fatalf("mail key %q: %v", key, err)
	}
	return (p + 1) * int64(service.SweepEvery/time.Second)
}

type storeAll interface {
	store.Store
	store.SentStore
}

func storedGame(t *testing.T, st store.Store, id string) store.Game {
	t.Helper()
	g, err := st.GetGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSweepLeavesSettledMailAlone (issue 28): a game whose mail went out
// and was marked in its marker stays listed under its commit's mail key;
// the sweep reads that key once its period is over, finds the marker
// naming it, and neither sends nor writes, then or an hour later, nor
// reads the key again.
func TestSweepLeavesSettledMailAlone(t *testing.T) {
	st, svc, n, id, now, sender := markedGame(t)
	ctx := t.Context()
	marked := storedGame(t, st, id)
	if !marked.OutboxPending || marked.OutboxKey == "" {
		t.Fatalf("the game holding its sent invitations is listed %v under key %q; want a key of its commit", marked.OutboxPending, marked.OutboxKey)
	}
	if ids, _ := st.PendingOutbox(ctx); slices.Contains(ids, id) {
		t.Fatal("a keyed game is listed with the games written before keys")
	}
	sent := len(sender.sent)
	for _, after := range []time.Duration{service.SweepEvery + notify.SweepIdle, notify.FoldIdle} {
		*now = now.Add(after)
		if err := n.SweepMail(ctx, *now, svc.PendingOutbox); err != nil {
			t.Fatal(err)
		}
		if g := storedGame(t, st, id); g.Version != marked.Version || len(sender.sent) != sent {
			t.Fatalf("after %s: version %d → %d, %d mails more: the sweep must neither write nor send", after, marked.Version, g.Version, len(sender.sent)-sent)
		}
	}
	c, err := svc.MailPeriods(ctx, *now)
	if err != nil {
		t.Fatal(err)
	}
	if c.From > c.To+1 || c.From <= 0 {
		t.Fatalf("the sweep's cursor: to read %d..%d", c.From, c.To)
	}
}

// TestSweepSendsUnsettledMail (issue 28): mail the stream's notifier could
// not send (SES refused it for a while) stays under its commit's key with
// a marker that does not name it; the sweep that reads the key once its
// period is over sends it, marks it, and reads the key no more.
func TestSweepSendsUnsettledMail(t *testing.T) {
	st, svc, n, id, now, sender := markedGame(t)
	ctx := t.Context()
	sender.mu.Lock()
	sender.fail = true
	sender.mu.Unlock()
	if _, err := svc.Accept(ctx, id, 0); err != nil { // mails the organiser, who is not reached
		t.Fatal(err)
	}
	sender.mu.Lock()
	sender.fail = false
	sender.mu.Unlock()
	g := storedGame(t, st, id)
	if !g.OutboxPending || g.OutboxKey == "" {
		t.Fatal("the acceptance's mail is not listed")
	}
	sent := len(sender.sent)
	checkAt := time.Unix(mailPeriodEnd(t, g.OutboxKey), 0).Add(notify.SweepIdle)
	for ; now.Before(checkAt); *now = now.Add(service.SweepEvery) {
		if err := n.SweepMail(ctx, *now, svc.PendingOutbox); err != nil {
			t.Fatal(err)
		}
		if len(sender.sent) != sent {
			t.Fatalf("at %s the sweep sent mail whose key's period ends at %s", now.Format(time.TimeOnly), checkAt.Add(-notify.SweepIdle).Format(time.TimeOnly))
		}
	}
	if err := n.SweepMail(ctx, *now, svc.PendingOutbox); err != nil {
		t.Fatal(err)
	}
	if len(sender.sent) != sent+1 || len(sender.to("org@pbm.test")) != 2 {
		t.Fatalf("the sweep sent %d mails, want the organiser's one", len(sender.sent)-sent)
	}
	if after := storedGame(t, st, id); after.Version != g.Version {
		t.Fatalf("the sweep wrote the game: version %d → %d; the marker says what went", g.Version, after.Version)
	}
	*now = now.Add(service.SweepEvery)
	if err := n.SweepMail(ctx, *now, svc.PendingOutbox); err != nil {
		t.Fatal(err)
	}
	if len(sender.sent) != sent+1 {
		t.Fatal("the mail went twice")
	}
}

// TestSweepFoldsMarkedGames: a game written before commits keyed their
// mail, whose mail went out and was marked in its marker, stays in the
// outbox index with that mail, which the sweep neither sends again nor
// writes away before FoldIdle; then it writes the game once without it,
// and the index lets it go.
func TestSweepFoldsMarkedGames(t *testing.T) {
	st, svc, n, id, now, sender := markedGame(t)
	ctx := t.Context()
	// As an earlier version wrote it: listed without a key.
	marked := storedGame(t, st, id)
	marked.OutboxKey = ""
	var err error
	if marked.Version, err = st.PutGame(ctx, marked, marked.Version); err != nil {
		t.Fatal(err)
	}
	sent := len(sender.sent)
	for _, after := range []time.Duration{notify.SweepIdle, notify.FoldIdle - notify.SweepIdle - time.Second} {
		*now = now.Add(after)
		if err := n.Sweep(ctx, svc.PendingOutbox); err != nil {
			t.Fatal(err)
		}
		if g := storedGame(t, st, id); g.Version != marked.Version || len(sender.sent) != sent {
			t.Fatalf("after %s: version %d → %d, %d mails more: the sweep must neither write nor send", after, marked.Version, g.Version, len(sender.sent)-sent)
		}
	}
	*now = now.Add(2 * time.Second)
	if err := n.Sweep(ctx, svc.PendingOutbox); err != nil {
		t.Fatal(err)
	}
	g := storedGame(t, st, id)
	if g.Version != marked.Version+1 || g.OutboxPending || len(sender.sent) != sent {
		t.Fatalf("after %s: version %d → %d, pending %v, %d mails more; want one write without the sent mail, nothing sent",
			notify.FoldIdle, marked.Version, g.Version, g.OutboxPending, len(sender.sent)-sent)
	}
	if ids, _ := st.PendingOutbox(ctx); slices.Contains(ids, id) {
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
