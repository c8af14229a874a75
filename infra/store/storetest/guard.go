package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// testCountUpToLimit: limit calls succeed, the next ones fail with
// ErrLimited, and counters of other keys are apart.
func testCountUpToLimit(t *testing.T, s store.GuardStore) {
	ctx := context.Background()
	key, other := newID(t), newID(t)
	const now, exp = 1_000, 4_600
	for i := range 3 {
		if err := s.Count(ctx, key, 3, exp, now); err != nil {
			t.Fatalf("Count %d of 3: %v", i+1, err)
		}
	}
	for range 2 {
		if err := s.Count(ctx, key, 3, exp, now+10); !errors.Is(err, store.ErrLimited) {
			t.Fatalf("Count over the limit: %v, want ErrLimited", err)
		}
	}
	// A higher limit (the operator raised it) lets the same counter go on.
	if err := s.Count(ctx, key, 4, exp, now+20); err != nil {
		t.Fatalf("Count under a raised limit: %v", err)
	}
	if err := s.Count(ctx, other, 1, exp, now); err != nil {
		t.Fatalf("Count of another key: %v", err)
	}
}

// testCountExpires: once its expiry has passed a counter starts again
// from zero, with the new expiry.
func testCountExpires(t *testing.T, s store.GuardStore) {
	ctx := context.Background()
	key := newID(t)
	if err := s.Count(ctx, key, 1, 2_000, 1_000); err != nil {
		t.Fatal(err)
	}
	// The expiry given by a later call does not move a live counter's.
	if err := s.Count(ctx, key, 1, 9_000, 1_999); !errors.Is(err, store.ErrLimited) {
		t.Fatalf("Count at the limit before the expiry: %v, want ErrLimited", err)
	}
	if err := s.Count(ctx, key, 1, 3_000, 2_000); err != nil {
		t.Fatalf("Count after the expiry: %v", err)
	}
	if err := s.Count(ctx, key, 1, 3_000, 2_500); !errors.Is(err, store.ErrLimited) {
		t.Fatalf("Count of the fresh counter over its limit: %v, want ErrLimited", err)
	}
}

// testCountRace: of 16 racing calls with limit 5, exactly 5 succeed.
func testCountRace(t *testing.T, s store.GuardStore) {
	ctx := context.Background()
	key := newID(t)
	var mu sync.Mutex
	ok, limited := 0, 0
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			err := s.Count(ctx, key, 5, 4_600, 1_000)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, store.ErrLimited):
				limited++
			default:
				t.Errorf("Count: %v", err)
			}
		})
	}
	wg.Wait()
	if ok != 5 || limited != 11 {
		t.Errorf("16 racing Counts with limit 5: %d succeeded, %d limited; want 5 and 11", ok, limited)
	}
}

// testMarkExpires: a mark is seen until its expiry and not from it on; a
// new mark replaces the old one.
func testMarkExpires(t *testing.T, s store.GuardStore) {
	ctx := context.Background()
	key := newID(t)
	check := func(now int64, want bool) {
		t.Helper()
		got, err := s.Marked(ctx, key, now)
		if err != nil {
			t.Fatalf("Marked at %d: %v", now, err)
		}
		if got != want {
			t.Errorf("Marked at %d = %v, want %v", now, got, want)
		}
	}
	check(1_000, false)
	if err := s.Mark(ctx, key, 2_000); err != nil {
		t.Fatal(err)
	}
	check(1_999, true)
	check(2_000, false)
	if err := s.Mark(ctx, key, 5_000); err != nil {
		t.Fatal(err)
	}
	check(4_000, true)
}
