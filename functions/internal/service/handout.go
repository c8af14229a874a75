package service

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/pbmgames/pbm/infra/store"
)

// SweepEvery is how often the sweep runs (template.yaml's schedule of
// the sweep function).
const SweepEvery = 5 * time.Minute

// SweepIdle is how long a game must have been left alone before the sweep
// drains it: the stream's notifier handles fresh commits, and draining the
// same game from both at once could send a mail twice.
const SweepIdle = 2 * time.Minute

// HandOutFor is how long a game the wake index lists as due is handed
// out (Config.HandOut) rather than ticked by the sweep itself: the sweep
// that first finds it due, at most SweepEvery after its wake, hands it
// out, and the stream's notifier ticks it within seconds. A game still
// listed after HandOutFor was handed out before and not ticked (the
// stream's retries ran out, the tick failed) or no sweep ran meanwhile:
// the sweep ticks it then, as it ticks every game where nothing is
// handed out.
const HandOutFor = SweepEvery + 2*time.Minute

// dueToTick lists the games waking by now and, where the service hands
// them out, writes a request to tick each that has been due for less
// than HandOutFor, MaxTickRequests a request, SweepWorkers requests at
// once. It returns how many games were listed, the ids of those handed
// out and of those the sweep ticks itself: all of them where nothing is
// handed out.
func (s *Service) dueToTick(ctx context.Context, now int64) (listed int, handed, ticked []string, err error) {
	if s.handOut == nil {
		ids, err := s.store.Waking(ctx, now)
		if err != nil {
			return 0, nil, nil, fmt.Errorf("waking games: %w", err)
		}
		return len(ids), nil, ids, nil
	}
	due, err := s.handOut.WakingDue(ctx, now)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("waking games: %w", err)
	}
	since := now - int64(HandOutFor/time.Second)
	var fresh []store.Due
	for _, d := range due {
		if d.At == PlayOnWake {
			// Playing on: handed out at every run, its request keyed
			// by the run (its wake stays the same from commit to
			// commit, and a request keyed by it would not be new); a
			// tick delivered late finds the game moved on. Never ticked
			// here after HandOutFor: each run writes a new request, so
			// the stream has a new record to retry every 5 minutes.
			d.At = now
			fresh = append(fresh, d)
			handed = append(handed, d.ID)
			continue
		}
		if d.At > since {
			fresh = append(fresh, d)
			handed = append(handed, d.ID)
		} else {
			ticked = append(ticked, d.ID)
		}
	}
	err = forAll(ctx, slices.Collect(slices.Chunk(fresh, store.MaxTickRequests)), func(ctx context.Context, batch []store.Due) error {
		if err := s.handOut.RequestTicks(ctx, batch); err != nil {
			// Those games stay due: the next sweep hands them out, or
			// ticks them once they have been due for HandOutFor.
			return fmt.Errorf("hand out %d games due: %w", len(batch), err)
		}
		return nil
	})
	if len(due) > 0 {
		s.log.InfoContext(ctx, "games due", "handed out", len(handed), "ticked here", len(ticked))
	}
	return len(due), handed, ticked, err
}
