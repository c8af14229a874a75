package service_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

// Issue 25: abuse and bad input on the surfaces issues 14–17 added.

// TestImportEveryCommand (symptom 2): the record of a game the organiser
// ended, with orders, a bot and a missed deadline in its log, imports as
// a finished game (it panicked on the organiser's seat −2: 500).
func TestImportEveryCommand(t *testing.T) {
	for _, f := range []struct{ kind, options string }{{"western", `{"laps":5}`}, {"businessman", `{"laps":10}`}} {
		t.Run(f.kind, func(t *testing.T) {
			ctx := context.Background()
			g := newSeededGame(t, f.kind, f.options, 3)
			servicetest.EveryCommand(t, g.svc, g.now, g.id)
			rec := g.load(t)
			log, err := g.svc.FullLog(ctx, rec)
			if err != nil {
				t.Fatal(err)
			}
			by := map[string]int{}
			for _, e := range log {
				by[fmt.Sprintf("%s/%d", e.By, min(e.Seat, 0))]++
			}
			for _, want := range []string{"/0", service.ByOrder + "/0", service.ByBot + "/0", service.ByDeadline + "/0", service.ByOrganiser + "/-2"} {
				if by[want] == 0 {
					t.Fatalf("the log has no command %q: %v", want, by)
				}
			}
			doc, err := g.svc.GameRecord(ctx, rec)
			if err != nil {
				t.Fatal(err)
			}
			imported := func() (out service.Imported, err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
					}
				}()
				return g.svc.Import(ctx, doc, "203.0.113.5")
			}
			out, err := imported()
			if err != nil {
				t.Fatalf("import the record of a game its organiser ended: %v", err)
			}
			back, _, err := g.svc.Load(ctx, out.ID)
			if err != nil {
				t.Fatal(err)
			}
			if back.Status != service.StatusOver || back.Moves != len(doc.Commands) {
				t.Fatalf("imported: status %s, %d moves; want over, %d", back.Status, back.Moves, len(doc.Commands))
			}
		})
	}
}

// TestConfirmCancelledGame (symptom 3): confirming a game cancelled
// before its organiser confirmed it changes nothing: the address is not
// confirmed, and the players are not made known (no sign-in link for
// them, no membership).
func TestConfirmCancelledGame(t *testing.T) {
	ctx := context.Background()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Guard: st, Keys: keys, Now: func() time.Time { return now },
		Log: slog.New(slog.DiscardHandler), Limits: servicetest.Roomy, Rand: testenv.Rand(t.Name())})
	c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "org@pbm.test"},
		Seats: []service.Person{{Name: "A", Email: "never-invited-a@pbm.test"}, {Name: "B", Email: "never-invited-b@pbm.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Unconfirmed {
		t.Fatal("the first game of an address is confirmed at once")
	}
	if err := svc.Control(ctx, c.ID, service.ControlRequest{Control: service.ControlCancel}); err != nil {
		t.Fatal(err)
	}
	before, _, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Confirm(ctx, c.ID); err != nil {
		t.Fatalf("confirm a cancelled game: %v", err)
	}
	after, _, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != service.StatusCancelled || len(after.Outbox) != len(before.Outbox) {
		t.Errorf("after the confirmation: status %s, %d mails; want cancelled, %d", after.Status, len(after.Outbox), len(before.Outbox))
	}
	if ok, err := svc.Confirmed(ctx, "org@pbm.test"); err != nil || ok {
		t.Errorf("confirming a cancelled game confirmed the organiser's address (%v, %v)", ok, err)
	}
	for _, email := range []string{"never-invited-a@pbm.test", "never-invited-b@pbm.test"} {
		if _, _, ok, err := svc.IssueSignIn(ctx, email); err != nil || ok {
			t.Errorf("%s, of a game cancelled unconfirmed, can be mailed a sign-in link (%v, %v)", email, ok, err)
		}
	}
}

// TestReplacedInvitationRefused (symptom 5): the invitation of a player
// the organiser replaced no longer accepts (it answered a seat token
// that was then refused everywhere).
func TestReplacedInvitationRefused(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "businessman", `{"laps":4}`, 3)
	g.control(t, service.ControlRequest{Control: service.ControlReplace, Seat: 1,
		Substitute: &service.Person{Name: "Sub", Email: "sub@pbm.test"}})
	before := g.load(t)
	tok, err := g.svc.Accept(ctx, g.id, 1)
	if e := service.AsError(err); e == nil || e.Code != service.CodeForbidden {
		t.Fatalf("the replaced player's invitation accepts: %q, %v; want forbidden", tok, err)
	}
	if after := g.load(t); after.Updated != before.Updated || len(after.Outbox) != len(before.Outbox) {
		t.Error("the refused acceptance changed the game")
	}
}

// TestAwayBounded (symptom 7): an absence that begins in the year 9999,
// or later than the allowance could ever reach, is refused with a clear
// message; nothing is stored.
func TestAwayBounded(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "western", `{"laps":2}`, 2)
	far := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).Unix()
	for _, tc := range []struct{ from, until int64 }{
		{far, 0},
		{far, far + 86400},
		{g.now.Add(2 * 366 * 24 * time.Hour).Unix(), 0},
	} {
		err := g.svc.Away(ctx, g.id, 0, tc.from, tc.until)
		e := service.AsError(err)
		if e == nil || e.Code != service.CodeInvalid || !strings.Contains(e.RU, "дн") {
			t.Errorf("away from %d until %d: %v; want a refusal that says how far ahead", tc.from, tc.until, err)
		}
	}
	if rec := g.load(t); len(rec.Away) != 0 {
		t.Errorf("refused absences stored: %v", rec.Away)
	}
}

// TestRefusedOrderInRussian (symptom 7): a standing order out of its
// range is refused in Russian without the engine's English words.
func TestRefusedOrderInRussian(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "western", `{"laps":2}`, 2)
	rec := g.load(t)
	specs, err := g.svc.OrderSpecs(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []engine.Orders{{specs[len(specs)-1].Name: -1}, {"no_such_order": 1}} {
		e := service.AsError(g.svc.SetOrders(ctx, g.id, 0, o))
		if e == nil || e.Code != service.CodeInvalid {
			t.Fatalf("orders %v: %v, want invalid", o, e)
		}
		for _, r := range e.RU {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				t.Errorf("orders %v refused in Russian with Latin letters: %q", o, e.RU)
				break
			}
		}
	}
}
