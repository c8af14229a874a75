package service_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestDeadlines is P-4 through the service's clock: a reminder a quarter of
// the time before the deadline, the default played when it passes, and the
// seat handed to a bot after two misses in a row — which then plays at once
// whenever the seat owes a decision.
func TestDeadlines(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler),
		Rand: testenv.Rand(t.Name())})
	ctx := context.Background()
	c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", DeadlineHours: 4, Options: []byte(`{"laps":20}`),
		Organiser: service.Person{Email: "o@pbm.test"}, Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, c.ID)
	servicetest.OrdersOff(t, svc, c.ID) // every decision waits for its deadline
	for i := 0; i < 2; i++ {
		if _, err := svc.Accept(ctx, c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	load := func() *service.Record {
		rec, _, err := svc.Load(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	owing := func() int {
		rec := load()
		g, _ := svc.Engine(rec)
		return g.Owing()[0]
	}
	waking := func() bool {
		ids, err := st.Waking(ctx, now.Unix())
		if err != nil {
			t.Fatal(err)
		}
		return len(ids) == 1 && ids[0] == c.ID
	}
	mails := func(kind string) int {
		n := 0
		for _, m := range load().Outbox {
			if m.Kind == kind {
				n++
			}
		}
		return n
	}

	first := owing()
	moves := load().Moves
	// Not yet: nothing wakes, a tick changes nothing.
	now = now.Add(2 * time.Hour)
	if waking() {
		t.Fatal("the game wakes before its reminder")
	}
	// Three hours in (a quarter before the 4-hour deadline): a reminder.
	now = now.Add(time.Hour + time.Minute)
	if !waking() {
		t.Fatal("the game does not wake for its reminder")
	}
	if n, err := svc.TickAll(ctx); err != nil || n != 1 {
		t.Fatalf("tick: %d games, %v", n, err)
	}
	if mails(service.MailReminder) != 1 || load().Moves != moves {
		t.Fatalf("after the reminder time: %d reminders, %d moves", mails(service.MailReminder), load().Moves-moves)
	}
	if _, err := svc.TickAll(ctx); err != nil || mails(service.MailReminder) != 1 {
		t.Fatal("a second tick reminded again")
	}
	// The deadline passes: the defaults play the seat's turn out (roll,
	// then no purchase, no optional action), and that is one miss.
	now = now.Add(time.Hour)
	if _, err := svc.TickAll(ctx); err != nil {
		t.Fatal(err)
	}
	rec := load()
	if rec.Moves <= moves || owing() == first || rec.Misses[first] != 1 || rec.Bots[first] {
		t.Fatalf("after the deadline: %d moves, seat %d owes, misses %v, bots %v", rec.Moves-moves, owing(), rec.Misses, rec.Bots)
	}
	for _, e := range mustRecent(t, rec)[moves:] {
		if e.Seat != first {
			t.Fatalf("the deadline played seat %d's move %v", e.Seat, e.Action)
		}
	}
	// Miss again whenever the first seat owes: the second miss in a row
	// hands it to a bot.
	for i := 0; i < 40 && !load().Bots[first]; i++ {
		if owing() != first {
			// The other player moves in time.
			if _, err := svc.ActBot(ctx, c.ID, inviteOf(load(), owing()), fmt.Sprintf("other-%04d", i)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		now = now.Add(5 * time.Hour)
		if _, err := svc.TickAll(ctx); err != nil {
			t.Fatal(err)
		}
	}
	rec = load()
	if !rec.Bots[first] {
		t.Fatalf("the seat was not handed to a bot: misses %v", rec.Misses)
	}
	// From now on the first seat never owes after a commit: its bot plays
	// in the same write as the move that made it owe.
	for i := 0; i < 60 && load().Status == service.StatusPlaying; i++ {
		if o := owing(); o == first {
			t.Fatalf("move %d: the bot's seat is left owing", i)
		}
		if _, err := svc.ActBot(ctx, c.ID, inviteOf(load(), owing()), fmt.Sprintf("after-%04d", i)); err != nil {
			t.Fatal(err)
		}
	}
}

func inviteOf(rec *service.Record, seat int) int {
	for i, s := range rec.Seats {
		if s.Engine == seat {
			return i
		}
	}
	return -1
}

func mustRecent(t *testing.T, rec *service.Record) []service.Entry {
	t.Helper()
	e, err := rec.Recent()
	if err != nil {
		t.Fatal(err)
	}
	// Recent holds the newest entries; index them from the game's start.
	out := make([]service.Entry, rec.Moves)
	copy(out[rec.Moves-len(e):], e)
	return out
}

// TestDeadlinesDrop: with on_misses "drop", the second miss in a row makes
// the player leave the game instead of handing the seat to a bot.
func TestDeadlinesDrop(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler),
		Rand: testenv.Rand(t.Name())})
	ctx := context.Background()
	c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", DeadlineHours: 1, OnMisses: service.OnMissesDrop,
		Organiser: service.Person{Email: "o@pbm.test"},
		Seats:     []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}, {Name: "C", Email: "c@pbm.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, c.ID)
	for i := 0; i < 3; i++ {
		if _, err := svc.Accept(ctx, c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	rec, _, _ := svc.Load(ctx, c.ID)
	g, _ := svc.Engine(rec)
	absent := g.Owing()[0]
	for i := 0; i < 60; i++ {
		rec, _, _ = svc.Load(ctx, c.ID)
		g, _ = svc.Engine(rec)
		if g.Score()[absent].Bankrupt || rec.Status != service.StatusPlaying {
			break
		}
		if seat := g.Owing()[0]; seat != absent {
			if _, err := svc.ActBot(ctx, c.ID, inviteOf(rec, seat), fmt.Sprintf("present-%04d", i)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		now = now.Add(2 * time.Hour)
		if _, err := svc.TickAll(ctx); err != nil {
			t.Fatal(err)
		}
	}
	rec, _, _ = svc.Load(ctx, c.ID)
	g, _ = svc.Engine(rec)
	if !g.Score()[absent].Bankrupt || rec.Bots[absent] || rec.Misses[absent] != 2 {
		t.Fatalf("after two misses: out %v, bot %v, misses %v", g.Score()[absent].Bankrupt, rec.Bots[absent], rec.Misses)
	}
	if rec.Status != service.StatusPlaying {
		t.Fatal("two players are left: the game goes on")
	}
}
