package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/store"
)

// TestGameTooLargeAnswered (issue 28): a move whose commit would take the
// game item past DynamoDB's 400 KB is refused by the store (dynalite
// enforces the limit as DynamoDB does), and the player gets a clear
// answer in their language — 507 item_too_large, saying the game has
// grown too large to store and that the change was not saved — not a
// bare 500; the stored game is as it was. No game reaches that in play
// (the largest item of TestCostWholeGames is under 6 KB: the log moves to
// chunks, the keys and mail kept are bounded); the test provokes it by
// giving a game a name of incompressible text that brings its item
// within a few bytes of the limit.
func TestGameTooLargeAnswered(t *testing.T) {
	e := newEnv(t)
	id, tokens := e.startGame("western", 2, `{}`)
	ctx := t.Context()

	// The largest name the store takes, found by halving: each write
	// the store refuses leaves the game as it was.
	pad := make([]byte, 400<<10)
	if _, err := rand.Read(pad); err != nil {
		t.Fatal(err)
	}
	text := base64.RawURLEncoding.EncodeToString(pad) // compresses to about 3/4
	lo, hi := 0, len(text)
	for hi-lo > 4 {
		mid := (lo + hi) / 2
		g, err := e.store.GetGame(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		g.Body = renamed(t, g.Body, text[:mid])
		_, err = e.store.PutGame(ctx, g, g.Version)
		switch {
		case err == nil:
			lo = mid
		case errors.Is(err, store.ErrTooLarge):
			hi = mid
		default:
			t.Fatal(err)
		}
	}
	before, err := e.store.GetGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("game item with a name of %d characters: %d B of body", lo, len(before.Body))

	var v httpapi.GameView
	e.call("GET", "/api/games/"+id, tokens[0], nil, &v)
	seat := v.Owing[0]
	var l legalAnswer
	e.call("GET", "/api/games/"+id+"/legal", tokens[seat], nil, &l)
	for i, lang := range []string{"ru", "en"} {
		body, err := json.Marshal(httpapi.ActRequest{Action: l.Legal[0].Action, Key: fmt.Sprintf("too-large-%d", i), Version: l.Version})
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequestWithContext(ctx, "POST", e.url+"/api/games/"+id+"/actions", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tokens[seat])
		req.Header.Set("Accept-Language", lang)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var answer struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(data, &answer); err != nil {
			t.Fatalf("%s: %d %s: %v", lang, resp.StatusCode, data, err)
		}
		want := map[string]string{"ru": "слишком большой", "en": "too large to store"}[lang]
		if resp.StatusCode != http.StatusInsufficientStorage || answer.Error.Code != "item_too_large" || !bytes.Contains([]byte(answer.Error.Message), []byte(want)) {
			t.Fatalf("%s: %d %s, want 507 item_too_large saying %q", lang, resp.StatusCode, data, want)
		}
	}
	after, err := e.store.GetGame(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != before.Version || !bytes.Equal(after.Body, before.Body) {
		t.Fatalf("the refused move changed the game: version %d → %d", before.Version, after.Version)
	}
}

// renamed is a game record's body (compressed JSON) with its name set
// to name.
func renamed(t *testing.T, body []byte, name string) []byte {
	t.Helper()
	raw, err := service.RecordJSON(body)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	if rec["name"], err = json.Marshal(name); err != nil {
		t.Fatal(err)
	}
	if raw, err = json.Marshal(rec); err != nil {
		t.Fatal(err)
	}
	out, err := service.RecordBody(raw)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
