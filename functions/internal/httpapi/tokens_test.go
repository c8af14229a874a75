package httpapi_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestTokenSuite: every kind of bad link token — forged signature, wrong
// key id, expired, another seat, another game, another purpose, a version
// already played, truncated or altered — is refused by the JSON API and by
// the pages with a clear error, and changes nothing.
func TestTokenSuite(t *testing.T) {
	st := openStore(t)
	k1, k2 := make([]byte, 32), make([]byte, 32)
	_, _ = rand.Read(k1)
	_, _ = rand.Read(k2)
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": k1})
	other, _ := linksign.NewKeyring("k2", map[string][]byte{"k2": k2}) // a key the service does not know
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: clock, Log: slog.New(slog.DiscardHandler), Rand: testenv.Rand(t.Name())})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: slog.New(slog.DiscardHandler)}))
	defer srv.Close()
	ctx := t.Context()

	mk := func() (string, int) {
		c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "o@pbm.test"},
			Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
		if err != nil {
			t.Fatal(err)
		}
		servicetest.Confirm(t, svc, c.ID)
		servicetest.OrdersOff(t, svc, c.ID) // the rolls wait for the seats
		for i := 0; i < 2; i++ {
			if _, err := svc.Accept(ctx, c.ID, i); err != nil {
				t.Fatal(err)
			}
		}
		// A few moves in, at a seat's roll: so there is a position
		// already played, and a roll is what the seat may do.
		for n := 0; ; n++ {
			rec, _, _ := svc.Load(ctx, c.ID)
			g, _ := svc.Engine(rec)
			inv := -1
			for i, s := range rec.Seats {
				if s.Engine == g.Owing()[0] {
					inv = i
				}
			}
			if rec.SeatPosition(g.Owing()[0]) >= 2 && len(g.Legal(g.Owing()[0])) > 0 && g.Legal(g.Owing()[0])[0].Type == "roll" {
				return c.ID, inv
			}
			if _, err := svc.ActBot(ctx, c.ID, inv, fmt.Sprintf("setup-%04d", n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	id, mover := mk()
	otherGame, _ := mk()
	rec, _, _ := svc.Load(ctx, id)
	ver := rec.SeatPosition(rec.Seats[mover].Engine) // links carry the seat's position
	sign := func(kr *linksign.Keyring, c linksign.Claims) string {
		tok, err := kr.Sign(c)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	good := linksign.Claims{Purpose: linksign.PurposeSeat, Game: id, Seat: mover, Version: ver, Expires: now.Add(time.Hour)}
	valid := sign(keys, good)
	with := func(f func(*linksign.Claims)) string {
		c := good
		f(&c)
		return sign(keys, c)
	}
	flip := func(tok string, i int) string {
		b := []byte(tok)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	parts := strings.Split(valid, ".")
	cases := []struct {
		name  string
		token string
		want  int
	}{
		{"forged signature", flip(valid, len(valid)-3), 401},
		{"altered payload", parts[0] + "." + parts[1] + "." + flip(parts[2], 4) + "." + parts[3], 401},
		{"wrong key id", sign(other, good), 401},
		{"kid renamed", parts[0] + ".k2." + parts[2] + "." + parts[3], 401},
		{"expired", with(func(c *linksign.Claims) { c.Expires = now.Add(-time.Second) }), 401},
		{"other seat", with(func(c *linksign.Claims) { c.Seat = 1 - mover }), 0}, // 409 (not your turn) or 403
		{"other game", with(func(c *linksign.Claims) { c.Game = otherGame }), 403},
		{"other purpose", with(func(c *linksign.Claims) { c.Purpose = linksign.PurposeSpectator }), 403},
		{"version already played", with(func(c *linksign.Claims) { c.Version = ver - 1 }), 409},
		{"truncated", valid[:len(valid)/2], 401},
		{"empty", "", 401},
		{"garbage", "v1.k1.%%%.zz", 401},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := st.GetGame(ctx, id)
			// The JSON API.
			body, _ := json.Marshal(httpapi.ActRequest{Action: roll(), Key: "token-suite-" + strings.ReplaceAll(tc.name, " ", "-")})
			req, _ := http.NewRequest("POST", srv.URL+"/api/games/"+id+"/actions", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tc.token)
			req.Header.Set("Accept-Language", "en")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var e struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&e)
			resp.Body.Close()
			if resp.StatusCode < 400 || e.Error.Message == "" || (tc.want != 0 && resp.StatusCode != tc.want) {
				t.Errorf("API: %d %+v, want %d with a message", resp.StatusCode, e.Error, tc.want)
			}
			// The page's button.
			form := url.Values{"t": {tc.token}, "type": {"roll"}, "key": {"page-" + strings.ReplaceAll(tc.name, " ", "-")}}
			presp, err := http.PostForm(srv.URL+"/g/"+id+"/act?lang=en", form)
			if err != nil {
				t.Fatal(err)
			}
			var page bytes.Buffer
			_, _ = page.ReadFrom(presp.Body)
			presp.Body.Close()
			// A move the game has left behind redirects to the game's page
			// saying so (a reload must not post again); any other refusal
			// answers with its status and says why.
			moved := presp.StatusCode == http.StatusOK && presp.Request.URL.Path == "/g/"+id && strings.Contains(page.String(), "already made")
			if !moved && (presp.StatusCode < 400 || !strings.Contains(page.String(), `role="alert"`) && !strings.Contains(page.String(), `role="status"`)) {
				t.Errorf("page: %d without a message", presp.StatusCode)
			}
			after, _ := st.GetGame(ctx, id)
			if before.Version != after.Version || !bytes.Equal(before.Body, after.Body) {
				t.Fatal("a refused token changed the game")
			}
		})
	}
	// And the valid token acts, once.
	body, _ := json.Marshal(httpapi.ActRequest{Action: roll(), Key: "token-suite-valid"})
	req, _ := http.NewRequest("POST", srv.URL+"/api/games/"+id+"/actions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+valid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("the valid token: %d", resp.StatusCode)
	}
}

func roll() engine.Action { return engine.Action{Type: "roll"} }
