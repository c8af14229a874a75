package notify_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// recorder keeps what was sent; fail makes Send fail (SES down).
type recorder struct {
	mu   sync.Mutex
	sent []notify.Message
	fail bool
}

func (r *recorder) Send(_ context.Context, m notify.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail {
		return errors.New("SES is down")
	}
	r.sent = append(r.sent, m)
	return nil
}

// to lists the ids of the mails sent to an address.
func (r *recorder) to(email string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for _, m := range r.sent {
		if m.To == email {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// mailingWorld is a service on a scratch bbolt store whose notifier
// mails after every commit into a recorder, reading the players'
// preferences from the store; its clock stands at now.
func mailingWorld(t *testing.T) (st *boltstore.Store, svc *service.Service, n *notify.Notifier, sender *recorder, now time.Time) {
	t.Helper()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	sender = &recorder{}
	log := slog.New(slog.DiscardHandler)
	n = &notify.Notifier{Sender: sender, Players: st, Log: log, Now: clock}
	svc = service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Now: clock, Log: log, AfterCommit: n.AfterCommit,
		Rand: testenv.Rand(t.Name())})
	n.Service, n.Composer = svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true})
	return st, svc, n, sender, now
}

// TestDigest: a player who chose the daily digest gets their turns at
// once, and the end of the game in a digest the sweep sends once its
// oldest item is 24 hours old; if sending fails, the items wait for the
// next sweep.
func TestDigest(t *testing.T) {
	ctx := context.Background()
	st, svc, n, sender, now := mailingWorld(t)

	const digester, other = "anna@pbm.test", "bob@pbm.test"
	if err := svc.SetPrefs(ctx, digester, "en", store.MailDigest, "", false); err != nil {
		t.Fatal(err)
	}
	c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Options: []byte(`{"laps":1}`),
		Organiser: service.Person{Email: "org@pbm.test"},
		Seats:     []service.Person{{Name: "Anna", Email: digester}, {Name: "Bob", Email: other}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, c.ID)
	for i := range 2 {
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
			if len(rec.Outbox) != 0 {
				t.Fatalf("%d mails left in the outbox", len(rec.Outbox))
			}
			break
		}
		g, _ := svc.Engine(rec)
		inv := -1
		for i, s := range rec.Seats {
			if s.Engine == g.Owing()[0] {
				inv = i
			}
		}
		if _, err := svc.ActBot(ctx, c.ID, inv, fmt.Sprintf("move-%05d", moves)); err != nil {
			t.Fatal(err)
		}
	}

	// Turns at once; the end of the game is not mailed to the digester.
	mails := sender.to(digester)
	turns := 0
	for _, id := range mails {
		if strings.HasPrefix(id, c.ID+"/turn-0-") {
			turns++
		}
		if id == c.ID+"/over-0" {
			t.Fatal("the digester's end-of-game mail was sent at once")
		}
	}
	if turns == 0 {
		t.Fatalf("no turn mail sent to the digester: %v", mails)
	}
	if got := sender.to(other); len(got) == 0 || got[len(got)-1] != c.ID+"/over-1" {
		t.Fatalf("mails to the other player %v, want the end of the game last", got)
	}

	digests := func() []string {
		var ids []string
		for _, id := range sender.to(digester) {
			if strings.HasPrefix(id, "digest/") {
				ids = append(ids, id)
			}
		}
		return ids
	}
	// Not before 24 hours.
	over := now
	for _, after := range []time.Duration{0, time.Hour, 24*time.Hour - time.Second} {
		if err := n.SendDigests(ctx, over.Add(after)); err != nil {
			t.Fatal(err)
		}
		if d := digests(); len(d) != 0 {
			t.Fatalf("digest sent %v after the end: %v", after, d)
		}
	}
	// SES down: the items wait.
	sender.fail = true
	if err := n.SendDigests(ctx, over.Add(24*time.Hour)); err == nil {
		t.Fatal("SendDigests with SES down: no error")
	}
	sender.fail = false
	// Then one digest, and nothing queued afterwards.
	if err := n.SendDigests(ctx, over.Add(25*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if d := digests(); len(d) != 1 {
		t.Fatalf("digests sent: %v, want one", d)
	}
	var msg notify.Message
	for _, m := range sender.sent {
		if strings.HasPrefix(m.ID, "digest/") {
			msg = m
		}
	}
	if !strings.Contains(msg.Text, "The game is over") || !strings.Contains(msg.Text, "http://pbm.test/g/"+c.ID+"?") || msg.Unsubscribe == "" {
		t.Fatalf("digest:\n%s", msg.Text)
	}
	if due, _ := st.DigestsDue(ctx, over.Add(48*time.Hour).Unix()); len(due) != 0 {
		t.Fatalf("digests still due: %v", due)
	}
	if items, _ := st.TakeDigest(ctx, digester); len(items) != 0 {
		t.Fatalf("items still queued: %v", items)
	}
	if err := n.SendDigests(ctx, over.Add(72*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if d := digests(); len(d) != 1 {
		t.Fatalf("digests sent: %v, want still one", d)
	}
}
