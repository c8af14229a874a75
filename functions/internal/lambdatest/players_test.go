//go:build linux

package lambdatest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// TestAPIFunctionPlayers: the api function keeps the players as the local
// run does. A game created through it, once its organiser has confirmed,
// is on the list of each of its players and its organiser; a player's "my games" page, its preferences
// form and the one-click unsubscribe mail clients post (RFC 8058) answer
// 200 and store what they say.
func TestAPIFunctionPlayers(t *testing.T) {
	w := newWorld(t)
	bin := build(t, apiFunction)
	fn := startEmulator(t, buildRIE(t), bin, w.env(apiFunction, filepath.Dir(bin)))
	ctx := context.Background()

	req := w.createRequest("players")
	body, _ := json.Marshal(req)
	r := httptest.NewRequest(http.MethodPost, "/api/games", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	resp := fn.serveHTTP(gatewayEvent(t, "POST /api/games", r, "players-create"))
	if resp.status != http.StatusCreated {
		t.Fatalf("POST /api/games: %d %s", resp.status, resp.body)
	}
	var created service.Created
	decodeJSON(t, "POST /api/games", resp, &created)
	// The players join the index once the organiser has confirmed.
	confirmTok, err := w.service(nil).Token(linksign.PurposeConfirm, created.ID, linksign.NoSeat, 0, service.ConfirmTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	r = httptest.NewRequest(http.MethodPost, "/api/games/"+created.ID+"/confirm", nil)
	r.Header.Set("Authorization", "Bearer "+confirmTok)
	if resp := fn.serveHTTP(gatewayEvent(t, "POST /api/games/{id}/confirm", r, "players-confirm")); resp.status != http.StatusOK {
		t.Fatalf("POST /api/games/{id}/confirm: %d %s", resp.status, resp.body)
	}

	people := []string{req.Organiser.Email}
	for _, s := range req.Seats {
		people = append(people, s.Email)
	}
	for _, email := range people {
		// A player's games are membership items (issue 16).
		ms, _, err := w.store.Memberships(ctx, strings.ToLower(email), "", 100)
		if err != nil || !slices.ContainsFunc(ms, func(m store.Membership) bool { return m.Game == created.ID }) {
			t.Errorf("%s's games after the create: %v, %v; want %s among them", email, ms, err, created.ID)
		}
	}

	anna := req.Seats[0].Email
	svc := w.service(nil)
	token := func(p linksign.Purpose) string {
		tok, err := svc.Token(p, anna, linksign.NoSeat, 0, service.OrganiserTokenTTL)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}

	me := token(linksign.PurposeMyGames)
	r = httptest.NewRequest(http.MethodGet, "/me?t="+url.QueryEscape(me), nil)
	resp = fn.serveHTTP(gatewayEvent(t, "GET /me", r, "players-me"))
	if resp.status != http.StatusOK || !bytes.Contains(resp.body, []byte("/g/"+created.ID+"/invite")) {
		t.Errorf("GET /me: %d, want 200 and the game's invitation link: %.300s", resp.status, resp.body)
	}

	form := url.Values{"t": {me}, "mail": {"digest"}}
	r = httptest.NewRequest(http.MethodPost, "/me", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp = fn.serveHTTP(gatewayEvent(t, "POST /me", r, "players-prefs"))
	if resp.status != http.StatusOK {
		t.Errorf("POST /me: %d %.300s", resp.status, resp.body)
	}
	if p, err := w.store.GetPlayer(ctx, strings.ToLower(anna)); err != nil || p.Mail != "digest" {
		t.Errorf("after POST /me: mail %q, %v; want digest", p.Mail, err)
	}

	r = httptest.NewRequest(http.MethodPost, "/unsubscribe?t="+url.QueryEscape(token(linksign.PurposeUnsubscribe)),
		strings.NewReader("List-Unsubscribe=One-Click"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp = fn.serveHTTP(gatewayEvent(t, "POST /unsubscribe", r, "players-unsub"))
	if resp.status != http.StatusOK {
		t.Errorf("POST /unsubscribe (one click): %d %.300s", resp.status, resp.body)
	}
	if p, err := w.store.GetPlayer(ctx, strings.ToLower(anna)); err != nil || !p.Unsubscribed {
		t.Errorf("after the one-click unsubscribe: unsubscribed %v, %v", p.Unsubscribed, err)
	}
}
