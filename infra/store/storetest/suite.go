package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/infra/store"
)

// subtest is one test of a suite run on stores of type S.
type subtest[S any] struct {
	name string
	fn   func(t *testing.T, s S)
}

// runSuite runs each test as a subtest on a store newStore gives it.
func runSuite[S any](t *testing.T, newStore func(t *testing.T) S, tests []subtest[S]) {
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newStore(t))
		})
	}
}

// must is v, or fails t with err and the call that returned it (a
// format and its arguments).
func must[T any](t *testing.T, v T, err error, call string, args ...any) T {
	t.Helper()
	mustOK(t, err, call, args...)
	return v
}

// mustOK fails t with err, if set, and the call that returned it.
func mustOK(t *testing.T, err error, call string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(call, args...), err)
	}
}

// race calls call(i) for each i below n in goroutines released together,
// and returns their errors by i.
func race(n int, call func(i int) error) []error {
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  = make([]error, n)
	)
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = call(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// raceOK is race where every call must succeed: the first error fails
// t, naming the caller as who and its number.
func raceOK(t *testing.T, who string, n int, call func(i int) error) {
	t.Helper()
	for i, err := range race(n, call) {
		if err != nil {
			t.Fatalf("%s %d: %v", who, i, err)
		}
	}
}

// oneWinner is the index of the one call of a race that succeeded: it
// fails t, naming the race as what, unless exactly one did and every
// other lost with store.ErrConflict.
func oneWinner(t *testing.T, what string, errs []error) int {
	t.Helper()
	var winners []int
	for i, err := range errs {
		switch {
		case err == nil:
			winners = append(winners, i)
		case !errors.Is(err, store.ErrConflict):
			t.Fatalf("%s: writer %d: %v, want nil or ErrConflict", what, i, err)
		}
	}
	if len(winners) != 1 {
		t.Fatalf("%s: writers %v won, want exactly one", what, winners)
	}
	return winners[0]
}
