package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// testAccessVersions: an access item is created once at version 1,
// updated only from the version stored, and a stale write changes nothing.
func testAccessVersions(t *testing.T, s LinkPlayers) {
	ctx := context.Background()
	id := newID(t)
	if _, err := s.GetAccess(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetAccess of nothing: %v, want ErrNotFound", err)
	}
	if v, err := s.PutAccess(ctx, store.Access{ID: id, Body: []byte("one")}, 0); err != nil || v != 1 {
		t.Fatalf("create = %d, %v", v, err)
	}
	if _, err := s.PutAccess(ctx, store.Access{ID: id, Body: []byte("again")}, 0); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("create twice: %v, want ErrConflict", err)
	}
	if _, err := s.PutAccess(ctx, store.Access{ID: newID(t), Body: []byte("x")}, 2); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("update of a missing item: %v, want ErrConflict", err)
	}
	if v, err := s.PutAccess(ctx, store.Access{ID: id, Body: []byte("two")}, 1); err != nil || v != 2 {
		t.Fatalf("update = %d, %v", v, err)
	}
	if _, err := s.PutAccess(ctx, store.Access{ID: id, Body: []byte("stale")}, 1); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale update: %v, want ErrConflict", err)
	}
	got, err := s.GetAccess(ctx, id)
	mustOK(t, err, "GetAccess(%s)", id)
	if got.ID != id || got.Version != 2 || string(got.Body) != "two" {
		t.Fatalf("after a stale write: %+v, want version 2, body two", got)
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
