package notify_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	mathrand "math/rand/v2"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

// crashySender delivers every message (as SES would accept it) but, when
// told to, reports a failure afterwards: the process "died" after SES took
// the mail and before the outbox was marked.
type crashySender struct {
	mu        sync.Mutex
	delivered map[string]int // message id → times delivered
	dieAfter  bool
}

func (c *crashySender) Send(_ context.Context, m notify.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.delivered[m.ID]++
	if c.dieAfter {
		return errors.New("crash after SES accepted the mail")
	}
	return nil
}

// TestCrashInjection plays games in which the process dies at random
// between a commit and its mail (the in-process notifier never runs) or
// between SES accepting a mail and the outbox mark. The sweep then sends
// what is pending. No mail is ever lost; duplicates happen only in the
// second window, one per mail in flight there.
func TestCrashInjection(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	sender := &crashySender{delivered: map[string]int{}}
	n := &notify.Notifier{Sender: sender, Log: slog.New(slog.DiscardHandler)}
	rnd := mathrand.New(mathrand.NewPCG(3, 4))
	var crashBeforeSend, crashAfterSend, inFlight int
	planned := map[string]bool{} // every mail any commit decided
	hook := func(ctx context.Context, id string) {
		// Runs after every commit that leaves mail pending: note it all.
		rec, _, err := n.Service.Load(ctx, id)
		if err != nil {
			t.Error(err)
			return
		}
		for _, m := range rec.Outbox {
			planned[rec.ID+"/"+m.ID] = true
		}
		switch r := rnd.IntN(10); {
		case r == 0: // dies right after the commit: nothing sent
			crashBeforeSend++
		case r == 1: // dies after SES accepted, before the mark
			crashAfterSend++
			inFlight += len(rec.Outbox)
			sender.dieAfter = true
			_ = n.Drain(ctx, id)
			sender.dieAfter = false
		default:
			n.AfterCommit(ctx, id)
		}
	}
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Log: slog.New(slog.DiscardHandler), AfterCommit: hook,
		Rand: testenv.Rand(t.Name())})
	obsolete := map[string]bool{}
	n.Service, n.Composer = svc, obsoleteCounter{compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true}), obsolete, &sync.Mutex{}}
	ctx := context.Background()

	for game := 0; game < 4; game++ {
		c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Options: []byte(`{"laps":3}`),
			Organiser: service.Person{Email: "org@pbm.test"},
			Seats:     []service.Person{{Name: "A", Email: fmt.Sprintf("a%d@pbm.test", game)}, {Name: "B", Email: fmt.Sprintf("b%d@pbm.test", game)}, {Name: "C", Email: fmt.Sprintf("c%d@pbm.test", game)}}})
		if err != nil {
			t.Fatal(err)
		}
		servicetest.Confirm(t, svc, c.ID)
		for i := 0; i < 3; i++ {
			if _, err := svc.Accept(ctx, c.ID, i); err != nil {
				t.Fatal(err)
			}
		}
		for moves := 0; ; moves++ {
			rec, _, err := svc.Load(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Status == service.StatusOver {
				break
			}
			g, _ := svc.Engine(rec)
			seat := g.Owing()[0]
			inv := -1
			for i, s := range rec.Seats {
				if s.Engine == seat {
					inv = i
				}
			}
			if _, err := svc.ActBot(ctx, c.ID, inv, fmt.Sprintf("move-%05d", moves)); err != nil {
				t.Fatal(err)
			}
		}
		// The scheduled sweep: everything still pending goes out.
		if err := n.Drain(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		rec, _, _ := svc.Load(ctx, c.ID)
		if len(rec.Outbox) != 0 {
			t.Fatalf("game %d: %d mails still pending after the sweep", game, len(rec.Outbox))
		}
	}
	lost, dup := 0, 0
	for id := range planned {
		switch k := sender.delivered[id]; {
		case k == 0 && obsolete[id]:
			// Asked a seat for a move it had already made when the
			// sweep came: not needed any more, rightly not sent.
		case k == 0:
			lost++
		case k > 1:
			dup += k - 1
		}
	}
	t.Logf("%d mails; crashes: %d between commit and send, %d between send and mark (%d mails in flight); lost %d, duplicated %d, obsolete at the sweep %d",
		len(planned), crashBeforeSend, crashAfterSend, inFlight, lost, dup, len(obsolete))
	if lost != 0 {
		t.Fatalf("%d mails lost", lost)
	}
	if dup > inFlight {
		t.Fatalf("%d duplicates, but only %d mails were in flight at a crash after sending", dup, inFlight)
	}
	if crashBeforeSend == 0 || crashAfterSend == 0 {
		t.Fatal("the injection did not hit both windows")
	}
}

// obsoleteCounter notes the mails the composer found no longer needed;
// notifiers racing (TestCrashInjectionMarked) compose at once.
type obsoleteCounter struct {
	notify.Composer
	seen map[string]bool
	mu   *sync.Mutex
}

func (o obsoleteCounter) Compose(ctx context.Context, rec *service.Record, v int64, m service.Mail) (notify.Message, error) {
	msg, err := o.Composer.Compose(ctx, rec, v, m)
	if errors.Is(err, notify.ErrObsolete) {
		o.mu.Lock()
		o.seen[rec.ID+"/"+m.ID] = true
		o.mu.Unlock()
	}
	return msg, err
}
