package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/infra/store"
)

// RunMemberships runs the suite of store.MembershipStore. newStore is
// called once per subtest; the stores it returns may share their data:
// every subtest uses addresses of its own.
func RunMemberships(t *testing.T, newStore func(t *testing.T) store.PlayerStore) {
	runSuite(t, newStore, []subtest[store.PlayerStore]{
		{"ListedInOrderAPageAtATime", testMembershipsPaged},
		{"PutAgainListedOnce", testMembershipPutAgain},
		{"TurnsSoonestFirst", testTurns},
		{"TurnsMovedTogether", testMoveTurns},
		{"TurnsExpire", testTurnsExpire},
		{"PlayerItemStaysSmall", testMembershipsLeavePlayer},
		{"ForgetPlayerGames", testForgetPlayerGames},
		{"BadCursor", testMembershipBadCursor},
		{"FirstPage", testFirstPage},
	})
}

func mustPutMembership(t *testing.T, s store.MembershipStore, m store.Membership) {
	t.Helper()
	mustOK(t, s.PutMembership(context.Background(), m), "PutMembership(%s, %s)", m.Email, m.Game)
}

// allMemberships reads every page of the player's games, limit at a time.
func allMemberships(t *testing.T, s store.MembershipStore, email string, limit int) (games []string, pages int) {
	t.Helper()
	cursor := ""
	for {
		ms, next, err := s.Memberships(context.Background(), email, cursor, limit)
		mustOK(t, err, "Memberships(%s, %q, %d)", email, cursor, limit)
		if len(ms) > limit {
			t.Fatalf("Memberships: %d games, limit %d", len(ms), limit)
		}
		for _, m := range ms {
			games = append(games, m.Game)
		}
		pages++
		if next == "" {
			return games, pages
		}
		if pages > 1000 {
			t.Fatal("Memberships pages without end")
		}
		cursor = next
	}
}

func testMembershipsPaged(t *testing.T, s store.PlayerStore) {
	email := newEmail(t)
	// Given out of order; listed newest first.
	for i, created := range []int64{30, 10, 50, 20, 40, 60} {
		mustPutMembership(t, s, store.Membership{Email: email, Game: fmt.Sprintf("g%d", i), Created: created})
	}
	want := []string{"g5", "g2", "g4", "g0", "g3", "g1"}
	for _, limit := range []int{1, 2, 4, 6, 100} {
		got, pages := allMemberships(t, s, email, limit)
		if !slices.Equal(got, want) {
			t.Fatalf("games %d at a time = %v, want %v", limit, got, want)
		}
		if wantPages := (len(want) + limit - 1) / limit; pages < wantPages || pages > wantPages+1 {
			t.Fatalf("%d games %d at a time in %d pages", len(want), limit, pages)
		}
	}
	ms, _, err := s.Memberships(context.Background(), email, "", 2)
	mustOK(t, err, "Memberships")
	if m := ms[1]; m.Email != email || m.Game != "g2" || m.Created != 50 {
		t.Fatalf("second membership = %+v", m)
	}
	// Another player's games are not listed; an unknown player has none.
	if got, _ := allMemberships(t, s, newEmail(t), 10); len(got) != 0 {
		t.Fatalf("an unknown player's games: %v", got)
	}
}

// testMembershipPutAgain: a membership written again, under the address
// in another case too, is listed once.
func testMembershipPutAgain(t *testing.T, s store.PlayerStore) {
	email := newEmail(t)
	mustPutMembership(t, s, store.Membership{Email: email, Game: "g", Created: 5})
	mustPutMembership(t, s, store.Membership{Email: email, Game: "g", Created: 5})
	mustPutMembership(t, s, store.Membership{Email: strings.ToUpper(email), Game: "g", Created: 5})
	ms, next, err := s.Memberships(context.Background(), strings.ToUpper(email), "", 10)
	mustOK(t, err, "Memberships")
	if len(ms) != 1 || ms[0].Game != "g" || ms[0].Email != email || ms[0].Created != 5 || next != "" {
		t.Fatalf("memberships after writing again = %+v, %q", ms, next)
	}
}

func testTurns(t *testing.T, s store.PlayerStore) {
	ctx := context.Background()
	email := newEmail(t)
	for i, due := range []int64{300, 100, 200} {
		mustOK(t, s.PutTurn(ctx, store.Turn{Email: email, Game: fmt.Sprintf("g%d", i), Due: due}), "PutTurn")
	}
	games := func(limit int) []string {
		page, err := s.FirstPage(ctx, email, limit, wallNow())
		mustOK(t, err, "FirstPage")
		ts := page.Turns
		var out []string
		for _, tn := range ts {
			if tn.Email != email {
				t.Fatalf("turn %+v", tn)
			}
			out = append(out, fmt.Sprintf("%s@%d", tn.Game, tn.Due))
		}
		return out
	}
	if got := games(10); !slices.Equal(got, []string{"g1@100", "g2@200", "g0@300"}) {
		t.Fatalf("turns = %v", got)
	}
	if got := games(2); !slices.Equal(got, []string{"g1@100", "g2@200"}) {
		t.Fatalf("first 2 turns = %v", got)
	}
	// A turn that moves is deleted at its old time and put at its new.
	mustOK(t, s.DeleteTurn(ctx, email, "g1", 100), "DeleteTurn")
	mustOK(t, s.PutTurn(ctx, store.Turn{Email: email, Game: "g1", Due: 400}), "PutTurn")
	mustOK(t, s.DeleteTurn(ctx, email, "g2", 999), "DeleteTurn(absent)")
	mustOK(t, s.DeleteTurn(ctx, strings.ToUpper(email), "g0", 300), "DeleteTurn(upper case)")
	if got := games(10); !slices.Equal(got, []string{"g2@200", "g1@400"}) {
		t.Fatalf("turns after moving = %v", got)
	}
}

// testMoveTurns: MoveTurns is DeleteTurn of each turn gone and PutTurn
// of each put, for several players at once; a turn gone that was never
// put stays unlisted, and one both gone and put is listed.
func testMoveTurns(t *testing.T, s store.PlayerStore) {
	ctx := context.Background()
	a, b := newEmail(t), newEmail(t)
	turns := func(email string) []string {
		page, err := s.FirstPage(ctx, email, 10, wallNow())
		mustOK(t, err, "FirstPage")
		var out []string
		for _, tn := range page.Turns {
			out = append(out, fmt.Sprintf("%s@%d", tn.Game, tn.Due))
		}
		return out
	}
	mustOK(t, s.PutTurn(ctx, store.Turn{Email: a, Game: "g1", Due: 100}), "PutTurn")
	mustOK(t, s.MoveTurns(ctx, nil, nil), "MoveTurns(nothing)")
	// The turn passes from a to b, and a owes g2 anew.
	mustOK(t, s.MoveTurns(ctx,
		[]store.Turn{{Email: strings.ToUpper(a), Game: "g1", Due: 100}, {Email: b, Game: "g9", Due: 50}},
		[]store.Turn{{Email: b, Game: "g1", Due: 200}, {Email: a, Game: "g2", Due: 300}}), "MoveTurns")
	if got := turns(a); !slices.Equal(got, []string{"g2@300"}) {
		t.Fatalf("turns of a = %v", got)
	}
	if got := turns(b); !slices.Equal(got, []string{"g1@200"}) {
		t.Fatalf("turns of b = %v", got)
	}
	// Gone and put at once: put.
	mustOK(t, s.MoveTurns(ctx, []store.Turn{{Email: a, Game: "g3", Due: 400}}, []store.Turn{{Email: a, Game: "g3", Due: 400}}), "MoveTurns(both)")
	if got := turns(a); !slices.Equal(got, []string{"g2@300", "g3@400"}) {
		t.Fatalf("turns of a after gone and put = %v", got)
	}
	if err := s.MoveTurns(ctx, nil, []store.Turn{{Email: "", Game: "g1", Due: 1}}); err == nil {
		t.Fatal("MoveTurns of a turn without an address: no error")
	}
	many := make([]store.Turn, store.MaxTurnMoves+1)
	for i := range many {
		many[i] = store.Turn{Email: a, Game: fmt.Sprintf("m%d", i), Due: int64(i + 1)}
	}
	if err := s.MoveTurns(ctx, nil, many); err == nil {
		t.Fatalf("MoveTurns of %d turns: no error", len(many))
	}
}

// wallNow is the listing's now for turns that DeleteTurn marked gone at
// the store's clock.
func wallNow() int64 { return time.Now().Unix() }

// testTurnsExpire: a turn is listed until its Expires and not from then
// on, however it was put (PutTurn, MoveTurns), and for ever when it has
// none; one put again with a later Expires (a deadline moved) is listed
// until that; a turn gone with an Expires (the caller's now) is not
// listed at or after it. The times are near the wall clock's, as a
// store's own expiry (DynamoDB's TTL) needs them.
func testTurnsExpire(t *testing.T, s store.PlayerStore) {
	ctx := context.Background()
	email := newEmail(t)
	base := time.Now().Unix()
	mustOK(t, s.PutTurn(ctx, store.Turn{Email: email, Game: "a", Due: base - 100, Expires: base + 1000}), "PutTurn(a)")
	mustOK(t, s.PutTurn(ctx, store.Turn{Email: email, Game: "never", Due: base - 50}), "PutTurn(never)")
	mustOK(t, s.MoveTurns(ctx, nil, []store.Turn{{Email: email, Game: "b", Due: base, Expires: base + 2000}}), "MoveTurns(b)")
	turns := func(now int64) []string {
		t.Helper()
		page, err := s.FirstPage(ctx, strings.ToUpper(email), 10, now)
		mustOK(t, err, "FirstPage")
		var out []string
		for _, tn := range page.Turns {
			out = append(out, fmt.Sprintf("%s+%d", tn.Game, tn.Expires-base))
		}
		return out
	}
	never := fmt.Sprintf("never+%d", -base)
	for _, c := range []struct {
		now  int64
		want []string
	}{
		{base, []string{"a+1000", never, "b+2000"}},
		{base + 999, []string{"a+1000", never, "b+2000"}},
		{base + 1000, []string{never, "b+2000"}}, // expired at its Expires
		{base + 1500, []string{never, "b+2000"}},
		{base + 2000, []string{never}},
		{base + 1_000_000_000, []string{never}},
	} {
		if got := turns(c.now); !slices.Equal(got, c.want) {
			t.Errorf("turns at now%+d = %v, want %v", c.now-base, got, c.want)
		}
	}
	// a is still owed and its deadline moved on: put again, as it was
	// and at its new due, each to expire later.
	mustOK(t, s.PutTurn(ctx, store.Turn{Email: email, Game: "a", Due: base - 100, Expires: base + 3000}), "PutTurn(a again)")
	if got := turns(base + 2500); !slices.Equal(got, []string{"a+3000", never}) {
		t.Errorf("turns after a was put again = %v", got)
	}
	// Gone at the caller's now: not listed from then on.
	mustOK(t, s.MoveTurns(ctx, []store.Turn{{Email: email, Game: "a", Due: base - 100, Expires: base + 10}}, nil), "MoveTurns(a gone)")
	if got := turns(base + 10); !slices.Equal(got, []string{never, "b+2000"}) {
		t.Errorf("turns after a went = %v", got)
	}
}

func testMembershipsLeavePlayer(t *testing.T, s store.PlayerStore) {
	ctx := context.Background()
	email := newEmail(t)
	mustSetPrefs(t, s, email, "en", store.MailTurns, "", false, 5)
	for i := range 50 {
		mustPutMembership(t, s, store.Membership{Email: email, Game: fmt.Sprintf("g%02d", i), Created: int64(i)})
		mustOK(t, s.PutTurn(ctx, store.Turn{Email: email, Game: fmt.Sprintf("g%02d", i), Due: int64(i)}), "PutTurn")
	}
	samePlayer(t, mustGetPlayer(t, s, email), store.Player{Email: email, Lang: "en", Mail: store.MailTurns, UpdatedAt: 5})
	// Nor are they a player of their own.
	other := newEmail(t)
	mustPutMembership(t, s, store.Membership{Email: other, Game: "g", Created: 1})
	if _, err := s.GetPlayer(ctx, other); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetPlayer of an address with only a membership: %v, want ErrNotFound", err)
	}
}

func testForgetPlayerGames(t *testing.T, s store.PlayerStore) {
	email := newEmail(t)
	mustAddGame(t, s, email, "a", 1)
	mustAddGame(t, s, email, "b", 2)
	mustAddGame(t, s, email, "c", 3)
	mustOK(t, s.ForgetPlayerGames(context.Background(), email, []string{"a", "c", "x"}), "ForgetPlayerGames")
	if p := mustGetPlayer(t, s, email); !slices.Equal(p.Games, []string{"b"}) {
		t.Fatalf("games after forgetting = %v", p.Games)
	}
	mustOK(t, s.ForgetPlayerGames(context.Background(), email, []string{"b"}), "ForgetPlayerGames")
	if p := mustGetPlayer(t, s, email); len(p.Games) != 0 {
		t.Fatalf("games after forgetting all = %v", p.Games)
	}
	// An unknown player: nothing to forget, and no player made.
	unknown := newEmail(t)
	mustOK(t, s.ForgetPlayerGames(context.Background(), unknown, []string{"a"}), "ForgetPlayerGames(unknown)")
	if _, err := s.GetPlayer(context.Background(), unknown); err == nil {
		t.Fatal("forgetting the games of an unknown player made one")
	}
}

func testMembershipBadCursor(t *testing.T, s store.PlayerStore) {
	for _, c := range []string{"x", "12#g", "a000000000#g", "0000000000#"} {
		if _, _, err := s.Memberships(context.Background(), newEmail(t), c, 10); err == nil {
			t.Errorf("cursor %q: no error", c)
		}
	}
}

// testFirstPage: the first page holds the player item, the first turns
// and the first memberships with the cursor after them, for a player who
// owes fewer decisions than a page holds and for one who owes more, and
// for an address with no player item.
func testFirstPage(t *testing.T, s store.PlayerStore) {
	ctx := context.Background()
	names := func(p store.FirstPage) (turns, games []string) {
		for _, tn := range p.Turns {
			turns = append(turns, fmt.Sprintf("%s@%d", tn.Game, tn.Due))
		}
		for _, m := range p.Memberships {
			games = append(games, m.Game)
		}
		return turns, games
	}
	for _, c := range []struct {
		name         string
		owed, limit  int
		turns, games []string
		rest         []string // the games after the first page, in order
	}{
		{"fewer owed", 2, 3, []string{"g1@999", "g0@1000"}, []string{"g5", "g4", "g3"}, []string{"g2", "g1", "g0"}},
		{"more owed than a page", 5, 2, []string{"g4@996", "g3@997"}, []string{"g5", "g4"}, []string{"g3", "g2", "g1", "g0"}},
		{"more owed than the read holds", store.FirstPageWindow(2), 2, []string{"g204@796", "g203@797"}, nil, nil},
		{"all on one page", 1, 10, []string{"g0@1000"}, []string{"g5", "g4", "g3", "g2", "g1", "g0"}, nil},
	} {
		email := newEmail(t)
		mustSetPrefs(t, s, email, "ru", store.MailDigest, "Europe/Moscow", false, 5)
		for i := range 6 {
			mustPutMembership(t, s, store.Membership{Email: email, Game: fmt.Sprintf("g%d", i), Created: int64(10 + i)})
		}
		for i := range c.owed { // g0 due last
			mustOK(t, s.PutTurn(ctx, store.Turn{Email: email, Game: fmt.Sprintf("g%d", i), Due: int64(1000 - i)}), "PutTurn")
		}
		// A turn passed: not listed.
		mustOK(t, s.PutTurn(ctx, store.Turn{Email: email, Game: "g5", Due: 50}), "PutTurn")
		mustOK(t, s.DeleteTurn(ctx, email, "g5", 50), "DeleteTurn")
		p, err := s.(store.MembershipStore).FirstPage(ctx, strings.ToUpper(email), c.limit, wallNow())
		mustOK(t, err, "FirstPage")
		if !p.Found || p.Player.Email != email || p.Player.Mail != store.MailDigest || p.Player.TimeZone != "Europe/Moscow" {
			t.Errorf("%s: player %+v (found %v)", c.name, p.Player, p.Found)
		}
		turns, games := names(p)
		if !slices.Equal(turns, c.turns) || !slices.Equal(games, c.games) {
			t.Errorf("%s: turns %v, games %v; want %v, %v", c.name, turns, games, c.turns, c.games)
		}
		if p.Unread != (c.games == nil) {
			t.Errorf("%s: Unread %v", c.name, p.Unread)
		}
		var rest []string
		for cursor := p.Next; cursor != ""; {
			ms, next, err := s.Memberships(ctx, email, cursor, c.limit)
			mustOK(t, err, "Memberships")
			for _, m := range ms {
				rest = append(rest, m.Game)
			}
			cursor = next
		}
		if !slices.Equal(rest, c.rest) {
			t.Errorf("%s: the pages after the first: %v, want %v", c.name, rest, c.rest)
		}
	}
	p, err := s.(store.MembershipStore).FirstPage(ctx, "nobody-"+newEmail(t), 5, wallNow())
	mustOK(t, err, "FirstPage(unknown)")
	if p.Found || p.Player.Email == "" || len(p.Turns)+len(p.Memberships) != 0 || p.Next != "" {
		t.Errorf("first page of an unknown address: %+v", p)
	}
}
