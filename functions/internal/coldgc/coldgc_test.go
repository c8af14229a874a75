package coldgc

import (
	"context"
	"runtime/debug"
	"testing"
)

// gcPercent is the collector's GOGC now.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

type counter struct{ n int }

func (c *counter) Invoke(context.Context, []byte) ([]byte, error) { c.n++; return []byte("ok"), nil }

// TestHeldToTheSecondInvocation: in Lambda the collector is off, up to a
// quarter of the function's memory, through the first invocation, and
// has its settings back from the second on.
func TestHeldToTheSecondInvocation(t *testing.T) {
	percent, limit := debug.SetGCPercent(150), debug.SetMemoryLimit(1<<40)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit); restore = nil })

	hold("127.0.0.1:9001", "512")
	if got := gcPercent(); got != -1 {
		t.Fatalf("held: GOGC %d, want off", got)
	}
	h := &counter{}
	wrapped := Handler(h)
	for i, want := range []struct {
		percent int
		limit   int64
	}{{-1, 128 << 20}, {150, 1 << 40}, {150, 1 << 40}} {
		if out, err := wrapped.Invoke(context.Background(), nil); err != nil || string(out) != "ok" {
			t.Fatalf("invocation %d: %q, %v", i+1, out, err)
		}
		if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != want.percent || gotLimit != want.limit {
			t.Errorf("after invocation %d: GOGC %d, limit %d; want %d, %d", i+1, got, gotLimit, want.percent, want.limit)
		}
	}
	if h.n != 3 {
		t.Errorf("the handler ran %d times, want 3", h.n)
	}
}

// TestNotInLambda: outside Lambda nothing changes and the handler is
// not wrapped.
func TestNotInLambda(t *testing.T) {
	percent := gcPercent()
	restore = nil
	hold("", "256")
	h := &counter{}
	if Handler(h) != Invoker(h) || gcPercent() != percent {
		t.Errorf("outside Lambda: wrapped, or GOGC %d (was %d)", gcPercent(), percent)
	}
}

// TestHoldKeepsALowerLimit: a GOMEMLIMIT under the hold's limit stays.
func TestHoldKeepsALowerLimit(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(32<<20)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit); restore = nil })
	hold("127.0.0.1:9001", "256")
	if got := debug.SetMemoryLimit(-1); got != 32<<20 {
		t.Errorf("held: limit %d, want GOMEMLIMIT's %d", got, 32<<20)
	}
	restore()
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != 100 || gotLimit != 32<<20 {
		t.Errorf("restored: GOGC %d, limit %d", got, gotLimit)
	}
}

func TestHoldLimit(t *testing.T) {
	for in, want := range map[string]int64{"256": 64 << 20, "1024": 256 << 20, "": 64 << 20, "x": 64 << 20, "-5": 64 << 20} {
		if got := holdLimit(in); got != want {
			t.Errorf("holdLimit(%q) = %d, want %d", in, got, want)
		}
	}
}
