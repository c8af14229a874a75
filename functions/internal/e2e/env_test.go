package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// opCounter counts DynamoDB requests by operation (the X-Amz-Target
// header, e.g. "GetItem").
type opCounter struct {
	mu  sync.Mutex
	ops map[string]int
}

func (c *opCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	op := r.Header.Get("X-Amz-Target")
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	c.mu.Lock()
	c.ops[op]++
	c.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (c *opCounter) reset() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.ops
	c.ops = map[string]int{}
	return out
}

// sizeRecorder wraps a store to remember the largest game item written
// and how long the game reads and writes took.
type sizeRecorder struct {
	store.Store
	mu      sync.Mutex
	largest int
	calls   time.Duration
}

func (s *sizeRecorder) GetGame(ctx context.Context, id string) (store.Game, error) {
	t0 := time.Now()
	g, err := s.Store.GetGame(ctx, id)
	s.mu.Lock()
	s.calls += time.Since(t0)
	s.mu.Unlock()
	return g, err
}

func (s *sizeRecorder) PutGame(ctx context.Context, g store.Game, prev int64) (int64, error) {
	t0 := time.Now()
	v, err := s.Store.PutGame(ctx, g, prev)
	s.mu.Lock()
	s.largest = max(s.largest, len(g.Body))
	s.calls += time.Since(t0)
	s.mu.Unlock()
	return v, err
}

// env is the service on dynalite, served over real HTTP on loopback.
type env struct {
	t      testing.TB
	url    string
	svc    *service.Service
	store  *sizeRecorder
	ops    *opCounter
	client *dynamodb.Client
	table  string
	mail   *mailRecorder
}

// mailRecorder is the in-process notifier's sender in these tests; it is
// off unless a test turns it on, so request counts see only the move.
type mailRecorder struct {
	enabled atomic.Bool
	mu      sync.Mutex
	sent    []notify.Message
}

func (m *mailRecorder) Send(_ context.Context, msg notify.Message) error {
	m.mu.Lock()
	m.sent = append(m.sent, msg)
	m.mu.Unlock()
	return nil
}

func newEnv(t testing.TB) *env {
	t.Helper()
	ops := &opCounter{ops: map[string]int{}}
	var b [6]byte
	_, _ = rand.Read(b[:])
	table := "games-" + hex.EncodeToString(b[:])
	// Counted, and held to the deployed functions' policies (iam_test.go).
	client := testenv.DynamoClient(t, testenv.Dynalite(t), func(o *dynamodb.Options) {
		o.HTTPClient = &http.Client{Transport: iamChecked(t, table, ops)}
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
	n := &notify.Notifier{Sender: mail, Log: discardLog()}
	// Seeded: the same games every run of the test; roomy limits: the
	// races and benchmarks make many games.
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Log: discardLog(), Rand: testenv.Rand(t.Name()), Guard: ds, Limits: servicetest.Roomy,
		AfterCommit: func(ctx context.Context, id string) {
			if mail.enabled.Load() {
				n.AfterCommit(asNotify(ctx), id)
			}
		}})
	n.Service, n.Composer = svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true})
	srv := httptest.NewServer(asAPI(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: discardLog()})))
	t.Cleanup(srv.Close)
	ops.reset()
	return &env{t: t, url: srv.URL, svc: svc, store: st, ops: ops, client: client, table: table, mail: mail}
}

// call makes one API request and decodes the JSON answer into out (if not
// nil). It returns the status.
func (e *env) call(method, path, token string, body, out any) int {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			e.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	if resp.StatusCode >= 500 {
		e.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
	}
	return resp.StatusCode
}

// startGame creates a game of seats players through the API, has every
// player accept (which starts it) and returns its id and the seat tokens.
// The players accept without standing orders, so that the tests step
// every decision themselves, one a commit.
func (e *env) startGame(kind string, seats int, options string) (string, []string) {
	e.t.Helper()
	req := map[string]any{"kind": kind, "options": json.RawMessage(options),
		"organiser": map[string]string{"name": "Org", "email": "org@example.org", "lang": "en"}}
	var ps []map[string]string
	for i := 0; i < seats; i++ {
		lang := "ru"
		if i%2 == 1 {
			lang = "en"
		}
		ps = append(ps, map[string]string{"name": fmt.Sprintf("Player %d", i+1), "email": fmt.Sprintf("p%d@example.org", i+1), "lang": lang})
	}
	req["seats"] = ps
	var created service.Created
	if st := e.call("POST", "/api/games", "", req, &created); st != http.StatusCreated {
		e.t.Fatalf("create: %d", st)
	}
	if created.Unconfirmed {
		e.confirm(created.ID)
	}
	tokens := make([]string, seats)
	for i, inv := range created.InviteTokens {
		var out struct {
			SeatToken string `json:"seat_token"`
		}
		if st := e.call("POST", "/api/games/"+created.ID+"/accept", inv, service.AcceptOptions{OrdersOff: true}, &out); st != http.StatusOK {
			e.t.Fatalf("accept %d: %d", i, st)
		}
		tokens[i] = out.SeatToken
	}
	return created.ID, tokens
}

// confirm confirms the organiser's address of game id through the API,
// with the token the confirmation mail's link carries.
func (e *env) confirm(id string) {
	e.t.Helper()
	tok, err := e.svc.Token(linksign.PurposeConfirm, id, linksign.NoSeat, 0, service.ConfirmTokenTTL)
	if err != nil {
		e.t.Fatal(err)
	}
	if st := e.call("POST", "/api/games/"+id+"/confirm", tok, nil, nil); st != http.StatusOK {
		e.t.Fatalf("confirm %s: %d", id, st)
	}
}

func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

// playOutWithBots plays the game id to its end, each move its owing
// seat's bot's through the service, following the game with the engine
// beside it so that each move costs the service only its own read and
// write; it returns how many moves were played.
func (e *env) playOutWithBots(id string) int {
	e.t.Helper()
	ctx := e.t.Context()
	rec, _, err := e.svc.Load(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	g, err := e.svc.Engine(rec)
	if err != nil {
		e.t.Fatal(err)
	}
	moves := 0
	for ; !g.Over(); moves++ {
		seat := g.Owing()[0]
		inv := slices.IndexFunc(rec.Seats, func(s service.SeatInfo) bool { return s.Engine == seat })
		res, err := e.svc.ActBot(ctx, id, inv, fmt.Sprintf("bot-%06d", moves))
		if err != nil {
			e.t.Fatalf("move %d: %v", moves, err)
		}
		a, _ := g.Bot(seat)
		if g, _, err = g.Apply(seat, a); err != nil || res.N != moves {
			e.t.Fatalf("move %d: the service and the engine disagree: %v", moves, err)
		}
	}
	return moves
}
