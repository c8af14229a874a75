package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// testSentVersions: a game's sent marker keeps its versions
// (testVersions).
func testSentVersions(t *testing.T, s SentGames) {
	get := func(ctx context.Context, id string) (string, int64, []byte, error) {
		m, err := s.GetSent(ctx, id)
		return m.GameID, m.Version, m.Body, err
	}
	testVersions(t, "sent marker", versioned{get: get, put: func(ctx context.Context, id string, body []byte, prev int64) (int64, error) {
		return s.PutSent(ctx, store.Sent{GameID: id, Body: body}, prev)
	}})
}

func testSentStale(t *testing.T, s SentGames) {
	ctx := context.Background()
	id := newID(t)
	mustPutSent(t, s, id, "one")
	for _, prev := range []int64{0, 2} {
		if _, err := s.PutSent(ctx, store.Sent{GameID: id, Body: []byte("stale")}, prev); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("PutSent(prev %d) over version 1: %v, want ErrConflict", prev, err)
		}
	}
	if got := mustSent(t, s, id); got.Version != 1 || string(got.Body) != "one" {
		t.Fatalf("after stale writes: %+v, want version 1 body one", got)
	}
}

func testSentRace(t *testing.T, s SentGames) {
	ctx := context.Background()
	id := newID(t)
	errs := race(8, func(int) error {
		_, err := s.PutSent(ctx, store.Sent{GameID: id, Body: []byte("x")}, 0)
		return err
	})
	oneWinner(t, "PutSent of version 1", errs)
}

// testSentBesideGame: the marker is an item of its own: writing it
// changes neither the game, its version nor the listings, and a game's
// writes leave the marker be.
func testSentBesideGame(t *testing.T, s SentGames) {
	ctx := context.Background()
	id := newID(t)
	g := store.Game{ID: id, Body: []byte("game"), OutboxPending: true, UpdatedAt: 5, WakeAt: 7}
	g.Version = mustPut(t, s, g, 0)
	mustPutSent(t, s, id, "sent")
	sameGame(t, mustGet(t, s, id), g)
	g.Version = mustPut(t, s, g, g.Version)
	if got := mustSent(t, s, id); got.Version != 1 || string(got.Body) != "sent" {
		t.Fatalf("marker after a game write: %+v", got)
	}
	chunks, err := s.Chunks(ctx, id)
	if mustOK(t, err, "Chunks(%s)", id); len(chunks) != 0 {
		t.Fatalf("the marker is listed as a chunk: %+v", chunks)
	}
}

func mustSent(t *testing.T, s SentGames, id string) store.Sent {
	t.Helper()
	m, err := s.GetSent(context.Background(), id)
	return must(t, m, err, "GetSent(%s)", id)
}

// mustPutSent writes a game's first marker.
func mustPutSent(t *testing.T, s SentGames, id, body string) {
	t.Helper()
	_, err := s.PutSent(context.Background(), store.Sent{GameID: id, Body: []byte(body)}, 0)
	mustOK(t, err, "PutSent(%s, 0)", id)
}

// testGetSents: GetSents reads many games' markers by id, and leaves out
// the games without one.
func testGetSents(t *testing.T, s SentGames) {
	ctx := context.Background()
	var ids []string
	for i := range 5 {
		id := newID(t)
		ids = append(ids, id)
		if i%2 == 0 {
			mustPutSent(t, s, id, fmt.Sprintf("marker %d", i))
		}
	}
	got, err := s.GetSents(ctx, append(ids, ids[0]))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("GetSents: %d markers, want 3", len(got))
	}
	for i, id := range ids {
		m, ok := got[id]
		if ok != (i%2 == 0) || ok && (m.GameID != id || m.Version != 1 || string(m.Body) != fmt.Sprintf("marker %d", i)) {
			t.Errorf("marker of game %d: %+v, %v", i, m, ok)
		}
	}
}

// testGetSentPlayers: GetSentPlayers reads a game's marker (version 0
// where there is none) and the players of the addresses given, keyed by
// the lower-case address, leaving out those without a player item. A
// store that is not also a player store, or cannot, is not asked.
func testGetSentPlayers(t *testing.T, s SentGames) {
	sp, ok := s.(interface {
		store.SentPlayersGetter
		store.PlayerStore
	})
	if !ok {
		t.Skip("the store does not read markers with players")
	}
	ctx := context.Background()
	id, other := newID(t), newID(t)
	a, b := newEmail(t), newEmail(t)
	mustSetPrefs(t, sp, a, "en", store.MailTurns, "", false, 5)
	m, players, err := sp.GetSentPlayers(ctx, id, []string{strings.ToUpper(a), b, a})
	if err != nil {
		t.Fatal(err)
	}
	if m.GameID != id || m.Version != 0 || len(players) != 1 || players[a].Email != a || players[a].Lang != "en" || players[a].Mail != store.MailTurns {
		t.Fatalf("without a marker: %+v, %+v", m, players)
	}
	mustPutSent(t, s, id, "marker")
	mustPutSent(t, s, other, "another")
	m, players, err = sp.GetSentPlayers(ctx, id, nil)
	if err != nil || m.GameID != id || m.Version != 1 || string(m.Body) != "marker" || len(players) != 0 {
		t.Fatalf("with a marker: %+v, %+v, %v", m, players, err)
	}
}
