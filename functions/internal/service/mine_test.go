package service_test

import (
	"context"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestMyGamesFollowTheGames (issue 16): a player's "my games" lists each
// of their games once, the ones in which they owe a decision first, as
// the games say, however the turns pass; a page at a time lists them
// all; a list an older version kept in the player item becomes
// memberships on the first read, and the list goes.
func TestMyGamesFollowTheGames(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Guard: st, Keys: keys, Now: func() time.Time { return now },
		Log: slog.New(slog.DiscardHandler), Limits: servicetest.Roomy, Rand: testenv.Rand(t.Name())})
	ctx := t.Context()
	var ids []string
	for i := range 5 {
		now = now.Add(time.Minute)
		c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", DeadlineHours: 4,
			Organiser: service.Person{Email: "org@pbm.test"},
			Seats:     []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
		if i < 4 { // the last stays invited
			for s := range 2 {
				if _, err := svc.Accept(ctx, c.ID, s); err != nil {
					t.Fatal(err)
				}
			}
		}
		ids = append(ids, c.ID)
	}
	check := func(email string) {
		t.Helper()
		p, err := svc.Prefs(ctx, email)
		if err != nil {
			t.Fatal(err)
		}
		token, err := svc.PlayerToken(ctx, p, linksign.PurposeMyGames)
		if err != nil {
			t.Fatal(err)
		}
		mine, err := svc.MyGamesOf(ctx, token, "", service.MyGamesPage)
		if err != nil {
			t.Fatal(err)
		}
		first := mine.Games
		var owed, listed []string
		for i, g := range first {
			listed = append(listed, g.ID)
			if g.YourTurn() {
				if i > len(owed) {
					t.Errorf("%s: game %s owed after games not owed", email, g.ID)
				}
				owed = append(owed, g.ID)
			}
		}
		var wantOwed []string
		for _, id := range ids {
			rec, _, err := svc.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range rec.Seats {
				if s.Email == email && rec.Status == service.StatusPlaying && s.Engine >= 0 && rec.Due[s.Engine] > 0 {
					wantOwed = append(wantOwed, id)
				}
			}
		}
		slices.Sort(owed)
		slices.Sort(wantOwed)
		if !slices.Equal(owed, wantOwed) {
			t.Errorf("%s owes in %v, the games say %v", email, owed, wantOwed)
		}
		// A page at a time: each game once, the same games.
		var paged []string
		for cursor := ""; ; {
			page, err := svc.MyGamesOf(ctx, token, cursor, 2)
			if err != nil {
				t.Fatal(err)
			}
			next := page.Next
			for _, g := range page.Games {
				paged = append(paged, g.ID)
			}
			if next == "" {
				break
			}
			cursor = next
		}
		for _, got := range [][]string{listed, paged} {
			slices.Sort(got)
			if want := slices.Sorted(slices.Values(ids)); !slices.Equal(got, want) {
				t.Errorf("%s's games %v, want %v", email, got, want)
			}
		}
	}
	for _, e := range []string{"a@pbm.test", "b@pbm.test", "org@pbm.test"} {
		check(e)
	}
	// Deadlines pass: the sweep plays the defaults, and the turns move.
	for range 3 {
		now = now.Add(5 * time.Hour)
		if _, err := svc.TickAll(ctx); err != nil {
			t.Fatal(err)
		}
		check("a@pbm.test")
		check("b@pbm.test")
	}
	// An older version's list in the player item.
	for _, id := range ids {
		if err := st.AddPlayerGame(ctx, "a@pbm.test", id, now.Unix()); err != nil {
			t.Fatal(err)
		}
	}
	check("a@pbm.test")
	if p, err := st.GetPlayer(ctx, "a@pbm.test"); err != nil || len(p.Games) != 0 {
		t.Errorf("the player item's list after the first read: %v, %v", p.Games, err)
	}
}

// countWrites counts the writes to a player store.
type countWrites struct {
	store.PlayerStore
	n atomic.Int64
}

func (c *countWrites) AddPlayerGame(ctx context.Context, email, gameID string, at int64) error {
	c.n.Add(1)
	return c.PlayerStore.AddPlayerGame(ctx, email, gameID, at)
}

func (c *countWrites) SetPlayerPrefs(ctx context.Context, email, lang, mail, tz string, unsubscribed bool, at int64) error {
	c.n.Add(1)
	return c.PlayerStore.SetPlayerPrefs(ctx, email, lang, mail, tz, unsubscribed, at)
}

func (c *countWrites) Suppress(ctx context.Context, email, reason string, at int64) error {
	c.n.Add(1)
	return c.PlayerStore.Suppress(ctx, email, reason, at)
}

func (c *countWrites) QueueDigest(ctx context.Context, email string, item store.DigestItem, at int64) error {
	c.n.Add(1)
	return c.PlayerStore.QueueDigest(ctx, email, item, at)
}

func (c *countWrites) TakeDigest(ctx context.Context, email string) ([]store.DigestItem, error) {
	c.n.Add(1)
	return c.PlayerStore.TakeDigest(ctx, email)
}

func (c *countWrites) PutMembership(ctx context.Context, m store.Membership) error {
	c.n.Add(1)
	return c.PlayerStore.PutMembership(ctx, m)
}

func (c *countWrites) PutTurn(ctx context.Context, tn store.Turn) error {
	c.n.Add(1)
	return c.PlayerStore.PutTurn(ctx, tn)
}

func (c *countWrites) DeleteTurn(ctx context.Context, email, game string, due int64) error {
	c.n.Add(1)
	return c.PlayerStore.DeleteTurn(ctx, email, game, due)
}

func (c *countWrites) MoveTurns(ctx context.Context, gone, put []store.Turn) error {
	c.n.Add(1)
	return c.PlayerStore.MoveTurns(ctx, gone, put)
}

func (c *countWrites) ForgetPlayerGames(ctx context.Context, email string, ids []string) error {
	c.n.Add(1)
	return c.PlayerStore.ForgetPlayerGames(ctx, email, ids)
}

// TestPassedTurnExpires (issue 28): the clock's commit at a deadline
// puts the new turn but leaves the one whose deadline passed (it writes
// one turn item, not two); "my games" does not list that turn as owed,
// and writes nothing (a GET); the turn expires service.TurnGrace after
// its deadline, when the store no longer lists it (DynamoDB's TTL deletes
// it at no write of ours). Every turn put expires TurnGrace after its due.
func TestPassedTurnExpires(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	players := &countWrites{PlayerStore: st}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: players, Guard: st, Keys: keys, Now: func() time.Time { return now },
		Log: slog.New(slog.DiscardHandler), Limits: servicetest.Roomy, Rand: testenv.Rand(t.Name())})
	ctx := t.Context()
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", DeadlineHours: 4,
		Organiser: service.Person{Email: "org@pbm.test"},
		Seats:     []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
	for s := range 2 {
		if _, err := svc.Accept(ctx, c.ID, s); err != nil {
			t.Fatal(err)
		}
	}
	owing := func() map[string]int64 {
		t.Helper()
		rec, _, err := svc.Load(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, s := range rec.Seats {
			if s.Engine >= 0 && s.Engine < len(rec.Due) && rec.Due[s.Engine] > 0 {
				out[s.Email] = rec.Due[s.Engine]
			}
		}
		return out
	}
	turns := func(email string) []int64 {
		t.Helper()
		fp, err := st.FirstPage(ctx, email, service.MyGamesPage, now.Unix())
		if err != nil {
			t.Fatal(err)
		}
		var dues []int64
		for _, tr := range fp.Turns {
			if tr.Expires != tr.Due+service.TurnGrace {
				t.Errorf("%s's turn due %d expires at %d, want %d", email, tr.Due, tr.Expires, tr.Due+service.TurnGrace)
			}
			dues = append(dues, tr.Due)
		}
		return dues
	}
	before := owing()
	if len(before) != 1 {
		t.Fatalf("owing at the start: %v, want one seat", before)
	}
	var email string
	var due int64
	for e, d := range before {
		email, due = e, d
	}
	// The deadline passes: the sweep plays the seat's default.
	now = time.Unix(due, 0).Add(time.Minute)
	if _, err := svc.TickAll(ctx); err != nil {
		t.Fatal(err)
	}
	if d, ok := owing()[email]; ok && d == due {
		t.Fatalf("%s still owes the decision due %d after its deadline", email, due)
	}
	if got := turns(email); !slices.Contains(got, due) {
		t.Fatalf("%s's turns after the deadline: %v, want the passed one (%d) left to the listing", email, got, due)
	}
	p, err := svc.Prefs(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	token, err := svc.PlayerToken(ctx, p, linksign.PurposeMyGames)
	if err != nil {
		t.Fatal(err)
	}
	written := players.n.Load()
	mine, err := svc.MyGamesOf(ctx, token, "", service.MyGamesPage)
	if err != nil {
		t.Fatal(err)
	}
	if n := players.n.Load() - written; n != 0 {
		t.Errorf("listing my games wrote %d times, want none", n)
	}
	newDue, ok := owing()[email]
	for _, g := range mine.Games {
		if g.ID == c.ID && g.YourTurn() != ok {
			t.Errorf("my games says %s owes in the game: %v, the game says %v", email, g.YourTurn(), ok)
		}
	}
	if got := turns(email); !slices.Contains(got, due) {
		t.Errorf("%s's turns after my games was read: %v, want the passed one (%d) left to expire", email, got, due)
	}
	if got := turns(email); ok && !slices.Contains(got, newDue) {
		t.Errorf("%s's turns: %v, want the one due %d", email, got, newDue)
	}
	// A second before it expires the passed turn is listed; at its expiry
	// it is not.
	now = time.Unix(due+service.TurnGrace-1, 0)
	if got := turns(email); !slices.Contains(got, due) {
		t.Errorf("%s's turns a second before the passed one expires: %v, want it (%d)", email, got, due)
	}
	now = time.Unix(due+service.TurnGrace, 0)
	if got := turns(email); slices.Contains(got, due) {
		t.Errorf("%s's turns once the passed one expired: %v, want it (%d) gone", email, got, due)
	}
}

// TestPlayingOnOwesNoTurn (issue 28): while a game plays on by itself
// (its orders cover more than one commit plays), "my games" shows no one
// owing a decision in it and the store holds no turn of it, so that the
// sweep's commits that carry it on move no turn item; once it is over
// or waits on a player, the turns follow the game again.
func TestPlayingOnOwesNoTurn(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Guard: st, Keys: keys, Now: func() time.Time { return now },
		Log: slog.New(slog.DiscardHandler), Limits: servicetest.Roomy, Rand: testenv.Rand(t.Name())})
	ctx := t.Context()
	emails := []string{"a@pbm.test", "b@pbm.test", "c@pbm.test"}
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", DeadlineHours: 4, Options: []byte(`{"laps":5}`),
		Organiser: service.Person{Email: "org@pbm.test"},
		Seats:     []service.Person{{Name: "A", Email: emails[0]}, {Name: "B", Email: emails[1]}, {Name: "C", Email: emails[2]}}})
	for s := range 3 {
		if _, err := svc.Accept(ctx, c.ID, s); err != nil {
			t.Fatal(err)
		}
	}
	for inv := range 3 {
		if err := svc.SetOrders(ctx, c.ID, inv, coverAll); err != nil {
			t.Fatal(err)
		}
	}
	playedOn := 0
	for ticks := 0; ; ticks++ {
		rec, _, err := svc.Load(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !rec.PlayOn {
			break
		}
		playedOn++
		for _, e := range emails {
			fp, err := st.FirstPage(ctx, e, service.MyGamesPage, now.Unix())
			if err != nil {
				t.Fatal(err)
			}
			for _, tr := range fp.Turns {
				if tr.Game == c.ID {
					t.Fatalf("commit %d playing on: %s has a turn in the game (due %d)", ticks, e, tr.Due)
				}
			}
		}
		if ticks > 100 {
			t.Fatal("the sweep does not play the game on")
		}
		now = now.Add(time.Minute)
		if _, err := svc.TickAll(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if playedOn == 0 {
		t.Fatal("the orders did not play on past a commit's bound")
	}
}
