package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/pbmgames/pbm/functions/internal/calendar"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/iamwire"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/functions/internal/streams"
	"github.com/pbmgames/pbm/functions/internal/wiring"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// deployedRun is one whole game played by the calendar simulator's people
// (package calendar: they answer their mail after hours, asleep at night,
// miss one mail in twenty, decide as the engine's bot would, answer the
// deals offered them and prepare their own) on AWS's path, on dynalite:
// the api function makes what they do; every write is handed, as the
// table's stream would carry it, to the notify function's code, which
// mails the commits' outboxes and ticks the games the sweep hands out;
// the sweep runs on its 5-minute schedule while the game holds mail or
// falls due. Every DynamoDB request of every function is metered (meter).
//
// What it measures is the cost of each action: a thing a person or the
// organiser does (a decision, a deal answered, an offer prepared, an
// acceptance…) or the clock does to the game (a run of the sweep that
// hands the game out to be ticked: a reminder, a missed deadline's
// default, the standing orders played on), with all that it sets off: the
// stream's notify invocations it causes, and what the sweep does later of
// the mail it left (reading it while it is pending, writing the game once
// without it). The sweep's own queries of its indexes, which it makes
// every 5 minutes whatever the games, are the schedule's, counted apart.
type deployedRun struct {
	t       *testing.T
	m       *meter
	app     *wiring.App
	mu      sync.Mutex
	pending []events.DynamoDBEventRecord // the stream's records not yet handed to notify
	actions []deployedAction
	// notifies counts the notify function's invocations (batches of the
	// stream's records); schedule is what the sweep's own queries cost.
	notifies int
	schedule cost
	sweeps   int
}

// deployedAction is one action and what it cost.
type deployedAction struct {
	what calendar.Doing // calendar.DoSweep: an action of the clock
	c    cost
}

// capture is the meter's stream: each change of an item the notify
// function's filter passes (functions/template_test.go holds the
// template's filter to exactly what package streams acts on).
func (r *deployedRun) capture(rec events.DynamoDBEventRecord) {
	game, _ := streams.TalkPosted(rec)
	if streams.GameID(rec) == "" && streams.SignInAddress(rec) == "" && game == "" && streams.TickRequested(rec) == "" {
		return
	}
	r.mu.Lock()
	r.pending = append(r.pending, rec)
	r.mu.Unlock()
}

// settle hands the stream's records to the notify function's code, in
// batches of notifyBatch (its BatchSize), as functions/notify does with
// each, until no write is left that the stream would deliver.
func (r *deployedRun) settle(ctx context.Context) {
	for {
		r.mu.Lock()
		recs := r.pending
		r.pending = nil
		r.mu.Unlock()
		if len(recs) == 0 {
			return
		}
		for batch := range slices.Chunk(recs, notifyBatch) {
			r.notifies++
			ctx := asNotify(ctx)
			ev := events.DynamoDBEvent{Records: batch}
			n, log := r.app.Notifier, r.app.Log
			streams.SendSignIns(ctx, ev, func(ctx context.Context, email string) error { return n.SendSignIn(ctx, email, "") }, log)
			streams.SendTalks(ctx, ev, n.SendTalk, log)
			streams.Ticks(ctx, ev, r.app.Service.TickGames, log)
			resp, _ := streams.HandleImages(ctx, ev, n.DrainImage, log)
			if len(resp.BatchItemFailures) > 0 {
				r.t.Errorf("notify: %d records failed", len(resp.BatchItemFailures))
			}
		}
	}
}

// do is the deployment's Do: what is done is metered with all it sets off
// on the stream, as the function that does it (the api function, the
// sweep).
func (r *deployedRun) do(ctx context.Context, what calendar.Doing, call func(context.Context) error) error {
	fn := "ApiFunction"
	if what == calendar.DoSweep {
		fn = "SweepFunction"
		r.sweeps++
	}
	r.m.take()
	err := call(iamwire.WithFunction(ctx, fn))
	r.settle(ctx)
	c := r.m.take()
	if what != calendar.DoSweep {
		r.actions = append(r.actions, deployedAction{what: what, c: c})
		return err
	}
	// The sweep's queries of its indexes, and its cursor over the mail
	// keys (service.MailPeriods), are the schedule's: every run makes
	// them, whatever the games.
	sched, work := c.split(func(q request) bool {
		return q.fn == "SweepFunction" && (q.op == "Query" || slices.Equal(q.pks, []string{"GAME#~mail"}))
	})
	r.schedule.merge(sched)
	handed := 0
	for _, q := range work.reqs {
		handed += q.ticks
	}
	switch {
	case handed > 0: // the clock's action: the game handed out and ticked
		r.actions = append(r.actions, deployedAction{what: what, c: work})
	case work.requests > 0 && len(r.actions) > 0:
		// The sweep read the mail the last action left pending, or
		// wrote the game without it: that action's.
		r.actions[len(r.actions)-1].c.merge(work)
	case work.requests > 0:
		r.t.Errorf("the sweep worked on the game before anything was done: %v", work.ops)
	}
	return err
}

// errorLog fails t on every error logged: the notify function's and the
// sweep's failures are logged, not returned.
type errorLog struct {
	slog.Handler
	t *testing.T
}

func (h errorLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }
func (h errorLog) Handle(_ context.Context, r slog.Record) error {
	var attrs []string
	r.Attrs(func(a slog.Attr) bool { attrs = append(attrs, a.String()); return true })
	h.t.Errorf("logged: %s %s", r.Message, strings.Join(attrs, " "))
	return nil
}

// playDeployed plays one whole game of setup from seed with people as cfg
// says on AWS's path on dynalite, metered.
func playDeployed(t *testing.T, cfg calendar.Config, setup calendar.Setup, seed uint64) (*deployedRun, calendar.Result) {
	t.Helper()
	endpoint := testenv.Dynalite(t)
	table := newTableName()
	run := &deployedRun{t: t}
	m := &meter{look: testenv.DynamoClient(t, endpoint), tbl: table, cur: cost{ops: map[string]int{}}, stream: run.capture}
	run.m = m
	// Metered (an SDK middleware), and held to the deployed functions'
	// policies (iam_test.go).
	client := testenv.DynamoClient(t, endpoint, m.install, func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: iamChecked(t, table, http.DefaultTransport)}
	})
	if err := dynamostore.CreateTable(t.Context(), client, table); err != nil {
		t.Fatal(err)
	}
	log := slog.New(errorLog{Handler: slog.DiscardHandler, t: t})
	cfg.Deploy = func(ctx context.Context, env calendar.DeployEnv) (*calendar.Deployment, error) {
		ds := dynamostore.New(client, table)
		// AWS's wiring: the table's stream feeds the notifier (no drain
		// after each commit), and the sweep hands the games due out.
		app := wiring.New(wiring.Parts{Log: log, Store: ds, Keys: env.Keys, Limits: servicetest.Roomy, Now: env.Now, Rand: env.Rand,
			Mail: wiring.NewMail(env.Mail, nil, false)})
		// The mails' board pictures cost no request: not drawn here.
		app.Notifier.Composer = compose.New(compose.Config{Games: testGames, Service: app.Service, BaseURL: "https://pbm.test", NoPicture: true})
		run.app = app
		lookStore := dynamostore.New(m.look, table)
		look := service.New(service.Config{Games: testGames.Engines(), Store: lookStore, Players: lookStore, Sent: lookStore, Guard: lookStore, Keys: env.Keys,
			Now: env.Now, Log: discardLog(), Limits: servicetest.Roomy, Rand: testenv.Rand("look")}) // it makes no game: its Rand is never drawn
		return &calendar.Deployment{Service: app.Service, Look: look, Sweep: app.Sweep, Do: run.do,
			Wake: func(ctx context.Context, id string) ([]int64, error) {
				g, err := lookStore.GetGame(ctx, id)
				times := []int64{g.WakeAt}
				switch {
				case g.OutboxPending && g.OutboxKey == "":
					times = append(times, env.Now().Unix()) // written before mail keys: read every sweep
				case g.OutboxPending:
					// The sweep reads the key's period once it ended
					// SweepIdle ago (service.MailPeriods).
					if at := mailCheckAt(g.OutboxKey); at > env.Now().Unix() {
						times = append(times, at)
					}
				}
				return times, err
			}}, nil
	}
	res, err := calendar.Play(t.Context(), cfg, setup, seed)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Finished {
		t.Fatalf("%v: the game did not finish in %.0f days", setup, res.Days)
	}
	if len(m.unknown) > 0 {
		t.Errorf("requests the meter does not count: %v", m.unknown)
	}
	return run, res
}

// mailCheckAt is when the sweep reads the games listed under a mail key
// (service.MailPeriods): once its period of service.SweepEvery has ended
// and service.SweepIdle has passed.
func mailCheckAt(key string) int64 {
	p, err := strconv.ParseInt(strings.TrimPrefix(key, "m"), 10, 64)
	if err != nil {
		return 0
	}
	every, idle := int64(service.SweepEvery/time.Second), int64(service.SweepIdle/time.Second)
	return (p+1)*every + idle
}

// wholeSummary sums up a game's actions.
type wholeSummary struct {
	actions, clock              int
	requests, gameItem, wcu     float64 // per action
	rcu, indexWCU               float64
	maxWCU, maxReq, maxGameItem int
	over10, overGame            int
	gameBytes                   int
	byKind                      map[calendar.Doing]int
	wcuByFn                     map[string]float64 // per action
	ops                         map[string]int
}

func summariseWhole(acts []deployedAction) wholeSummary {
	s := wholeSummary{byKind: map[calendar.Doing]int{}, wcuByFn: map[string]float64{}, ops: map[string]int{}}
	for _, a := range acts {
		c := a.c
		s.actions++
		s.byKind[a.what]++
		if a.what == calendar.DoSweep {
			s.clock++
		}
		s.requests += float64(c.requests)
		s.gameItem += float64(c.gameItem)
		s.wcu += float64(c.wcu)
		s.rcu += c.rcu
		s.indexWCU += float64(c.indexWCU)
		s.maxWCU = max(s.maxWCU, c.wcu)
		s.maxReq = max(s.maxReq, c.requests)
		s.maxGameItem = max(s.maxGameItem, c.gameItem)
		s.gameBytes = max(s.gameBytes, c.gameBytes)
		if c.wcu > 10 {
			s.over10++
		}
		if c.gameItem > 2 {
			s.overGame++
		}
		for _, q := range c.reqs {
			s.wcuByFn[strings.TrimSuffix(q.fn, "Function")] += float64(q.wcu)
			s.ops[q.op]++
		}
	}
	n := float64(max(s.actions, 1))
	s.requests /= n
	s.gameItem /= n
	s.wcu /= n
	s.rcu /= n
	s.indexWCU /= n
	for fn := range s.wcuByFn {
		s.wcuByFn[fn] /= n
	}
	return s
}

func (s wholeSummary) String() string {
	var ops, fns []string
	for _, op := range slices.Sorted(maps.Keys(s.ops)) {
		ops = append(ops, fmt.Sprintf("%s %.2f", op, float64(s.ops[op])/float64(s.actions)))
	}
	for _, fn := range slices.Sorted(maps.Keys(s.wcuByFn)) {
		fns = append(fns, fmt.Sprintf("%s %.2f", fn, s.wcuByFn[fn]))
	}
	return fmt.Sprintf("%d actions (%d of the clock) | %.2f WU (%s; index %.2f), max %d, %d over 10 | %.2f requests, max %d | game item %.2f, max %d, %d over 2 | %.2f RU | largest game item %d B | %s",
		s.actions, s.clock, s.wcu, strings.Join(fns, ", "), s.indexWCU, s.maxWCU, s.over10, s.requests, s.maxReq,
		s.gameItem, s.maxGameItem, s.overGame, s.rcu, s.gameBytes, strings.Join(ops, ", "))
}

// setup tells the actions that set a game up (the organiser's creation
// and confirmation, the acceptances): they write what each person new to
// the game needs once (their membership, their link id, their first
// personal link), so they grow with the seats, and are measured apart
// from the play.
func isSetup(what calendar.Doing) bool {
	return what == calendar.DoCreate || what == calendar.DoConfirm || what == calendar.DoAccept
}

// TestCostWholeGames plays whole games of both games as they are played
// (issue 28): default length and 20 laps, 4 and 6 seats, the calendar
// simulator's people, who touch no setting: every seat plays with its
// game's suggested standing orders, the default, and decides as the
// engine's bot would; and the default games at 6 seats by people who
// turn the orders off. Each is played on AWS's path on dynalite (api →
// stream → notify; sweep → tick requests → notify), with every DynamoDB
// request of every function metered. Every action of the play
// (deployedRun: a decision, a deal answered, an offer prepared, the
// clock's tick) costs at most 10 write units, index writes included, and
// at most 2 requests of the game item; on average an action costs at
// most 6 requests, and with the orders on at most 6 write units, in both
// games. What the set-up costs (creation, confirmation, acceptances) is
// shown apart.
//
//	go test ./functions/internal/e2e -run TestCostWholeGames -v
func TestCostWholeGames(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games on dynalite: skipped in -short runs")
	}
	type game struct {
		kind   string
		laps   int // 0: the default length
		seats  int
		orders bool
	}
	var games []game
	for _, kind := range []string{"western", "businessman"} {
		for _, laps := range []int{0, 20} {
			for _, seats := range []int{4, 6} {
				games = append(games, game{kind, laps, seats, true})
			}
		}
		games = append(games, game{kind, 0, 6, false})
	}
	type row struct {
		name        string
		play, setup wholeSummary
		res         calendar.Result
		run         *deployedRun
		byKind      map[calendar.Doing]wholeSummary
	}
	var rows []row
	for _, g := range games {
		setup := calendar.Setup{Kind: g.kind, Seats: g.seats}
		name := g.kind + ", default length"
		if g.laps > 0 {
			setup.Options = json.RawMessage(fmt.Sprintf(`{"laps":%d}`, g.laps))
			name = fmt.Sprintf("%s, %d laps", g.kind, g.laps)
		}
		name += fmt.Sprintf(", %d seats", g.seats)
		cfg := calendar.DefaultConfig(testGames)
		if !g.orders {
			cfg.People = calendar.NoOrders
			name += ", orders off"
		}
		t.Run(strings.NewReplacer(", ", "/", " ", "_").Replace(name), func(t *testing.T) {
			run, res := playDeployed(t, cfg, setup, 1)
			var play, set []deployedAction
			for i, a := range run.actions {
				if isSetup(a.what) {
					set = append(set, a)
					continue
				}
				play = append(play, a)
				if a.c.gameItem > 2 {
					t.Errorf("action %d of %d (%s): %d requests of the game item, want at most 2; %s",
						i, len(run.actions), a.what, a.c.gameItem, describe(a.c))
				}
				if a.c.wcu > 10 {
					t.Errorf("action %d of %d (%s): %d write units (index %v), want at most 10; %s",
						i, len(run.actions), a.what, a.c.wcu, a.c.byIndex, describe(a.c))
				}
			}
			r := row{name: name, play: summariseWhole(play), setup: summariseWhole(set), res: res, run: run, byKind: map[calendar.Doing]wholeSummary{}}
			kinds := map[calendar.Doing][]deployedAction{}
			for _, a := range play {
				kinds[a.what] = append(kinds[a.what], a)
			}
			for k, as := range kinds {
				r.byKind[k] = summariseWhole(as)
			}
			rows = append(rows, r)
			if g.orders && r.play.wcu > 6 {
				t.Errorf("%.2f write units an action on average, want at most 6", r.play.wcu)
			}
			if r.play.requests > 6 {
				t.Errorf("%.2f requests an action on average, want at most 6", r.play.requests)
			}
		})
	}
	for _, r := range rows {
		for _, k := range slices.Sorted(maps.Keys(r.byKind)) {
			t.Logf("%s: %s: %s", r.name, k, r.byKind[k])
		}
		// The game's whole bill of DynamoDB (play and set-up), for the
		// README's dollars a game.
		wu := r.play.wcu*float64(r.play.actions) + r.setup.wcu*float64(r.setup.actions)
		ru := r.play.rcu*float64(r.play.actions) + r.setup.rcu*float64(r.setup.actions)
		t.Logf("%s: %.1f days, %d moves, %d visits, %d decisions posted, %d mails | play: %s | set-up: %s | the game: %.0f WU, %.0f RU | notify invocations %d (%.2f an action of the play); %d sweeps, their own queries %d requests, %.1f RU",
			r.name, r.res.Days, r.res.Moves, r.res.Visits, r.res.Decisions, sum(r.res.Mails)+r.res.OrganiserMails, r.play, r.setup, wu, ru,
			r.run.notifies, float64(r.run.notifies)/float64(r.play.actions), r.run.sweeps, r.run.schedule.requests, r.run.schedule.rcu)
	}
}

// describe says what each function asked of DynamoDB in c.
func describe(c cost) string {
	by := map[string][]string{}
	for _, q := range c.reqs {
		fn := strings.TrimSuffix(q.fn, "Function")
		d := q.op
		if q.wcu > 0 {
			d += fmt.Sprintf(" %dWU", q.wcu)
		}
		if q.gameItem {
			d += "(game)"
		}
		by[fn] = append(by[fn], d)
	}
	var out []string
	for _, fn := range slices.Sorted(maps.Keys(by)) {
		out = append(out, fn+": "+strings.Join(by[fn], ", "))
	}
	return strings.Join(out, "; ")
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
