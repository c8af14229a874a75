package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

func testLeagueNotFound(t *testing.T, s store.LeagueStore) {
	if _, err := s.GetLeagueItem(context.Background(), newID(t), "league"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetLeagueItem of nothing: %v, want ErrNotFound", err)
	}
	if items, err := s.LeagueItems(context.Background(), newID(t), ""); err != nil || len(items) != 0 {
		t.Fatalf("LeagueItems of nothing = %v, %v", items, err)
	}
}

// testLeagueVersions: an item is created once at version 1, updated only
// from the version stored, and a stale write changes nothing.
func testLeagueVersions(t *testing.T, s store.LeagueStore) {
	ctx := context.Background()
	id := newID(t)
	it := store.LeagueItem{League: id, Key: "league", Body: []byte("one"), WakeAt: 500}
	if v, err := s.PutLeagueItem(ctx, it, 0); err != nil || v != 1 {
		t.Fatalf("create = %d, %v", v, err)
	}
	if _, err := s.PutLeagueItem(ctx, it, 0); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("create twice: %v, want ErrConflict", err)
	}
	if _, err := s.PutLeagueItem(ctx, store.LeagueItem{League: id, Key: "other", Body: []byte("x")}, 3); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("update of a missing item: %v, want ErrConflict", err)
	}
	it.Body, it.WakeAt = []byte("two"), 0
	if v, err := s.PutLeagueItem(ctx, it, 1); err != nil || v != 2 {
		t.Fatalf("update = %d, %v", v, err)
	}
	stale := store.LeagueItem{League: id, Key: "league", Body: []byte("stale"), WakeAt: 7}
	if _, err := s.PutLeagueItem(ctx, stale, 1); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale update: %v, want ErrConflict", err)
	}
	got, err := s.GetLeagueItem(ctx, id, "league")
	mustOK(t, err, "GetLeagueItem(%s, league)", id)
	if got.Version != 2 || string(got.Body) != "two" || got.WakeAt != 0 || got.League != id || got.Key != "league" {
		t.Fatalf("after a stale write: %+v, want version 2, body two, no wake", got)
	}
	if ids, err := s.LeaguesWaking(ctx, 1_000); err != nil || slices.Contains(ids, id) {
		t.Fatalf("a stale write's wake is listed: %v, %v", ids, err)
	}
}

// testLeagueRace: of writers racing from the same version, one wins and
// the others get ErrConflict (two sweeps closing one round).
func testLeagueRace(t *testing.T, s store.LeagueStore) {
	ctx := context.Background()
	id := newID(t)
	mustPutLeague(t, s, store.LeagueItem{League: id, Key: "season/0001", Body: []byte("open")}, 0)
	errs := race(8, func(i int) error {
		_, err := s.PutLeagueItem(ctx, store.LeagueItem{League: id, Key: "season/0001", Body: []byte{'w', byte('0' + i)}}, 1)
		return err
	})
	won := oneWinner(t, "PutLeagueItem from version 1", errs)
	got, err := s.GetLeagueItem(ctx, id, "season/0001")
	mustOK(t, err, "GetLeagueItem(%s, season/0001)", id)
	if got.Version != 2 || string(got.Body) != string([]byte{'w', byte('0' + won)}) {
		t.Fatalf("winner %d, stored %+v", won, got)
	}
}

// testLeagueItems: a league's items by prefix in key order, apart from
// those of a league whose id begins with this one's.
func testLeagueItems(t *testing.T, s store.LeagueStore) {
	ctx := context.Background()
	id := newID(t)
	for _, it := range []store.LeagueItem{
		{League: id, Key: "season/0002", Body: []byte("s2")},
		{League: id, Key: "league", Body: []byte("l")},
		{League: id, Key: "season/0001", Body: []byte("s1")},
		{League: id + "x", Key: "season/0003", Body: []byte("other")},
	} {
		mustPutLeague(t, s, it, 0)
	}
	keys := func(prefix string) []string {
		items, err := s.LeagueItems(ctx, id, prefix)
		mustOK(t, err, "LeagueItems(%s, %q)", id, prefix)
		var out []string
		for _, it := range items {
			if it.League != id || it.Version != 1 {
				t.Fatalf("item %+v", it)
			}
			out = append(out, it.Key+"="+string(it.Body))
		}
		return out
	}
	if got, want := keys("season/"), []string{"season/0001=s1", "season/0002=s2"}; !slices.Equal(got, want) {
		t.Errorf("seasons = %v, want %v", got, want)
	}
	if got, want := keys(""), []string{"league=l", "season/0001=s1", "season/0002=s2"}; !slices.Equal(got, want) {
		t.Errorf("all items = %v, want %v", got, want)
	}
}

// testLeaguesWaking: a league is listed once when any of its items is due,
// moves with its items' wake times, and never shows among the games.
func testLeaguesWaking(t *testing.T, s store.LeagueStore) {
	ctx := context.Background()
	id, later := newID(t), newID(t)
	put := func(league, key string, wake, prev int64) {
		t.Helper()
		mustPutLeague(t, s, store.LeagueItem{League: league, Key: key, Body: []byte("b"), WakeAt: wake}, prev)
	}
	put(id, "league", 100, 0)
	put(id, "season/0001", 200, 0)
	put(later, "league", 5_000, 0)
	waking := func(before int64) []string {
		t.Helper()
		ids, err := s.LeaguesWaking(ctx, before)
		mustOK(t, err, "LeaguesWaking(%d)", before)
		var ours []string
		for _, x := range ids {
			if x == id || x == later {
				ours = append(ours, x)
			}
		}
		slices.Sort(ours)
		return ours
	}
	if got := waking(50); len(got) != 0 {
		t.Errorf("waking by 50 = %v, want none", got)
	}
	if got := waking(300); !slices.Equal(got, []string{id}) {
		t.Errorf("waking by 300 = %v, want [%s] once", got, id)
	}
	put(id, "league", 0, 1)
	put(id, "season/0001", 6_000, 1)
	if got := waking(300); len(got) != 0 {
		t.Errorf("waking by 300 after the wakes moved = %v, want none", got)
	}
	want := []string{id, later}
	slices.Sort(want)
	if got := waking(10_000); !slices.Equal(got, want) {
		t.Errorf("waking by 10000 = %v, want %v", got, want)
	}
	if games, ok := s.(store.Store); ok {
		ids, err := games.Waking(ctx, 10_000)
		mustOK(t, err, "Waking(10000)")
		if slices.Contains(ids, id) || slices.Contains(ids, later) {
			t.Errorf("the games' Waking lists leagues: %v", ids)
		}
	}
}

func mustPutLeague(t *testing.T, s store.LeagueStore, it store.LeagueItem, prev int64) {
	t.Helper()
	_, err := s.PutLeagueItem(context.Background(), it, prev)
	mustOK(t, err, "PutLeagueItem(%s, %s, prev %d)", it.League, it.Key, prev)
}
