package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestSweepOldAndNew compares, on the same machine in the same run, the
// sweep as main had it (every game due ticked alone through Tick,
// SweepWorkers at a time — a GetItem of the game and of its sent marker
// and a conditional PutItem each — then the drain of pending mail, which
// reads every game and marker again) with
// wiring.App.Sweep, on copies of one table holding PBM_SCALE_GAMES
// games (10,000) whose reminders are all due, alternated over
// PBM_SWEEP_COMPARE rounds (the test is skipped without it). It logs
// each sweep's time, requests and CPU (the test process's, and
// dynalite's when PBM_DYNALITE_PID names the dynalite process of
// DYNALITE_ENDPOINT), and the ranges. The "old" path runs this branch's
// Tick, which restores no engine for a reminder (main's did): its
// figure is if anything lower than main's. The new sweep hands the games
// out to the stream's notifier (a tick request each): the notifier's
// ticks of them, fed the requests as the stream would, are timed apart.
func TestSweepOldAndNew(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("PBM_SWEEP_COMPARE"))
	if rounds < 1 || testing.Short() {
		t.Skip("set PBM_SWEEP_COMPARE=<rounds> to compare the old and the new sweep")
	}
	games := scaleGames(t)
	ops := &opCounter{ops: map[string]int{}}
	// A transport that keeps idle connections as the client's own does,
	// its requests and new connections counted; the SDK's client copies
	// and drops tables (operations the store does not make).
	var dials atomic.Int64
	transport := keepAliveTransport()
	dial := transport.DialContext
	transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dial(ctx, network, addr)
	}
	endpoint := testenv.Dynalite(t)
	client := testenv.DynamoClient(t, endpoint, func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: &countingRoundTripper{ops: ops, base: transport}}
	})
	admin := testenv.DynamoClient(t, endpoint)
	clk := &clock{}
	app, _, pristine := wiredApp(t, client, clk, &countingSender{sent: map[string]int{}})
	t0 := time.Now()
	makeScaleGames(t, app.Service, games)
	t.Logf("made %d games in %v", games, time.Since(t0).Round(time.Millisecond))
	start := clk.unix.Load()

	paths := map[string]func(ctx context.Context, app *wiring.App, ds *dynamostore.Store, now time.Time) error{
		"old": oldSweep,
		"new": func(ctx context.Context, app *wiring.App, _ *dynamostore.Store, now time.Time) error {
			return app.Sweep(ctx, now)
		},
	}
	only := os.Getenv("PBM_SWEEP_PATHS") // "new" or "old" to run one only
	took, cpus := map[string][]time.Duration{}, map[string][]time.Duration{}
	var notified []time.Duration // the notifier's ticks of what the new sweep handed out
	for r := range rounds {
		order := []string{"old", "new"}
		if r%2 == 1 {
			order = []string{"new", "old"}
		}
		for _, name := range order {
			if only != "" && only != name {
				continue
			}
			table := copyTable(t, client, admin, pristine)
			clk.unix.Store(start)
			app, ds := wiredAppOn(t, client, table, clk, &countingSender{sent: map[string]int{}})
			clk.unix.Add(3 * 3600) // every reminder due
			now := clk.now()
			ops.reset()
			dials.Store(0)
			stopProfile := profileSweep(t, name, r)
			cpu0, node0 := processCPU(), dynaliteCPU()
			t0 := time.Now()
			if err := paths[name](t.Context(), app, ds, now); err != nil {
				t.Fatalf("%s sweep: %v", name, err)
			}
			d := time.Since(t0)
			stopProfile()
			cpu, node := processCPU()-cpu0, dynaliteCPU()-node0
			reqs := ops.reset()
			took[name], cpus[name] = append(took[name], d), append(cpus[name], cpu+node)
			t.Logf("round %d %s: %v; Go CPU %v, dynalite CPU %v; %v requests, %d new connections", r+1, name,
				d.Round(time.Millisecond), cpu.Round(time.Millisecond), node.Round(time.Millisecond), reqs, dials.Load())
			ticked := reqs["PutItem"]
			if name == "new" {
				// The new sweep hands the games out: the stream's
				// notifiers tick them, which is timed apart.
				cpu0, node0 := processCPU(), dynaliteCPU()
				t0 := time.Now()
				ticked = newTickStream(admin, table).feed(t, app)
				d := time.Since(t0)
				cpu, node := processCPU()-cpu0, dynaliteCPU()-node0
				notified = append(notified, d)
				t.Logf("round %d new, the notifier's ticks of %d requests, %d batches at once: %v; Go CPU %v, dynalite CPU %v; %v requests", r+1,
					ticked, service.SweepWorkers, d.Round(time.Millisecond), cpu.Round(time.Millisecond), node.Round(time.Millisecond), ops.reset())
			}
			pending, err := pendingAfter(t.Context(), ds, now)
			if err != nil {
				t.Fatal(err)
			}
			// dynalite keeps every table in memory: drop the copy.
			if _, err := admin.DeleteTable(t.Context(), &dynamodb.DeleteTableInput{TableName: aws.String(table)}); err != nil {
				t.Fatal(err)
			}
			if len(pending) != ticked {
				t.Errorf("%s sweep: %d games with mail pending after, want the %d reminded", name, len(pending), ticked)
			}
		}
	}
	for _, name := range []string{"old", "new"} {
		if len(took[name]) > 0 {
			t.Logf("%s: %s, CPU (Go and dynalite) %s over %d sweeps of %d games", name, durationRange(took[name]),
				durationRange(cpus[name]), len(took[name]), games)
		}
	}
	if len(notified) > 0 {
		t.Logf("new, the notifier's ticks after: %s", durationRange(notified))
	}
}

// durationRange is "lo–hi" of ds.
func durationRange(ds []time.Duration) string {
	lo, hi := ds[0], ds[0]
	for _, d := range ds {
		lo, hi = min(lo, d), max(hi, d)
	}
	return fmt.Sprintf("%v–%v", lo.Round(time.Millisecond), hi.Round(time.Millisecond))
}

// profileSweep profiles the CPU of the sweep name of round r into
// $PBM_SWEEP_CPUPROFILE-<name>-<r> if that is set; the func it returns
// stops the profile.
func profileSweep(t *testing.T, name string, r int) func() {
	prefix := os.Getenv("PBM_SWEEP_CPUPROFILE")
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(fmt.Sprintf("%s-%s-%d", prefix, name, r+1))
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// oldSweep is the sweep main had: Tick of each game due, SweepWorkers at
// a time, then the drain of every game with pending mail as main's
// notifier did it (oldDrain), then the digests.
func oldSweep(ctx context.Context, app *wiring.App, ds *dynamostore.Store, now time.Time) error {
	leagueErr := app.Leagues.Sweep(ctx, now)
	ids, err := ds.Waking(ctx, now.Unix())
	if err != nil {
		return err
	}
	tickErr := service.ForEach(ctx, ids, func(ctx context.Context, id string) error {
		if err := app.Service.Tick(ctx, id); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
		return nil
	})
	return errors.Join(leagueErr, tickErr, oldDrain(ctx, app, ds, now), app.Notifier.SendDigests(ctx, now))
}

// oldDrain is main's notify.Notifier.Sweep: each game with pending mail
// loaded alone, and drained (loaded again) if left alone for SweepIdle.
func oldDrain(ctx context.Context, app *wiring.App, ds *dynamostore.Store, now time.Time) error {
	ids, err := ds.PendingOutbox(ctx)
	if err != nil {
		return err
	}
	return service.ForEach(ctx, ids, func(ctx context.Context, id string) error {
		rec, _, err := app.Service.Load(ctx, id)
		if err != nil {
			return err
		}
		left := now.Sub(time.Unix(rec.Updated, 0))
		idle := left >= notify.SweepIdle
		fold := rec.MarkedSent() && (left >= notify.FoldIdle || idle && rec.Status == service.StatusOver)
		switch {
		case !idle || len(rec.Outbox) == 0 && !fold:
			return nil
		case len(rec.Outbox) == 0:
			return app.Service.FoldSent(ctx, id)
		default:
			return app.Notifier.Drain(ctx, id)
		}
	})
}

// makeScaleGames makes games two-seat games of «Вестерн» with 4-hour
// deadlines, all accepted, with the player a@pbm.test in every one.
func makeScaleGames(t testing.TB, svc *service.Service, games int) {
	t.Helper()
	idx := make([]string, games)
	for i := range idx {
		idx[i] = strconv.Itoa(i)
	}
	err := service.ForEach(t.Context(), idx, func(ctx context.Context, i string) error {
		c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", DeadlineHours: 4,
			Organiser: service.Person{Email: "o" + i + "@pbm.test"},
			Seats:     []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B" + i, Email: "b" + i + "@pbm.test"}}})
		if err != nil {
			return err
		}
		if c.Unconfirmed {
			if err := svc.Confirm(ctx, c.ID); err != nil {
				return err
			}
		}
		for s := 0; s < 2; s++ {
			if _, err := svc.Accept(ctx, c.ID, s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// copyTable copies every item of table into a new table of the same
// layout, made by client, with admin's parallel Scan and BatchWriteItem,
// and returns its name.
func copyTable(t testing.TB, client *dynamodb.Client, admin *dynamodb.Client, table string) string {
	t.Helper()
	to := newTableName()
	if err := dynamostore.CreateTable(t.Context(), client, to); err != nil {
		t.Fatal(err)
	}
	const segments = 4
	var wg sync.WaitGroup
	errs := make([]error, segments)
	for seg := range segments {
		wg.Go(func() { errs[seg] = copySegment(t.Context(), admin, table, to, seg, segments) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return to
}

func copySegment(ctx context.Context, client *dynamodb.Client, from, to string, seg, segments int) error {
	var start map[string]types.AttributeValue
	for {
		out, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(from), Segment: aws.Int32(int32(seg)),
			TotalSegments: aws.Int32(int32(segments)), ExclusiveStartKey: start, ConsistentRead: aws.Bool(true)})
		if err != nil {
			return fmt.Errorf("scan %s: %w", from, err)
		}
		for i := 0; i < len(out.Items); i += 25 {
			var reqs []types.WriteRequest
			for _, it := range out.Items[i:min(i+25, len(out.Items))] {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			}
			for len(reqs) > 0 {
				w, err := client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{to: reqs}})
				if err != nil {
					return fmt.Errorf("copy to %s: %w", to, err)
				}
				reqs = w.UnprocessedItems[to]
			}
		}
		if start = out.LastEvaluatedKey; start == nil {
			return nil
		}
	}
}

// countingRoundTripper counts requests by operation, as opCounter does,
// over a base transport of its own.
type countingRoundTripper struct {
	ops  *opCounter
	base http.RoundTripper
}

func (c *countingRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	op := r.Header.Get("X-Amz-Target")
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	c.ops.mu.Lock()
	c.ops.ops[op]++
	c.ops.mu.Unlock()
	return c.base.RoundTrip(r)
}

// keepAliveTransport is a transport that keeps as many idle connections
// a host as the functions' clients do (lambdaenv: 32), so that the
// sweep's workers reuse theirs.
func keepAliveTransport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 100, 32
	return tr
}

// processCPU is the CPU time this process has used (user and system).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// dynaliteCPU is the CPU time the process PBM_DYNALITE_PID has used
// (user and system, from /proc), or 0.
func dynaliteCPU() time.Duration {
	pid := os.Getenv("PBM_DYNALITE_PID")
	if pid == "" {
		return 0
	}
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(fields) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(fields[11], 10, 64)
	st, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // clock ticks (USER_HZ 100)
}
