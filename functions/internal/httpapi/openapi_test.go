package httpapi_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	mathrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

// The OpenAPI document is checked three ways: it is a valid OpenAPI 3.0
// document, it lists exactly the JSON routes the handler serves, and every
// request and response of a real game played through the handler is
// validated against it.

const docFile = "openapi.json"

func loadDoc(t *testing.T) (*openapi3.T, []byte) {
	t.Helper()
	raw, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatalf("load %s: %v", docFile, err)
	}
	return doc, raw
}

func TestOpenAPIDocumentValid(t *testing.T) {
	doc, _ := loadDoc(t)
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("%s is not a valid OpenAPI document: %v", docFile, err)
	}
	if doc.OpenAPI != "3.0.3" {
		t.Errorf("openapi = %q, want 3.0.3", doc.OpenAPI)
	}
	// Every operation behind a token names the purposes it takes.
	known := map[string]bool{"seat": true, "invite": true, "org": true, "view": true, "confirm": true,
		"league-invite": true, "league-org": true, "league-member": true, "league-confirm": true}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			secured := op.Security == nil || len(*op.Security) > 0
			purposes, _ := op.Extensions["x-token-purposes"].([]any)
			if secured != (len(purposes) > 0) {
				t.Errorf("%s %s: secured=%v but x-token-purposes=%v", method, path, secured, purposes)
			}
			for _, p := range purposes {
				if s, _ := p.(string); !known[s] {
					t.Errorf("%s %s: unknown token purpose %v", method, path, p)
				}
			}
		}
	}
}

// jsonRoute tells whether a route belongs to the JSON API (the rest are
// HTML pages).
func jsonRoute(pattern string) bool {
	return strings.HasPrefix(pattern, "/api/") || pattern == "/healthz"
}

func TestOpenAPICoversRoutes(t *testing.T) {
	doc, _ := loadDoc(t)
	var inDoc, served []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			inDoc = append(inDoc, method+" "+path)
		}
	}
	for _, r := range httpapi.Routes() {
		if jsonRoute(r.Pattern) {
			served = append(served, r.Method+" "+r.Pattern)
		}
	}
	sort.Strings(inDoc)
	sort.Strings(served)
	if !slices.Equal(inDoc, served) {
		t.Errorf("the document and Routes() differ:\n document: %q\n served:   %q", inDoc, served)
	}
}

// gateStore lets a test make two requests read the same game version:
// once armed, GetGame holds each caller after its read until n have read.
type gateStore struct {
	*boltstore.Store
	mu   sync.Mutex
	gate chan struct{}
	n    int
}

func (s *gateStore) arm(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gate, s.n = make(chan struct{}), n
}

func (s *gateStore) GetGame(ctx context.Context, id string) (store.Game, error) {
	g, err := s.Store.GetGame(ctx, id)
	s.mu.Lock()
	gate := s.gate
	if gate != nil {
		if s.n--; s.n == 0 {
			close(gate)
			s.gate = nil
		}
	}
	s.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-time.After(10 * time.Second):
		}
	}
	return g, err
}

// contract sends requests to the handler and validates each request and
// response against the document.
type contract struct {
	t      *testing.T
	svc    *service.Service
	srv    *httptest.Server
	router routers.Router
	opts   *openapi3filter.Options

	mu   *sync.Mutex
	seen map[string]map[int]bool // "METHOD /path" → statuses answered
}

// with is c reporting to t (a subtest).
func (c *contract) with(t *testing.T) *contract {
	d := *c
	d.t = t
	return &d
}

func newContract(t *testing.T, st store.Store) (*contract, *service.Service) {
	t.Helper()
	doc, _ := loadDoc(t)
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("invalid document: %v", err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": key})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	// Seeded: the same games (ids, seeds, so moves) every run.
	seed := mathrand.NewChaCha8([32]byte{'p', 'b', 'm'})
	talk, _ := st.(store.TalkStore) // table talk, where the store keeps it
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Log: quiet, Rand: seed, Talk: talk})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: quiet, Leagues: contractLeagues(st, svc)}))
	t.Cleanup(srv.Close)
	c := &contract{t: t, svc: svc, srv: srv, router: router, mu: new(sync.Mutex), seen: map[string]map[int]bool{}}
	c.opts = &openapi3filter.Options{
		IncludeResponseStatus: true,
		SkipSettingDefaults:   true,
		MultiError:            true,
		AuthenticationFunc: func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
			if in.SecuritySchemeName != "linkToken" {
				return fmt.Errorf("unexpected security scheme %q", in.SecuritySchemeName)
			}
			h := in.RequestValidationInput.Request.Header.Get("Authorization")
			if tok, ok := strings.CutPrefix(h, "Bearer "); !ok || strings.TrimSpace(tok) == "" {
				return errors.New("no bearer token")
			}
			return nil
		},
	}
	return c, svc
}

func openStore(t *testing.T) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "pbm.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// call is one request.
type call struct {
	method, path, token string
	body                any    // marshalled to JSON unless []byte or string
	ctype               string // Content-Type; application/json when there is a body
	header              map[string]string
	// invalid marks a request that breaks the document on purpose: the
	// validator must refuse it (and the handler must answer an error the
	// document describes).
	invalid bool
	// lenient skips the verdict on the request: for a body the validator
	// cannot judge (it reads only the first JSON value of a body).
	lenient bool
}

func (c *contract) do(cl call) (int, []byte) {
	t := c.t
	t.Helper()
	var body []byte
	switch b := cl.body.(type) {
	case nil:
	case []byte:
		body = b
	case string:
		body = []byte(b)
	default:
		var err error
		if body, err = json.Marshal(b); err != nil {
			t.Fatal(err)
		}
	}
	newReq := func() *http.Request {
		var rd io.Reader = http.NoBody
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequest(cl.method, c.srv.URL+cl.path, rd)
		if err != nil {
			t.Fatal(err)
		}
		if body != nil {
			ct := cl.ctype
			if ct == "" {
				ct = "application/json"
			}
			req.Header.Set("Content-Type", ct)
		}
		if cl.token != "" {
			req.Header.Set("Authorization", "Bearer "+cl.token)
		}
		for k, v := range cl.header {
			req.Header.Set(k, v)
		}
		return req
	}
	name := cl.method + " " + cl.path

	vreq := newReq()
	route, params, err := c.router.FindRoute(vreq)
	if err != nil {
		t.Errorf("%s: no operation in the document: %v", name, err)
		return 0, nil
	}
	in := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route, Options: c.opts}
	rerr := openapi3filter.ValidateRequest(context.Background(), in)
	switch {
	case cl.lenient:
	case cl.invalid && rerr == nil:
		t.Errorf("%s: the document accepts a request meant to be invalid (body %.200s)", name, body)
	case !cl.invalid && rerr != nil:
		t.Errorf("%s: request does not match the document: %v", name, rerr)
	}

	resp, err := c.srv.Client().Do(newReq())
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: read: %v", name, err)
	}
	rin := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header, Options: c.opts,
	}
	rin.SetBodyBytes(out)
	if err := openapi3filter.ValidateResponse(context.Background(), rin); err != nil {
		t.Errorf("%s: %d response does not match the document: %v\nbody: %.2000s", name, resp.StatusCode, err, out)
	}
	op := cl.method + " " + route.Path
	c.mu.Lock()
	if c.seen[op] == nil {
		c.seen[op] = map[int]bool{}
	}
	c.seen[op][resp.StatusCode] = true
	c.mu.Unlock()
	return resp.StatusCode, out
}

// want sends cl and checks the status and, for an error, the code; it
// decodes a success into v (when not nil).
func (c *contract) want(cl call, status int, code service.Code, v any) []byte {
	c.t.Helper()
	got, body := c.do(cl)
	if got != status {
		c.t.Errorf("%s %s: status %d, want %d: %.500s", cl.method, cl.path, got, status, body)
		return body
	}
	if code != "" {
		var e struct {
			Error struct {
				Code service.Code `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != code {
			c.t.Errorf("%s %s: error code %q, want %q: %.500s", cl.method, cl.path, e.Error.Code, code, body)
		}
	}
	if v != nil {
		if err := json.Unmarshal(body, v); err != nil {
			c.t.Errorf("%s %s: decode: %v", cl.method, cl.path, err)
		}
	}
	return body
}

func person(name, email string) map[string]any {
	return map[string]any{"name": name, "email": email, "lang": "en"}
}

func (c *contract) create(seats int, options any) service.Created {
	c.t.Helper()
	return c.createKind("western", seats, options)
}

func (c *contract) createKind(kind string, seats int, options any) service.Created {
	c.t.Helper()
	req := map[string]any{"kind": kind, "organiser": person("Olga", "olga@example.com")}
	if options != nil {
		req["options"] = options
	}
	var ss []any
	for i := range seats {
		ss = append(ss, person(fmt.Sprintf("Player %d", i), fmt.Sprintf("p%d@example.com", i)))
	}
	req["seats"] = ss
	var out service.Created
	c.want(call{method: "POST", path: "/api/games", body: req}, http.StatusCreated, "", &out)
	if len(out.InviteTokens) != seats {
		c.t.Fatalf("created %+v: want %d invitations", out, seats)
	}
	if out.Unconfirmed {
		c.confirm(out.ID)
	}
	return out
}

// confirm confirms the organiser's address of game id as the API client
// holding the confirmation mail's link does.
func (c *contract) confirm(id string) {
	c.t.Helper()
	tok, err := c.svc.Token(linksign.PurposeConfirm, id, linksign.NoSeat, 0, service.ConfirmTokenTTL)
	if err != nil {
		c.t.Fatal(err)
	}
	var out struct{ Status string }
	c.want(call{method: "POST", path: "/api/games/" + id + "/confirm", token: tok}, http.StatusOK, "", &out)
	if out.Status == service.StatusUnconfirmed {
		c.t.Errorf("confirm %s: still %s", id, out.Status)
	}
}

func (c *contract) accept(id, invite string) string {
	c.t.Helper()
	var out struct {
		SeatToken string `json:"seat_token"`
		Seat      int    `json:"seat"`
	}
	// The contract plays every decision through the API: the seat starts
	// without the suggested orders that would play them.
	c.want(call{method: "POST", path: "/api/games/" + id + "/accept", token: invite, body: service.AcceptOptions{OrdersOff: true}}, http.StatusOK, "", &out)
	if out.SeatToken == "" {
		c.t.Fatal("accept answered no seat token")
	}
	return out.SeatToken
}

func (c *contract) view(id, token string) httpapi.GameView {
	c.t.Helper()
	var v httpapi.GameView
	c.want(call{method: "GET", path: "/api/games/" + id, token: token}, http.StatusOK, "", &v)
	return v
}

type legalList struct {
	Version int64           `json:"version"`
	Legal   []engine.Choice `json:"legal"`
}

func (c *contract) legal(id, token string) legalList {
	c.t.Helper()
	var l legalList
	c.want(call{method: "GET", path: "/api/games/" + id + "/legal", token: token}, http.StatusOK, "", &l)
	return l
}

func actBody(a engine.Action, key string) httpapi.ActRequest {
	return httpapi.ActRequest{Action: a, Key: key}
}

// instance makes the action a choice stands for; a ranged choice takes Min.
func instance(ch engine.Choice) engine.Action {
	a := ch.Action
	if ch.Ranged() {
		a.Amount = ch.Min
	}
	return a
}

// corrupt changes one character of the token's signature.
func corrupt(tok string) string {
	b := []byte(tok)
	i := len(b) - 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

func TestOpenAPIContract(t *testing.T) {
	st := &gateStore{Store: openStore(t)}
	c, _ := newContract(t, st)

	// The service routes.
	c.want(call{method: "GET", path: "/healthz"}, http.StatusOK, "", nil)
	served := c.want(call{method: "GET", path: "/api/openapi.json"}, http.StatusOK, "", nil)
	if _, raw := loadDoc(t); !bytes.Equal(served, raw) {
		t.Errorf("/api/openapi.json does not serve %s", docFile)
	}

	// The lengths offered, with their estimates.
	c.want(call{method: "GET", path: "/api/lengths?kind=western&seats=4"}, http.StatusOK, "", nil)
	c.want(call{method: "GET", path: "/api/lengths?kind=businessman&seats=3&deadline_hours=24&options=%7B%22rent_claim%22%3A%22claim%22%7D"}, http.StatusOK, "", nil)
	c.want(call{method: "GET", path: "/api/lengths?kind=chess&seats=4", invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "GET", path: "/api/lengths?kind=western&seats=9", invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "GET", path: "/api/lengths?kind=western&seats=4&options=%7B%22speed%22%3A2%7D"}, http.StatusBadRequest, service.CodeInvalid, nil)

	// Creating: refusals first.
	good := map[string]any{"kind": "western", "options": map[string]any{"laps": 3, "beginners": false},
		"organiser": person("Olga", "olga@example.com"),
		"seats":     []any{person("Anna", "anna@example.com"), person("Boris", "boris@example.com")}}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range good {
			m[kk] = vv
		}
		m[k] = v
		return m
	}
	c.want(call{method: "POST", path: "/api/games", body: `{"kind": "western",`, invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: with("colour", "red"), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: with("kind", "chess"), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: with("options", map[string]any{"laps": 0}), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: with("options", map[string]any{"laps": 5, "speed": 2}), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: with("seats", []any{person("Anna", "anna@example.com")}), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: with("seats", []any{person(strings.Repeat("я", 41), "anna@example.com"), person("Boris", "boris@example.com")}), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: with("organiser", map[string]any{"email": "olga@example.com", "lang": "de"}), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: with("seats", []any{map[string]any{"email": "anna@example.com"}, person("Boris", "boris@example.com")}), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games", body: good, ctype: "text/plain", invalid: true}, http.StatusUnsupportedMediaType, service.CodeMediaType, nil)
	// Valid by the document, refused by the rules: the same address twice.
	c.want(call{method: "POST", path: "/api/games", body: with("seats", []any{person("Anna", "anna@example.com"), person("Boris", "anna@example.com")})}, http.StatusBadRequest, service.CodeInvalid, nil)
	// Each game takes its own options: the document says which (oneOf by
	// kind), the engine refuses the others.
	c.want(call{method: "POST", path: "/api/games", body: with("options", map[string]any{"laps": 3, "rent_claim": "claim"}), invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	bm := with("kind", "businessman")
	bm["options"] = map[string]any{"laps": 3, "beginners": true}
	c.want(call{method: "POST", path: "/api/games", body: bm, invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	bm["options"] = map[string]any{"laps": 3, "rent_claim": "sometimes"}
	c.want(call{method: "POST", path: "/api/games", body: bm, invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	big := with("organiser", person("Olga", strings.Repeat("o", 70<<10)+"@example.com"))
	c.want(call{method: "POST", path: "/api/games", body: big, invalid: true}, http.StatusRequestEntityTooLarge, service.CodeTooLarge, nil)

	// Game A: two seats. Before anyone accepts.
	var ga service.Created
	c.want(call{method: "POST", path: "/api/games", body: good}, http.StatusCreated, "", &ga)
	id := ga.ID
	base := "/api/games/" + id
	v := c.view(id, ga.OrganiserToken)
	if !ga.Unconfirmed || v.Status != service.StatusUnconfirmed || v.As != "organiser" || v.Game != nil || len(v.Players) != 2 {
		t.Errorf("view before the organiser confirmed: %+v (%+v)", v, ga)
	}
	// Nobody is invited before the organiser confirms their address.
	c.want(call{method: "POST", path: base + "/accept", token: ga.InviteTokens[0]}, http.StatusConflict, service.CodeWrongStatus, nil)
	c.want(call{method: "POST", path: base + "/start", token: ga.OrganiserToken}, http.StatusConflict, service.CodeWrongStatus, nil)
	c.want(call{method: "POST", path: base + "/confirm", token: ga.OrganiserToken}, http.StatusForbidden, service.CodeForbidden, nil)
	c.confirm(id)
	c.confirm(id) // again: nothing changes
	v = c.view(id, ga.OrganiserToken)
	if v.Status != service.StatusInvited || v.Version != 2 {
		t.Errorf("view after confirming twice: status %s, version %d; want invited, 2", v.Status, v.Version)
	}
	var lg struct {
		Log []httpapi.LogEntry `json:"log"`
	}
	c.want(call{method: "GET", path: base + "/log", token: ga.SpectatorToken}, http.StatusOK, "", &lg)
	if len(lg.Log) != 0 {
		t.Errorf("log before the start: %v", lg.Log)
	}
	c.want(call{method: "GET", path: base + "/result", token: ga.SpectatorToken}, http.StatusConflict, service.CodeWrongStatus, nil)

	seat0 := c.accept(id, ga.InviteTokens[0])
	if again := c.accept(id, ga.InviteTokens[0]); again == "" {
		t.Error("a second accept answered no token")
	}
	if l := c.legal(id, seat0); len(l.Legal) != 0 {
		t.Errorf("legal before the start: %v", l.Legal)
	}
	c.want(call{method: "POST", path: base + "/actions", token: seat0, body: actBody(engine.Action{Type: "roll"}, "early-key-1")},
		http.StatusConflict, service.CodeWrongStatus, nil)
	seat1 := c.accept(id, ga.InviteTokens[1]) // everyone has accepted: the game starts
	seats := []string{seat0, seat1}
	c.want(call{method: "POST", path: base + "/start", token: ga.OrganiserToken}, http.StatusConflict, service.CodeWrongStatus, nil)

	v = c.view(id, ga.OrganiserToken)
	if v.Status != service.StatusPlaying || v.Game == nil || len(v.Owing) != 1 {
		t.Fatalf("view after the start: %+v", v)
	}
	for i, tok := range seats {
		sv := c.view(id, tok)
		if sv.As != "seat" || sv.Seat == nil || *sv.Seat != i {
			t.Errorf("seat %d's view: as %q seat %v", i, sv.As, sv.Seat)
		}
		for _, p := range sv.Players {
			if (p.Email != "") != (p.Index == i) {
				t.Errorf("seat %d sees player %d's email %q (P-3)", i, p.Index, p.Email)
			}
		}
	}
	// Standing orders: each seat reads and sets its own; nobody else sees
	// them. keep_cash alone covers no decision, so the game goes on as it was.
	var ov httpapi.OrdersView
	c.want(call{method: "GET", path: base + "/orders", token: seat0}, http.StatusOK, "", &ov)
	if len(ov.Specs) == 0 || len(ov.Orders) != 0 {
		t.Errorf("orders before any are set: %+v", ov)
	}
	c.want(call{method: "PUT", path: base + "/orders", token: seat0, body: httpapi.OrdersRequest{Orders: engine.Orders{"keep_cash": 4321}}}, http.StatusOK, "", &ov)
	if ov.Orders["keep_cash"] != 4321 {
		t.Errorf("orders after setting: %+v", ov.Orders)
	}
	c.want(call{method: "PUT", path: base + "/orders", token: seat0, body: httpapi.OrdersRequest{Orders: engine.Orders{"teleport": 1}}}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "PUT", path: base + "/orders", token: seat0, body: `{"orders": {"roll": "yes"}}`, invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	ov = httpapi.OrdersView{}
	c.want(call{method: "GET", path: base + "/orders", token: seat1}, http.StatusOK, "", &ov)
	if len(ov.Orders) != 0 {
		t.Errorf("seat 1 reads orders it did not set: %+v", ov.Orders)
	}
	for _, tok := range []string{seat1, ga.OrganiserToken, ga.SpectatorToken} {
		for _, p := range []string{base, base + "/log", base + "/legal", base + "/result"} {
			if p == base+"/legal" && tok != seat1 {
				continue
			}
			if body := c.want(call{method: "GET", path: p, token: tok}, http.StatusOK, "", nil); bytes.Contains(body, []byte("4321")) || bytes.Contains(body, []byte("keep_cash")) {
				t.Errorf("%s shows seat 0's orders to another reader: %.300s", p, body)
			}
		}
	}
	v = c.view(id, ga.OrganiserToken) // setting orders is a write

	// Table talk (issue 17): posting is no write of the game; a private
	// message reaches its two seats only; the organiser hides a public one.
	var said httpapi.TalkLine
	c.want(call{method: "POST", path: base + "/talk", token: seat0, body: httpapi.TalkRequest{Text: "<b>hello</b> all"}}, http.StatusCreated, "", &said)
	one := 1
	c.want(call{method: "POST", path: base + "/talk", token: seat0, body: httpapi.TalkRequest{Text: "a deal", To: &one}}, http.StatusCreated, "", nil)
	c.want(call{method: "POST", path: base + "/talk", token: seat0, body: httpapi.TalkRequest{Text: strings.Repeat("я", service.MaxTalkRunes+1)}}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: base + "/talk", token: seat0, body: httpapi.TalkRequest{Text: "to myself", To: new(int)}}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: base + "/talk", token: seat0, body: `{"text": 5}`, invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	each := true // the seat's choice to be mailed each message: no post
	c.want(call{method: "POST", path: base + "/talk", token: seat1, body: httpapi.TalkRequest{MailEach: &each}}, http.StatusOK, "", nil)
	for tok, want := range map[string]int{seat0: 2, seat1: 2, ga.OrganiserToken: 1, ga.SpectatorToken: 1} {
		var tp httpapi.TalkPage
		c.want(call{method: "GET", path: base + "/talk", token: tok}, http.StatusOK, "", &tp)
		if len(tp.Lines) != want {
			t.Errorf("talk read with %.12s…: %+v, want %d messages", tok, tp.Lines, want)
		}
	}
	c.want(call{method: "POST", path: base + "/talk/hide", token: ga.OrganiserToken, body: httpapi.HideTalkRequest{Key: said.Key}}, http.StatusOK, "", nil)
	c.want(call{method: "POST", path: base + "/talk/hide", token: ga.OrganiserToken, body: httpapi.HideTalkRequest{Key: "no-such-message"}}, http.StatusNotFound, service.CodeNotFound, nil)
	if after := c.view(id, ga.OrganiserToken); after.Version != v.Version {
		t.Errorf("table talk changed the game's version from %d to %d", v.Version, after.Version)
	}
	if sv := c.view(id, ga.SpectatorToken); sv.As != "spectator" || sv.Players[0].Email != "" {
		t.Errorf("spectator's view: %+v", sv)
	}

	// Game B: three seats, started by the organiser with two.
	gb := c.create(3, nil)
	c.accept(gb.ID, gb.InviteTokens[0])
	c.accept(gb.ID, gb.InviteTokens[1])
	var bv httpapi.GameView
	c.want(call{method: "POST", path: "/api/games/" + gb.ID + "/start", token: gb.OrganiserToken}, http.StatusOK, "", &bv)
	if bv.Status != service.StatusPlaying || bv.Players[2].Seat != -1 {
		t.Errorf("game B after start: %+v", bv)
	}
	c.want(call{method: "POST", path: "/api/games/" + gb.ID + "/accept", token: gb.InviteTokens[2]}, http.StatusConflict, service.CodeWrongStatus, nil)

	// Game C: «Бизнесмен», three seats, rent on claim. Every view of it
	// (seats, organiser, spectator) matches BusinessmanView, each seat's
	// with its own exchange cards alone (P-3).
	gc := c.createKind("businessman", 3, map[string]any{"laps": 2, "rent_claim": "claim"})
	var cSeats []string
	for _, inv := range gc.InviteTokens {
		cSeats = append(cSeats, c.accept(gc.ID, inv))
	}
	for i := 0; i < 40; i++ {
		v := c.view(gc.ID, gc.SpectatorToken)
		if v.Kind != "businessman" || v.Status != service.StatusPlaying || len(v.Owing) == 0 {
			break
		}
		for seat, tok := range cSeats {
			var sv struct {
				Game struct {
					Seat int `json:"seat"`
					Hand []struct {
						ID int `json:"id"`
					} `json:"hand"`
					Players []struct {
						Cards int `json:"cards"`
					} `json:"players"`
				} `json:"game"`
			}
			body := c.want(call{method: "GET", path: "/api/games/" + gc.ID, token: tok}, http.StatusOK, "", &sv)
			if len(sv.Game.Hand) != sv.Game.Players[sv.Game.Seat].Cards || sv.Game.Seat != seat {
				t.Errorf("seat %d sees %d cards in a hand of %d", seat, len(sv.Game.Hand), sv.Game.Players[sv.Game.Seat].Cards)
			}
			_ = body
		}
		for _, tok := range []string{gc.SpectatorToken, gc.OrganiserToken} {
			if body := c.want(call{method: "GET", path: "/api/games/" + gc.ID, token: tok}, http.StatusOK, "", nil); bytes.Contains(body, []byte(`"hand"`)) {
				t.Errorf("a reader with no seat sees a hand: %.300s", body)
			}
		}
		inv := v.Owing[0]
		l := c.legal(gc.ID, cSeats[inv])
		playable := slices.DeleteFunc(slices.Clone(l.Legal), func(c engine.Choice) bool { return c.Type == engine.Resign })
		c.want(call{method: "POST", path: "/api/games/" + gc.ID + "/actions", token: cSeats[inv], body: actBody(instance(playable[i%len(playable)]), fmt.Sprintf("bm-move-%03d", i))},
			http.StatusOK, "", nil)
	}
	c.want(call{method: "GET", path: "/api/games/" + gc.ID + "/log", token: cSeats[1]}, http.StatusOK, "", nil)
	c.want(call{method: "GET", path: "/api/games/" + gc.ID + "/result", token: gc.SpectatorToken}, http.StatusOK, "", nil)
	// The organiser's controls and a player's absence (issue 17).
	ctl := "/api/games/" + gc.ID + "/controls"
	c.want(call{method: "POST", path: ctl, token: gc.OrganiserToken, body: service.ControlRequest{Control: service.ControlPause, Key: "contract-pause"}}, http.StatusOK, "", nil)
	c.want(call{method: "POST", path: ctl, token: gc.OrganiserToken, body: service.ControlRequest{Control: service.ControlResume}}, http.StatusOK, "", nil)
	c.want(call{method: "POST", path: ctl, token: gc.OrganiserToken, body: service.ControlRequest{Control: service.ControlCancel}}, http.StatusConflict, service.CodeWrongStatus, nil)
	c.want(call{method: "POST", path: ctl, token: gc.OrganiserToken, body: map[string]any{"control": "explode"}, invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games/" + gc.ID + "/away", token: cSeats[1], body: map[string]any{}}, http.StatusOK, "", nil)
	c.want(call{method: "POST", path: "/api/games/" + gc.ID + "/away", token: cSeats[1], body: map[string]any{"from": "someday"}}, http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: "/api/games/" + gc.ID + "/back", token: cSeats[1]}, http.StatusOK, "", nil)

	// Each route takes exactly the token purposes the document names.
	doc, _ := loadDoc(t)
	tokens := map[string]string{"seat": seat0, "invite": ga.InviteTokens[0], "org": ga.OrganiserToken, "view": ga.SpectatorToken}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ps, _ := op.Extensions["x-token-purposes"].([]any)
			if len(ps) == 0 {
				continue
			}
			allowed := map[string]bool{}
			for _, p := range ps {
				allowed[p.(string)] = true
			}
			for purpose, tok := range tokens {
				if allowed[purpose] {
					continue // those that change the game are taken elsewhere
				}
				p := strings.ReplaceAll(path, "{id}", id)
				var body any
				if method == "POST" && strings.HasSuffix(path, "/actions") {
					body = actBody(engine.Action{Type: "roll"}, "purpose-key-"+purpose)
				}
				if method == "PUT" {
					body = httpapi.OrdersRequest{Orders: engine.Orders{}}
				}
				if method == "POST" && strings.HasPrefix(path, "/api/leagues/") {
					body = leagueBody(path)
				}
				switch { // the organiser's controls, absences (issue 17)
				case strings.HasSuffix(path, "/controls"):
					body = service.ControlRequest{Control: service.ControlPause}
				case strings.HasSuffix(path, "/away"):
					body = map[string]any{}
				case method == "POST" && strings.HasSuffix(path, "/talk"): // table talk (issue 17)
					body = httpapi.TalkRequest{Text: "purpose " + purpose}
				case method == "POST" && strings.HasSuffix(path, "/talk/hide"):
					body = httpapi.HideTalkRequest{Key: "purpose-" + purpose}
				case method == "POST" && (strings.HasSuffix(path, "/deals") || strings.HasSuffix(path, "/deals/withdraw")): // deals (issue 23)
					body = httpapi.PrepareRequest{Offer: engine.Action{Type: "offer"}}
				case method == "POST" && strings.HasSuffix(path, "/deals/counter"):
					body = httpapi.CounterRequest{Deal: 1, Offer: engine.Action{Type: "offer"}, Key: "purpose-" + purpose}
				}
				c.want(call{method: method, path: p, token: tok, body: body}, http.StatusForbidden, service.CodeForbidden, nil)
			}
			if method == "GET" {
				status, code := http.StatusOK, service.Code("")
				if path == "/api/games/{id}/record" { // the game is not over: the record waits
					status, code = http.StatusConflict, service.CodeWrongStatus
				}
				for purpose := range allowed {
					if tokens[purpose] == "" {
						continue // a league's: read in c.league
					}
					c.want(call{method: method, path: strings.ReplaceAll(path, "{id}", id), token: tokens[purpose]}, status, code, nil)
				}
			}
		}
	}

	// Token refusals.
	owing := v.Owing[0]
	other := 1 - owing
	roll := engine.Action{Type: "roll"}
	c.want(call{method: "GET", path: base, invalid: true}, http.StatusUnauthorized, service.CodeUnauthorized, nil)
	c.want(call{method: "GET", path: base + "/legal", header: map[string]string{"Authorization": "Basic dXNlcjpwYXNz"}, invalid: true},
		http.StatusUnauthorized, service.CodeUnauthorized, nil)
	c.want(call{method: "POST", path: base + "/actions", body: actBody(roll, "no-token-1"), invalid: true}, http.StatusUnauthorized, service.CodeUnauthorized, nil)
	c.want(call{method: "POST", path: base + "/actions", token: corrupt(seats[owing]), body: actBody(roll, "forged-key-1")}, http.StatusUnauthorized, service.CodeUnauthorized, nil)
	c.want(call{method: "GET", path: base + "/log", token: "v1.k1.not-a-token"}, http.StatusUnauthorized, service.CodeUnauthorized, nil)
	c.want(call{method: "GET", path: base, token: gb.OrganiserToken}, http.StatusForbidden, service.CodeForbidden, nil) // another game's token
	c.want(call{method: "POST", path: "/api/games/" + gb.ID + "/actions", token: seats[owing], body: actBody(roll, "other-game-1")}, http.StatusForbidden, service.CodeForbidden, nil)

	// Refused actions.
	c.want(call{method: "POST", path: base + "/actions", token: seats[other], body: actBody(roll, "wrong-seat-1"), header: map[string]string{"Accept-Language": "en"}},
		http.StatusConflict, service.CodeNotYourTurn, nil)
	c.want(call{method: "POST", path: base + "/actions?lang=en", token: seats[owing], body: actBody(engine.Action{Type: "buy", Cell: 999}, "illegal-key-1")},
		http.StatusUnprocessableEntity, service.CodeIllegal, nil)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: `{"action": {"type": "roll"}, "key": `, invalid: true},
		http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: `{"action": {"type": "roll"}, "key": "unknown-field", "seat": 1}`, invalid: true},
		http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: `{"action": {"type": "roll", "dice": 6}, "key": "unknown-field"}`, invalid: true},
		http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: `{"action": {"type": "roll"}, "key": "trailing-data"} {}`, lenient: true},
		http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: actBody(roll, "short"), invalid: true},
		http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: actBody(roll, "has a space"), invalid: true},
		http.StatusBadRequest, service.CodeInvalid, nil)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: actBody(roll, "content-type"), ctype: "text/plain", invalid: true},
		http.StatusUnsupportedMediaType, service.CodeMediaType, nil)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: map[string]any{"action": map[string]any{"type": "roll"}, "key": strings.Repeat("k", 70<<10)}, invalid: true},
		http.StatusRequestEntityTooLarge, service.CodeTooLarge, nil)
	padded := []byte(strings.Repeat(" ", 70<<10) + `{"action": {"type": "roll"}, "key": "padded-key-1"}`)
	c.want(call{method: "POST", path: base + "/actions", token: seats[owing], body: padded},
		http.StatusRequestEntityTooLarge, service.CodeTooLarge, nil)
	t.Run("oversized by trailing space", func(t *testing.T) {
		trailing := []byte(`{"action": {"type": "roll"}, "key": "trailing-key-1"}` + strings.Repeat(" ", 70<<10))
		c.with(t).want(call{method: "POST", path: base + "/actions", token: seats[owing], body: trailing},
			http.StatusRequestEntityTooLarge, service.CodeTooLarge, nil)
	})
	reqID := map[string]string{"X-Request-Id": "contract-test-1"}
	body := c.want(call{method: "POST", path: base + "/actions", token: seats[other], body: actBody(roll, "request-id-1"), header: reqID},
		http.StatusConflict, service.CodeNotYourTurn, nil)
	if !bytes.Contains(body, []byte(`"request_id":"contract-test-1"`)) {
		t.Errorf("the error body does not carry the request id: %s", body)
	}
	if after := c.view(id, ga.OrganiserToken); after.Version != v.Version || after.Moves != 0 {
		t.Errorf("refused requests changed the game: version %d → %d, moves %d", v.Version, after.Version, after.Moves)
	}

	// Play.
	rnd := mathrand.New(mathrand.NewPCG(1, 2))
	acted, replayed, raced := 0, false, false
	for acted < 50 {
		v := c.view(id, ga.SpectatorToken)
		if v.Status != service.StatusPlaying || len(v.Owing) == 0 {
			break
		}
		inv := v.Owing[0]
		l := c.legal(id, seats[inv])
		if len(l.Legal) == 0 {
			t.Fatalf("seat %d owes a decision but has no legal action", inv)
		}
		if l.Version != v.Version {
			t.Errorf("legal at version %d, view at %d", l.Version, v.Version)
		}
		// Any legal move but leaving the game, which would end a game of
		// two before it is played.
		playable := slices.DeleteFunc(slices.Clone(l.Legal), func(c engine.Choice) bool { return c.Type == engine.Resign })
		a := instance(playable[rnd.IntN(len(playable))])
		key := fmt.Sprintf("move-%03d", acted)
		path := base + "/actions"

		if !raced && acted == 10 {
			// Two writes from the same version: one wins, the other
			// gets 409 conflict with the state to retry on.
			raced = true
			st.arm(2)
			var wg sync.WaitGroup
			statuses := make([]int, 2)
			bodies := make([][]byte, 2)
			for i := range 2 {
				wg.Go(func() {
					statuses[i], bodies[i] = c.do(call{method: "POST", path: path, token: seats[inv], body: actBody(a, fmt.Sprintf("race-%d-key", i))})
				})
			}
			wg.Wait()
			slices.Sort(statuses)
			if statuses[0] != http.StatusOK || statuses[1] != http.StatusConflict {
				t.Fatalf("race: statuses %v: %s / %s", statuses, bodies[0], bodies[1])
			}
			for _, b := range bodies {
				var e struct {
					Error   struct{ Code service.Code } `json:"error"`
					Version int64                       `json:"version"`
					View    *httpapi.GameView           `json:"view"`
				}
				if json.Unmarshal(b, &e) == nil && e.Error.Code != "" {
					if e.Error.Code != service.CodeConflict || e.View == nil || e.Version != e.View.Version || e.Version <= v.Version {
						t.Errorf("lost race answered %s", b)
					}
				}
			}
			acted++
			continue
		}

		var res service.Result
		c.want(call{method: "POST", path: path, token: seats[inv], body: actBody(a, key)}, http.StatusOK, "", &res)
		if res.Replayed || res.N != v.Moves || res.Version != v.Version+1 {
			t.Errorf("action %d: result %+v after version %d", acted, res, v.Version)
		}
		if !replayed {
			replayed = true
			var again service.Result
			c.want(call{method: "POST", path: path, token: seats[inv], body: actBody(a, key)}, http.StatusOK, "", &again)
			if !again.Replayed || again.N != res.N || again.Version != res.Version {
				t.Errorf("retried key: %+v, first %+v", again, res)
			}
			// The same key with another action is no retry (issue 9.6).
			other := a
			other.Amount++
			c.want(call{method: "POST", path: path, token: seats[inv], body: actBody(other, key)}, http.StatusUnprocessableEntity, service.CodeKeyReused, nil)
		}
		acted++
	}
	if acted < 20 {
		t.Errorf("only %d actions played", acted)
	}

	// Read it all back.
	v = c.view(id, ga.OrganiserToken)
	for _, tok := range []string{seat0, seat1, ga.OrganiserToken, ga.SpectatorToken} {
		var lg struct {
			ID  string             `json:"id"`
			Log []httpapi.LogEntry `json:"log"`
		}
		c.want(call{method: "GET", path: base + "/log", token: tok}, http.StatusOK, "", &lg)
		if len(lg.Log) != v.Moves || lg.ID != id {
			t.Errorf("log has %d entries, %d moves", len(lg.Log), v.Moves)
		}
		var res struct {
			Over   bool           `json:"over"`
			Moves  int            `json:"moves"`
			Scores []engine.Score `json:"scores"`
		}
		c.want(call{method: "GET", path: base + "/result", token: tok}, http.StatusOK, "", &res)
		if res.Moves != v.Moves || len(res.Scores) != 2 {
			t.Errorf("result: %+v", res)
		}
	}

	// Deals (issue 23): a seat prepares an offer and withdraws it; the
	// seat whose turn it is offers, and the other answers out of turn —
	// accepts one, counters another.
	t.Run("deals", func(t *testing.T) {
		c := c.with(t)
		dg := c.createKind("businessman", 2, map[string]any{"laps": 3})
		ds := []string{c.accept(dg.ID, dg.InviteTokens[0]), c.accept(dg.ID, dg.InviteTokens[1])}
		dbase := "/api/games/" + dg.ID
		// Play until both seats own a lot, the seat to move at its roll.
		for n := 0; ; n++ {
			v := c.view(dg.ID, dg.SpectatorToken)
			if n > 600 || v.Status != service.StatusPlaying {
				t.Fatalf("no position with a lot each after %d moves", n)
			}
			inv := v.Owing[0]
			var dv httpapi.DealsView
			c.want(call{method: "GET", path: dbase + "/deals", token: ds[1-inv]}, http.StatusOK, "", &dv)
			l := c.legal(dg.ID, ds[inv])
			if len(dv.Preparable) > 0 && slices.ContainsFunc(l.Legal, func(ch engine.Choice) bool { return ch.Type == "offer_buy" }) && l.Legal[0].Type == "roll" {
				break
			}
			a := l.Legal[0].Action
			for _, ch := range l.Legal {
				if ch.Type == "buy" {
					a = ch.Action
				}
			}
			c.want(call{method: "POST", path: dbase + "/actions", token: ds[inv], body: actBody(a, fmt.Sprintf("deals-%04d", n))}, http.StatusOK, "", nil)
		}
		v := c.view(dg.ID, dg.SpectatorToken)
		mover, waiter := v.Owing[0], 1-v.Owing[0]
		var dv httpapi.DealsView
		c.want(call{method: "GET", path: dbase + "/deals", token: ds[waiter]}, http.StatusOK, "", &dv)
		offer := instanceOf(dv.Preparable[0])
		c.want(call{method: "POST", path: dbase + "/deals", token: ds[waiter], body: httpapi.PrepareRequest{Offer: offer}}, http.StatusOK, "", &dv)
		if !slices.Contains(dv.Prepared, offer) {
			t.Fatalf("prepared %v, want %v among them", dv.Prepared, offer)
		}
		c.want(call{method: "POST", path: dbase + "/deals", token: ds[waiter], body: httpapi.PrepareRequest{Offer: engine.Action{Type: "teleport"}}}, http.StatusBadRequest, service.CodeInvalid, nil)
		c.want(call{method: "POST", path: dbase + "/deals/withdraw", token: ds[waiter], body: httpapi.PrepareRequest{Offer: offer}}, http.StatusOK, "", &dv)
		if len(dv.Prepared) != 0 {
			t.Fatalf("withdrawn, yet prepared: %v", dv.Prepared)
		}
		// The mover offers twice; the waiter answers out of its turn.
		var buys []engine.Choice
		for _, ch := range c.legal(dg.ID, ds[mover]).Legal {
			if ch.Type == "offer_buy" || ch.Type == "offer_sell" {
				buys = append(buys, ch)
			}
		}
		if len(buys) == 0 {
			t.Fatalf("the mover has no offer to make: %v", c.legal(dg.ID, ds[mover]).Legal)
		}
		for i := range 2 { // the same offer twice: two deals
			c.want(call{method: "POST", path: dbase + "/actions", token: ds[mover], body: actBody(instanceOf(buys[0]), fmt.Sprintf("offer-%d-key", i))}, http.StatusOK, "", nil)
		}
		c.want(call{method: "GET", path: dbase + "/deals", token: ds[waiter]}, http.StatusOK, "", &dv)
		if len(dv.ToMe) == 0 || dv.ToMe[0].Text == "" || dv.ToMe[0].Due == 0 {
			t.Fatalf("deals to the waiter: %+v", dv.ToMe)
		}
		first := dv.ToMe[0]
		c.want(call{method: "POST", path: dbase + "/actions", token: ds[waiter], body: actBody(engine.Action{Type: engine.AcceptDeal, Deal: first.ID}, "answer-1-key")}, http.StatusOK, "", nil)
		c.want(call{method: "POST", path: dbase + "/actions", token: ds[waiter], body: actBody(engine.Action{Type: engine.AcceptDeal, Deal: first.ID}, "answer-2-key")}, http.StatusUnprocessableEntity, service.CodeIllegal, nil)
		c.want(call{method: "GET", path: dbase + "/deals", token: ds[waiter]}, http.StatusOK, "", &dv)
		if len(dv.ToMe) > 0 && len(dv.Preparable) > 0 {
			second := dv.ToMe[0]
			c.want(call{method: "POST", path: dbase + "/deals/counter", token: ds[waiter],
				body: httpapi.CounterRequest{Deal: second.ID, Offer: instanceOf(dv.Preparable[0]), Key: "counter-1-key"}}, http.StatusOK, "", &dv)
			if len(dv.Prepared) != 1 || slices.ContainsFunc(dv.ToMe, func(d httpapi.DealView) bool { return d.ID == second.ID }) {
				t.Errorf("after the counter: prepared %v, to me %v", dv.Prepared, dv.ToMe)
			}
		} else {
			t.Errorf("no second deal to counter: %+v", dv)
		}
	})

	// The game record: refused while the game goes on; once a seat of a
	// game of two resigns, downloaded, imported, and a tampered copy
	// refused.
	t.Run("record", func(t *testing.T) {
		c := c.with(t)
		rg := c.create(2, map[string]any{"laps": 3})
		rs := []string{c.accept(rg.ID, rg.InviteTokens[0]), c.accept(rg.ID, rg.InviteTokens[1])}
		rbase := "/api/games/" + rg.ID
		c.want(call{method: "GET", path: rbase + "/record", token: rg.SpectatorToken}, http.StatusConflict, service.CodeWrongStatus, nil)
		c.want(call{method: "GET", path: rbase + "/record", token: corrupt(rg.SpectatorToken)}, http.StatusUnauthorized, service.CodeUnauthorized, nil)
		inv := c.view(rg.ID, rg.SpectatorToken).Owing[0]
		c.want(call{method: "POST", path: rbase + "/actions", token: rs[inv], body: actBody(engine.Action{Type: engine.Resign}, "record-resign")}, http.StatusOK, "", nil)
		raw := c.want(call{method: "GET", path: rbase + "/record", token: rs[1-inv]}, http.StatusOK, "", nil)
		var imp service.Imported
		c.want(call{method: "POST", path: "/api/records", body: raw}, http.StatusCreated, "", &imp)
		c.want(call{method: "GET", path: "/api/games/" + imp.ID + "/record", token: imp.SpectatorToken}, http.StatusOK, "", nil)
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		doc["seed"] = strings.Repeat("ab", 32)
		c.want(call{method: "POST", path: "/api/records", body: doc}, http.StatusBadRequest, service.CodeInvalid, nil)
		c.want(call{method: "POST", path: "/api/records", body: `{"format": "pbm-game-record/1"}`, invalid: true}, http.StatusBadRequest, service.CodeInvalid, nil)
	})

	c.league()

	// Too many games for one organiser's address: 429 with Retry-After.
	for i := 0; ; i++ {
		code, body := c.do(call{method: "POST", path: "/api/games", body: with("key", fmt.Sprintf("limit-key-%04d", i))})
		if code == http.StatusTooManyRequests {
			var e struct{ Error struct{ Code service.Code } }
			if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != service.CodeTooMany {
				t.Errorf("429 body: %s", body)
			}
			break
		}
		if code != http.StatusCreated || i > service.DefaultLimits.OrganiserPerHour {
			t.Fatalf("game %d of one organiser: %d, want 201 until the limit of %d an hour, then 429: %s", i+1, code, service.DefaultLimits.OrganiserPerHour, body)
		}
	}

	// Every operation answered a success at least once, and every error
	// status the test provokes was seen.
	all := map[int]bool{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ok := false
			for status := range c.seen[method+" "+path] {
				all[status] = true
				ok = ok || status < 300 && op.Responses.Status(status) != nil
			}
			if !ok {
				t.Errorf("%s %s never succeeded", method, path)
			}
		}
	}
	for _, s := range []int{400, 401, 403, 409, 413, 422, 429} {
		if !all[s] {
			t.Errorf("no %d answered", s)
		}
	}
}

// TestOpenAPIContractToTheEnd plays a short game to its end, taking the
// default choice mostly, so that the finished state, its long (chunked)
// log and the refusals of a finished game are checked too.
func TestOpenAPIContractToTheEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game")
	}
	for _, tc := range []struct {
		kind string
		laps int
	}{{"western", 3}, {"businessman", 6}} {
		t.Run(tc.kind, func(t *testing.T) { contractToTheEnd(t, tc.kind, tc.laps) })
	}
}

func contractToTheEnd(t *testing.T, kind string, laps int) {
	c, _ := newContract(t, openStore(t))
	g := c.createKind(kind, 2, map[string]any{"laps": laps})
	seats := []string{c.accept(g.ID, g.InviteTokens[0]), c.accept(g.ID, g.InviteTokens[1])}
	base := "/api/games/" + g.ID
	rnd := mathrand.New(mathrand.NewPCG(3, 4))
	const limit = 3000
	n := 0
	var played []struct {
		inv int
		a   engine.Action
	}
	for ; n < limit; n++ {
		v := c.view(g.ID, g.SpectatorToken)
		if v.Status != service.StatusPlaying {
			break
		}
		inv := v.Owing[0]
		l := c.legal(g.ID, seats[inv])
		// Anything but leaving, which would end a game of two at once.
		playable := slices.DeleteFunc(slices.Clone(l.Legal), func(c engine.Choice) bool { return c.Type == engine.Resign })
		ch := playable[rnd.IntN(len(playable))]
		if rnd.IntN(4) != 0 {
			for _, d := range l.Legal {
				if d.Default {
					ch = d
					break
				}
			}
		}
		if n == 2*service.ChunkSize+1 {
			// A retry among the game's last 16 keyed moves (the keys it
			// keeps), its entry read from a chunk if it left the item.
			t.Run("retry of an older move", func(t *testing.T) {
				k := n - 12
				var again service.Result
				c.with(t).want(call{method: "POST", path: base + "/actions", token: seats[played[k].inv], body: actBody(played[k].a, fmt.Sprintf("end-%05d", k))}, http.StatusOK, "", &again)
				if !again.Replayed || again.N != k {
					t.Errorf("retried key %d: %+v", k, again)
				}
			})
		}
		played = append(played, struct {
			inv int
			a   engine.Action
		}{inv, instance(ch)})
		c.want(call{method: "POST", path: base + "/actions", token: seats[inv], body: actBody(instance(ch), fmt.Sprintf("end-%05d", n))}, http.StatusOK, "", nil)
	}
	v := c.view(g.ID, seats[0])
	if v.Status != service.StatusOver {
		t.Fatalf("the game did not end in %d actions", limit)
	}
	t.Logf("game over after %d actions", n)
	c.want(call{method: "POST", path: base + "/actions", token: seats[0], body: actBody(engine.Action{Type: "end"}, "after-the-end")}, http.StatusGone, service.CodeGameOver, nil)

	if l := c.legal(g.ID, seats[1]); len(l.Legal) != 0 {
		t.Errorf("legal after the end: %v", l.Legal)
	}
	if n <= 2*service.ChunkSize {
		t.Logf("the game ended after %d actions: its log was never chunked", n)
	}
	// The whole log, as each reader may see it (P-3): no private event of
	// another seat, no amount of another seat's secret action.
	private := 0
	for reader, tok := range map[int]string{0: seats[0], 1: seats[1], engine.Spectator: g.SpectatorToken, -2: g.OrganiserToken} {
		var lg struct {
			Log []httpapi.LogEntry `json:"log"`
		}
		c.want(call{method: "GET", path: base + "/log", token: tok}, http.StatusOK, "", &lg)
		if len(lg.Log) != n {
			t.Errorf("log has %d entries, %d actions played", len(lg.Log), n)
		}
		for _, e := range lg.Log {
			for _, ev := range e.Events {
				if ev.Private && ev.Seat != reader {
					t.Errorf("reader %d sees seat %d's private event %+v in entry %d", reader, ev.Seat, ev, e.N)
				}
				if ev.Private {
					private++
				}
			}
			if e.Action.Type == "bid" && e.Seat != reader && e.Action.Amount != 0 {
				t.Errorf("reader %d sees seat %d's bid %d", reader, e.Seat, e.Action.Amount)
			}
		}
	}
	t.Logf("%d private events seen by their seats", private)
	var res struct {
		Over bool `json:"over"`
	}
	c.want(call{method: "GET", path: base + "/result", token: seats[1]}, http.StatusOK, "", &res)
	if !res.Over {
		t.Error("result not over after the end")
	}
}

// TestOpenAPIOptionDefaults: the defaults the document states for each
// game's options are the ones a game is created with (games.Info.Defaults,
// the length by mail), so an API client that leaves one out knows what it
// gets.
func TestOpenAPIOptionDefaults(t *testing.T) {
	doc, _ := loadDoc(t)
	for _, info := range testGames.Engines().List() {
		name := strings.ToUpper(info.Kind[:1]) + info.Kind[1:] + "Options"
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil {
			t.Fatalf("%s: no schema %s", info.Kind, name)
		}
		var defs map[string]any
		if err := json.Unmarshal(info.Defaults(), &defs); err != nil {
			t.Fatal(err)
		}
		for field, want := range defs {
			prop := ref.Value.Properties[field]
			if prop == nil || prop.Value == nil {
				t.Errorf("%s: option %s is not in %s", info.Kind, field, name)
				continue
			}
			if got := prop.Value.Default; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %s.%s default %v, a game is created with %v", info.Kind, name, field, got, want)
			}
		}
	}
}

// instanceOf is a choice's action, with its least amount when ranged.
func instanceOf(c engine.Choice) engine.Action {
	a := c.Action
	if c.Ranged() {
		a.Amount = c.Min
	}
	return a
}
