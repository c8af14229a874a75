package boltstore

import "testing"

// The sizes dynalite gives these numbers (its valSize, run under node).
func TestNumberSize(t *testing.T) {
	for v, want := range map[int64]int{
		0: 1, 1: 2, 10: 2, 12: 2, 100: 2, 120: 3, 123: 3, 1234: 3,
		1700000000: 2, 17000000000: 3, -5: 3, -12: 3, 99: 2,
		9223372036854775807: 11, 1000001: 5,
	} {
		if got := numberSize(v); got != want {
			t.Errorf("numberSize(%d) = %d, want %d", v, got, want)
		}
	}
}
