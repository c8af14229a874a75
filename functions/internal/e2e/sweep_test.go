package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// countingSender counts the times each mail is sent.
type countingSender struct {
	mu   sync.Mutex
	sent map[string]int // message id ("<game>/<mail id>") → times sent
}

func (c *countingSender) Send(_ context.Context, m notify.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent[m.ID]++
	return nil
}

// TestSweepFansOut: a sweep ticks the games due several at a time, and
// two sweeps at once mail each reminder once. It reports the time a sweep
// of the games due takes one by one and fanned out (a figure, no
// assertion on time).
func TestSweepFansOut(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of games on dynalite: skipped in -short runs")
	}
	const games = 200
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	var b [6]byte
	_, _ = rand.Read(b[:])
	table := "games-" + hex.EncodeToString(b[:])
	if err := dynamostore.CreateTable(t.Context(), client, table); err != nil {
		t.Fatal(err)
	}
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": []byte("0123456789abcdef0123456789abcdef")})
	ds := dynamostore.New(client, table)
	clk := &clock{}
	clk.unix.Store(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Unix())
	sender := &countingSender{sent: map[string]int{}}
	n := &notify.Notifier{Sender: sender, Log: discardLog(), Now: clk.now}
	svc := service.New(service.Config{Games: testGames.Engines(), Store: ds, Keys: keys, Log: discardLog(), Rand: testenv.Rand(t.Name()), Guard: ds,
		Limits: servicetest.Roomy, Now: clk.now, Committed: n.Committed})
	n.Service, n.Composer = svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true})

	ids := make([]string, 3*games)
	for i := range ids {
		c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", DeadlineHours: 4,
			Organiser: service.Person{Email: fmt.Sprintf("o%d@pbm.test", i)},
			Seats:     []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
		for s := 0; s < 2; s++ {
			if _, err := svc.Accept(t.Context(), c.ID, s); err != nil {
				t.Fatal(err)
			}
		}
		ids[i] = c.ID
	}
	// Three hours in, every game's reminder is due.
	clk.unix.Add(3 * 3600)

	// The first half one by one, as the sweep did.
	t0 := time.Now()
	for _, id := range ids[:games] {
		if err := svc.Tick(t.Context(), id); err != nil {
			t.Fatal(err)
		}
	}
	serial := time.Since(t0)

	// The second third fanned out, as one sweep does.
	t0 = time.Now()
	if err := service.ForEach(t.Context(), ids[games:2*games], svc.Tick); err != nil {
		t.Fatal(err)
	}
	fanned := time.Since(t0)

	// The rest by two sweeps at once.
	t0 = time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	counts := make([]int, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[i], errs[i] = svc.TickAll(t.Context())
		}()
	}
	wg.Wait()
	twice := time.Since(t0)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("sweep %d: %v", i, err)
		}
	}
	reminders := map[string]int{}
	for msg, times := range sender.sent {
		if times != 1 {
			t.Errorf("mail %s sent %d times", msg, times)
		}
		if game, mail, _ := strings.Cut(msg, "/"); strings.HasPrefix(mail, service.MailReminder+"-") {
			reminders[game]++
		}
	}
	for _, id := range ids {
		if reminders[id] != 1 {
			t.Errorf("game %s: %d reminders", id, reminders[id])
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / games }
	t.Logf("%d games due: one by one %.2f ms a game; %d at a time %.2f ms a game; two sweeps at once %.2f ms a game (listed %v)",
		games, ms(serial), service.SweepWorkers, ms(fanned), ms(twice), counts)
}
