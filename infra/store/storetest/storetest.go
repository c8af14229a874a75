// Package storetest is the conformance suite every store.Store passes, so
// that the DynamoDB store and the embedded one behave alike.
package storetest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// MaxItemBytes is DynamoDB's item size limit, which every store enforces.
const MaxItemBytes = 400 * 1024

// Run runs the suite. newStore is called once per subtest; the stores it
// returns may share their data (one table, say): every subtest uses game
// ids of its own.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	runSuite(t, newStore, []subtest[store.Store]{
		{"NotFound", testNotFound},
		{"CreateThenGet", testCreateThenGet},
		{"CreateTwiceConflicts", testCreateTwice},
		{"UpdateWithRightPrev", testUpdate},
		{"StalePrevConflictsAndChangesNothing", testStalePrev},
		{"RaceHasOneWinnerPerRound", testRace},
		{"ChunksIdempotent", testChunksIdempotent},
		{"ChunksInOrder", testChunksInOrder},
		{"ChunksTagged", testChunksTagged},
		{"PendingOutbox", testPendingOutbox},
		{"PendingMailByKey", testPendingMail},
		{"WakingDue", testWakingDue},
		{"WakingMovedAndCleared", testWakingCleared},
		{"WakingFailedWriteChangesNothing", testWakingFailedWrite},
		{"TooLarge", testTooLarge},
	})
}

// RunPlayers runs the suite of store.PlayerStore. newStore is called once
// per subtest; the stores it returns may share their data: every subtest
// uses addresses of its own.
func RunPlayers(t *testing.T, newStore func(t *testing.T) store.PlayerStore) {
	runSuite(t, newStore, []subtest[store.PlayerStore]{
		{"NotFound", testPlayerNotFound},
		{"AddGameCreatesAndIsIdempotent", testAddPlayerGame},
		{"ConcurrentAddsLoseNothing", testConcurrentAdds},
		{"PrefsRoundTripKeepGames", testPlayerPrefs},
		{"SuppressKeepsPrefsAndGames", testSuppress},
		{"AddressesCaseInsensitive", testPlayerCase},
		{"DigestQueueAndTake", testDigestQueueTake},
		{"DigestsDue", testDigestsDue},
		{"ConcurrentQueueingLosesNothing", testConcurrentQueue},
	})
}

// RunGuard runs the conformance suite of a store.GuardStore. newStore is
// called once per subtest; every subtest uses keys of its own.
func RunGuard(t *testing.T, newStore func(t *testing.T) store.GuardStore) {
	runSuite(t, newStore, []subtest[store.GuardStore]{
		{"CountUpToLimit", testCountUpToLimit},
		{"CountExpires", testCountExpires},
		{"CountRaceStopsAtLimit", testCountRace},
		{"MarkExpires", testMarkExpires},
	})
}

// LinkPlayers is what the personal links suite needs: the link store and
// the player store whose items carry the link id and generation.
type LinkPlayers interface {
	store.LinkStore
	store.PlayerStore
}

// RunLinks runs the conformance suite of a store.LinkStore. newStore is
// called once per subtest; every subtest uses ids and addresses of its own.
func RunLinks(t *testing.T, newStore func(t *testing.T) LinkPlayers) {
	runSuite(t, newStore, []subtest[LinkPlayers]{
		{"AccessVersions", testAccessVersions},
		{"AccessRaceHasOneWinner", testAccessRace},
		{"LinkIDFirstWins", testLinkIDFirstWins},
		{"LinkGenCountsUp", testLinkGen},
	})
}

// SentGames is what RunSent needs: the sent markers and the games they
// sit beside.
type SentGames interface {
	store.Store
	store.SentStore
}

// RunSent runs the conformance suite of store.SentStore. newStore is
// called once per subtest; every subtest uses game ids of its own.
func RunSent(t *testing.T, newStore func(t *testing.T) SentGames) {
	runSuite(t, newStore, []subtest[SentGames]{
		{"NotFoundThenVersions", testSentVersions},
		{"StalePrevConflictsAndChangesNothing", testSentStale},
		{"RaceHasOneWinner", testSentRace},
		{"LeavesTheGameAlone", testSentBesideGame},
		{"ManyAtOnce", testGetSents},
		{"WithPlayers", testGetSentPlayers},
	})
}

// RunLeagues runs the conformance suite of a store.LeagueStore. newStore
// is called once per subtest; every subtest uses league ids of its own.
func RunLeagues(t *testing.T, newStore func(t *testing.T) store.LeagueStore) {
	runSuite(t, newStore, []subtest[store.LeagueStore]{
		{"NotFound", testLeagueNotFound},
		{"CreateUpdateAndStale", testLeagueVersions},
		{"RaceHasOneWinner", testLeagueRace},
		{"ItemsByPrefixInKeyOrder", testLeagueItems},
		{"WakingOncePerLeague", testLeaguesWaking},
	})
}

// newID returns a game id no other subtest or run uses.
func newID(t *testing.T) string {
	t.Helper()
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "t" + hex.EncodeToString(b)
}

func mustGet(t *testing.T, s store.Store, id string) store.Game {
	t.Helper()
	g, err := s.GetGame(context.Background(), id)
	return must(t, g, err, "GetGame(%s)", id)
}

func mustPut(t *testing.T, s store.Store, g store.Game, prev int64) int64 {
	t.Helper()
	v, err := s.PutGame(context.Background(), g, prev)
	if err != nil {
		t.Fatalf("PutGame(%s, prev %d): %v", g.ID, prev, err)
	}
	if v != prev+1 {
		t.Fatalf("PutGame(%s, prev %d) = version %d, want %d", g.ID, prev, v, prev+1)
	}
	return v
}

func sameGame(t *testing.T, got, want store.Game) {
	t.Helper()
	if got.ID != want.ID || got.Version != want.Version || !bytes.Equal(got.Body, want.Body) ||
		got.OutboxPending != want.OutboxPending || got.OutboxKey != want.OutboxKey || got.UpdatedAt != want.UpdatedAt || got.WakeAt != want.WakeAt {
		t.Fatalf("game = {%s v%d pending=%v %q upd=%d wake=%d body=%.40q}, want {%s v%d pending=%v %q upd=%d wake=%d body=%.40q}",
			got.ID, got.Version, got.OutboxPending, got.OutboxKey, got.UpdatedAt, got.WakeAt, got.Body,
			want.ID, want.Version, want.OutboxPending, want.OutboxKey, want.UpdatedAt, want.WakeAt, want.Body)
	}
}

func testNotFound(t *testing.T, s store.Store) {
	ctx := context.Background()
	g, err := s.GetGame(ctx, newID(t))
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetGame(unknown) = %+v, %v; want ErrNotFound", g, err)
	}
	cs, err := s.Chunks(ctx, newID(t))
	if err != nil || len(cs) != 0 {
		t.Fatalf("Chunks(unknown) = %v, %v; want none", cs, err)
	}
}

func testCreateThenGet(t *testing.T, s store.Store) {
	id := newID(t)
	g := store.Game{ID: id, Version: 99, Body: []byte("state\x00\xff"), OutboxPending: true, UpdatedAt: 1700000000, WakeAt: 1700086400}
	mustPut(t, s, g, 0)
	g.Version = 1 // the store sets the version, whatever the caller put there
	sameGame(t, mustGet(t, s, id), g)

	// An empty body is a body too.
	e := store.Game{ID: newID(t), UpdatedAt: 1}
	mustPut(t, s, e, 0)
	e.Version = 1
	got := mustGet(t, s, e.ID)
	sameGame(t, got, e)
}

func testCreateTwice(t *testing.T, s store.Store) {
	ctx := context.Background()
	id := newID(t)
	mustPut(t, s, store.Game{ID: id, Body: []byte("first"), UpdatedAt: 1}, 0)
	_, err := s.PutGame(ctx, store.Game{ID: id, Body: []byte("second"), UpdatedAt: 2}, 0)
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second create: %v, want ErrConflict", err)
	}
	sameGame(t, mustGet(t, s, id), store.Game{ID: id, Version: 1, Body: []byte("first"), UpdatedAt: 1})
}

func testUpdate(t *testing.T, s store.Store) {
	id := newID(t)
	mustPut(t, s, store.Game{ID: id, Body: []byte("v1"), OutboxPending: true, UpdatedAt: 10}, 0)
	for prev := int64(1); prev < 5; prev++ {
		g := store.Game{ID: id, Body: []byte{byte(prev)}, OutboxPending: prev%2 == 0, UpdatedAt: 10 + prev}
		if prev%3 != 0 {
			g.WakeAt = 1000 * prev
		}
		mustPut(t, s, g, prev)
		g.Version = prev + 1
		sameGame(t, mustGet(t, s, id), g)
	}
}

func testStalePrev(t *testing.T, s store.Store) {
	ctx := context.Background()
	id := newID(t)
	mustPut(t, s, store.Game{ID: id, Body: []byte("v1"), UpdatedAt: 1}, 0)
	want := store.Game{ID: id, Body: []byte("v2"), OutboxPending: true, UpdatedAt: 2, WakeAt: 50}
	mustPut(t, s, want, 1)
	want.Version = 2
	for _, prev := range []int64{1, 3, 100} {
		_, err := s.PutGame(ctx, store.Game{ID: id, Body: []byte("stale"), UpdatedAt: 3, WakeAt: 60}, prev)
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("PutGame with prev %d over version 2: %v, want ErrConflict", prev, err)
		}
		sameGame(t, mustGet(t, s, id), want)
	}
	// prev > 0 on a game that does not exist is a conflict too.
	other := newID(t)
	if _, err := s.PutGame(ctx, store.Game{ID: other, Body: []byte("x")}, 1); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("PutGame(prev 1) on a missing game: %v, want ErrConflict", err)
	}
	if _, err := s.GetGame(ctx, other); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("failed write created the game: %v", err)
	}
}

func testRace(t *testing.T, s store.Store) {
	const writers, rounds = 8, 25
	ctx := context.Background()
	id := newID(t)
	mustPut(t, s, store.Game{ID: id, Body: []byte("start")}, 0)
	for round := range rounds {
		prev := int64(round + 1)
		errs := race(writers, func(w int) error {
			g := store.Game{ID: id, Body: []byte{byte(round), byte(w)}, UpdatedAt: int64(w)}
			v, err := s.PutGame(ctx, g, prev)
			if err == nil && v != prev+1 {
				err = errors.New("wrong version returned")
			}
			return err
		})
		w := oneWinner(t, fmt.Sprintf("round %d from version %d", round, prev), errs)
		sameGame(t, mustGet(t, s, id), store.Game{ID: id, Version: prev + 1, Body: []byte{byte(round), byte(w)}, UpdatedAt: int64(w)})
	}
}

func testChunksIdempotent(t *testing.T, s store.Store) {
	ctx := context.Background()
	id := newID(t)
	c := store.Chunk{GameID: id, Seq: 0, Body: []byte("entries 0-99")}
	for i := range 3 {
		if err := s.PutChunk(ctx, c); err != nil {
			t.Fatalf("PutChunk #%d: %v", i, err)
		}
	}
	bad := store.Chunk{GameID: id, Seq: 0, Body: []byte("entries 0-98")}
	if err := s.PutChunk(ctx, bad); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("PutChunk with another body: %v, want ErrConflict", err)
	}
	cs, err := s.Chunks(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].GameID != id || cs[0].Seq != 0 || !bytes.Equal(cs[0].Body, c.Body) {
		t.Fatalf("Chunks = %+v, want the first one only", cs)
	}
	// Chunks do not disturb the game item of the same id, nor it them.
	mustPut(t, s, store.Game{ID: id, Body: []byte("game")}, 0)
	if g := mustGet(t, s, id); string(g.Body) != "game" {
		t.Fatalf("game body = %q", g.Body)
	}
	if cs, err := s.Chunks(ctx, id); err != nil || len(cs) != 1 {
		t.Fatalf("Chunks after the game = %v, %v", cs, err)
	}
}

// testChunksTagged: chunks of one Seq and different tags (two commits
// racing from one version) are kept side by side and listed in Seq, then
// Tag order, untagged first; each is written once.
func testChunksTagged(t *testing.T, s store.Store) {
	ctx := context.Background()
	id := newID(t)
	put := []store.Chunk{
		{GameID: id, Seq: 1, Tag: "b7", Body: []byte("loser")},
		{GameID: id, Seq: 0, Body: []byte("legacy")},
		{GameID: id, Seq: 1, Tag: "a9", Body: []byte("winner")},
		{GameID: id, Seq: 2, Tag: "c", Body: []byte("next")},
		{GameID: id, Seq: 1, Body: []byte("untagged")},
	}
	for _, c := range put {
		if err := s.PutChunk(ctx, c); err != nil {
			t.Fatalf("PutChunk %d %q: %v", c.Seq, c.Tag, err)
		}
	}
	if err := s.PutChunk(ctx, store.Chunk{GameID: id, Seq: 1, Tag: "a9", Body: []byte("winner")}); err != nil {
		t.Fatalf("the same chunk again: %v", err)
	}
	if err := s.PutChunk(ctx, store.Chunk{GameID: id, Seq: 1, Tag: "a9", Body: []byte("other")}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("another body under one seq and tag: %v, want ErrConflict", err)
	}
	for _, bad := range []string{"A", "a#b", "a-b", strings.Repeat("a", 33)} {
		if err := s.PutChunk(ctx, store.Chunk{GameID: id, Seq: 3, Tag: bad, Body: []byte("x")}); err == nil {
			t.Errorf("tag %q taken", bad)
		}
	}
	cs, err := s.Chunks(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, fmt.Sprintf("%d%s:%s", c.Seq, c.Tag, c.Body))
	}
	want := []string{"0:legacy", "1:untagged", "1a9:winner", "1b7:loser", "2c:next"}
	if !slices.Equal(got, want) {
		t.Fatalf("Chunks = %v, want %v", got, want)
	}
}

func testChunksInOrder(t *testing.T, s store.Store) {
	ctx := context.Background()
	id, other := newID(t), newID(t)
	// Written out of order, with Seq beyond one digit, and big enough that
	// a DynamoDB query needs more than one page (1 MB each).
	order := []int{3, 0, 12, 1, 10, 2, 11, 4}
	body := func(seq int) []byte { return bytes.Repeat([]byte{byte('a' + seq)}, 200_000) }
	for _, seq := range order {
		if err := s.PutChunk(ctx, store.Chunk{GameID: id, Seq: seq, Body: body(seq)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutChunk(ctx, store.Chunk{GameID: other, Seq: 5, Body: []byte("other")}); err != nil {
		t.Fatal(err)
	}
	cs, err := s.Chunks(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(order)
	slices.Sort(want)
	var got []int
	for _, c := range cs {
		got = append(got, c.Seq)
		if c.GameID != id || !bytes.Equal(c.Body, body(c.Seq)) {
			t.Fatalf("chunk %d: wrong game %q or body", c.Seq, c.GameID)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Chunks seqs = %v, want %v", got, want)
	}
}

// testPendingMail: a game with mail is listed under the key its write
// gives (PendingMail), and only there: a write under another key moves
// it, one without mail drops it; the games written without a key are
// PendingOutbox's alone. The key reads back with the game.
func testPendingMail(t *testing.T, s store.Store) {
	ctx := context.Background()
	k1, k2 := "m"+newID(t)[:8], "n"+newID(t)[:8]
	a, b, c := newID(t), newID(t), newID(t)
	ga := store.Game{ID: a, Body: []byte("a"), OutboxPending: true, OutboxKey: k1, UpdatedAt: 3, WakeAt: 9}
	ga.Version = mustPut(t, s, ga, 0)
	sameGame(t, mustGet(t, s, a), ga)
	mustPut(t, s, store.Game{ID: b, Body: []byte("b"), OutboxPending: true, OutboxKey: k1}, 0)
	mustPut(t, s, store.Game{ID: c, Body: []byte("c"), OutboxPending: true}, 0)
	list := func(key string) []string {
		t.Helper()
		ids, err := s.PendingMail(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(ids)
		return ids
	}
	sorted := func(ids ...string) []string { slices.Sort(ids); return ids }
	if got := list(k1); !slices.Equal(got, sorted(a, b)) {
		t.Fatalf("PendingMail(%s) = %v, want %v", k1, got, sorted(a, b))
	}
	ids, err := s.PendingOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(ids, a) || slices.Contains(ids, b) || !slices.Contains(ids, c) {
		t.Fatalf("PendingOutbox = %v: want %s, not the keyed %s and %s", ids, c, a, b)
	}
	mustPut(t, s, store.Game{ID: a, Body: []byte("a2"), OutboxPending: true, OutboxKey: k2}, 1)
	mustPut(t, s, store.Game{ID: b, Body: []byte("b2")}, 1)
	if got := list(k1); len(got) != 0 {
		t.Fatalf("PendingMail(%s) after the moves = %v, want none", k1, got)
	}
	if got := list(k2); !slices.Equal(got, []string{a}) {
		t.Fatalf("PendingMail(%s) = %v, want [%s]", k2, got, a)
	}
	for _, bad := range []string{"1", "A", "a b", strings.Repeat("k", 33)} {
		if _, err := s.PutGame(ctx, store.Game{ID: newID(t), Body: []byte("x"), OutboxPending: true, OutboxKey: bad}, 0); err == nil {
			t.Errorf("outbox key %q taken", bad)
		}
	}
}

func testPendingOutbox(t *testing.T, s store.Store) {
	ctx := context.Background()
	var flagged, clear []string
	for i := range 6 {
		id := newID(t)
		pending := i%2 == 0
		mustPut(t, s, store.Game{ID: id, Body: []byte("g"), OutboxPending: pending}, 0)
		if pending {
			flagged = append(flagged, id)
		} else {
			clear = append(clear, id)
		}
	}
	check := func(wantIn, wantOut []string) {
		t.Helper()
		ids, err := s.PendingOutbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, id := range ids {
			seen[id]++
		}
		for _, id := range wantIn {
			if seen[id] != 1 {
				t.Errorf("PendingOutbox lists %s %d times, want once", id, seen[id])
			}
		}
		for _, id := range wantOut {
			if seen[id] != 0 {
				t.Errorf("PendingOutbox lists %s, whose flag is clear", id)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	check(flagged, clear)

	// Clearing the flag drops a game; setting it adds one.
	mustPut(t, s, store.Game{ID: flagged[0], Body: []byte("sent")}, 1)
	mustPut(t, s, store.Game{ID: clear[0], Body: []byte("mail"), OutboxPending: true}, 1)
	check([]string{flagged[1], flagged[2], clear[0]}, []string{flagged[0], clear[1], clear[2]})

	// A failed write changes nothing, the flag included.
	if _, err := s.PutGame(ctx, store.Game{ID: flagged[1], Body: []byte("x")}, 7); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale write: %v, want ErrConflict", err)
	}
	check([]string{flagged[1], flagged[2], clear[0]}, []string{flagged[0], clear[1], clear[2]})
}

// checkWaking fails unless Waking(before) lists each of in exactly once
// and none of out. Other subtests' games may be listed too.
func checkWaking(t *testing.T, s store.Store, before int64, in, out []string) {
	t.Helper()
	ids, err := s.Waking(context.Background(), before)
	if err != nil {
		t.Fatalf("Waking(%d): %v", before, err)
	}
	seen := map[string]int{}
	for _, id := range ids {
		seen[id]++
	}
	for _, id := range in {
		if seen[id] != 1 {
			t.Errorf("Waking(%d) lists %s %d times, want once", before, id, seen[id])
		}
	}
	for _, id := range out {
		if seen[id] != 0 {
			t.Errorf("Waking(%d) lists %s, which is not due", before, id)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

func wakeOf(t *testing.T, s store.Store, id string) int64 {
	t.Helper()
	return mustGet(t, s, id).WakeAt
}

// Several games, due at several times: Waking lists those due by the
// time asked, that time included, and never a game without WakeAt.
func testWakingDue(t *testing.T, s store.Store) {
	const t0 = 1_700_000_000
	a, b, c, d, never := newID(t), newID(t), newID(t), newID(t), newID(t)
	wakes := map[string]int64{a: t0 + 100, b: t0 + 200, c: t0 + 300, d: t0 + 100, never: 0}
	for _, id := range []string{a, b, c, d, never} {
		mustPut(t, s, store.Game{ID: id, Body: []byte("g"), UpdatedAt: t0, WakeAt: wakes[id]}, 0)
	}
	all := []string{a, b, c, d, never}
	checkWaking(t, s, 0, nil, all)
	checkWaking(t, s, t0, nil, all)
	checkWaking(t, s, t0+99, nil, all)
	checkWaking(t, s, t0+100, []string{a, d}, []string{b, c, never})
	checkWaking(t, s, t0+250, []string{a, b, d}, []string{c, never})
	checkWaking(t, s, 1<<62, []string{a, b, c, d}, []string{never})

	// WakeAt comes back with the game.
	for id, w := range wakes {
		sameGame(t, mustGet(t, s, id), store.Game{ID: id, Version: 1, Body: []byte("g"), UpdatedAt: t0, WakeAt: w})
	}
}

// Each write sets WakeAt anew: moving it later takes a game out of the
// listing until then, setting it puts one in, and 0 takes it out for good.
func testWakingCleared(t *testing.T, s store.Store) {
	const t0 = 1_800_000_000
	a, b, c := newID(t), newID(t), newID(t)
	mustPut(t, s, store.Game{ID: a, Body: []byte("a"), WakeAt: t0}, 0)
	mustPut(t, s, store.Game{ID: b, Body: []byte("b"), WakeAt: t0}, 0)
	mustPut(t, s, store.Game{ID: c, Body: []byte("c")}, 0)
	checkWaking(t, s, t0, []string{a, b}, []string{c})

	mustPut(t, s, store.Game{ID: a, Body: []byte("a2")}, 1)                  // cleared
	mustPut(t, s, store.Game{ID: b, Body: []byte("b2"), WakeAt: t0 + 60}, 1) // moved later
	mustPut(t, s, store.Game{ID: c, Body: []byte("c2"), WakeAt: t0 - 60}, 1) // set
	checkWaking(t, s, t0, []string{c}, []string{a, b})
	checkWaking(t, s, t0+60, []string{b, c}, []string{a})
	checkWaking(t, s, 1<<62, []string{b, c}, []string{a})
	if w := wakeOf(t, s, a); w != 0 {
		t.Fatalf("cleared game's WakeAt = %d, want 0", w)
	}
	if w := wakeOf(t, s, b); w != t0+60 {
		t.Fatalf("moved game's WakeAt = %d, want %d", w, t0+60)
	}

	// Set again after a clear.
	mustPut(t, s, store.Game{ID: a, Body: []byte("a3"), WakeAt: t0 + 1}, 2)
	checkWaking(t, s, t0+1, []string{a, c}, []string{b})
}

// A failed write, whether a stale update or a second create, leaves the
// listing as it was, as it leaves the game.
func testWakingFailedWrite(t *testing.T, s store.Store) {
	ctx := context.Background()
	const t0 = 1_900_000_000
	due, later, none := newID(t), newID(t), newID(t)
	mustPut(t, s, store.Game{ID: due, Body: []byte("d"), WakeAt: t0}, 0)
	mustPut(t, s, store.Game{ID: later, Body: []byte("l"), WakeAt: t0 + 1000}, 0)
	mustPut(t, s, store.Game{ID: none, Body: []byte("n")}, 0)
	checkWaking(t, s, t0, []string{due}, []string{later, none})

	for _, w := range []struct {
		g    store.Game
		prev int64
	}{
		{store.Game{ID: due, Body: []byte("x")}, 7},                    // would clear
		{store.Game{ID: due, Body: []byte("x"), WakeAt: t0 + 5000}, 0}, // would move, as a create
		{store.Game{ID: later, Body: []byte("x"), WakeAt: t0 - 1}, 2},  // would make due
		{store.Game{ID: none, Body: []byte("x"), WakeAt: t0}, 0},       // would set
	} {
		if _, err := s.PutGame(ctx, w.g, w.prev); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("PutGame(%s, prev %d): %v, want ErrConflict", w.g.ID, w.prev, err)
		}
	}
	// prev > 0 on a game that does not exist.
	ghost := newID(t)
	if _, err := s.PutGame(ctx, store.Game{ID: ghost, Body: []byte("x"), WakeAt: t0}, 1); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("PutGame(prev 1) on a missing game: %v, want ErrConflict", err)
	}
	checkWaking(t, s, t0, []string{due}, []string{later, none, ghost})
	checkWaking(t, s, 1<<62, []string{due, later}, []string{none, ghost})
	sameGame(t, mustGet(t, s, due), store.Game{ID: due, Version: 1, Body: []byte("d"), WakeAt: t0})
	sameGame(t, mustGet(t, s, later), store.Game{ID: later, Version: 1, Body: []byte("l"), WakeAt: t0 + 1000})
	sameGame(t, mustGet(t, s, none), store.Game{ID: none, Version: 1, Body: []byte("n")})
}

func testTooLarge(t *testing.T, s store.Store) {
	ctx := context.Background()
	big := bytes.Repeat([]byte{'x'}, MaxItemBytes)

	// A new game.
	id := newID(t)
	if _, err := s.PutGame(ctx, store.Game{ID: id, Body: big, OutboxPending: true}, 0); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("PutGame with a %d-byte body: %v, want ErrTooLarge", len(big), err)
	}
	if _, err := s.GetGame(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("oversized write created the game: %v", err)
	}

	// An update of an existing game leaves it as it was.
	want := store.Game{ID: id, Body: bytes.Repeat([]byte{'y'}, 390*1024), UpdatedAt: 5}
	mustPut(t, s, want, 0)
	want.Version = 1
	if _, err := s.PutGame(ctx, store.Game{ID: id, Body: big, OutboxPending: true, WakeAt: 1}, 1); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("update with a %d-byte body: %v, want ErrTooLarge", len(big), err)
	}
	sameGame(t, mustGet(t, s, id), want)
	ids, err := s.PendingOutbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(ids, id) {
		t.Fatal("oversized write set the outbox flag")
	}
	if ids, err = s.Waking(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(ids, id) {
		t.Fatal("oversized write set WakeAt")
	}

	// A chunk.
	if err := s.PutChunk(ctx, store.Chunk{GameID: id, Seq: 0, Body: big}); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("PutChunk with a %d-byte body: %v, want ErrTooLarge", len(big), err)
	}
	if cs, err := s.Chunks(ctx, id); err != nil || len(cs) != 0 {
		t.Fatalf("oversized chunk was written: %d chunks, %v", len(cs), err)
	}
}

// SizeLimitEdge checks that the size limit falls exactly where DynamoDB
// puts it for the item the DynamoDB store writes (names and values of
// every attribute count): one byte under is stored, one byte over is
// ErrTooLarge, for a game with and without WakeAt and for a chunk. Both
// stores must agree to the byte, so a game that fits locally fits in AWS.
func SizeLimitEdge(t *testing.T, st store.Store, id string) {
	t.Helper()
	ctx := context.Background()
	// pk, sk, ver 1, upd 1700000000, body, outbox "1": names and values.
	overhead := 2 + len("GAME#"+id) + 2 + 4 + 3 + 2 + 3 + 2 + 4 + 6 + 1
	g := store.Game{ID: id, Body: make([]byte, 400*1024-overhead+1), UpdatedAt: 1700000000, OutboxPending: true}
	if _, err := st.PutGame(ctx, g, 0); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("one byte over: %v, want ErrTooLarge", err)
	}
	g.Body = g.Body[1:]
	if _, err := st.PutGame(ctx, g, 0); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	// With WakeAt 1700003600 (five bytes as a number) come wpk "W" and
	// wake: names and values.
	w := store.Game{ID: id + "w", Body: make([]byte, len(g.Body)-1-(3+1+4+5)+1), UpdatedAt: 1700000000, OutboxPending: true, WakeAt: 1700003600}
	if _, err := st.PutGame(ctx, w, 0); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("one byte over with WakeAt: %v, want ErrTooLarge", err)
	}
	w.Body = w.Body[1:]
	if _, err := st.PutGame(ctx, w, 0); err != nil {
		t.Fatalf("at the limit with WakeAt: %v", err)
	}
	// pk, sk "LOG#00000000", body.
	overhead = 2 + len("GAME#"+id) + 2 + 12 + 4
	c := store.Chunk{GameID: id, Body: make([]byte, 400*1024-overhead+1)}
	if err := st.PutChunk(ctx, c); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("chunk one byte over: %v, want ErrTooLarge", err)
	}
	c.Body = c.Body[1:]
	if err := st.PutChunk(ctx, c); err != nil {
		t.Fatalf("chunk at the limit: %v", err)
	}
}

// RunTalk runs the conformance suite of a store.TalkStore. newStore is
// called once per subtest; every subtest uses game ids of its own. Where
// the store keeps games too (both do), the talk is checked not to
// disturb them.
func RunTalk(t *testing.T, newStore func(t *testing.T) store.TalkStore) {
	runSuite(t, newStore, []subtest[store.TalkStore]{
		{"PostOnce", testTalkPostOnce},
		{"PagesBothWays", testTalkPages},
		{"GamesApart", testTalkGamesApart},
		{"Hide", testTalkHide},
		{"SeenMovesForward", testTalkSeen},
		{"MailEachChoice", testTalkMail},
	})
}
