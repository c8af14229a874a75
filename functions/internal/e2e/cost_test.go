package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/iamwire"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/functions/internal/streams"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// meter counts what every DynamoDB request of every function costs: the
// requests by operation, those that touch a game item (sk "GAME"), read
// units as the server reports them, and write units computed as DynamoDB
// bills them: the larger of the item before and after, 1 unit a started
// KB, for each item a request writes (each of a batch's), plus one unit
// for each index item a write puts or deletes (dynalite reports no index
// writes, so the meter reads each item before and after each write with a
// client of its own, which it does not count). It sits in the store's
// client as a middleware of the SDK's (its Initialize step), so it sees
// each request's operation and input before it is sent, asks the reads to
// report what they consumed, and reads that in their output. An operation
// it does not know how to count is noted (unknown), for a test to fail on.
//
// What it reads before and after each write is also what the table's
// stream would carry (NEW_IMAGE): when stream is set, each write that
// changed an item is handed to it as the stream's record of it.
type meter struct {
	off  atomic.Bool // not metering: requests pass as they are
	mu   sync.Mutex
	cur  cost
	look *dynamodb.Client
	tbl  string
	// stream, when set, is handed each change a write made, in the
	// order of the writes.
	stream  func(events.DynamoDBEventRecord)
	seq     int
	unknown map[string]int // operations the meter cannot count
}

type cost struct {
	requests  int
	gameItem  int // requests on a game item (sk "GAME"; a batch read of games counts once)
	gameReads int // of which reads
	wcu       int // table and index write units
	indexWCU  int // of which index writes
	byIndex   [3]int
	rcu       float64
	ops       map[string]int
	gameBytes int // the largest game item written
	// reqs are the requests one by one, which function made each.
	reqs []request
}

// request is what one request cost, and which function made it (iamwire's
// mark of its context: "ApiFunction", "NotifyFunction", "SweepFunction";
// "" for the test's own).
type request struct {
	fn, op       string
	index        string // a Query's index ("" for the table)
	gameItem     bool
	gameRead     bool
	wcu, indexWU int
	byIndex      [3]int
	rcu          float64
	gameBytes    int
	ticks        int      // tick requests written ("TICK#…")
	gameWrites   int      // game items written
	pks          []string // the partitions it read or wrote items of
}

func (m *meter) take() cost {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.cur
	m.cur = cost{ops: map[string]int{}}
	return c
}

// indexKeys are the key attributes of each global secondary index; all
// project keys only, so an index item costs one write unit.
var indexKeys = [][]string{
	{dynamostore.AttrOutbox},
	{dynamostore.AttrWakePK, dynamostore.AttrWake},
	{dynamostore.AttrDigestPK, dynamostore.AttrDigestAt},
}

type item = map[string]types.AttributeValue

// install puts the meter in a client's middleware stack.
func (m *meter) install(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("meter", m.handle), middleware.After)
	})
}

func keyOf(it item) item {
	return item{dynamostore.AttrPK: it[dynamostore.AttrPK], dynamostore.AttrSK: it[dynamostore.AttrSK]}
}

func isGameKey(k item) bool {
	sk, ok := k[dynamostore.AttrSK].(*types.AttributeValueMemberS)
	return ok && sk.Value == "GAME"
}

func (m *meter) handle(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
	if m.off.Load() {
		return next.HandleInitialize(ctx, in)
	}
	op := middleware.GetOperationName(ctx)
	r := request{fn: iamwire.FunctionOf(ctx), op: op}
	var reads, writes []item // the keys read, written
	switch p := in.Parameters.(type) {
	case *dynamodb.GetItemInput:
		reads = []item{p.Key}
		p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	case *dynamodb.BatchGetItemInput:
		for _, ka := range p.RequestItems {
			reads = append(reads, ka.Keys...)
		}
		p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	case *dynamodb.QueryInput:
		r.index = aws.ToString(p.IndexName)
		p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
	case *dynamodb.PutItemInput:
		writes = []item{keyOf(p.Item)}
	case *dynamodb.UpdateItemInput:
		writes = []item{p.Key}
	case *dynamodb.DeleteItemInput:
		writes = []item{p.Key}
	case *dynamodb.BatchWriteItemInput:
		for _, ws := range p.RequestItems {
			for _, w := range ws {
				switch {
				case w.PutRequest != nil:
					writes = append(writes, keyOf(w.PutRequest.Item))
				case w.DeleteRequest != nil:
					writes = append(writes, w.DeleteRequest.Key)
				}
			}
		}
	case *dynamodb.CreateTableInput, *dynamodb.DescribeTableInput:
		return next.HandleInitialize(ctx, in) // the test's set-up
	default:
		m.mu.Lock()
		if m.unknown == nil {
			m.unknown = map[string]int{}
		}
		m.unknown[op]++
		m.mu.Unlock()
	}
	for _, k := range append(slices.Clone(reads), writes...) {
		if pk, ok := k[dynamostore.AttrPK].(*types.AttributeValueMemberS); ok {
			r.pks = append(r.pks, pk.Value)
		}
	}
	for _, k := range reads {
		if isGameKey(k) {
			r.gameItem, r.gameRead = true, true
		}
	}
	befores := make([]item, len(writes))
	for i, k := range writes {
		befores[i] = m.item(ctx, k)
	}
	out, md, err := next.HandleInitialize(ctx, in)
	var changes []events.DynamoDBEventRecord
	for i, k := range writes {
		before, after := befores[i], m.item(ctx, k)
		size := max(itemSize(before), itemSize(after))
		r.wcu += max(1, int(math.Ceil(float64(size)/1024)))
		for j, idx := range indexKeys {
			b, bok := indexKey(before, idx)
			a, aok := indexKey(after, idx)
			n := 0
			switch {
			case bok && aok && a != b:
				n = 2
			case bok != aok:
				n = 1
			}
			r.byIndex[j] += n
			r.indexWU += n
		}
		if isGameKey(k) {
			r.gameItem = true
			r.gameWrites++
			r.gameBytes = max(r.gameBytes, itemSize(after))
		}
		if sk, ok := k[dynamostore.AttrSK].(*types.AttributeValueMemberS); ok && strings.HasPrefix(sk.Value, streams.TickPrefix) && before == nil && after != nil {
			r.ticks++
		}
		if rec, ok := streamRecord(k, before, after); ok {
			changes = append(changes, rec)
		}
	}
	r.wcu += r.indexWU
	var consumed []types.ConsumedCapacity
	switch o := out.Result.(type) {
	case *dynamodb.GetItemOutput:
		if o.ConsumedCapacity != nil {
			consumed = append(consumed, *o.ConsumedCapacity)
		}
	case *dynamodb.QueryOutput:
		if o.ConsumedCapacity != nil {
			consumed = append(consumed, *o.ConsumedCapacity)
		}
	case *dynamodb.BatchGetItemOutput:
		consumed = o.ConsumedCapacity
	}
	for _, cc := range consumed {
		if err == nil && cc.CapacityUnits != nil {
			r.rcu += *cc.CapacityUnits
		}
	}
	m.add(r, changes)
	return out, md, err
}

// streamRecord is the stream's record of a write that found before and
// left after at key k: none if it changed nothing (DynamoDB writes no
// record then).
func streamRecord(k, before, after item) (events.DynamoDBEventRecord, bool) {
	var name string
	switch {
	case before == nil && after == nil, reflect.DeepEqual(before, after):
		return events.DynamoDBEventRecord{}, false
	case before == nil:
		name = "INSERT"
	case after == nil:
		name = "REMOVE"
	default:
		name = "MODIFY"
	}
	rec := events.DynamoDBEventRecord{EventName: name, EventSource: "aws:dynamodb",
		Change: events.DynamoDBStreamRecord{Keys: streamImage(k), StreamViewType: "NEW_IMAGE"}}
	if after != nil {
		rec.Change.NewImage = streamImage(after)
	}
	return rec, true
}

// streamImage is an item as a stream record carries it.
func streamImage(it item) map[string]events.DynamoDBAttributeValue {
	out := make(map[string]events.DynamoDBAttributeValue, len(it))
	for k, v := range it {
		out[k] = streamValue(v)
	}
	return out
}

func streamValue(v types.AttributeValue) events.DynamoDBAttributeValue {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return events.NewStringAttribute(v.Value)
	case *types.AttributeValueMemberN:
		return events.NewNumberAttribute(v.Value)
	case *types.AttributeValueMemberB:
		return events.NewBinaryAttribute(v.Value)
	case *types.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(v.Value)
	case *types.AttributeValueMemberNULL:
		return events.NewNullAttribute()
	case *types.AttributeValueMemberSS:
		return events.NewStringSetAttribute(v.Value)
	case *types.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(v.Value)
	case *types.AttributeValueMemberBS:
		return events.NewBinarySetAttribute(v.Value)
	case *types.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(v.Value))
		for i, e := range v.Value {
			l[i] = streamValue(e)
		}
		return events.NewListAttribute(l)
	case *types.AttributeValueMemberM:
		return events.NewMapAttribute(streamImage(v.Value))
	}
	panic(fmt.Sprintf("attribute value %T", v))
}

func (m *meter) add(r request, changes []events.DynamoDBEventRecord) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur.add(r)
	for _, rec := range changes {
		m.seq++
		rec.Change.SequenceNumber = fmt.Sprintf("%021d", m.seq)
		if m.stream != nil {
			m.stream(rec)
		}
	}
}

// add counts r in c.
func (c *cost) add(r request) {
	if c.ops == nil {
		c.ops = map[string]int{}
	}
	c.requests++
	if r.gameItem {
		c.gameItem++
	}
	if r.gameRead {
		c.gameReads++
	}
	c.wcu += r.wcu
	c.indexWCU += r.indexWU
	for i, n := range r.byIndex {
		c.byIndex[i] += n
	}
	c.rcu += r.rcu
	c.gameBytes = max(c.gameBytes, r.gameBytes)
	c.ops[r.op]++
	c.reqs = append(c.reqs, r)
}

// merge adds what o cost to c.
func (c *cost) merge(o cost) {
	for _, r := range o.reqs {
		c.add(r)
	}
}

// split parts c's requests into those keep says and the rest.
func (c cost) split(keep func(request) bool) (kept, rest cost) {
	kept.ops, rest.ops = map[string]int{}, map[string]int{}
	for _, r := range c.reqs {
		if keep(r) {
			kept.add(r)
		} else {
			rest.add(r)
		}
	}
	return kept, rest
}

func (m *meter) item(ctx context.Context, k item) item {
	out, err := m.look.GetItem(ctx, &dynamodb.GetItemInput{TableName: &m.tbl, Key: k, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil
	}
	return out.Item
}

func indexKey(it item, attrs []string) (string, bool) {
	var parts []string
	for _, a := range attrs {
		v, ok := it[a]
		if !ok {
			return "", false
		}
		parts = append(parts, fmt.Sprintf("%v", v))
	}
	return strings.Join(parts, "\x00"), true
}

// itemSize is an item's size as DynamoDB counts it: attribute names plus
// values (numbers about one byte per two digits plus one).
func itemSize(it item) int {
	n := 0
	for name, v := range it {
		n += len(name) + valueSize(v)
	}
	return n
}

func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return (len(strings.TrimLeft(v.Value, "-0"))+1)/2 + 1
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += (len(s)+1)/2 + 1
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	}
	return 0
}

// clock is a test's time, moved on by hand.
type clock struct{ unix atomic.Int64 }

func (c *clock) now() time.Time { return time.Unix(c.unix.Load(), 0) }

// newMeteredEnv is newEnv with every DynamoDB request metered and the
// notifier wired as in AWS (players' preferences read for each mail, the
// mail marked sent in the game's sent marker), mailing after every commit
// from the item the commit wrote as the table's stream would hand it over
// (read without being metered), on a clock the test moves.
func newMeteredEnv(t *testing.T, clk *clock) (*env, *meter) {
	t.Helper()
	endpoint := testenv.Dynalite(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	table := "games-" + hex.EncodeToString(b[:])
	m := &meter{look: testenv.DynamoClient(t, endpoint), tbl: table, cur: cost{ops: map[string]int{}}}
	// Metered (an SDK middleware), and held to the deployed functions'
	// policies (iam_test.go).
	client := testenv.DynamoClient(t, endpoint, m.install, func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: iamChecked(t, table, http.DefaultTransport)}
	})
	if err := dynamostore.CreateTable(context.Background(), client, table); err != nil {
		t.Fatalf("create table: %v", err)
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": key})
	if err != nil {
		t.Fatal(err)
	}
	ds := dynamostore.New(client, table)
	st := &sizeRecorder{Store: ds}
	mail := &mailRecorder{}
	mail.enabled.Store(true)
	n := &notify.Notifier{Sender: mail, Players: ds, Log: discardLog(), Now: clk.now}
	stream := dynamostore.New(m.look, table)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: ds, Sent: ds, Keys: keys, Log: discardLog(), Rand: testenv.Rand(t.Name()), Guard: ds, Limits: servicetest.Roomy,
		Now: clk.now,
		Committed: func(ctx context.Context, rec *service.Record, ver int64) {
			image, err := stream.GetGame(ctx, rec.ID)
			if err == nil && image.Version != ver {
				err = fmt.Errorf("the stream's image is version %d, want %d", image.Version, ver)
			}
			if err == nil {
				err = n.DrainImage(asNotify(ctx), image)
			}
			if err != nil {
				t.Errorf("notify %s: %v", rec.ID, err)
			}
		}})
	n.Service, n.Composer = svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true})
	srv := httptest.NewServer(asAPI(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: discardLog()})))
	t.Cleanup(srv.Close)
	return &env{t: t, url: srv.URL, svc: svc, store: st, client: client, table: table, mail: mail}, m
}

// actionCosts plays a whole game through the API and returns what each
// POST of an action cost, the notifier's drain included (it runs in the
// request, after the commit). The page reads a player makes between
// actions (the game, its legal list) are not counted: they are reads, and
// the same whatever the bookkeeping. Ten minutes pass before each action,
// as players take their time: deadlines then move as they do in play. After
// each action the sweep ticks the games due (the deadlines, reminders and
// early wakes of the time that passed); its writes are returned apart,
// without its index query, which the schedule makes, not the actions.
func actionCosts(t *testing.T, kind, options string, seats int) (costs []cost, sweep cost) {
	clk := &clock{}
	clk.unix.Store(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Unix())
	e, m := newMeteredEnv(t, clk)
	id, tokens := e.startGame(kind, seats, options)
	sweep.ops = map[string]int{}
	e.playEach(id, tokens, 11, func() { clk.unix.Add(600); m.take() }, func() {
		costs = append(costs, m.take())
		if _, err := e.svc.TickAll(iamwire.WithFunction(t.Context(), "SweepFunction")); err != nil {
			t.Fatal(err)
		}
		c := m.take()
		sweep.wcu += c.wcu
		sweep.indexWCU += c.indexWCU
		for op, n := range c.ops {
			sweep.ops[op] += n
		}
	})
	return costs, sweep
}

// playEach is playOut with hooks around each POST of an action.
func (e *env) playEach(id string, tokens []string, seed uint64, before, after func()) {
	e.t.Helper()
	ch := chooser{mrand.New(mrand.NewPCG(seed, 1))}
	for step := 0; ; step++ {
		if step > 20000 {
			e.t.Fatal("the game does not end")
		}
		var v httpapi.GameView
		e.call("GET", "/api/games/"+id, tokens[0], nil, &v)
		if v.Status == service.StatusOver {
			return
		}
		if len(v.Owing) == 0 {
			e.t.Fatalf("status %s and nobody owes a move", v.Status)
		}
		seat := v.Owing[ch.r.IntN(len(v.Owing))]
		var l legalAnswer
		e.call("GET", "/api/games/"+id+"/legal", tokens[seat], nil, &l)
		a := ch.pick(l.Legal)
		// A deal open to a seat is answered, as its mail asks, before the
		// next move: deals are actions too.
		for s := range tokens {
			var dv httpapi.DealsView
			e.call("GET", "/api/games/"+id+"/deals", tokens[s], nil, &dv)
			if len(dv.ToMe) > 0 {
				answers := engine.AnswersTo([]engine.Deal{dv.ToMe[0].Deal}, s)
				seat, a = s, ch.pick(answers)
				break
			}
		}
		body := httpapi.ActRequest{Action: a, Key: fmt.Sprintf("move-%05d-%d", step, seat), Version: l.Version}
		before()
		if st := e.call("POST", "/api/games/"+id+"/actions", tokens[seat], body, nil); st != 200 {
			e.t.Fatalf("seat %d %v: status %d", seat, a, st)
		}
		after()
	}
}

type costSummary struct {
	actions                     int
	requests, gameItem, wcu     float64 // averages per action
	indexWCU, rcu               float64
	byIndex                     [3]float64 // outbox, wake, digest
	maxWCU, over10, maxGameItem int
	gameBytes                   int
	ops                         map[string]int
}

func summarise(costs []cost) costSummary {
	s := costSummary{actions: len(costs), ops: map[string]int{}}
	for _, c := range costs {
		s.requests += float64(c.requests)
		s.gameItem += float64(c.gameItem)
		s.wcu += float64(c.wcu)
		s.indexWCU += float64(c.indexWCU)
		for i, n := range c.byIndex {
			s.byIndex[i] += float64(n)
		}
		s.rcu += c.rcu
		s.maxWCU = max(s.maxWCU, c.wcu)
		s.maxGameItem = max(s.maxGameItem, c.gameItem)
		s.gameBytes = max(s.gameBytes, c.gameBytes)
		if c.wcu > 10 {
			s.over10++
		}
		for op, n := range c.ops {
			s.ops[op] += n
		}
	}
	n := float64(len(costs))
	s.requests /= n
	s.gameItem /= n
	s.wcu /= n
	s.indexWCU /= n
	for i := range s.byIndex {
		s.byIndex[i] /= n
	}
	s.rcu /= n
	return s
}

func (s costSummary) String() string {
	var ops []string
	for op, n := range s.ops {
		ops = append(ops, fmt.Sprintf("%s %.2f", op, float64(n)/float64(s.actions)))
	}
	sort.Strings(ops)
	return fmt.Sprintf("| %d | %.2f | %.2f (max %d) | %.2f | %.2f (outbox %.2f, wake %.2f, digest %.2f) | %d | %.0f%% | %.2f | %d | %s |",
		s.actions, s.requests, s.gameItem, s.maxGameItem, s.wcu, s.indexWCU, s.byIndex[0], s.byIndex[1], s.byIndex[2], s.maxWCU,
		100*float64(s.over10)/float64(s.actions), s.rcu, s.gameBytes, strings.Join(ops, ", "))
}

// TestCostPerAction plays whole 6-seat games of both games through the
// API with the notifier mailing after every commit, on dynalite, and
// meters every DynamoDB request each action causes (issue 16). It prints
// the table the README gives:
//
//	go test ./functions/internal/e2e -run TestCostPerAction -v
func TestCostPerAction(t *testing.T) {
	if testing.Short() {
		t.Skip("whole 6-seat games: skipped in -short runs")
	}
	rows := map[string]costSummary{}
	for _, tc := range []struct{ kind, options string }{
		{"western", `{"laps":3}`},
		{"businessman", `{"laps":3,"rent_claim":"claim"}`},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			costs, sweep := actionCosts(t, tc.kind, tc.options, 6)
			if len(costs) == 0 {
				t.Fatal("no action was played")
			}
			t.Logf("%s: the sweep's ticks over the game: %d PutItem, %d write units (%d of index), %.3f a player's action",
				tc.kind, sweep.ops["PutItem"], sweep.wcu, sweep.indexWCU, float64(sweep.wcu)/float64(len(costs)))
			sum := summarise(costs)
			rows[tc.kind] = sum
			// Issue 16: at most 10 write units and 2 requests of the
			// game item an action on average, and at most 10 write units
			// for any action (index writes included); here the game item
			// is read once and written once by every action, the mail
			// being marked sent in the marker beside it.
			if sum.wcu > 10 {
				t.Errorf("%.2f write units an action on average, want at most 10", sum.wcu)
			}
			if sum.gameItem > 2 {
				t.Errorf("%.2f requests of the game item an action on average, want at most 2", sum.gameItem)
			}
			for i, c := range costs {
				if c.wcu > 10 {
					t.Errorf("action %d of %d: %d write units (index %v), %v", i, len(costs), c.wcu, c.byIndex, c.ops)
				}
				if c.gameItem > 2 || c.gameReads > 1 {
					t.Errorf("action %d: %d requests of the game item, %d of them reads; want one read and one write", i, c.gameItem, c.gameReads)
				}
			}
		})
	}
	t.Log("| game | actions | requests/action | game-item requests/action | write units/action | of which index | max write units | actions > 10 WU | read units/action | largest game item (B) | requests by operation, per action |")
	for _, kind := range slices.Sorted(maps.Keys(rows)) {
		t.Logf("| %s %s", kind, rows[kind])
	}
}

// TestGameOverPageReads plays a 6-seat 60-lap «Вестерн» through the
// service on dynalite, the notifier marking the mail sent as in the cost
// test, and meters what each view of a seat's game-over page reads
// (issue 16): the commit that ended the game kept its chart in it, so
// every view reads the game item once and writes nothing.
//
//	go test ./functions/internal/e2e -run TestGameOverPageReads -v
func TestGameOverPageReads(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole 60-lap game: skipped in -short runs")
	}
	clk := &clock{}
	clk.unix.Store(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Unix())
	e, m := newMeteredEnv(t, clk)
	m.off.Store(true) // the moves are not measured here: play them fast
	id, tokens := e.startGame("western", 6, `{"laps":60}`)
	ctx := t.Context()
	moves := e.playOutWithBots(id)
	rec, _, err := e.svc.Load(ctx, id)
	if err != nil || rec.Status != service.StatusOver {
		t.Fatalf("after %d moves: status %s, %v", moves, rec.Status, err)
	}
	t.Logf("60 laps: %d moves, %d log chunks", moves, rec.Chunks)
	m.off.Store(false)
	var pages []string
	for view := 1; view <= 3; view++ {
		m.take()
		resp, err := http.Get(e.url + "/g/" + id + "?t=" + tokens[0])
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<svg") {
			t.Fatalf("view %d: status %d, %d bytes, chart drawn %v", view, resp.StatusCode, len(body), strings.Contains(string(body), "class=\"chart\""))
		}
		c := m.take()
		t.Logf("view %d of the game-over page: %d requests (%v), %d of the game item, %.1f read units, %d write units",
			view, c.requests, c.ops, c.gameItem, c.rcu, c.wcu)
		pages = append(pages, chartOf(string(body)))
		// The commit that ended the game kept its chart: every view reads
		// the game item once (and the small sent marker while the final
		// mail is pending), replays nothing and writes nothing.
		if c.requests > 2 || c.gameReads != 1 || c.wcu != 0 {
			t.Errorf("view %d: %d requests (%v), %d game-item reads, %d write units; want the game item read once, no write",
				view, c.requests, c.ops, c.gameReads, c.wcu)
		}
	}
	if pages[0] == "" || pages[0] != pages[1] || pages[1] != pages[2] {
		t.Error("the kept chart draws otherwise than the replayed one")
	}
}

// chartOf is the net-worth chart of a page.
func chartOf(page string) string {
	i := strings.Index(page, `class="chart"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</svg>")
	if j < 0 {
		return ""
	}
	return page[i : i+j]
}
