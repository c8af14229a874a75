// Package servicetest helps tests that make games: a game's invitations
// leave only once its organiser has confirmed their address (issue 9),
// which a test does here the way the confirmation link's button does,
// through Service.Confirm.
package servicetest

import (
	"path/filepath"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

// Roomy are limits no test that makes many games reaches.
var Roomy = service.Limits{OrganiserPerHour: 1 << 30, OrganiserPerDay: 1 << 30, ClientPerHour: 1 << 30, ClientPerDay: 1 << 30}

// Confirm confirms the organiser's address of game id, which sends its
// invitations.
func Confirm(t testing.TB, svc *service.Service, id string) {
	t.Helper()
	if err := svc.Confirm(t.Context(), id); err != nil {
		t.Fatalf("confirm game %s: %v", id, err)
	}
}

// Create makes a game and confirms it, as an organiser who follows the
// confirmation mail at once.
func Create(t testing.TB, svc *service.Service, req service.CreateRequest) service.Created {
	t.Helper()
	c, err := svc.Create(t.Context(), req)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if c.Unconfirmed {
		Confirm(t, svc, c.ID)
	}
	return c
}

// Bolt opens a bbolt store in the test's own directory, closed when the
// test ends.
func Bolt(t testing.TB) *boltstore.Store {
	t.Helper()
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Keys is a keyring of one test key.
func Keys(t testing.TB) *linksign.Keyring {
	t.Helper()
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// OrdersOff turns off the standing orders of every invitation of game id
// (each seat starts with its game's suggested ones): for tests of a table
// whose every decision is mailed.
func OrdersOff(t testing.TB, svc *service.Service, id string) {
	t.Helper()
	rec, _, err := svc.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	for inv := range rec.Seats {
		if err := svc.SetOrders(t.Context(), id, inv, engine.Orders{}); err != nil {
			t.Fatalf("orders off for invitation %d of game %s: %v", inv, id, err)
		}
	}
}
