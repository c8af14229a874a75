package service

import (
	"errors"

	"github.com/pbmgames/pbm/infra/store"
)

// ErrUnchanged tells Update that the change found nothing to do: nothing
// is written, and the call succeeds.
var ErrUnchanged = errors.New("unchanged")

// Update reads a value and its version, changes it (given the version
// read) and writes it, again from the read when the write loses a race
// (store.ErrConflict), at most attempts times in all: for changes whose
// effect does not depend on the order. A change that returns ErrUnchanged
// ends it with nothing written.
func Update[T any](attempts int, read func() (T, int64, error), change func(T, int64) error, write func(T, int64) error) error {
	for attempt := 1; ; attempt++ {
		v, ver, err := read()
		if err != nil {
			return err
		}
		if err := change(v, ver); errors.Is(err, ErrUnchanged) {
			return nil
		} else if err != nil {
			return err
		}
		err = write(v, ver)
		if errors.Is(err, store.ErrConflict) && attempt < attempts {
			continue
		}
		return err
	}
}
