package service

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/store"
)

// DefaultMissesToBot deadlines missed in a row hand a seat to a bot, or
// drop the player, as the game's options say (P-4).
const DefaultMissesToBot = 2

// What repeated misses do (CreateRequest.OnMisses).
const (
	OnMissesBot  = "bot"  // a bot plays the seat from then on (the default)
	OnMissesDrop = "drop" // the player leaves the game
)

// canResign tells whether the engine offers seat to leave now.
func canResign(g engine.Game, seat int) bool {
	for _, c := range g.Legal(seat) {
		if c.Type == engine.Resign {
			return true
		}
	}
	return false
}

// maxAutoplay bounds the bot moves one commit makes, so a table of bots
// plays on over several ticks rather than in one huge write.
const maxAutoplay = 200

func (r *Record) missesToBot() int {
	if r.MissesToBot > 0 {
		return r.MissesToBot
	}
	return DefaultMissesToBot
}

// remindAt is when seat is reminded of its decision: a quarter of the time
// before the deadline.
func (r *Record) remindAt(seat int) int64 {
	return r.Due[seat] - int64(r.deadlineHours())*3600/4
}

// wakeAt is when the game next needs the clock: the earliest reminder not
// yet sent or deadline (0: none).
func (r *Record) wakeAt() int64 {
	if r.Status != StatusPlaying || r.Paused != 0 {
		return 0 // a paused game's clocks stand still
	}
	if r.PlayOn {
		return r.Updated
	}
	var wake int64
	for seat, due := range r.Due {
		if due == 0 {
			continue
		}
		t := due
		if seat < len(r.Reminded) && !r.Reminded[seat] && (seat >= len(r.Bots) || !r.Bots[seat]) {
			t = r.remindAt(seat)
		}
		if away := r.nextAway(seat, r.Updated); away != 0 && away < t {
			t = away // its bot plays the decision from then
		}
		if wake == 0 || t < wake {
			wake = t
		}
	}
	return wake
}

// wakeKey is the time to give the store's wake index at now: the key
// written last, while it is still to come and no later than wakeAt, else
// wakeAt. A key that changes costs two index writes; wakeAt moves nearly
// every time a turn passes (the new deadline), the kept key only when the
// next wake comes earlier or the key falls due: the sweep then ticks the
// game at worst early, finds nothing due and moves the key on (Tick).
func (r *Record) wakeKey(now int64) int64 {
	w := r.wakeAt()
	if w != 0 && r.WakeKey > now && r.WakeKey <= w {
		return r.WakeKey
	}
	return w
}

// Tick does what the clock asks of a game (P-4): a seat whose deadline has
// passed gets its default played, and after repeated misses its seat is
// handed to a bot; a seat whose deadline is near is reminded by mail. It
// costs one read, and one conditional write when anything was due.
func (s *Service) Tick(ctx context.Context, id string) error {
	rec, ver, err := s.Load(ctx, id)
	if err != nil {
		return err
	}
	if rec.Status != StatusPlaying || rec.Paused != 0 {
		return nil
	}
	g, err := s.Engine(rec)
	if err != nil {
		return err
	}
	now := s.now().Unix()
	rec.grow(g.Seats())
	changed := false
	// The last commit left covered decisions to play, or a seat that owes
	// one has gone away since.
	if rec.PlayOn || s.awayOwes(rec, g) {
		if err := s.autoplay(rec, g, ver+1); err != nil {
			return err
		}
		if g, err = s.Engine(rec); err != nil {
			return err
		}
		changed = true
	}
	g, played, err := s.playMissed(ctx, rec, g, ver+1, now)
	if err != nil {
		return err
	}
	changed = changed || played > 0
	if changed {
		if err := s.autoplay(rec, g, ver+1); err != nil {
			return err
		}
	}
	if rec.remind(now) {
		changed = true
	}
	if !changed && (rec.WakeKey == 0 || rec.WakeKey > now || rec.wakeKey(now) == rec.WakeKey) {
		return nil
	}
	// Something fell due, or the game was woken early by a kept wake key
	// (wakeKey) and the key moves on.
	if _, err := s.commit(ctx, rec, ver); err != nil {
		return fmt.Errorf("tick game %s v%d: %w", id, ver, err)
	}
	return nil
}

// remind mails a reminder to each seat whose deadline is near (a quarter
// of its time left) and that has not been reminded of it; it tells
// whether it mailed any.
func (r *Record) remind(now int64) bool {
	mailed := false
	for seat, due := range r.Due {
		if due == 0 || r.Reminded[seat] || r.Bots[seat] || r.unasked(seat) || r.remindAt(seat) > now {
			continue
		}
		r.Reminded[seat] = true
		inv := r.inviteOf(seat)
		r.Outbox = append(r.Outbox, Mail{ID: fmt.Sprintf("%s-%d-%d", MailReminder, inv, r.Moves), Kind: MailReminder, Seat: inv, Moves: r.Moves, Due: due})
		mailed = true
	}
	return mailed
}

// playMissed plays, to be committed as version next, what the seats whose
// deadline has passed by now play (missed); it answers the game and how
// many commands it played.
func (s *Service) playMissed(ctx context.Context, rec *Record, g engine.Game, next, now int64) (engine.Game, int, error) {
	missed := map[int]bool{} // a turn played out by defaults is one miss
	return s.playOn(rec, g, next, func(g engine.Game) (decision, bool, error) {
		for _, o := range g.Owing() {
			if due := rec.Due[o]; due != 0 && due <= now {
				return s.missed(ctx, rec, g, o, missed)
			}
		}
		return decision{}, false, nil
	})
}

// missed picks what a seat whose deadline has passed plays: its default,
// or its resignation when repeated misses drop the player; repeated
// misses may hand the seat to a bot first. missed counts each seat's miss
// once in a tick (a turn played out by defaults is one miss).
func (s *Service) missed(ctx context.Context, rec *Record, g engine.Game, seat int, missed map[int]bool) (decision, bool, error) {
	if !missed[seat] && !s.away(rec, seat) { // an absence's deadlines are no misses
		missed[seat] = true
		rec.Misses[seat]++
	}
	a, ok := g.Default(seat)
	if !ok {
		return decision{}, false, fmt.Errorf("game %s: seat %d owes a decision with no default", rec.ID, seat)
	}
	if rec.Misses[seat] >= rec.missesToBot() {
		if rec.OnMisses == OnMissesDrop && canResign(g, seat) {
			a = engine.Action{Type: engine.Resign}
			s.log.InfoContext(ctx, "player dropped", "game", rec.ID, "seat", seat, "misses", rec.Misses[seat])
		} else if !rec.Bots[seat] {
			rec.Bots[seat] = true
			s.log.InfoContext(ctx, "seat handed to a bot", "game", rec.ID, "seat", seat, "misses", rec.Misses[seat])
		}
	}
	return decision{seat: seat, action: a, key: fmt.Sprintf("deadline-%d-%d", seat, rec.SeatStep(seat)), by: byDeadline}, true, nil
}

// SweepWorkers is how many games a sweep works on at once: each is a few
// requests that mostly wait on the network.
const SweepWorkers = 16

// ForEach calls fn for each id, SweepWorkers at a time, and returns the
// first error (every id is tried whatever the others do).
func ForEach(ctx context.Context, ids []string, fn func(ctx context.Context, id string) error) error {
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, SweepWorkers)
	for _, id := range ids {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, id); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

// TickAll ticks every game the store says is waking by now, SweepWorkers
// at a time. A game another sweep or a move wrote meanwhile is left to
// them (its commit fails on the version): two sweeps at once play and
// mail each thing once.
func (s *Service) TickAll(ctx context.Context) (int, error) {
	ids, err := s.store.Waking(ctx, s.now().Unix())
	if err != nil {
		return 0, fmt.Errorf("waking games: %w", err)
	}
	err = ForEach(ctx, ids, func(ctx context.Context, id string) error {
		err := s.Tick(ctx, id)
		switch {
		case errors.Is(err, store.ErrConflict):
			s.log.InfoContext(ctx, "tick: the game moved meanwhile", "game", id)
			return nil
		case err != nil:
			s.log.ErrorContext(ctx, "tick", "game", id, "err", err)
		}
		return err
	})
	return len(ids), err
}

// PendingOutbox lists the games with mail still to send (for the sweep).
func (s *Service) PendingOutbox(ctx context.Context) ([]string, error) {
	return s.store.PendingOutbox(ctx)
}
