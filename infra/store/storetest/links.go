package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// testAccessVersions: an access item keeps its versions (testVersions).
func testAccessVersions(t *testing.T, s LinkPlayers) {
	testVersions(t, "access", versioned{
		get: func(ctx context.Context, id string) (string, int64, []byte, error) {
			a, err := s.GetAccess(ctx, id)
			return a.ID, a.Version, a.Body, err
		},
		put: func(ctx context.Context, id string, body []byte, prev int64) (int64, error) {
			return s.PutAccess(ctx, store.Access{ID: id, Body: body}, prev)
		},
	})
}

// versioned is a small item written under optimistic locking (an access
// item, a sent marker): put at prev (0 creates it), read back.
type versioned struct {
	get func(ctx context.Context, id string) (owner string, version int64, body []byte, err error)
	put func(ctx context.Context, id string, body []byte, prev int64) (int64, error)
}

// testVersions: an item is absent until created once at version 1,
// updated only from the version stored, and a stale write changes nothing.
func testVersions(t *testing.T, what string, s versioned) {
	ctx := context.Background()
	id := newID(t)
	if _, _, _, err := s.get(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("%s of nothing: %v, want ErrNotFound", what, err)
	}
	if v, err := s.put(ctx, id, []byte("one"), 0); err != nil || v != 1 {
		t.Fatalf("create %s = %d, %v", what, v, err)
	}
	if _, err := s.put(ctx, id, []byte("again"), 0); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("create %s twice: %v, want ErrConflict", what, err)
	}
	if _, err := s.put(ctx, newID(t), []byte("x"), 2); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("update of a missing %s: %v, want ErrConflict", what, err)
	}
	if v, err := s.put(ctx, id, []byte("two"), 1); err != nil || v != 2 {
		t.Fatalf("update %s = %d, %v", what, v, err)
	}
	if _, err := s.put(ctx, id, []byte("stale"), 1); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale update of %s: %v, want ErrConflict", what, err)
	}
	owner, v, body, err := s.get(ctx, id)
	mustOK(t, err, "get %s %s", what, id)
	if owner != id || v != 2 || string(body) != "two" {
		t.Fatalf("%s after a stale write: %s version %d, body %q; want %s version 2, two", what, owner, v, body, id)
	}
}

// testAccessRace: of racing updates from the same version, one wins.
func testAccessRace(t *testing.T, s LinkPlayers) {
	ctx := context.Background()
	id := newID(t)
	if _, err := s.PutAccess(ctx, store.Access{ID: id, Body: []byte("0")}, 0); err != nil {
		t.Fatal(err)
	}
	errs := race(8, func(i int) error {
		_, err := s.PutAccess(ctx, store.Access{ID: id, Body: []byte{byte('a' + i)}}, 1)
		return err
	})
	oneWinner(t, "PutAccess from version 1", errs)
}

// testLinkIDFirstWins: the first id set stays, later calls get it back,
// the player item is made if needed and its other fields are kept.
func testLinkIDFirstWins(t *testing.T, s LinkPlayers) {
	ctx := context.Background()
	email := newID(t) + "@Example.test"
	got, err := s.SetPlayerLinkID(ctx, email, "first", 100)
	if err != nil || got != "first" {
		t.Fatalf("SetPlayerLinkID = %q, %v, want first", got, err)
	}
	if got, err = s.SetPlayerLinkID(ctx, email, "second", 200); err != nil || got != "first" {
		t.Fatalf("SetPlayerLinkID again = %q, %v, want first", got, err)
	}
	mustOK(t, s.SetPlayerPrefs(ctx, email, "en", store.MailTurns, "", false, 300), "SetPlayerPrefs")
	p, err := s.GetPlayer(ctx, email)
	mustOK(t, err, "GetPlayer")
	if p.LinkID != "first" || p.LinkGen != 0 || p.Lang != "en" {
		t.Fatalf("player %+v, want link id first, generation 0, lang en", p)
	}
}

// testLinkGen: generations count up by one from zero, atomically.
func testLinkGen(t *testing.T, s LinkPlayers) {
	ctx := context.Background()
	email := newID(t) + "@example.test"
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.BumpLinkGen(ctx, email, 100); err != nil {
				t.Errorf("BumpLinkGen: %v", err)
			}
		}()
	}
	wg.Wait()
	gen, err := s.BumpLinkGen(ctx, email, 200)
	if err != nil || gen != 6 {
		t.Fatalf("sixth BumpLinkGen = %d, %v, want 6", gen, err)
	}
	p, err := s.GetPlayer(ctx, email)
	mustOK(t, err, "GetPlayer")
	if p.LinkGen != 6 {
		t.Fatalf("player's generation %d, want 6", p.LinkGen)
	}
}
