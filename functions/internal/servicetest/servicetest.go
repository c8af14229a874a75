// Package servicetest helps tests that make games: a game's invitations
// leave only once its organiser has confirmed their address (issue 9),
// which a test does here the way the confirmation link's button does,
// through Service.Confirm.
package servicetest

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

// Roomy are limits no test that makes many games (or leagues, members,
// seasons) reaches.
var Roomy = service.Limits{OrganiserPerHour: 1 << 30, OrganiserPerDay: 1 << 30, ClientPerHour: 1 << 30, ClientPerDay: 1 << 30,
	Leagues: roomy, Joins: roomy, Seasons: roomy}

var roomy = service.Rate{OrganiserPerHour: 1 << 30, OrganiserPerDay: 1 << 30, ClientPerHour: 1 << 30, ClientPerDay: 1 << 30}

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

// EveryCommand plays game id, started with three seats, until its
// organiser ends it, so that its log holds every kind of command the
// service writes: the players' own (the engine's bot's choice, made as
// the player), invitation 0's standing orders', a bot's (the organiser
// handed seat 1 to it), a missed deadline's default, invitation 2's
// resignation (the organiser removed it) and the organiser's end (seat
// engine.Organiser). now is the service's clock, which it moves on.
func EveryCommand(t testing.TB, svc *service.Service, now *time.Time, id string) {
	t.Helper()
	ctx := t.Context()
	rec, _, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := svc.OrderSpecs(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.SetOrders(ctx, id, 0, engine.SensibleOrders(specs)); err != nil {
		t.Fatal(err)
	}
	control := func(req service.ControlRequest) {
		t.Helper()
		if err := svc.Control(ctx, id, req); err != nil {
			t.Fatalf("control %s: %v", req.Control, err)
		}
	}
	control(service.ControlRequest{Control: service.ControlBot, Seat: 1})
	for n := range 24 {
		rec, _, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		g, err := svc.Engine(rec)
		if err != nil {
			t.Fatal(err)
		}
		if g.Over() {
			t.Fatal("the game ended before its organiser could end it")
		}
		switch n {
		case 8: // the seat owing misses its deadline: the clock plays its default
			*now = now.Add(time.Duration(service.DefaultDeadlineHours+1) * time.Hour)
			if err := svc.Tick(ctx, id); err != nil {
				t.Fatal(err)
			}
			continue
		case 16:
			control(service.ControlRequest{Control: service.ControlRemove, Seat: 2})
			continue
		}
		seat := g.Owing()[0]
		a, ok := g.Bot(seat)
		if !ok {
			t.Fatalf("seat %d has no move", seat)
		}
		*now = now.Add(time.Minute)
		if _, err := svc.Act(ctx, id, seat, a, fmt.Sprintf("every-%04d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	control(service.ControlRequest{Control: service.ControlEnd})
}

// ConfirmLeague confirms the organiser's address of league id, as the
// button of its confirmation mail does: the league may then mail its
// members and start seasons.
func ConfirmLeague(t testing.TB, lg *leagues.Service, id string) {
	t.Helper()
	if err := lg.Confirm(t.Context(), id, linksign.NoSeat); err != nil {
		t.Fatalf("confirm league %s: %v", id, err)
	}
}

// Join adds m to league id and confirms their address, as a member who
// follows their confirmation mail at once.
func Join(t testing.TB, lg *leagues.Service, id string, m leagues.Member) {
	t.Helper()
	if err := lg.AddMember(t.Context(), id, m, ""); err != nil {
		t.Fatalf("join league %s: %v", id, err)
	}
	l, _, err := lg.League(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(l.Members, func(o leagues.Member) bool { return o.Name == strings.TrimSpace(m.Name) })
	if err := lg.Confirm(t.Context(), id, i); err != nil {
		t.Fatalf("confirm member %s of league %s: %v", m.Name, id, err)
	}
}
