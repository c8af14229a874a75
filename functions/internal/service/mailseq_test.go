package service_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

// seededGame is a whole game played through the service by seeded people
// who answer each decision at once, with the mails it sent in order.
type seededGame struct {
	svc  *service.Service
	id   string
	now  *time.Time
	rng  *rand.Rand
	sent []string
}

func newSeededGame(t *testing.T, kind, options string, seats int) *seededGame {
	t.Helper()
	g := newInvitedGame(t, kind, options, seats)
	for i := range seats {
		if _, err := g.svc.Accept(context.Background(), g.id, i); err != nil {
			t.Fatal(err)
		}
	}
	g.drain(t)
	return g
}

// newInvitedGame is a seeded game waiting for its players to accept.
func newInvitedGame(t *testing.T, kind, options string, seats int) *seededGame {
	t.Helper()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	g := &seededGame{now: &now, rng: rand.New(rand.NewPCG(7, 11))}
	g.svc = service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return *g.now },
		Rand: rand.NewChaCha8([32]byte{13}), Log: slog.New(slog.DiscardHandler)})
	var people []service.Person
	for i := range seats {
		people = append(people, service.Person{Name: fmt.Sprintf("P%d", i), Email: fmt.Sprintf("p%d@pbm.test", i)})
	}
	ctx := context.Background()
	c, err := g.svc.Create(ctx, service.CreateRequest{Kind: kind, Options: []byte(options),
		Organiser: service.Person{Email: "o@pbm.test"}, Seats: people})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, g.svc, c.ID)
	// Every decision mailed, as when the players turn their suggested
	// orders off: the tests that want orders set them.
	servicetest.OrdersOff(t, g.svc, c.ID)
	g.id = c.ID
	return g
}

// drain "sends" the outbox: it notes each mail as "kind seat" and marks it sent.
func (g *seededGame) drain(t *testing.T) *service.Record {
	t.Helper()
	ctx := context.Background()
	rec, _, err := g.svc.Load(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range rec.Outbox {
		g.sent = append(g.sent, fmt.Sprintf("%s %d", m.Kind, m.Seat))
		ids = append(ids, m.ID)
	}
	if err := g.svc.MarkSent(ctx, g.id, ids, nil); err != nil {
		t.Fatal(err)
	}
	return rec
}

// pick is a seeded person's choice: the default half the time, else any
// legal choice but resigning; an amount the choice leaves open at its
// minimum.
func (g *seededGame) pick(legal []engine.Choice) engine.Action {
	var pool []engine.Choice
	for _, c := range legal {
		if c.Type == engine.Resign {
			continue
		}
		if c.Default && g.rng.IntN(2) == 0 {
			return instance(c)
		}
		pool = append(pool, c)
	}
	return instance(pool[g.rng.IntN(len(pool))])
}

// instance is the choice's action, with its minimum when it is ranged
// (even a ranged default: the fixtures were captured that way).
func instance(c engine.Choice) engine.Action {
	a := c.Action
	if c.Ranged() {
		a.Amount = c.Min
	}
	return a
}

// play answers every decision until the game ends (each seat's invitation
// is its engine seat: everyone accepted).
func (g *seededGame) play(t *testing.T, maxMoves int) {
	t.Helper()
	ctx := context.Background()
	for n := 0; ; n++ {
		rec := g.drain(t)
		if rec.Status == service.StatusOver {
			return
		}
		if n > maxMoves {
			t.Fatalf("game not over after %d moves", n)
		}
		eg, err := g.svc.Engine(rec)
		if err != nil {
			t.Fatal(err)
		}
		seat := eg.Owing()[0]
		legal := eg.Legal(seat)
		// A deal open to a seat is answered first, as its mail asks.
		if dl, ok := eg.(engine.Dealing); ok {
			if deals := dl.Deals(); len(deals) > 0 {
				seat, legal = deals[0].To, engine.AnswersTo(deals[:1], deals[0].To)
			}
		}
		*g.now = g.now.Add(time.Minute)
		if _, err := g.svc.Act(ctx, g.id, seat, g.pick(legal), fmt.Sprintf("move-%06d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
}

// mailFixtures are seeded whole games whose mails, with no standing orders
// set, must stay exactly those today's code sent (testdata/mails-*.txt,
// captured before standing orders existed, and again when rules version 3
// made deals stall no turn; PBM_UPDATE_MAILS=1 rewrites them).
var mailFixtures = []struct {
	kind, options string
	seats         int
}{
	{"western", `{"laps":2}`, 3},
	{"businessman", `{"laps":4,"rent_claim":"claim"}`, 4},
}

// TestNoOrdersMailedAsToday: a player with no orders set is mailed exactly
// as before standing orders: the same mails, to the same seats, in order.
func TestNoOrdersMailedAsToday(t *testing.T) {
	for _, f := range mailFixtures {
		t.Run(f.kind, func(t *testing.T) {
			g := newSeededGame(t, f.kind, f.options, f.seats)
			g.play(t, 20_000)
			got := strings.Join(g.sent, "\n") + "\n"
			path := filepath.Join("testdata", "mails-"+f.kind+".txt")
			if os.Getenv("PBM_UPDATE_MAILS") == "1" {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Fatalf("mails differ from %s: got %d mails, want %d", path, len(g.sent), strings.Count(string(want), "\n"))
			}
		})
	}
}
