package e2e

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/streams"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// notifyParallel is how many of one stream shard's batches AWS hands to
// notify invocations at once: template.yaml's ParallelizationFactor.
const notifyParallel = 10

// BenchmarkSweepWholeWork is the sweep's whole work (issue 28) for
// PBM_SCALE_GAMES games (10,000) whose reminders are all due, on
// dynalite through AWS's wiring: the sweep function's run that hands the
// games out (wiring.App.Sweep: a tick request each, 25 a BatchWriteItem),
// then notify's ticks of them as the stream delivers the requests, in
// batches of notifyBatch (template.yaml's BatchSize). Each notify
// invocation runs alone, one after another, so that its time is what an
// invocation takes by itself; their sum is the notify function's time
// for the sweep, which AWS spreads over notifyParallel invocations at
// once on a shard. Reported apart, per sweep:
//
//   - handout-s: the sweep function's run;
//   - notify-s: the sum of the notify invocations' times;
//   - notify-invocations and notify-ms/invocation;
//   - notify-spread-s: notify-s over notifyParallel, the time the ticks
//     take in AWS on one shard (more shards: less);
//   - handout-requests, notify-requests: DynamoDB requests.
//
// The table is copied before each sweep (not timed). The host (CPU model,
// cores, load average) is logged beside the figures: they are measured on
// it, against dynalite (one Node process) on the same cores.
//
//	go test ./functions/internal/e2e -run XXX -bench SweepWholeWork -benchtime 1x -timeout 60m
func BenchmarkSweepWholeWork(b *testing.B) {
	games := scaleGames(b)
	ops := &opCounter{ops: map[string]int{}}
	endpoint := testenv.Dynalite(b)
	client := testenv.DynamoClient(b, endpoint, func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: &countingRoundTripper{ops: ops, base: keepAliveTransport()}}
	})
	admin := testenv.DynamoClient(b, endpoint)
	clk := &clock{}
	app, _, pristine := wiredApp(b, client, clk, &countingSender{sent: map[string]int{}})
	t0 := time.Now()
	makeScaleGames(b, app.Service, games)
	b.Logf("made %d games in %v; host: %s", games, time.Since(t0).Round(time.Millisecond), hostLine())
	start := clk.unix.Load()

	var handout, notify time.Duration
	var invocations, ticked, handoutReqs, notifyReqs int
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		table := copyTable(b, client, admin, pristine)
		clk.unix.Store(start)
		app, ds := wiredAppOn(b, client, table, clk, &countingSender{sent: map[string]int{}})
		clk.unix.Add(3 * 3600) // every reminder due
		ops.reset()
		b.StartTimer()

		t0 := time.Now()
		if err := app.Sweep(b.Context(), clk.now()); err != nil {
			b.Fatalf("sweep: %v", err)
		}
		handout += time.Since(t0)
		handoutReqs += total(ops.reset())

		b.StopTimer()
		recs := newTickStream(admin, table).requests(b) // the stream's records: not the functions' work
		b.StartTimer()
		for batch := range slices.Chunk(recs, notifyBatch) {
			t0 := time.Now()
			streams.Ticks(context.WithoutCancel(b.Context()), events.DynamoDBEvent{Records: batch}, app.Service.TickGames, app.Log)
			notify += time.Since(t0)
			invocations++
		}
		notifyReqs += total(ops.reset())
		ticked += len(recs)

		b.StopTimer()
		pending, err := pendingAfter(b.Context(), ds, clk.now())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := admin.DeleteTable(b.Context(), &dynamodb.DeleteTableInput{TableName: aws.String(table)}); err != nil {
			b.Fatal(err)
		}
		// A few games of the set-up owe nothing at the sweep (TestSweepOldAndNew
		// sees the same): every game with a reminder due is handed out and
		// reminded once.
		if len(recs) != len(pending) || len(recs) < games*99/100 {
			b.Fatalf("%d tick requests handed out, %d games with a reminder pending after, of %d", len(recs), len(pending), games)
		}
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(handout.Seconds()/n, "handout-s")
	b.ReportMetric(notify.Seconds()/n, "notify-s")
	b.ReportMetric(float64(invocations)/n, "notify-invocations")
	b.ReportMetric(float64(notify.Milliseconds())/float64(max(invocations, 1)), "notify-ms/invocation")
	b.ReportMetric(notify.Seconds()/n/notifyParallel, "notify-spread-s")
	b.ReportMetric(float64(handoutReqs)/n, "handout-requests")
	b.ReportMetric(float64(notifyReqs)/n, "notify-requests")
	b.Logf("%d games, %d ticked; after: host %s", games, ticked/b.N, hostLine())
}

// total sums a count of requests by operation.
func total(ops map[string]int) int {
	n := 0
	for _, c := range ops {
		n += c
	}
	return n
}

// pendingAfter lists the games with mail pending after commits made at
// now: those written before mail keys, and those listed under the keys
// of now's period and the few after (service.MailKeys).
func pendingAfter(ctx context.Context, st store.Store, now time.Time) ([]string, error) {
	ids, err := st.PendingOutbox(ctx)
	if err != nil {
		return nil, err
	}
	for _, key := range service.MailKeys(now, now.Add(4*service.SweepEvery)) {
		keyed, err := st.PendingMail(ctx, key)
		if err != nil {
			return nil, err
		}
		ids = append(ids, keyed...)
	}
	return ids, nil
}

// hostLine says which machine a figure comes from: the CPU's model, the
// cores Go sees, and the load average over 1, 5 and 15 minutes.
func hostLine() string {
	model := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	load := "load unknown"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			load = "load " + strings.Join(f[:3], " ")
		}
	}
	return model + ", " + strconv.Itoa(runtime.NumCPU()) + " cores, " + load
}
