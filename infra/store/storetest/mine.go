package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// RunMemberships runs the suite of store.MembershipStore. newStore is
// called once per subtest; the stores it returns may share their data:
// every subtest uses addresses of its own.
func RunMemberships(t *testing.T, newStore func(t *testing.T) store.PlayerStore) {
	runSuite(t, newStore, []subtest[store.PlayerStore]{
		{"ListedInOrderAPageAtATime", testMembershipsPaged},
		{"PutReplacesAndMoves", testMembershipMoves},
		{"PlayerItemStaysSmall", testMembershipsLeavePlayer},
		{"ForgetPlayerGames", testForgetPlayerGames},
		{"BadCursor", testMembershipBadCursor},
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
	// Given out of order: your turn first, then playing, invited, over;
	// newest first within each.
	in := []store.Membership{
		{Game: "over-old", Rank: store.RankOver, Since: 10},
		{Game: "turn-old", Rank: store.RankYourTurn, Since: 20},
		{Game: "play", Rank: store.RankPlaying, Since: 30},
		{Game: "invited", Rank: store.RankInvited, Since: 5},
		{Game: "turn-new", Rank: store.RankYourTurn, Since: 40, Summary: []byte(`{"n":"x"}`)},
		{Game: "over-new", Rank: store.RankOver, Since: 50},
	}
	for _, m := range in {
		m.Email = email
		mustPutMembership(t, s, m)
	}
	want := []string{"turn-new", "turn-old", "play", "invited", "over-new", "over-old"}
	for _, limit := range []int{1, 2, 4, 6, 100} {
		got, pages := allMemberships(t, s, email, limit)
		if !slices.Equal(got, want) {
			t.Fatalf("games %d at a time = %v, want %v", limit, got, want)
		}
		if wantPages := (len(want) + limit - 1) / limit; pages < wantPages || pages > wantPages+1 {
			t.Fatalf("%d games %d at a time in %d pages", len(want), limit, pages)
		}
	}
	ms, _, err := s.Memberships(context.Background(), email, "", 1)
	mustOK(t, err, "Memberships")
	if m := ms[0]; m.Email != email || m.Rank != store.RankYourTurn || m.Since != 40 || !bytes.Equal(m.Summary, []byte(`{"n":"x"}`)) {
		t.Fatalf("first membership = %+v", m)
	}
	// Another player's games are not listed; an unknown player has none.
	if got, _ := allMemberships(t, s, newEmail(t), 10); len(got) != 0 {
		t.Fatalf("an unknown player's games: %v", got)
	}
}

func testMembershipMoves(t *testing.T, s store.PlayerStore) {
	email := newEmail(t)
	for i := range 3 {
		mustPutMembership(t, s, store.Membership{Email: email, Game: fmt.Sprintf("g%d", i), Rank: store.RankPlaying, Since: int64(i)})
	}
	// The oldest game becomes the player's turn: it moves first, once.
	mustPutMembership(t, s, store.Membership{Email: email, Game: "g0", Rank: store.RankYourTurn, Since: 9, Summary: []byte("new")})
	if got, _ := allMemberships(t, s, email, 10); !slices.Equal(got, []string{"g0", "g2", "g1"}) {
		t.Fatalf("games after a move = %v", got)
	}
	ms, _, err := s.Memberships(context.Background(), email, "", 10)
	mustOK(t, err, "Memberships")
	if string(ms[0].Summary) != "new" {
		t.Fatalf("summary = %q, want the new one", ms[0].Summary)
	}
	// An older version's summary does not replace a newer one's.
	mustPutMembership(t, s, store.Membership{Email: email, Game: "g1", Rank: store.RankOver, Since: 20, Summary: []byte("v5"), Version: 5})
	err = s.PutMembership(context.Background(), store.Membership{Email: email, Game: "g1", Rank: store.RankYourTurn, Since: 30, Summary: []byte("v4"), Version: 4})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("PutMembership of an older version: %v, want ErrConflict", err)
	}
	mustPutMembership(t, s, store.Membership{Email: email, Game: "g1", Rank: store.RankOver, Since: 20, Summary: []byte("v5"), Version: 5})
	ms, _, err = s.Memberships(context.Background(), email, "", 10)
	mustOK(t, err, "Memberships")
	if last := ms[len(ms)-1]; last.Game != "g1" || string(last.Summary) != "v5" || last.Version != 5 {
		t.Fatalf("after an older version's put: %+v", last)
	}
	// Case does not matter.
	mustPutMembership(t, s, store.Membership{Email: "UP" + email, Game: "g", Rank: store.RankOver, Since: 1})
	if got, _ := allMemberships(t, s, "up"+email, 10); !slices.Equal(got, []string{"g"}) {
		t.Fatalf("games of a mixed-case address = %v", got)
	}
}

func testMembershipsLeavePlayer(t *testing.T, s store.PlayerStore) {
	email := newEmail(t)
	mustSetPrefs(t, s, email, "en", store.MailTurns, "", false, 5)
	for i := range 50 {
		mustPutMembership(t, s, store.Membership{Email: email, Game: fmt.Sprintf("g%02d", i), Rank: store.RankPlaying, Since: int64(i)})
	}
	samePlayer(t, mustGetPlayer(t, s, email), store.Player{Email: email, Lang: "en", Mail: store.MailTurns, UpdatedAt: 5})
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
	for _, c := range []string{"x", "0#12#g", "a#0000000000#g", "0#0000000000#"} {
		if _, _, err := s.Memberships(context.Background(), newEmail(t), c, 10); err == nil {
			t.Errorf("cursor %q: no error", c)
		}
	}
}
