//go:build linux

package lambdatest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/wiring/localrun"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestParity: the api function as Lambda runs it (the built binary under
// the emulator, API Gateway events, dynalite and aws-ses-v2-local behind
// it) and the local run's handler (the same wiring on bbolt and the
// mailbox) answer the same requests alike. The same scenario is played on
// both: every route of the route table, each with a valid token (or
// input) and with an invalid one (a tampered token, or input the route
// refuses). Each answer's status, media type, the presence of the
// headers a client relies on, and the shape of its body (a JSON body's
// keys at every level outside arrays and the engine's view; a page's
// title and the paths its forms post to; a redirect's target path and
// query keys) must be the same; ids, tokens, numbers and the game itself
// (the seeds differ) may differ. The scenario must cover exactly
// httpapi.Routes().
func TestParity(t *testing.T) {
	w := newWorld(t)
	bin := build(t, apiFunction)
	fn := startEmulator(t, buildRIE(t), bin, w.env(apiFunction, filepath.Dir(bin)))
	lambdaSvc := w.service(nil)
	n := 0
	onLambda := &backend{t: t, name: "lambda", svc: lambdaSvc, tag: w.tag,
		serve: func(route string, r *http.Request) httpResponse {
			n++
			return fn.serveHTTP(gatewayEvent(t, route, r, fmt.Sprintf("Parity%08d=", n)))
		}}

	app, err := localrun.New(localrun.Config{Dir: t.TempDir(), BaseURL: "http://localhost:8080", Log: slog.New(slog.DiscardHandler),
		Rand: testenv.Rand(t.Name())})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	handler := app.Handler()
	onLocal := &backend{t: t, name: "local", svc: app.Service, tag: w.tag,
		serve: func(route string, r *http.Request) httpResponse {
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, r)
			h := map[string]string{}
			for k, vs := range rec.Header() {
				h[strings.ToLower(k)] = strings.Join(vs, ",")
			}
			return httpResponse{status: rec.Code, headers: h, body: rec.Body.Bytes()}
		}}

	got := map[string][]answer{}
	for _, b := range []*backend{onLambda, onLocal} {
		got[b.name] = b.play()
	}
	l, h := got["lambda"], got["local"]
	if len(l) != len(h) {
		t.Fatalf("the scenario made %d requests on Lambda and %d locally", len(l), len(h))
	}
	for i := range l {
		if l[i] != h[i] {
			t.Errorf("%s (%s token):\n  lambda: %s\n  local:  %s", l[i].route, l[i].token, l[i].describe(), h[i].describe())
		}
	}

	// Every route, with a valid and an invalid token (or input).
	covered := map[string]map[string]bool{}
	for _, a := range l {
		if covered[a.route] == nil {
			covered[a.route] = map[string]bool{}
		}
		covered[a.route][a.token] = true
	}
	var want []string
	for _, r := range httpapi.Routes() {
		k := r.Method + " " + r.Pattern
		want = append(want, k)
		if !covered[k][valid] || !covered[k][invalid] {
			t.Errorf("%s: played with %v, want both a valid and an invalid token", k, covered[k])
		}
	}
	var played []string
	for k := range covered {
		played = append(played, k)
	}
	slices.Sort(want)
	slices.Sort(played)
	if !slices.Equal(want, played) {
		t.Errorf("the scenario plays routes %v;\nthe route table has %v", played, want)
	}
}

const (
	valid   = "valid"
	invalid = "invalid"
)

// backend is a deployment of the API the scenario is played on.
type backend struct {
	t     *testing.T
	name  string
	serve func(routeKey string, r *http.Request) httpResponse
	svc   *service.Service // signs the personal links mail carries
	tag   string
}

// answer is what the comparison sees of a response.
type answer struct {
	route, token  string
	status        int
	mediaType     string
	headers       string // which of the headers clients rely on are set
	shape         string
	location      string // a redirect's path and query keys
	locationQuery string
}

func (a answer) describe() string {
	return fmt.Sprintf("%d %s headers[%s] location %s?%s body %s", a.status, a.mediaType, a.headers, a.location, a.locationQuery, a.shape)
}

// do sends one request and records the answer.
func (b *backend) do(out *[]answer, pattern, token string, r *http.Request) httpResponse {
	b.t.Helper()
	route := r.Method + " " + pattern
	resp := b.serve(route, r)
	a := answer{route: route, token: token, status: resp.status}
	a.mediaType, _, _ = mime.ParseMediaType(resp.headers["content-type"])
	var hs []string
	for _, h := range []string{"cache-control", "content-security-policy", "x-content-type-options", "x-frame-options", "x-request-id", "location",
		"content-encoding", "vary"} {
		if resp.headers[h] != "" {
			hs = append(hs, h)
		}
	}
	a.headers = strings.Join(hs, " ")
	if loc := resp.headers["location"]; loc != "" {
		u, err := url.Parse(loc)
		if err != nil {
			b.t.Fatalf("%s: Location %q: %v", route, loc, err)
		}
		a.location = b.normalise(u.Path)
		var keys []string
		for k := range u.Query() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		a.locationQuery = strings.Join(keys, "&")
	}
	body := resp.content(b.t) // the shape is the content's
	switch a.mediaType {
	case "application/json":
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			b.t.Fatalf("%s on %s: a JSON answer that is not JSON: %v: %.300s", route, b.name, err, body)
		}
		a.shape = jsonShape(v)
	case "text/html":
		a.shape = b.pageShape(body)
	case "image/svg+xml": // a game's board: its game's own drawing
		a.shape = fmt.Sprintf("svg %v", bytes.HasPrefix(body, []byte("<svg ")))
	default:
		a.shape = fmt.Sprintf("%d bytes", len(body))
	}
	*out = append(*out, a)
	return resp
}

// jsonShape is v's structure: an object's keys with their values' shapes,
// "array" for an array and "view" for a game view's "game" (the engine's
// view: game data, which differ from game to game), the type of anything
// else.
func jsonShape(v any) string {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			if _, view := v[k].(map[string]any); view && k == "game" {
				parts[i] = k + ":view"
				continue
			}
			parts[i] = k + ":" + jsonShape(v[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

var (
	titleRE  = regexp.MustCompile(`(?s)<title>(.*?)</title>`)
	actionRE = regexp.MustCompile(`<form[^>]*\saction="([^"]*)"`)
)

// pageShape is a page's title and the paths its forms post to.
func (b *backend) pageShape(body []byte) string {
	title := ""
	if m := titleRE.FindSubmatch(body); m != nil {
		title = b.normalise(strings.TrimSpace(string(m[1])))
	}
	var actions []string
	for _, m := range actionRE.FindAllSubmatch(body, -1) {
		u, err := url.Parse(strings.ReplaceAll(string(m[1]), "&amp;", "&"))
		if err != nil {
			actions = append(actions, "bad:"+string(m[1]))
			continue
		}
		actions = append(actions, b.normalise(u.Path))
	}
	slices.Sort(actions) // how many forms a seat page has depends on the game
	actions = slices.Compact(actions)
	return fmt.Sprintf("title %q forms %v html-end %v", title, actions, bytes.Contains(body, []byte("</html>")))
}

// gameID is a game's id (service.newID: 15 random bytes in base32), and
// leagueID a league's (leagues: 10 random bytes in base32).
var (
	gameID   = regexp.MustCompile(`\b[a-z2-7]{24}\b`)
	leagueID = regexp.MustCompile(`\b[a-z2-7]{16}\b`)
)

// normalise replaces the ids of games and leagues with {id}.
func (b *backend) normalise(s string) string {
	return leagueID.ReplaceAllString(gameID.ReplaceAllString(s, "{id}"), "{id}")
}

// tamper is tok with its signature changed: well formed, not valid.
func tamper(tok string) string {
	last := tok[len(tok)-1]
	repl := byte('A')
	if last == 'A' {
		repl = 'B'
	}
	return tok[:len(tok)-1] + string(repl)
}

func (b *backend) personal(p linksign.Purpose, email string) string {
	b.t.Helper()
	tok, err := b.svc.Token(p, email, linksign.NoSeat, 0, service.OrganiserTokenTTL)
	if err != nil {
		b.t.Fatal(err)
	}
	return tok
}

// fileRequest posts a file as the home page's record form does.
func fileRequest(target string, file []byte) *http.Request {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("record", "record.json")
	_, _ = fw.Write(file)
	_ = mw.Close()
	r := httptest.NewRequest(http.MethodPost, target, &buf)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	return r
}

func jsonRequest(method, target, token string, body any) *http.Request {
	var rd *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	var r *http.Request
	if rd != nil {
		r = httptest.NewRequest(method, target, rd)
		r.Header.Set("Content-Type", "application/json")
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	r.Header.Set("Accept", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return r
}

func formRequest(target string, form url.Values) *http.Request {
	r := httptest.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Accept-Language", "ru-RU,ru;q=0.9,en;q=0.5")
	return r
}

func pageRequest(target string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.Header.Set("Accept", "text/html")
	r.Header.Set("Accept-Language", "ru-RU,ru;q=0.9,en;q=0.5")
	return r
}

// play runs the scenario: every route, valid and invalid, in an order in
// which each valid request has what it needs (a game, an accepted seat, a
// started game, a seat owing a move).
func (b *backend) play() []answer {
	t := b.t
	var out []answer
	q := url.QueryEscape

	b.do(&out, "/healthz", valid, jsonRequest("GET", "/healthz", "", nil))
	b.do(&out, "/healthz", invalid, jsonRequest("GET", "/healthz", "not-a-token", nil))
	b.do(&out, "/api/openapi.json", valid, jsonRequest("GET", "/api/openapi.json", "", nil))
	b.do(&out, "/api/openapi.json", invalid, jsonRequest("GET", "/api/openapi.json", "not-a-token", nil))
	b.do(&out, "/", valid, pageRequest("/"))
	b.do(&out, "/", invalid, pageRequest("/?t=not-a-token&lang=xx"))
	b.do(&out, "/rules/{kind}", valid, pageRequest("/rules/western?lang=ru"))
	b.do(&out, "/rules/{kind}", invalid, pageRequest("/rules/chess?lang=ru"))
	b.do(&out, "/api/lengths", valid, jsonRequest("GET", "/api/lengths?kind=western&seats=4&deadline_hours=72", "", nil))
	b.do(&out, "/api/lengths", invalid, jsonRequest("GET", "/api/lengths?kind=chess&seats=4", "", nil))
	// The icon (issue 16): it takes no token, so a stray one changes
	// nothing; asked again with its ETag, it is not sent again.
	icon := b.do(&out, "/favicon.ico", valid, pageRequest("/favicon.ico"))
	b.do(&out, "/favicon.ico", invalid, pageRequest("/favicon.ico?t=not-a-token"))
	again := pageRequest("/favicon.ico")
	again.Header.Set("If-None-Match", icon.headers["etag"])
	b.do(&out, "/favicon.ico", valid, again)
	// Compressed answers (issue 16) for a browser that accepts gzip: a
	// page and the API's largest document.
	for _, c := range []struct {
		pattern string
		r       *http.Request
	}{{"/rules/{kind}", pageRequest("/rules/businessman?lang=en")}, {"/api/openapi.json", jsonRequest("GET", "/api/openapi.json", "", nil)}} {
		c.r.Header.Set("Accept-Encoding", "gzip, deflate, br")
		if resp := b.do(&out, c.pattern, valid, c.r); resp.headers["content-encoding"] != "gzip" {
			t.Errorf("%s on %s: Content-Encoding %q, want gzip", c.r.URL.Path, b.name, resp.headers["content-encoding"])
		}
	}

	// A game of three seats through the API; an invalid create first.
	addr := func(who string) string { return fmt.Sprintf("parity.%s.%s@example.org", who, b.tag) }
	create := service.CreateRequest{Kind: "western", Options: json.RawMessage(`{"laps":3}`),
		Organiser: service.Person{Name: "Ольга", Email: addr("olga"), Lang: "ru"},
		Seats: []service.Person{{Name: "Анна", Email: addr("anna"), Lang: "ru"}, {Name: "Bob", Email: addr("bob"), Lang: "en"},
			{Name: "Вера", Email: addr("vera"), Lang: "ru"}}}
	b.do(&out, "/api/games", invalid, jsonRequest("POST", "/api/games", "", map[string]any{"kind": "chess"}))
	resp := b.do(&out, "/api/games", valid, jsonRequest("POST", "/api/games", "", create))
	var g service.Created
	if err := json.Unmarshal(resp.body, &g); err != nil || g.ID == "" {
		t.Fatalf("%s: create: %d %s", b.name, resp.status, resp.body)
	}
	id := g.ID

	// The organiser confirms their address by the mail's link: its page,
	// then its button; the invitations leave.
	confirmTok := func(game string) string {
		tok, err := b.svc.Token(linksign.PurposeConfirm, game, linksign.NoSeat, 0, service.ConfirmTokenTTL)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	ct := confirmTok(id)
	b.do(&out, "/g/{id}/confirm", invalid, pageRequest("/g/"+id+"/confirm?t="+q(tamper(ct))))
	b.do(&out, "/g/{id}/confirm", valid, pageRequest("/g/"+id+"/confirm?t="+q(ct)))
	b.do(&out, "/g/{id}/confirm", invalid, formRequest("/g/"+id+"/confirm", url.Values{"t": {tamper(ct)}}))
	b.do(&out, "/g/{id}/confirm", valid, formRequest("/g/"+id+"/confirm", url.Values{"t": {ct}}))

	// Seat 0 accepts through the API, seat 1 through its invitation page.
	b.do(&out, "/api/games/{id}/accept", invalid, jsonRequest("POST", "/api/games/"+id+"/accept", tamper(g.InviteTokens[0]), nil))
	resp = b.do(&out, "/api/games/{id}/accept", valid, jsonRequest("POST", "/api/games/"+id+"/accept", g.InviteTokens[0], nil))
	var acc struct {
		SeatToken string `json:"seat_token"`
	}
	if err := json.Unmarshal(resp.body, &acc); err != nil || acc.SeatToken == "" {
		t.Fatalf("%s: accept: %d %s", b.name, resp.status, resp.body)
	}
	seats := map[int]string{0: acc.SeatToken}
	b.do(&out, "/g/{id}/invite", invalid, pageRequest("/g/"+id+"/invite?t="+q(tamper(g.InviteTokens[1]))))
	b.do(&out, "/g/{id}/invite", valid, pageRequest("/g/"+id+"/invite?t="+q(g.InviteTokens[1])))
	b.do(&out, "/g/{id}/accept", invalid, formRequest("/g/"+id+"/accept", url.Values{"t": {tamper(g.InviteTokens[1])}}))
	resp = b.do(&out, "/g/{id}/accept", valid, formRequest("/g/"+id+"/accept", url.Values{"t": {g.InviteTokens[1]}}))
	loc, err := url.Parse(resp.headers["location"])
	if err != nil || loc.Query().Get("t") == "" {
		t.Fatalf("%s: accept page: %d, Location %q", b.name, resp.status, resp.headers["location"])
	}
	seats[1] = loc.Query().Get("t")

	// The organiser's page, and the start with the two who accepted.
	org := g.OrganiserToken
	b.do(&out, "/g/{id}/org", invalid, pageRequest("/g/"+id+"/org?t="+q(tamper(org))))
	b.do(&out, "/g/{id}/org", valid, pageRequest("/g/"+id+"/org?t="+q(org)))
	b.do(&out, "/g/{id}/start", invalid, formRequest("/g/"+id+"/start", url.Values{"t": {tamper(org)}}))
	b.do(&out, "/g/{id}/start", valid, formRequest("/g/"+id+"/start", url.Values{"t": {org}}))

	// A second game, started through the API.
	create.Seats = create.Seats[:3]
	resp = b.do(&out, "/api/games", valid, jsonRequest("POST", "/api/games", "", create))
	var g2 service.Created
	if err := json.Unmarshal(resp.body, &g2); err != nil || g2.ID == "" {
		t.Fatalf("%s: create: %d %s", b.name, resp.status, resp.body)
	}
	// Its organiser's address is confirmed already: confirming through
	// the API changes nothing.
	b.do(&out, "/api/games/{id}/confirm", invalid, jsonRequest("POST", "/api/games/"+g2.ID+"/confirm", tamper(confirmTok(g2.ID)), nil))
	b.do(&out, "/api/games/{id}/confirm", valid, jsonRequest("POST", "/api/games/"+g2.ID+"/confirm", confirmTok(g2.ID), nil))
	var seats2 []string
	for i := range 2 {
		resp := b.do(&out, "/api/games/{id}/accept", valid, jsonRequest("POST", "/api/games/"+g2.ID+"/accept", g2.InviteTokens[i], nil))
		var acc struct {
			SeatToken string `json:"seat_token"`
		}
		if err := json.Unmarshal(resp.body, &acc); err != nil {
			t.Fatalf("%s: accept: %d %s", b.name, resp.status, resp.body)
		}
		seats2 = append(seats2, acc.SeatToken)
	}
	b.do(&out, "/api/games/{id}/start", invalid, jsonRequest("POST", "/api/games/"+g2.ID+"/start", tamper(g2.OrganiserToken), nil))
	b.do(&out, "/api/games/{id}/start", valid, jsonRequest("POST", "/api/games/"+g2.ID+"/start", g2.OrganiserToken, nil))

	// The second game ends at once: the seat to move of the two resigns.
	// Its record, by the API and by the game-over page's link, imported;
	// a record with another seed refused.
	resp = b.do(&out, "/api/games/{id}", valid, jsonRequest("GET", "/api/games/"+g2.ID, g2.SpectatorToken, nil))
	var view2 httpapi.GameView
	if err := json.Unmarshal(resp.body, &view2); err != nil || len(view2.Owing) == 0 {
		t.Fatalf("%s: view: %d %s", b.name, resp.status, resp.body)
	}
	b.do(&out, "/api/games/{id}/actions", valid, jsonRequest("POST", "/api/games/"+g2.ID+"/actions", seats2[view2.Owing[0]],
		httpapi.ActRequest{Action: engine.Action{Type: engine.Resign}, Key: "parity-resign"}))
	b.do(&out, "/api/games/{id}/record", invalid, jsonRequest("GET", "/api/games/"+g2.ID+"/record", tamper(g2.SpectatorToken), nil))
	resp = b.do(&out, "/api/games/{id}/record", valid, jsonRequest("GET", "/api/games/"+g2.ID+"/record", g2.SpectatorToken, nil))
	var doc map[string]any
	if err := json.Unmarshal(resp.body, &doc); err != nil {
		t.Fatalf("%s: record: %d %s", b.name, resp.status, resp.body)
	}
	b.do(&out, "/g/{id}/record", invalid, pageRequest("/g/"+g2.ID+"/record?t="+q(tamper(seats2[0]))))
	b.do(&out, "/g/{id}/record", valid, pageRequest("/g/"+g2.ID+"/record?t="+q(seats2[0])))
	b.do(&out, "/g/{id}/board.svg", invalid, pageRequest("/g/"+g2.ID+"/board.svg?t="+q(tamper(seats2[0]))))
	b.do(&out, "/g/{id}/board.svg", valid, pageRequest("/g/"+g2.ID+"/board.svg?v=1&t="+q(seats2[0])))
	b.do(&out, "/api/records", valid, jsonRequest("POST", "/api/records", "", doc))
	b.do(&out, "/records", valid, fileRequest("/records", resp.body))
	doc["seed"] = strings.Repeat("ab", 32)
	b.do(&out, "/api/records", invalid, jsonRequest("POST", "/api/records", "", doc))
	tampered, _ := json.Marshal(doc)
	b.do(&out, "/records", invalid, fileRequest("/records", tampered))

	// The first game as its first seat sees it, and who owes a move.
	b.do(&out, "/api/games/{id}", invalid, jsonRequest("GET", "/api/games/"+id, tamper(seats[0]), nil))
	resp = b.do(&out, "/api/games/{id}", valid, jsonRequest("GET", "/api/games/"+id, seats[0], nil))
	var view httpapi.GameView
	if err := json.Unmarshal(resp.body, &view); err != nil || len(view.Owing) == 0 {
		t.Fatalf("%s: view: %d %s", b.name, resp.status, resp.body)
	}
	legal := func(label string, seat int) (int64, engine.Action) {
		t.Helper()
		resp := b.do(&out, "/api/games/{id}/legal", label, jsonRequest("GET", "/api/games/"+id+"/legal", seats[seat], nil))
		var l struct {
			Version int64           `json:"version"`
			Legal   []engine.Choice `json:"legal"`
		}
		if err := json.Unmarshal(resp.body, &l); err != nil {
			t.Fatalf("%s: legal: %d %s", b.name, resp.status, resp.body)
		}
		if len(l.Legal) == 0 {
			t.Fatalf("%s: seat %d owes a move and has no legal action: %s", b.name, seat, resp.body)
		}
		return l.Version, instance(l.Legal[0])
	}
	b.do(&out, "/api/games/{id}/legal", invalid, jsonRequest("GET", "/api/games/"+id+"/legal", tamper(seats[0]), nil))

	// A move through the API, then one through the seat page's form.
	seat := view.Owing[0]
	version, action := legal(valid, seat)
	b.do(&out, "/api/games/{id}/actions", invalid, jsonRequest("POST", "/api/games/"+id+"/actions", tamper(seats[seat]),
		httpapi.ActRequest{Action: action, Key: "parity-move-1", Version: version}))
	b.do(&out, "/api/games/{id}/actions", valid, jsonRequest("POST", "/api/games/"+id+"/actions", seats[seat],
		httpapi.ActRequest{Action: action, Key: "parity-move-1", Version: version}))

	resp = b.do(&out, "/api/games/{id}", valid, jsonRequest("GET", "/api/games/"+id, seats[0], nil))
	if err := json.Unmarshal(resp.body, &view); err != nil || len(view.Owing) == 0 {
		t.Fatalf("%s: view after the move: %d %s", b.name, resp.status, resp.body)
	}
	seat = view.Owing[0]
	b.do(&out, "/g/{id}", invalid, pageRequest("/g/"+id+"?t="+q(tamper(seats[seat]))))
	b.do(&out, "/g/{id}", valid, pageRequest("/g/"+id+"?t="+q(seats[seat])))
	version, action = legal(valid, seat)
	form := url.Values{"type": {action.Type}, "version": {strconv.FormatInt(version, 10)}}
	if action.Cell != 0 {
		form.Set("cell", strconv.Itoa(action.Cell))
	}
	if action.Target != 0 {
		form.Set("target", strconv.Itoa(action.Target))
	}
	if action.Good != "" {
		form.Set("good", action.Good)
	}
	if action.Amount != 0 {
		form.Set("amount", strconv.FormatInt(action.Amount, 10))
	}
	form.Set("t", tamper(seats[seat]))
	b.do(&out, "/g/{id}/act", invalid, formRequest("/g/"+id+"/act", form))
	form.Set("t", seats[seat])
	b.do(&out, "/g/{id}/act", valid, formRequest("/g/"+id+"/act", form))

	// The log and the result, as a seat and as the spectators.
	for _, tok := range []string{seats[0], g.SpectatorToken} {
		b.do(&out, "/api/games/{id}/log", valid, jsonRequest("GET", "/api/games/"+id+"/log", tok, nil))
		b.do(&out, "/api/games/{id}/result", valid, jsonRequest("GET", "/api/games/"+id+"/result", tok, nil))
		b.do(&out, "/g/{id}/log", valid, pageRequest("/g/"+id+"/log?t="+q(tok)))
	}
	b.do(&out, "/api/games/{id}/log", invalid, jsonRequest("GET", "/api/games/"+id+"/log", tamper(g.SpectatorToken), nil))
	b.do(&out, "/api/games/{id}/result", invalid, jsonRequest("GET", "/api/games/"+id+"/result", tamper(g.SpectatorToken), nil))
	b.do(&out, "/g/{id}/log", invalid, pageRequest("/g/"+id+"/log?t="+q(tamper(g.SpectatorToken))))

	// A seat's standing orders (keep_cash alone plays nothing), by the API
	// and by its page.
	orders := httpapi.OrdersRequest{Orders: engine.Orders{engine.OrderKeepCash: 1000}}
	b.do(&out, "/api/games/{id}/orders", invalid, jsonRequest("GET", "/api/games/"+id+"/orders", tamper(seats[0]), nil))
	b.do(&out, "/api/games/{id}/orders", valid, jsonRequest("GET", "/api/games/"+id+"/orders", seats[0], nil))
	b.do(&out, "/api/games/{id}/orders", invalid, jsonRequest("PUT", "/api/games/"+id+"/orders", tamper(seats[0]), orders))
	b.do(&out, "/api/games/{id}/orders", valid, jsonRequest("PUT", "/api/games/"+id+"/orders", seats[0], orders))
	b.do(&out, "/g/{id}/orders", invalid, pageRequest("/g/"+id+"/orders?t="+q(tamper(seats[0]))))
	b.do(&out, "/g/{id}/orders", valid, pageRequest("/g/"+id+"/orders?t="+q(seats[0])))
	b.do(&out, "/g/{id}/orders", invalid, formRequest("/g/"+id+"/orders", url.Values{"t": {tamper(seats[0])}, "o_keep_cash": {"2000"}}))
	b.do(&out, "/g/{id}/orders", valid, formRequest("/g/"+id+"/orders", url.Values{"t": {seats[0]}, "o_keep_cash": {"2000"}}))

	// A seat's deals (issue 23), by the API and by its page: read them;
	// an offer the seat may not prepare is refused alike; withdrawing one
	// not prepared changes nothing.
	nothing := httpapi.PrepareRequest{Offer: engine.Action{Type: "offer", Cell: 1}}
	counter := httpapi.CounterRequest{Deal: 1, Offer: nothing.Offer, Key: "parity-counter"}
	b.do(&out, "/api/games/{id}/deals", invalid, jsonRequest("GET", "/api/games/"+id+"/deals", tamper(seats[0]), nil))
	b.do(&out, "/api/games/{id}/deals", valid, jsonRequest("GET", "/api/games/"+id+"/deals", seats[0], nil))
	b.do(&out, "/api/games/{id}/deals", invalid, jsonRequest("POST", "/api/games/"+id+"/deals", tamper(seats[0]), nothing))
	b.do(&out, "/api/games/{id}/deals", valid, jsonRequest("POST", "/api/games/"+id+"/deals", seats[0], nothing))
	b.do(&out, "/api/games/{id}/deals/withdraw", invalid, jsonRequest("POST", "/api/games/"+id+"/deals/withdraw", tamper(seats[0]), nothing))
	b.do(&out, "/api/games/{id}/deals/withdraw", valid, jsonRequest("POST", "/api/games/"+id+"/deals/withdraw", seats[0], nothing))
	b.do(&out, "/api/games/{id}/deals/counter", invalid, jsonRequest("POST", "/api/games/"+id+"/deals/counter", tamper(seats[0]), counter))
	b.do(&out, "/api/games/{id}/deals/counter", valid, jsonRequest("POST", "/api/games/"+id+"/deals/counter", seats[0], counter))
	b.do(&out, "/g/{id}/deals", invalid, pageRequest("/g/"+id+"/deals?t="+q(tamper(seats[0]))))
	b.do(&out, "/g/{id}/deals", valid, pageRequest("/g/"+id+"/deals?t="+q(seats[0])))
	b.do(&out, "/g/{id}/deals", invalid, formRequest("/g/"+id+"/deals", url.Values{"t": {tamper(seats[0])}, "do": {"withdraw"}, "offer": {nothing.Offer.String()}}))
	b.do(&out, "/g/{id}/deals", valid, formRequest("/g/"+id+"/deals", url.Values{"t": {seats[0]}, "do": {"withdraw"}, "offer": {nothing.Offer.String()}}))

	// The organiser's controls, a seat's absence and back from the bot,
	// by the API and by their pages (issue 17): a pause and its resume,
	// an absence and its end, leave the game as it was.
	pause, resume := service.ControlRequest{Control: service.ControlPause}, service.ControlRequest{Control: service.ControlResume}
	b.do(&out, "/api/games/{id}/controls", invalid, jsonRequest("POST", "/api/games/"+id+"/controls", tamper(org), pause))
	b.do(&out, "/api/games/{id}/controls", valid, jsonRequest("POST", "/api/games/"+id+"/controls", org, pause))
	b.do(&out, "/g/{id}/controls", invalid, pageRequest("/g/"+id+"/controls?t="+q(tamper(org))))
	b.do(&out, "/g/{id}/controls", valid, pageRequest("/g/"+id+"/controls?t="+q(org)))
	b.do(&out, "/g/{id}/control", invalid, formRequest("/g/"+id+"/control", url.Values{"t": {tamper(org)}, "control": {"resume"}}))
	b.do(&out, "/g/{id}/control", valid, formRequest("/g/"+id+"/control", url.Values{"t": {org}, "control": {"resume"}}))
	b.do(&out, "/api/games/{id}/controls", valid, jsonRequest("POST", "/api/games/"+id+"/controls", org, resume))
	away := map[string]string{} // from now until back
	b.do(&out, "/api/games/{id}/away", invalid, jsonRequest("POST", "/api/games/"+id+"/away", tamper(seats[1]), away))
	b.do(&out, "/api/games/{id}/away", valid, jsonRequest("POST", "/api/games/"+id+"/away", seats[1], away))
	b.do(&out, "/api/games/{id}/back", invalid, jsonRequest("POST", "/api/games/"+id+"/back", tamper(seats[1]), nil))
	b.do(&out, "/api/games/{id}/back", valid, jsonRequest("POST", "/api/games/"+id+"/back", seats[1], nil))
	b.do(&out, "/g/{id}/away", invalid, pageRequest("/g/"+id+"/away?t="+q(tamper(seats[1]))))
	b.do(&out, "/g/{id}/away", valid, pageRequest("/g/"+id+"/away?t="+q(seats[1])))
	b.do(&out, "/g/{id}/away", invalid, formRequest("/g/"+id+"/away", url.Values{"t": {seats[1]}, "from": {"2099-01-05"}, "until": {"2099-01-01"}}))
	b.do(&out, "/g/{id}/away", valid, formRequest("/g/"+id+"/away", url.Values{"t": {seats[1]}, "from": {"2099-01-01"}, "until": {"2099-01-02"}}))
	b.do(&out, "/g/{id}/back", invalid, pageRequest("/g/"+id+"/back?t="+q(tamper(seats[1]))))
	b.do(&out, "/g/{id}/back", valid, pageRequest("/g/"+id+"/back?t="+q(seats[1])))
	b.do(&out, "/g/{id}/back", invalid, formRequest("/g/"+id+"/back", url.Values{"t": {tamper(seats[1])}}))
	b.do(&out, "/g/{id}/back", valid, formRequest("/g/"+id+"/back", url.Values{"t": {seats[1]}}))

	// Table talk (issue 17), by the API and by its page: a seat posts,
	// a spectator reads, the organiser hides.
	said := httpapi.TalkRequest{Text: "Сделка: <b>3 000</b>?"}
	b.do(&out, "/api/games/{id}/talk", invalid, jsonRequest("POST", "/api/games/"+id+"/talk", tamper(seats[0]), said))
	posted := b.do(&out, "/api/games/{id}/talk", valid, jsonRequest("POST", "/api/games/"+id+"/talk", seats[0], said))
	var line httpapi.TalkLine
	if err := json.Unmarshal(posted.body, &line); err != nil || line.Key == "" {
		t.Fatalf("%s: posting to the talk answered %d %s", b.name, posted.status, posted.body)
	}
	b.do(&out, "/api/games/{id}/talk", invalid, jsonRequest("GET", "/api/games/"+id+"/talk", tamper(g.SpectatorToken), nil))
	b.do(&out, "/api/games/{id}/talk", valid, jsonRequest("GET", "/api/games/"+id+"/talk", g.SpectatorToken, nil))
	hide := httpapi.HideTalkRequest{Key: line.Key}
	b.do(&out, "/api/games/{id}/talk/hide", invalid, jsonRequest("POST", "/api/games/"+id+"/talk/hide", tamper(g.OrganiserToken), hide))
	b.do(&out, "/api/games/{id}/talk/hide", valid, jsonRequest("POST", "/api/games/"+id+"/talk/hide", g.OrganiserToken, hide))
	b.do(&out, "/g/{id}/talk", invalid, pageRequest("/g/"+id+"/talk?t="+q(tamper(seats[1]))))
	b.do(&out, "/g/{id}/talk", valid, pageRequest("/g/"+id+"/talk?t="+q(seats[1])))
	b.do(&out, "/g/{id}/talk", invalid, formRequest("/g/"+id+"/talk", url.Values{"t": {tamper(seats[1])}, "text": {"Да"}}))
	b.do(&out, "/g/{id}/talk", valid, formRequest("/g/"+id+"/talk", url.Values{"t": {seats[1]}, "text": {"Да"}, "to": {"0"}}))
	b.do(&out, "/g/{id}/talk/hide", invalid, formRequest("/g/"+id+"/talk/hide", url.Values{"t": {tamper(g.OrganiserToken)}, "key": {line.Key}, "hidden": {"0"}}))
	b.do(&out, "/g/{id}/talk/hide", valid, formRequest("/g/"+id+"/talk/hide", url.Values{"t": {g.OrganiserToken}, "key": {line.Key}, "hidden": {"0"}}))

	// A game created from the home page's form; one refused.
	page := url.Values{"kind": {"businessman"}, "org_name": {"Ольга"}, "org_email": {addr("olga")}, "org_lang": {"ru"},
		"deadline": {"48"}, "name0": {"Анна"}, "email0": {addr("anna")}, "lang0": {"ru"},
		"name1": {"Bob"}, "email1": {addr("bob")}, "lang1": {"en"}}
	b.do(&out, "/games", invalid, formRequest("/games", url.Values{"kind": {"chess"}, "org_email": {addr("olga")}}))
	b.do(&out, "/games", valid, formRequest("/games", page))

	// Anna's "my games", her preferences and the unsubscribe, by the
	// links her mail carries.
	me, unsub := b.personal(linksign.PurposeMyGames, addr("anna")), b.personal(linksign.PurposeUnsubscribe, addr("anna"))
	b.do(&out, "/me", invalid, pageRequest("/me?t="+q(tamper(me))))
	b.do(&out, "/me", valid, pageRequest("/me?t="+q(me)))
	b.do(&out, "/me", invalid, formRequest("/me", url.Values{"t": {tamper(me)}, "mail": {"turns"}}))
	b.do(&out, "/me", valid, formRequest("/me", url.Values{"t": {me}, "mail": {"turns"}}))
	b.do(&out, "/unsubscribe", invalid, pageRequest("/unsubscribe?t="+q(tamper(unsub))))
	b.do(&out, "/unsubscribe", valid, pageRequest("/unsubscribe?t="+q(unsub)))
	oneClick := func(tok string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/unsubscribe?t="+q(tok), strings.NewReader("List-Unsubscribe=One-Click"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return r
	}
	b.do(&out, "/unsubscribe", invalid, oneClick(tamper(unsub)))
	b.do(&out, "/unsubscribe", valid, oneClick(unsub))

	// Sign in by mail (issue 17): the form (a malformed address refused),
	// Anna's sign-in link as its mail carries it, the session its button
	// opens, her links page, a revocation and signing out everywhere.
	// The league's form (issue 27): the page, a refusal shown on it, a
	// league made.
	b.do(&out, "/leagues/new", valid, pageRequest("/leagues/new?lang=en"))
	b.do(&out, "/leagues/new", invalid, pageRequest("/leagues/new?lang=xx"))
	leagueForm := url.Values{"name": {"Parity"}, "kind": {"businessman"}, "laps": {"2"}, "table_size": {"1"}, "rounds": {"2"},
		"divisions": {"1"}, "deadline": {"48"}, "org_name": {"Olga"}, "org_email": {addr("olga")}, "org_lang": {"en"}}
	b.do(&out, "/leagues", invalid, formRequest("/leagues", leagueForm))
	leagueForm.Set("table_size", "3")
	b.do(&out, "/leagues", valid, formRequest("/leagues", leagueForm))
	b.do(&out, "/signin", valid, pageRequest("/signin"))
	b.do(&out, "/signin", invalid, pageRequest("/signin?t=not-a-token&lang=xx"))
	b.do(&out, "/signin", invalid, formRequest("/signin", url.Values{"email": {"not an address"}}))
	b.do(&out, "/signin", valid, formRequest("/signin", url.Values{"email": {addr("anna")}}))
	signin, _, ok, err := b.svc.IssueSignIn(context.Background(), addr("anna"))
	if err != nil || !ok {
		b.t.Fatalf("sign-in link for anna: %v, %v", ok, err)
	}
	b.do(&out, "/signin/open", invalid, pageRequest("/signin/open?t="+q(tamper(signin))))
	b.do(&out, "/signin/open", valid, pageRequest("/signin/open?t="+q(signin)))
	b.do(&out, "/signin/open", invalid, formRequest("/signin/open", url.Values{"t": {tamper(signin)}}))
	opened := b.do(&out, "/signin/open", valid, formRequest("/signin/open", url.Values{"t": {signin}}))
	opens, perr := url.Parse(opened.headers["location"])
	if perr != nil || opens.Query().Get("t") == "" {
		b.t.Fatalf("sign-in opened no session: %q", opened.headers["location"])
	}
	session := opens.Query().Get("t")
	b.do(&out, "/me/links", invalid, pageRequest("/me/links?t="+q(tamper(session))))
	b.do(&out, "/me/links", valid, pageRequest("/me/links?t="+q(session)))
	b.do(&out, "/me/links/revoke", invalid, formRequest("/me/links/revoke", url.Values{"t": {tamper(session)}, "link": {"mail"}}))
	b.do(&out, "/me/links/revoke", valid, formRequest("/me/links/revoke", url.Values{"t": {session}, "link": {"mail"}}))
	b.do(&out, "/me/signout", invalid, formRequest("/me/signout", url.Values{"t": {tamper(session)}}))
	b.do(&out, "/me/signout", valid, formRequest("/me/signout", url.Values{"t": {session}}))
	b.playLeague(&out, addr)
	return out
}

// playLeague plays the leagues' routes (issue 14): a league made by the
// API, members joining by its invitation (the API and the page), its
// pages, a season started by the organiser's page and by the API, a
// substitute seated, a member leaving.
func (b *backend) playLeague(out *[]answer, addr func(string) string) {
	t, q := b.t, url.QueryEscape
	create := map[string]any{"name": "Клуб", "kind": "western", "organiser": map[string]string{"name": "Ольга", "email": addr("olga"), "lang": "ru"},
		"table_size": 2, "rounds": 2, "divisions": 1}
	b.do(out, "/api/leagues", invalid, jsonRequest("POST", "/api/leagues", "", map[string]any{"kind": "chess"}))
	resp := b.do(out, "/api/leagues", valid, jsonRequest("POST", "/api/leagues", "", create))
	var lg struct {
		ID             string `json:"id"`
		OrganiserToken string `json:"organiser_token"`
		InviteToken    string `json:"invite_token"`
	}
	if err := json.Unmarshal(resp.body, &lg); err != nil || lg.ID == "" {
		t.Fatalf("%s: create league: %d %s", b.name, resp.status, resp.body)
	}
	base, org, inv := "/l/"+lg.ID, lg.OrganiserToken, lg.InviteToken
	member := func(name, lang string) map[string]string {
		return map[string]string{"name": name, "email": addr("league-" + strings.ToLower(name)), "lang": lang}
	}
	// The addresses' confirmations (issue 25), with the tokens their
	// mails' links carry: the organiser's by the API, the members' below.
	confirm := func(seat int) string {
		tok, err := b.svc.Token(linksign.PurposeLeagueConfirm, lg.ID, seat, 0, service.ConfirmTokenTTL)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	b.do(out, "/api/leagues/{id}/confirm", invalid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/confirm", tamper(confirm(linksign.NoSeat)), nil))
	b.do(out, "/api/leagues/{id}/confirm", valid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/confirm", confirm(linksign.NoSeat), nil))
	b.do(out, "/api/leagues/{id}/members", invalid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/members", tamper(inv), member("Anna", "ru")))
	resp = b.do(out, "/api/leagues/{id}/members", valid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/members", inv, member("Anna", "ru")))
	var joined struct {
		MemberToken string `json:"member_token"`
	}
	if err := json.Unmarshal(resp.body, &joined); err != nil || joined.MemberToken == "" {
		t.Fatalf("%s: join: %d %s", b.name, resp.status, resp.body)
	}
	anna := joined.MemberToken
	b.do(out, "/l/{id}/confirm", invalid, pageRequest(base+"/confirm?t="+q(tamper(confirm(0)))))
	b.do(out, "/l/{id}/confirm", valid, pageRequest(base+"/confirm?t="+q(confirm(0))))
	b.do(out, "/l/{id}/confirm", invalid, formRequest(base+"/confirm", url.Values{"t": {tamper(confirm(0))}}))
	b.do(out, "/l/{id}/confirm", valid, formRequest(base+"/confirm", url.Values{"t": {confirm(0)}}))
	b.do(out, "/l/{id}/join", invalid, pageRequest(base+"/join?t="+q(tamper(inv))))
	b.do(out, "/l/{id}/join", valid, pageRequest(base+"/join?t="+q(inv)))
	b.do(out, "/l/{id}/join", invalid, formRequest(base+"/join", url.Values{"t": {tamper(inv)}, "name": {"Bob"}, "email": {addr("league-bob")}}))
	b.do(out, "/l/{id}/join", valid, formRequest(base+"/join", url.Values{"t": {inv}, "name": {"Bob"}, "email": {addr("league-bob")}, "member_lang": {"en"}}))
	b.do(out, "/api/leagues/{id}/confirm", valid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/confirm", confirm(1), nil))
	b.do(out, "/l/{id}/org", invalid, pageRequest(base+"/org?t="+q(tamper(org))))
	b.do(out, "/l/{id}/org", valid, pageRequest(base+"/org?t="+q(org)))
	b.do(out, "/l/{id}/start", invalid, formRequest(base+"/start", url.Values{"t": {tamper(org)}}))
	b.do(out, "/l/{id}/start", valid, formRequest(base+"/start", url.Values{"t": {org}, "start": {"2099-01-01"}}))
	// The season has begun: the API's start is refused, a substitute seated.
	b.do(out, "/api/leagues/{id}/seasons", invalid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/seasons", tamper(org), map[string]any{}))
	b.do(out, "/api/leagues/{id}/seasons", valid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/seasons", org, map[string]any{}))
	sub := map[string]any{"member": "Anna", "from_round": 2, "person": member("Vera", "ru")}
	b.do(out, "/api/leagues/{id}/substitutes", invalid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/substitutes", tamper(org), sub))
	b.do(out, "/api/leagues/{id}/substitutes", valid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/substitutes", org, sub))
	b.do(out, "/l/{id}/substitute", invalid, formRequest(base+"/substitute", url.Values{"t": {tamper(org)}}))
	b.do(out, "/l/{id}/substitute", valid, formRequest(base+"/substitute", url.Values{"t": {org}, "member": {"Bob"}, "from": {"1"},
		"name": {"Dan"}, "email": {addr("league-dan")}, "sub_lang": {"en"}}))
	b.do(out, "/api/leagues/{id}", invalid, jsonRequest("GET", "/api/leagues/"+lg.ID, tamper(anna), nil))
	b.do(out, "/api/leagues/{id}", valid, jsonRequest("GET", "/api/leagues/"+lg.ID, anna, nil))
	b.do(out, "/l/{id}", invalid, pageRequest(base+"?t="+q(tamper(anna))))
	b.do(out, "/l/{id}", valid, pageRequest(base+"?t="+q(anna)))
	b.do(out, "/l/{id}/me", invalid, pageRequest(base+"/me?t="+q(tamper(anna))))
	b.do(out, "/l/{id}/me", valid, pageRequest(base+"/me?t="+q(anna)))
	b.do(out, "/api/leagues/{id}/leave", invalid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/leave", tamper(anna), nil))
	b.do(out, "/api/leagues/{id}/leave", valid, jsonRequest("POST", "/api/leagues/"+lg.ID+"/leave", anna, nil))
	b.do(out, "/l/{id}/leave", invalid, formRequest(base+"/leave", url.Values{"t": {tamper(anna)}}))
	b.do(out, "/l/{id}/leave", valid, formRequest(base+"/leave", url.Values{"t": {anna}}))
}
