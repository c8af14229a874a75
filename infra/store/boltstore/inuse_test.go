package boltstore

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestSecondOpenSaysInUse (issue 10, 16): a second opener of the same
// file (a second `make run` on the same data folder) gets ErrInUse, not
// bbolt's bare "timeout".
func TestSecondOpenSaysInUse(t *testing.T) {
	defer func(d time.Duration) { lockWait = d }(lockWait)
	lockWait = 200 * time.Millisecond
	path := filepath.Join(t.TempDir(), "games.db")
	first, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if _, err := Open(path); !errors.Is(err, ErrInUse) {
		t.Fatalf("second open: %v, want ErrInUse", err)
	}
}
