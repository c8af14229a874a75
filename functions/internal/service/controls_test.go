package service_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/gamerecord"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// load reads the game.
func (g *seededGame) load(t *testing.T) *service.Record {
	t.Helper()
	rec, _, err := g.svc.Load(context.Background(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// control gives the organiser's control.
func (g *seededGame) control(t *testing.T, req service.ControlRequest) {
	t.Helper()
	if err := g.svc.Control(context.Background(), g.id, req); err != nil {
		t.Fatalf("control %s: %v", req.Control, err)
	}
}

// replaysExactly checks that the game's log replays to its stored state
// (P-1), whatever the controls did.
func (g *seededGame) replaysExactly(t *testing.T) {
	t.Helper()
	rec := g.load(t)
	eg, err := g.svc.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	log, err := g.svc.FullLog(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []engine.Command
	for _, e := range log {
		cmds = append(cmds, engine.Command{Seat: e.Seat, Action: e.Action})
	}
	r, err := testGames.Engines().Replay(rec.Kind, rec.Rules, rec.Options, eg.Seats(), [32]byte(rec.Seed), cmds)
	if err != nil {
		t.Fatal(err)
	}
	if state, _ := r.MarshalJSON(); string(state) != string(rec.State) {
		t.Fatal("the replayed game differs from the stored one")
	}
}

// controlMails are the control mails the last drain sent, as "seat".
func controlMails(rec *service.Record) []int {
	var out []int
	for _, m := range rec.Outbox {
		if m.Kind == service.MailControl {
			out = append(out, m.Seat)
		}
	}
	return out
}

// TestControlPauseResumeExtend: a paused game's clocks stand still — no
// move is taken, no deadline plays, nothing wakes — and resuming moves the
// deadlines on by the pause; extending moves them on by the hours given.
// Each is mailed to the table once, however often it is sent.
func TestControlPauseResumeExtend(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "western", `{"laps":2}`, 3)
	rec := g.load(t)
	eg, _ := g.svc.Engine(rec)
	seat := eg.Owing()[0]
	due := rec.Due[seat]
	moves := rec.Moves

	g.control(t, service.ControlRequest{Control: service.ControlPause, Key: "pause-0001"})
	rec = g.drain(t)
	if !rec.IsPaused() || !slices.Equal(controlMails(rec), []int{0, 1, 2}) {
		t.Fatalf("paused %v, control mails %v", rec.IsPaused(), controlMails(rec))
	}
	g.control(t, service.ControlRequest{Control: service.ControlPause}) // again: nothing
	if rec = g.drain(t); len(controlMails(rec)) != 0 {
		t.Fatal("a second pause was mailed")
	}
	a := eg.Legal(seat)[0].Action
	if _, err := g.svc.Act(ctx, g.id, seat, a, "key-00001", service.Precondition{}); service.AsError(err).Code != service.CodeWrongStatus {
		t.Fatalf("a move while paused: %v", err)
	}
	*g.now = time.Unix(due, 0).Add(10 * time.Hour)
	if err := g.svc.Tick(ctx, g.id); err != nil {
		t.Fatal(err)
	}
	if rec = g.load(t); rec.Moves != moves {
		t.Fatal("a deadline played while paused")
	}
	if n, err := g.svc.TickAll(ctx); err != nil || n != 0 {
		t.Fatalf("the sweep woke %d paused games: %v", n, err)
	}
	pausedFor := g.now.Unix() - rec.Paused
	g.control(t, service.ControlRequest{Control: service.ControlResume})
	rec = g.drain(t)
	if rec.IsPaused() || rec.Due[seat] != due+pausedFor || len(controlMails(rec)) != 3 {
		t.Fatalf("after resume: paused %v, due %d (want %d), mails %v", rec.IsPaused(), rec.Due[seat], due+pausedFor, controlMails(rec))
	}
	g.control(t, service.ControlRequest{Control: service.ControlExtend, Hours: 5, Key: "extend-001"})
	g.control(t, service.ControlRequest{Control: service.ControlExtend, Hours: 5, Key: "extend-001"}) // a retry
	if rec = g.drain(t); rec.Due[seat] != due+pausedFor+5*3600 {
		t.Fatalf("extended due %d, want %d", rec.Due[seat], due+pausedFor+5*3600)
	}
	if err := g.svc.Control(ctx, g.id, service.ControlRequest{Control: service.ControlExtend}); service.AsError(err).Code != service.CodeInvalid {
		t.Fatalf("extend by nothing: %v", err)
	}
	if got := len(rec.Controls); got != 3 {
		t.Fatalf("%d controls logged, want 3", got)
	}
	g.play(t, 5000)
	g.replaysExactly(t)
}

// TestControlBotAndEnd: a seat handed to a bot plays at once and comes
// back to its player; a removed player resigns at their next decision;
// the game ended now is scored by net worth, and its record replays and
// verifies (gamerecord.Verify).
func TestControlBotAndEnd(t *testing.T) {
	for _, f := range mailFixtures {
		t.Run(f.kind, func(t *testing.T) {
			ctx := context.Background()
			g := newSeededGame(t, f.kind, f.options, f.seats)
			rec := g.load(t)
			eg, _ := g.svc.Engine(rec)
			seat := eg.Owing()[0]
			moves := rec.Moves
			g.control(t, service.ControlRequest{Control: service.ControlBot, Seat: seat})
			rec = g.drain(t)
			if !rec.Bots[seat] || rec.Moves == moves {
				t.Fatalf("bot: %v, moves %d → %d", rec.Bots[seat], moves, rec.Moves)
			}
			g.control(t, service.ControlRequest{Control: service.ControlUnbot, Seat: seat})
			if rec = g.drain(t); rec.Bots[seat] {
				t.Fatal("the seat stayed with its bot")
			}
			// Removed: out at its next decision, by its own resignation.
			eg, _ = g.svc.Engine(rec)
			out := (eg.Owing()[0] + 1) % f.seats
			g.control(t, service.ControlRequest{Control: service.ControlRemove, Seat: out})
			for n := 0; n < 200; n++ {
				rec = g.drain(t)
				if eg, _ = g.svc.Engine(rec); eg.Score()[out].Bankrupt || eg.Over() {
					break
				}
				s := eg.Owing()[0]
				*g.now = g.now.Add(time.Minute)
				if _, err := g.svc.Act(ctx, g.id, s, g.pick(eg.Legal(s)), fmt.Sprintf("move-%04d", n), service.Precondition{}); err != nil {
					t.Fatal(err)
				}
			}
			if !eg.Score()[out].Bankrupt {
				t.Fatal("the removed player is still in the game")
			}
			log := mustRecent(t, rec)
			if !slices.ContainsFunc(log, func(e service.Entry) bool {
				return e.Seat == out && e.Action.Type == engine.Resign && e.By == service.ByOrganiser
			}) {
				t.Fatal("no resignation of the removed seat in the log")
			}
			g.replaysExactly(t)
			if eg.Over() {
				return
			}
			before := eg.Score()
			g.control(t, service.ControlRequest{Control: service.ControlEnd})
			rec = g.drain(t)
			if rec.Status != service.StatusOver {
				t.Fatalf("status %s after the end", rec.Status)
			}
			eg, _ = g.svc.Engine(rec)
			for i, sc := range eg.Score() {
				if sc.NetWorth != before[i].NetWorth {
					t.Fatalf("seat %d: net worth %d, before the end %d", i, sc.NetWorth, before[i].NetWorth)
				}
			}
			if !slices.Contains(g.sent, "over 0") {
				t.Fatalf("no game-over mail: %v", g.sent[len(g.sent)-4:])
			}
			g.replaysExactly(t)
			doc, err := g.svc.GameRecord(ctx, rec)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := gamerecord.Verify(testGames.Engines(), doc); err != nil {
				t.Fatal(err)
			}
			if err := g.svc.Control(ctx, g.id, service.ControlRequest{Control: service.ControlEnd}); service.AsError(err).Code != service.CodeWrongStatus {
				t.Fatalf("end twice: %v", err)
			}
		})
	}
}

// TestControlReplace: a substitute takes a seat with its history; until
// they accept its bot plays it; the old player's links no longer act for
// it.
func TestControlReplace(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "businessman", `{"laps":4}`, 3)
	g.control(t, service.ControlRequest{Control: service.ControlReplace, Seat: 1,
		Substitute: &service.Person{Name: "Sub", Email: "Sub@pbm.test", Lang: "en"}})
	rec := g.drain(t)
	if len(rec.Seats) != 4 || rec.Seats[1].Out != service.OutReplaced || rec.Seats[3].Engine != 1 || !rec.Bots[1] {
		t.Fatalf("seats %+v, bots %v", rec.Seats, rec.Bots)
	}
	if !slices.Contains(g.sent, "invite 3") || !slices.Contains(g.sent, "control 1") || !slices.Contains(g.sent, "control 0") {
		t.Fatalf("mails %v", g.sent)
	}
	for _, p := range []linksign.Purpose{linksign.PurposeSeat, linksign.PurposeInvite} {
		if err := rec.HasSeat(linksign.Claims{Purpose: p, Seat: 1}); service.AsError(err).Code != service.CodeForbidden {
			t.Fatalf("the old %s link: %v", p, err)
		}
	}
	if err := g.svc.Control(ctx, g.id, service.ControlRequest{Control: service.ControlReplace, Seat: 0,
		Substitute: &service.Person{Name: "Twice", Email: "sub@pbm.test"}}); service.AsError(err).Code != service.CodeInvalid {
		t.Fatalf("the same substitute twice: %v", err)
	}
	if _, err := g.svc.Accept(ctx, g.id, 3); err != nil {
		t.Fatal(err)
	}
	rec = g.drain(t)
	if rec.Bots[1] || !rec.Seats[3].Accepted {
		t.Fatalf("after the substitute accepted: bots %v, seat %+v", rec.Bots, rec.Seats[3])
	}
	if _, err := g.svc.Act(ctx, g.id, 1, engine.Action{Type: "roll"}, "old-00001", service.Precondition{}); service.AsError(err).Code != service.CodeForbidden {
		t.Fatalf("the old player acts: %v", err)
	}
	// The substitute plays the seat to the end (invitation 3 for seat 1).
	for n := 0; n < 20000; n++ {
		rec = g.drain(t)
		if rec.Status == service.StatusOver {
			break
		}
		eg, _ := g.svc.Engine(rec)
		seat := eg.Owing()[0]
		inv := seat
		if seat == 1 {
			inv = 3
		}
		*g.now = g.now.Add(time.Minute)
		if _, err := g.svc.Act(ctx, g.id, inv, g.pick(eg.Legal(seat)), fmt.Sprintf("subs-%04d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	if rec.Status != service.StatusOver {
		t.Fatal("the game did not end")
	}
	g.replaysExactly(t)
}

// TestControlCancel: a game not started can be cancelled, once, and those
// invited are told; a started one cannot.
func TestControlCancel(t *testing.T) {
	ctx := context.Background()
	g := newInvitedGame(t, "western", `{"laps":2}`, 2)
	g.drain(t)
	g.control(t, service.ControlRequest{Control: service.ControlCancel})
	g.control(t, service.ControlRequest{Control: service.ControlCancel})
	rec := g.drain(t)
	if rec.Status != service.StatusCancelled || !slices.Equal(controlMails(rec), []int{0, 1}) {
		t.Fatalf("status %s, mails %v", rec.Status, controlMails(rec))
	}
	if _, err := g.svc.Accept(ctx, g.id, 0); service.AsError(err).Code != service.CodeWrongStatus {
		t.Fatalf("accept a cancelled game: %v", err)
	}
	started := newSeededGame(t, "western", `{"laps":2}`, 2)
	if err := started.svc.Control(ctx, started.id, service.ControlRequest{Control: service.ControlCancel}); service.AsError(err).Code != service.CodeWrongStatus {
		t.Fatalf("cancel a started game: %v", err)
	}
	if err := started.svc.Control(ctx, started.id, service.ControlRequest{Control: "explode"}); service.AsError(err).Code != service.CodeInvalid {
		t.Fatalf("an unknown control: %v", err)
	}
}

// TestAway: while away a player's seat is played by its bot at once, is
// mailed no decision and misses nothing; the others see until when; once
// the allowance is used, the usual deadlines hold. A planned absence wakes
// the game when it begins.
func TestAway(t *testing.T) {
	ctx := context.Background()
	g := newSeededGame(t, "western", `{"laps":20}`, 2)
	rec := g.load(t)
	eg, _ := g.svc.Engine(rec)
	seat := eg.Owing()[0]
	other := 1 - seat
	moves := rec.Moves
	if err := g.svc.Away(ctx, g.id, seat, 0, 0); err != nil {
		t.Fatal(err)
	}
	rec = g.drain(t)
	if rec.Moves == moves {
		t.Fatal("the away seat's decision was not played")
	}
	if until, ok := rec.Absent(g.now.Unix())[seat]; !ok || until != 0 {
		t.Fatalf("absent: %v", rec.Absent(g.now.Unix()))
	}
	// The other plays; the away seat is never asked.
	g.sent = nil
	for n := 0; n < 30; n++ {
		rec = g.drain(t)
		eg, _ = g.svc.Engine(rec)
		if eg.Over() || slices.Contains(eg.Owing(), seat) {
			t.Fatalf("the away seat owes: %v", eg.Owing())
		}
		*g.now = g.now.Add(time.Hour)
		if _, err := g.svc.Act(ctx, g.id, other, g.pick(eg.Legal(other)), fmt.Sprintf("away-%04d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	if slices.Contains(g.sent, fmt.Sprintf("turn %d", seat)) || rec.Misses[seat] != 0 {
		t.Fatalf("mails %v, misses %d", g.sent, rec.Misses[seat])
	}
	if err := g.svc.Back(ctx, g.id, seat); err != nil {
		t.Fatal(err)
	}
	rec = g.drain(t)
	if _, ok := rec.Absent(g.now.Unix())[seat]; ok {
		t.Fatal("still away after coming back")
	}
	left := rec.AwayLeft(seat)
	if left <= 0 || left >= service.DefaultAwayDays*86400 {
		t.Fatalf("allowance left %d", left)
	}
	// A planned absence: the sweep wakes the game when it begins.
	start := g.now.Add(time.Hour)
	if err := g.svc.Away(ctx, g.id, seat, start.Unix(), start.Add(48*time.Hour).Unix()); err != nil {
		t.Fatal(err)
	}
	for n := 0; ; n++ {
		rec = g.drain(t)
		eg, _ = g.svc.Engine(rec)
		if slices.Contains(eg.Owing(), seat) {
			break
		}
		if n > 50 {
			t.Fatal("the seat never owes")
		}
		if _, err := g.svc.Act(ctx, g.id, other, g.pick(eg.Legal(other)), fmt.Sprintf("plan-%04d", n), service.Precondition{}); err != nil {
			t.Fatal(err)
		}
	}
	if rec.WakeKey > start.Unix() {
		t.Fatalf("wakes at %d, after the absence begins at %d", rec.WakeKey, start.Unix())
	}
	moves = rec.Moves
	*g.now = start.Add(time.Minute)
	if _, err := g.svc.TickAll(ctx); err != nil {
		t.Fatal(err)
	}
	if rec = g.drain(t); rec.Moves == moves {
		t.Fatal("the planned absence did not play the seat's decision")
	}
	// The allowance used up: no more absences.
	if err := g.svc.Away(ctx, g.id, seat, g.now.Add(72*time.Hour).Unix(), g.now.Add(time.Duration(service.MaxAwayDays)*24*time.Hour).Unix()); err != nil {
		t.Fatal(err)
	}
	if err := g.svc.Away(ctx, g.id, seat, g.now.Add(time.Duration(service.MaxAwayDays+1)*24*time.Hour).Unix(), 0); service.AsError(err).Code != service.CodeInvalid {
		t.Fatalf("an absence past the allowance: %v", err)
	}
	g.replaysExactly(t)
	if err := g.svc.Away(ctx, g.id, 7, 0, 0); service.AsError(err).Code != service.CodeForbidden {
		t.Fatalf("an absence of no seat: %v", err)
	}
}
