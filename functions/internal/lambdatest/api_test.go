//go:build linux

package lambdatest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// apiEvent reads testdata/api/<name>, an API Gateway HTTP API (payload
// 2.0) event as API Gateway delivers it, fills in its {{.X}} placeholders
// with vars (each escaped for a JSON string: a body's JSON goes in as
// text) and sets its content-length header to its body's length, as API
// Gateway would.
func apiEvent(t *testing.T, name string, vars map[string]string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "api", name))
	if err != nil {
		t.Fatal(err)
	}
	esc := map[string]string{}
	for k, v := range vars {
		q, _ := json.Marshal(v)
		esc[k] = string(q[1 : len(q)-1])
	}
	tpl, err := template.New(name).Option("missingkey=error").Parse(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tpl.Execute(&b, esc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var ev map[string]any
	if err := json.Unmarshal(b.Bytes(), &ev); err != nil {
		t.Fatalf("%s is not JSON once filled in: %v", name, err)
	}
	if ev["version"] != "2.0" {
		t.Fatalf("%s: version %v, want 2.0", name, ev["version"])
	}
	if body, ok := ev["body"].(string); ok {
		n := len(body)
		if ev["isBase64Encoded"] == true {
			raw, err := base64.StdEncoding.DecodeString(body)
			if err != nil {
				t.Fatal(err)
			}
			n = len(raw)
		}
		ev["headers"].(map[string]any)["content-length"] = strconv.Itoa(n)
	}
	out, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// decodeJSON decodes a JSON answer's body, which must say it is JSON.
func decodeJSON(t *testing.T, what string, r httpResponse, v any) {
	t.Helper()
	if ct := r.headers["content-type"]; !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s: Content-Type %q, want JSON; body %.300s", what, ct, r.body)
	}
	if body := r.content(t); json.Unmarshal(body, v) != nil {
		t.Fatalf("%s: not JSON: %.300s", what, body)
	}
}

// instance is an action a choice admits: the choice itself, or, for one
// whose amount the player picks, with the least amount. The games the
// functions make are dealt by seeds the tests cannot fix, so they play
// whatever is legal.
func instance(c engine.Choice) engine.Action {
	a := c.Action
	if c.Ranged() {
		a.Amount = c.Min
	}
	return a
}

// TestAPIFunction runs the api function's binary under the emulator and
// plays the start of a «Вестерн» game through it with API Gateway HTTP API
// events: the home page, the game created, both invitations accepted, a
// move; then an oversized body. The game is then read from dynalite.
func TestAPIFunction(t *testing.T) {
	w := newWorld(t)
	bin := build(t, apiFunction)
	fn := startEmulator(t, buildRIE(t), bin, w.env(apiFunction, filepath.Dir(bin)))

	// The home page: HTML, with the API's safety headers.
	home := fn.serveHTTP(apiEvent(t, "home.json", nil))
	if home.status != http.StatusOK || !strings.HasPrefix(home.headers["content-type"], "text/html") {
		t.Fatalf("GET /: %d %q", home.status, home.headers["content-type"])
	}
	if page := home.content(t); !bytes.Contains(bytes.ToLower(page), []byte("<!doctype html")) || !bytes.Contains(page, []byte("</html>")) {
		t.Errorf("GET /: not an HTML page: %.300s", page)
	}
	// The blank form alone may be kept by the browser (its key must come
	// back with "back"); every other page is no-store.
	for h, want := range map[string]string{"x-content-type-options": "nosniff", "x-frame-options": "DENY", "cache-control": "private, no-cache"} {
		if home.headers[h] != want {
			t.Errorf("GET /: %s = %q, want %q", h, home.headers[h], want)
		}
	}
	if home.headers["content-security-policy"] == "" || home.headers["x-request-id"] == "" {
		t.Errorf("GET /: headers %v lack Content-Security-Policy or X-Request-Id", home.headers)
	}
	t.Logf("cold start: the emulator reports an init of %s", fn.initReport())

	// The game.
	resp := fn.serveHTTP(apiEvent(t, "create.json", nil))
	if resp.status != http.StatusCreated {
		t.Fatalf("POST /api/games: %d %s", resp.status, resp.body)
	}
	// The keyring's read starts at init and the pre-rendered home page
	// does not wait for it, so it may still be on its way when the home
	// page is answered; the creation signs links and waits for it.
	if w.ssm.Reads.Load() != 1 {
		t.Errorf("the keyring was read %d times by the creation, want once (at init, not a request)", w.ssm.Reads.Load())
	}
	var created service.Created
	decodeJSON(t, "POST /api/games", resp, &created)
	if created.ID == "" || len(created.InviteTokens) != 2 || created.OrganiserToken == "" || !created.Unconfirmed {
		t.Fatalf("POST /api/games answered %+v", created)
	}
	// The game counted against API Gateway's sourceIp, not against what
	// the client wrote in X-Forwarded-For (create.json puts another
	// address first there).
	hour := time.Now().Unix() / 3600
	if w.guardItem(fmt.Sprintf("games/client/203.0.113.7/3600/%d", hour)) == nil && w.guardItem(fmt.Sprintf("games/client/203.0.113.7/3600/%d", hour-1)) == nil {
		t.Error("no counter of the games made from the request's sourceIp 203.0.113.7")
	}
	// The organiser confirms with the mail's token: the invitations leave.
	confirmTok, err := w.service(nil).Token(linksign.PurposeConfirm, created.ID, linksign.NoSeat, 0, service.ConfirmTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	if resp := fn.serveHTTP(apiEvent(t, "confirm.json", map[string]string{"ID": created.ID, "Token": confirmTok, "RequestID": "confirm"})); resp.status != http.StatusOK {
		t.Fatalf("confirm: %d %s", resp.status, resp.body)
	}

	// Both invitations accepted: the game starts.
	seatTokens := make([]string, 2)
	for i, inv := range created.InviteTokens {
		resp := fn.serveHTTP(apiEvent(t, "accept.json", map[string]string{"ID": created.ID, "Token": inv, "RequestID": "accept-" + strconv.Itoa(i)}))
		if resp.status != http.StatusOK {
			t.Fatalf("accept %d: %d %s", i, resp.status, resp.body)
		}
		var out struct {
			SeatToken string `json:"seat_token"`
			Seat      int    `json:"seat"`
		}
		decodeJSON(t, "accept", resp, &out)
		if out.SeatToken == "" || out.Seat != i {
			t.Fatalf("accept %d answered %s", i, resp.body)
		}
		seatTokens[i] = out.SeatToken
	}
	view := func(what string) httpapi.GameView {
		t.Helper()
		resp := fn.serveHTTP(apiEvent(t, "view.json", map[string]string{"ID": created.ID, "Token": seatTokens[0], "RequestID": what}))
		if resp.status != http.StatusOK {
			t.Fatalf("GET /api/games/{id} %s: %d %s", what, resp.status, resp.body)
		}
		var v httpapi.GameView
		decodeJSON(t, "view", resp, &v)
		return v
	}
	v := view("after-accept")
	if v.Status != service.StatusPlaying || len(v.Owing) == 0 || v.Kind != "western" || v.As != "seat" {
		t.Fatalf("after both accepted: status %q, kind %q, as %q, owing %v", v.Status, v.Kind, v.As, v.Owing)
	}

	// A move by a seat that owes one, from its legal actions.
	seat := v.Owing[0]
	resp = fn.serveHTTP(apiEvent(t, "legal.json", map[string]string{"ID": created.ID, "Token": seatTokens[seat]}))
	if resp.status != http.StatusOK {
		t.Fatalf("legal: %d %s", resp.status, resp.body)
	}
	var legal struct {
		Version int64           `json:"version"`
		Legal   []engine.Choice `json:"legal"`
	}
	decodeJSON(t, "legal", resp, &legal)
	if len(legal.Legal) == 0 {
		t.Fatalf("seat %d owes a move and has no legal action: %s", seat, resp.body)
	}
	action, _ := json.Marshal(instance(legal.Legal[0]))
	resp = fn.serveHTTP(apiEvent(t, "act.json", map[string]string{"ID": created.ID, "Token": seatTokens[seat],
		"Action": string(action), "Version": strconv.FormatInt(legal.Version, 10)}))
	if resp.status != http.StatusOK {
		t.Fatalf("move %s: %d %s", action, resp.status, resp.body)
	}
	var res service.Result
	decodeJSON(t, "move", resp, &res)
	if res.Version != legal.Version+1 || res.N != 0 || res.Replayed {
		t.Fatalf("move answered %s, on version %d", resp.body, legal.Version)
	}
	if v := view("after-move"); v.Moves != 1 || v.Version != res.Version {
		t.Errorf("after the move: moves %d, version %d; want 1, %d", v.Moves, v.Version, res.Version)
	}

	// A body over the API's limit.
	big := `{"kind":"western","organiser":{"name":"` + strings.Repeat("я", httpapi.MaxBody) + `"}}`
	resp = fn.serveHTTP(apiEvent(t, "oversized.json", map[string]string{"Body": big}))
	if resp.status != http.StatusRequestEntityTooLarge {
		t.Errorf("a %d-byte body: %d %.300s, want 413", len(big), resp.status, resp.body)
	}
	var fail struct {
		Error struct {
			Code service.Code `json:"code"`
		} `json:"error"`
	}
	decodeJSON(t, "oversized", resp, &fail)
	if fail.Error.Code != service.CodeTooLarge {
		t.Errorf("a %d-byte body: error %s, want %s", len(big), resp.body, service.CodeTooLarge)
	}

	// The game as it is in the table.
	item := w.gameItem(created.ID)
	if item == nil {
		t.Fatalf("game %s is not in table %s", created.ID, w.table)
	}
	rec, ver, err := w.service(nil).Load(t.Context(), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ver != res.Version || rec.Moves != 1 || rec.Status != service.StatusPlaying || rec.Kind != "western" {
		t.Errorf("stored: version %d, moves %d, status %q, kind %q; want %d, 1, %q, western", ver, rec.Moves, rec.Status, rec.Kind, res.Version, service.StatusPlaying)
	}
	for i, s := range rec.Seats {
		if !s.Accepted {
			t.Errorf("stored: seat %d has not accepted", i)
		}
	}
	if rec.Seats[0].Name != "Анна" || rec.Organiser.Name != "Ольга" {
		t.Errorf("stored names %q, organiser %q", rec.Seats[0].Name, rec.Organiser.Name)
	}
	if _, ok := item["outbox"]; !ok || len(rec.Outbox) == 0 {
		t.Errorf("stored: no mail pending (outbox attribute present: %v), the stream's notifier sends it", ok)
	}
	if w.ssm.Reads.Load() != 1 {
		t.Errorf("the keyring was read %d times, want once, at init", w.ssm.Reads.Load())
	}
}
