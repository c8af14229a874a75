package service_test

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// readsGames is a store that tells each read of a game on read.
type readsGames struct {
	store.Store
	read chan string
}

func (s readsGames) GetGame(ctx context.Context, id string) (store.Game, error) {
	s.read <- id
	return s.Store.GetGame(ctx, id)
}

// TestAuthorizeAndLoad: while the keys are still to be read (a Lambda's
// first request that needs them), the game is read at the same time as
// they are, and kept once the token checks; a token that fails gets its
// error and no record. Once the keys are in hand, a token that fails
// reads no game.
func TestAuthorizeAndLoad(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	base := service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now },
		Log: slog.New(slog.DiscardHandler), Rand: testenv.Rand(t.Name())}
	made := servicetest.Create(t, service.New(base), service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "o@pbm.test"},
		Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
	id, token := made.ID, made.OrganiserToken

	// The keys arrive when released; until then they are pending.
	released := make(chan struct{})
	var have atomic.Bool
	c := base
	reads := readsGames{Store: st, read: make(chan string, 8)}
	c.Store, c.Guard, c.Keys = reads, st, nil
	c.KeysLater = func() (*linksign.Keyring, error) {
		<-released
		have.Store(true)
		return keys, nil
	}
	c.KeysPending = func() bool { return !have.Load() }
	svc := service.New(c)

	type answer struct {
		claims linksign.Claims
		rec    *service.Record
		err    error
	}
	got := make(chan answer, 1)
	go func() {
		cl, rec, _, err := svc.AuthorizeAndLoad(t.Context(), token, id, linksign.PurposeOrganiser)
		got <- answer{cl, rec, err}
	}()
	select {
	case read := <-reads.read:
		if read != id {
			t.Fatalf("read game %q, want %q", read, id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the game was not read while the keys were pending")
	}
	select {
	case a := <-got:
		t.Fatalf("answered before the keys arrived: %+v", a)
	default:
	}
	close(released)
	a := <-got
	if a.err != nil || a.rec == nil || a.rec.ID != id || a.claims.Game != id || a.claims.Purpose != linksign.PurposeOrganiser {
		t.Fatalf("AuthorizeAndLoad: %+v", a)
	}

	// A forged token fails, and gives no record.
	have.Store(false)
	forged := token + "x"
	if _, rec, _, err := svc.AuthorizeAndLoad(t.Context(), forged, id, linksign.PurposeOrganiser); err == nil || rec != nil {
		t.Fatalf("a forged token while the keys were pending: %v, %v", rec, err)
	}
	<-reads.read // the read begun beside the keys

	// The keys in hand: a token that fails reads nothing.
	have.Store(true)
	_, rec, _, err := svc.AuthorizeAndLoad(t.Context(), forged, id, linksign.PurposeOrganiser)
	var e *service.Error
	if rec != nil || !errors.As(err, &e) || e.Code != service.CodeUnauthorized {
		t.Fatalf("a forged token with the keys in hand: %v, %v; want unauthorized", rec, err)
	}
	select {
	case read := <-reads.read:
		t.Errorf("game %s read for a token that failed, with the keys in hand", read)
	default:
	}
}
