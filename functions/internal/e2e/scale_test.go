package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/functions/internal/wiring/web"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// scaleGames is how many games the scale test makes: PBM_SCALE_GAMES, or
// 10,000 (issue 16's figure).
func scaleGames(t testing.TB) int {
	if s := os.Getenv("PBM_SCALE_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("PBM_SCALE_GAMES=%q", s)
		}
		return n
	}
	return 10000
}

// itemBytes is the size DynamoDB counts for an item: each attribute's
// name and value.
func itemBytes(it map[string]types.AttributeValue) int {
	n := 0
	for name, v := range it {
		n += len(name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			n += len(v.Value)
		case *types.AttributeValueMemberN:
			n += len(v.Value)
		case *types.AttributeValueMemberB:
			n += len(v.Value)
		case *types.AttributeValueMemberSS:
			for _, s := range v.Value {
				n += len(s)
			}
		default:
			n++
		}
	}
	return n
}

// wiredApp wires the service as in AWS on a new table of client, on clk
// (set to a fixed day): the stream's notifier mails, not the api or the
// sweep (none here), and the sweep drains what is left pending, through
// sender.
func wiredApp(t testing.TB, client *dynamodb.Client, clk *clock, sender notify.Sender) (*wiring.App, *dynamostore.Store, string) {
	t.Helper()
	table := newTableName()
	if err := dynamostore.CreateTable(t.Context(), client, table); err != nil {
		t.Fatal(err)
	}
	clk.unix.Store(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Unix())
	app, ds := wiredAppOn(t, client, table, clk, sender)
	return app, ds, table
}

// wiredAppOn is wiredApp on the existing table, at the time clk says.
func wiredAppOn(t testing.TB, client *dynamodb.Client, table string, clk *clock, sender notify.Sender) (*wiring.App, *dynamostore.Store) {
	t.Helper()
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": []byte("0123456789abcdef0123456789abcdef")})
	ds := dynamostore.New(client, table)
	app := wiring.New(wiring.Parts{Log: discardLog(), Store: ds, Keys: keys, Limits: servicetest.Roomy, Now: clk.now,
		Rand: testenv.Rand(t.Name()), Mail: wiring.NewMail(sender, nil, false)})
	return app, ds
}

// newTableName is a table name no test has used.
func newTableName() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "games-" + hex.EncodeToString(b[:])
}

// TestScaleOnePlayer: one player in 10,000 games (PBM_SCALE_GAMES). Their
// "my games" page is read in at most 3 requests and 60 KB, the player
// item a mail to them reads is at most 1 KB, and a sweep of the 10,000
// reminders due then finishes in at most a fifth of the 24.8 s issue 16
// measured (figures logged; the time is asserted only with
// PBM_SCALE_ASSERT_TIME=1, the machine being shared): it hands each game
// to the stream's notifier with a tick request, 25 a request, and ticks
// none itself; the notifier's ticks, fed the requests as the stream
// would, then commit every reminder.
func TestScaleOnePlayer(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 games on dynalite: skipped in -short runs")
	}
	games := scaleGames(t)
	ops := &opCounter{ops: map[string]int{}}
	// Counted over a transport that keeps idle connections for the
	// sweep's workers, as the client's own does (http.DefaultTransport's
	// 2 a host would have them open new ones all the time).
	endpoint := testenv.Dynalite(t)
	client := testenv.DynamoClient(t, endpoint, func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: &countingRoundTripper{ops: ops, base: keepAliveTransport()}}
	})
	clk := &clock{}
	app, ds, table := wiredApp(t, client, clk, &countingSender{sent: map[string]int{}})
	svc := app.Service

	t0 := time.Now()
	makeScaleGames(t, svc, games)
	t.Logf("made %d games in %v", games, time.Since(t0).Round(time.Millisecond))

	// "My games" of the player in all of them, who has chosen their
	// preferences (so that their item exists).
	if err := svc.SetPrefs(t.Context(), "a@pbm.test", "en", "all", "Europe/Moscow", false); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.Handler(app))
	t.Cleanup(srv.Close)
	// The link of a mail today: it names the player's link id, so that
	// the page reads the link's access item too.
	p, err := svc.Prefs(t.Context(), "a@pbm.test")
	if err != nil {
		t.Fatal(err)
	}
	token, err := svc.PlayerToken(t.Context(), p, linksign.PurposeMyGames)
	if err != nil {
		t.Fatal(err)
	}
	ops.reset()
	t0 = time.Now()
	resp, err := http.Get(srv.URL + "/me?lang=en&t=" + url.QueryEscape(token))
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("my games: %d %v", resp.StatusCode, err)
	}
	took, reqs := time.Since(t0), ops.reset()
	total := 0
	for _, c := range reqs {
		total += c
	}
	item, err := client.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: &table, ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "PLAYER#a@pbm.test"},
			"sk": &types.AttributeValueMemberS{Value: "PLAYER"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	playerBytes := itemBytes(item.Item)
	t.Logf("my games with %d games: %d requests %v, %d bytes, %v; the player item a mail reads: %d bytes",
		games, total, reqs, len(page), took.Round(time.Millisecond), playerBytes)
	if total > 3 || len(page) > 60<<10 {
		t.Errorf("my games: %d requests and %d bytes, want at most 3 and 60 KB", total, len(page))
	}
	if playerBytes > 1024 {
		t.Errorf("the player item is %d bytes, want at most 1 KB", playerBytes)
	}

	// Three hours in, every game's reminder is due: one sweep, which
	// hands them out to the stream's notifier, a tick request each.
	clk.unix.Add(3 * 3600)
	waking, err := ds.Waking(t.Context(), clk.now().Unix())
	if err != nil {
		t.Fatal(err)
	}
	ops.reset()
	t0 = time.Now()
	if err := app.Sweep(t.Context(), clk.now()); err != nil {
		t.Fatal(err)
	}
	sweep := time.Since(t0)
	reqs = ops.reset()
	t.Logf("sweep of %d games due: %v; %v requests", len(waking), sweep.Round(time.Millisecond), reqs)
	if limit := 24800 * time.Millisecond / 5 * time.Duration(games) / 10000; os.Getenv("PBM_SCALE_ASSERT_TIME") == "1" && sweep > limit {
		t.Errorf("the sweep took %v, want at most %v", sweep, limit)
	}
	// One PutItem is the sweep's cursor over the mail keys
	// (service.MailRead), none a game's.
	if want := (len(waking) + 24) / 25; reqs["BatchWriteItem"] != want || reqs["PutItem"] > 1 {
		t.Errorf("the sweep made %d BatchWriteItem and %d PutItem, want %d and at most its cursor's: the games handed out, none ticked here",
			reqs["BatchWriteItem"], reqs["PutItem"], want)
	}
	// The stream hands the requests to the notify function, which ticks
	// each game: its reminder is committed, for the stream to mail.
	stream := newTickStream(testenv.DynamoClient(t, endpoint), table)
	t0 = time.Now()
	delivered := stream.feed(t, app)
	t.Logf("the notifier's ticks of the %d requests, %d batches at once: %v; %v requests", delivered, service.SweepWorkers,
		time.Since(t0).Round(time.Millisecond), ops.reset())
	pending, err := pendingAfter(t.Context(), ds, clk.now())
	if err != nil {
		t.Fatal(err)
	}
	if delivered != len(waking) || len(pending) != len(waking) {
		t.Errorf("%d requests delivered and %d games with a reminder pending after them, want the %d due", delivered, len(pending), len(waking))
	}
}

// TestTwoWiredSweepsAtOnce: the sweep as the sweep function runs it
// (wiring.App.Sweep, AWS's wiring: the stream ticks and mails, not the
// sweep), two at once, over 200 games whose reminders fall due: they
// write one tick request a game, and the notifier's ticks of them, each
// delivered twice, commit each reminder once; the sweeps leave the fresh
// mail to the stream; once
// it has waited past notify.SweepIdle, a sweep drains it, each mail sent
// once. (Two drains of one game at once may send its mail twice: the
// notifier marks mail sent after sending it.)
func TestTwoWiredSweepsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of games on dynalite: skipped in -short runs")
	}
	const games = 200
	clk := &clock{}
	sender := &countingSender{sent: map[string]int{}}
	endpoint := testenv.Dynalite(t)
	app, _, table := wiredApp(t, testenv.DynamoClient(t, endpoint), clk, sender)
	stream := newTickStream(testenv.DynamoClient(t, endpoint), table)
	ids := make([]string, games)
	for i := range ids {
		c := servicetest.Create(t, app.Service, service.CreateRequest{Kind: "western", DeadlineHours: 4,
			Organiser: service.Person{Email: fmt.Sprintf("o%d@pbm.test", i)},
			Seats:     []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
		for s := 0; s < 2; s++ {
			if _, err := app.Service.Accept(t.Context(), c.ID, s); err != nil {
				t.Fatal(err)
			}
		}
		ids[i] = c.ID
	}
	// The invitations' mail, as the stream's notifier would send it.
	for _, id := range ids {
		if err := app.Notifier.Drain(t.Context(), id); err != nil {
			t.Fatal(err)
		}
	}
	twice := func() {
		t.Helper()
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			wg.Go(func() { errs[i] = app.Sweep(t.Context(), clk.now()) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("sweep %d: %v", i, err)
			}
		}
	}
	clk.unix.Add(3 * 3600) // every reminder due
	twice()
	// Both sweeps handed every game out: one request each, which the
	// stream delivers, and (its retries) delivers again.
	recs := stream.requests(t)
	if len(recs) != games {
		t.Fatalf("%d tick requests after two sweeps at once, want one a game, %d", len(recs), games)
	}
	stream.deliver(t, app, recs, service.SweepWorkers)
	stream.deliver(t, app, recs, service.SweepWorkers)
	for _, id := range ids {
		if n, _ := pendingReminders(t, app.Service, id); n != 1 {
			t.Errorf("game %s: %d reminders pending after two sweeps at once, want 1", id, n)
		}
	}
	sent := len(sender.sent)
	if err := app.Sweep(t.Context(), clk.now()); err != nil {
		t.Fatal(err)
	}
	if len(sender.sent) != sent {
		t.Errorf("a sweep sent %d mails the stream's notifier has yet to", len(sender.sent)-sent)
	}
	// The stream failed: the sweep drains the reminders once it reads
	// their commits' mail key, when its period is over and SweepIdle has
	// passed (service.MailPeriods).
	every := int64(service.SweepEvery / time.Second)
	clk.unix.Store((clk.unix.Load()/every+1)*every + int64(notify.SweepIdle/time.Second) + 60)
	if err := app.Sweep(t.Context(), clk.now()); err != nil {
		t.Fatal(err)
	}
	reminders := 0
	for msg, times := range sender.sent {
		if times != 1 {
			t.Errorf("mail %s sent %d times", msg, times)
		}
		if _, mail, _ := strings.Cut(msg, "/"); strings.HasPrefix(mail, service.MailReminder+"-") {
			reminders++
		}
	}
	if reminders != games {
		t.Errorf("%d reminders sent, want %d (%d mails before the drain)", reminders, games, sent)
	}
}
