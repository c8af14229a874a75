package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// maxCommitLog bounds the log one commit adds, in bytes of its entries'
// JSON: 50 to 60 commands of today's games, about 1.2 KB once
// compressed in their chunk (logToChunks). What bots,
// standing orders and missed deadlines play in one commit stops there,
// and the game plays on in the next (Record.PlayOn: the sweep hands it out
// to be ticked at once), so that neither a move nor the tick that
// carries a game on writes more than an action may (issue 28: before,
// 200 commands a bound and up to 600 in a tick, 7 to 13 chunks).
const maxCommitLog = 12 << 10

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

// PlayOnWake is the wake of a game whose last commit stopped at its bound
// with more that orders and bots cover (Record.PlayOn): due at once, and
// the same through every commit that plays on, so that the wake index
// does not move (two write units) in each of them, only when the game
// begins and ends playing on (issue 28: before, its wake was the commit's
// time, a new key each time). The sweep hands such a game out at each
// run, keyed by the run's time (dueToTick).
const PlayOnWake int64 = 1

// wakeAt is when the game next needs the clock: the earliest reminder not
// yet sent or deadline (0: none; PlayOnWake: at once).
func (r *Record) wakeAt() int64 {
	if r.Status != StatusPlaying || r.Paused != 0 {
		return 0 // a paused game's clocks stand still
	}
	if r.PlayOn {
		return PlayOnWake
	}
	wake := r.firstDealDue()
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
	_, err := s.tick(ctx, id)
	return err
}

// tick is Tick, and tells whether it wrote the game.
func (s *Service) tick(ctx context.Context, id string) (bool, error) {
	g, err := s.store.GetGame(ctx, id)
	if err != nil {
		return false, fmt.Errorf("load game %s: %w", id, err)
	}
	return s.tickGame(ctx, id, g)
}

// tickGame is tick of the game id read as game.
func (s *Service) tickGame(ctx context.Context, id string, game store.Game) (bool, error) {
	rec, ver, err := s.loaded(ctx, id, game)
	if err != nil {
		return false, err
	}
	return s.tickRecord(ctx, rec, ver)
}

// tickRecord is tick of the game loaded as rec, version ver.
func (s *Service) tickRecord(ctx context.Context, rec *Record, ver int64) (bool, error) {
	if rec.Status != StatusPlaying || rec.Paused != 0 {
		return false, nil
	}
	now := s.now().Unix()
	if !rec.PlayOn && !rec.pastDue(now) && len(rec.Away) == 0 {
		// Only reminders (or an early wake), and no absence that may have
		// begun: the engine is not needed.
		return s.remindOnly(ctx, rec, ver, now)
	}
	g, err := s.Engine(rec)
	if err != nil {
		return false, err
	}
	rec.grow(g.Seats())
	changed := false
	// The last commit left covered decisions to play, or a seat that owes
	// one has gone away since.
	if rec.PlayOn || s.awayOwes(rec, g) {
		if err := s.autoplay(rec, g, ver+1); err != nil {
			return false, err
		}
		if g, err = s.Engine(rec); err != nil {
			return false, err
		}
		changed = true
	}
	g, played, err := s.playMissed(ctx, rec, g, ver+1, now)
	if err != nil {
		return false, err
	}
	changed = changed || played > 0
	if changed {
		if err := s.autoplay(rec, g, ver+1); err != nil {
			return false, err
		}
	}
	return s.commitTick(ctx, rec, ver, now, changed)
}

// pastDue tells whether a deadline has passed by now, a deal's included.
func (r *Record) pastDue(now int64) bool {
	if r.dealsDue(now) {
		return true
	}
	for _, due := range r.Due {
		if due != 0 && due <= now {
			return true
		}
	}
	return false
}

// remindOnly is the tick of a game with no deadline past: the reminders
// due, without restoring the engine.
func (s *Service) remindOnly(ctx context.Context, rec *Record, ver, now int64) (bool, error) {
	// Seats sized as the engine would (grow), from the deadlines.
	rec.grow(len(rec.Due))
	return s.commitTick(ctx, rec, ver, now, false)
}

// commitTick mails the reminders due and commits what the tick changed;
// it tells whether it wrote the game.
func (s *Service) commitTick(ctx context.Context, rec *Record, ver, now int64, changed bool) (bool, error) {
	if rec.remind(now) {
		changed = true
	}
	if !changed && (rec.WakeKey == 0 || rec.WakeKey > now || rec.wakeKey(now) == rec.WakeKey) {
		return false, nil
	}
	// Something fell due, or the game was woken early by a kept wake key
	// (wakeKey) and the key moves on.
	if _, err := s.commit(ctx, rec, ver); err != nil {
		return false, fmt.Errorf("tick game %s v%d: %w", rec.ID, ver, err)
	}
	return true, nil
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
	before := rec.Moves
	g, _, err := s.playOn(rec, g, next, func(g engine.Game) (decision, bool, error) {
		// A deal unanswered at its deadline is declined (its default):
		// no miss, answering a deal is the seat's to choose.
		if d, ok := rec.dealPastDue(g, now); ok {
			return decision{seat: d.To, action: engine.DealDefault(d), key: fmt.Sprintf("deadline-deal-%d", d.ID), by: byDeadline}, true, nil
		}
		for _, o := range g.Owing() {
			if due := rec.Due[o]; due != 0 && due <= now {
				return s.missed(ctx, rec, g, o, missed)
			}
		}
		return decision{}, false, nil
	})
	return g, rec.Moves - before, err
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
	return forAll(ctx, ids, fn)
}

// forAll is ForEach for items of any type.
func forAll[T any](ctx context.Context, items []T, fn func(ctx context.Context, item T) error) error {
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, SweepWorkers)
	for _, it := range items {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, it); err != nil {
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
// at a time, and returns how many were listed.
func (s *Service) TickAll(ctx context.Context) (int, error) {
	n, _, err := s.TickDue(ctx)
	return n, err
}

// TickDue ticks every game the store says is waking by now, or hands it
// out (dueToTick: Config.HandOut, the stream's notifier ticks it): the
// games it ticks itself are handed in batches (tickBatch) to SweepWorkers
// workers, each reading its batch in one request where the store can
// (the games and their sent markers) and ticking its games one after
// another through Tick's conditional commit, which fails if the game
// changed since the batch was read. A game another sweep, a move or the
// notifier wrote meanwhile is left to them (its commit fails on the
// version): two sweeps at once play and mail each thing once, and write
// the same requests. It returns how many games were listed and the ids
// of those whose mail is the stream's notifier's now, which the sweep's
// drain of pending mail leaves alone: the games it wrote (their mail is
// fresh) and those it handed out (the notifier's tick carries their mail
// on, and a drain of the same game from both at once could send a mail
// twice).
func (s *Service) TickDue(ctx context.Context) (listed int, streamed []string, err error) {
	listed, streamed, ids, handErr := s.dueToTick(ctx, s.now().Unix())
	var mu sync.Mutex
	err = forAll(ctx, slices.Collect(slices.Chunk(ids, s.tickBatch())), func(ctx context.Context, batch []string) error {
		wrote, err := s.tickRead(ctx, batch)
		mu.Lock()
		streamed = append(streamed, wrote...)
		mu.Unlock()
		return err
	})
	return listed, streamed, errors.Join(handErr, err)
}

// TickGames ticks the games of ids as Tick ticks each, but reads them a
// batch (tickBatch) at a time, in one request where the store can (the
// games and their sent markers): the notifier ticks the games a batch of
// the stream hands it so (streams.Ticks).
func (s *Service) TickGames(ctx context.Context, ids []string) error {
	var errs []error
	for batch := range slices.Chunk(ids, s.tickBatch()) {
		_, err := s.tickRead(ctx, batch)
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// tickRead reads the games of batch in one request where the store can
// and ticks them one after another, each through Tick's conditional
// commit; it returns the ids of those it wrote. A game written meanwhile
// (the commit fails on its version) is left to whoever wrote it.
func (s *Service) tickRead(ctx context.Context, batch []string) (written []string, err error) {
	read, err := s.readBatch(ctx, batch)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, id := range batch {
		wrote, err := s.tickBatched(ctx, id, read)
		switch {
		case errors.Is(err, store.ErrConflict):
			s.log.InfoContext(ctx, "tick: the game moved meanwhile", "game", id)
		case err != nil:
			s.log.ErrorContext(ctx, "tick", "game", id, "err", err)
			errs = append(errs, err)
		case wrote:
			written = append(written, id)
		}
	}
	return written, errors.Join(errs...)
}

// batchRead is what a sweep's worker read of its batch of games in one
// request.
type batchRead struct {
	games map[string]store.Game
	// sent holds the games' sent markers (none: not in the map), read
	// with them where the store can; nil if they were not.
	sent map[string]store.Sent
}

// batchSent tells whether the sweep reads the games' sent markers with
// them: the service keeps markers, and the store reads both at once.
func (s *Service) batchSent() (store.BatchSentGetter, bool) {
	bs, ok := s.store.(store.BatchSentGetter)
	return bs, ok && s.sent != nil
}

// tickBatch is how many games a sweep's worker reads at once (one
// request where the store reads batches) and then ticks one by one.
func (s *Service) tickBatch() int {
	if _, ok := s.batchSent(); ok {
		return store.MaxBatch / 2 // a game and its marker
	}
	return store.MaxBatch
}

// readBatch reads the games of ids, and their markers where the service
// keeps them, in one request if the store can; nil if it cannot.
func (s *Service) readBatch(ctx context.Context, ids []string) (*batchRead, error) {
	if bs, ok := s.batchSent(); ok {
		games, sent, err := bs.GetGamesSent(ctx, ids)
		if err != nil {
			return nil, fmt.Errorf("read %d games: %w", len(ids), err)
		}
		return &batchRead{games: games, sent: sent}, nil
	}
	bg, ok := s.store.(store.BatchGetter)
	if !ok {
		return nil, nil
	}
	games, err := bg.GetGames(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("read %d games: %w", len(ids), err)
	}
	return &batchRead{games: games}, nil
}

// tickBatched ticks the game id as read in its batch (read), or read
// alone if the batch was not read.
func (s *Service) tickBatched(ctx context.Context, id string, read *batchRead) (bool, error) {
	if read != nil && !read.has(id) {
		return false, nil // listed by the index, but gone
	}
	rec, ver, err := s.loadBatched(ctx, id, read)
	if err != nil {
		return false, err
	}
	return s.tickRecord(ctx, rec, ver)
}

// has tells whether the batch holds the game id.
func (b *batchRead) has(id string) bool {
	_, ok := b.games[id]
	return ok
}

// loadBatched is Load of the game id from its batch (read), or read
// alone if the batch was not read.
func (s *Service) loadBatched(ctx context.Context, id string, read *batchRead) (*Record, int64, error) {
	if read == nil {
		return s.Load(ctx, id)
	}
	g, ok := read.games[id]
	if !ok {
		return nil, 0, fmt.Errorf("load game %s: %w", id, store.ErrNotFound)
	}
	if read.sent == nil {
		return s.loaded(ctx, id, g)
	}
	// loaded's work, with the marker the batch read.
	rec, err := s.decodeGame(ctx, g)
	if err != nil {
		return nil, 0, err
	}
	if len(rec.Outbox) > 0 {
		if err := foldMarker(rec, read.sent[id]); err != nil {
			return nil, 0, fmt.Errorf("load game %s: %w", id, err)
		}
	}
	return rec, g.Version, nil
}

// LoadEach reads the games of ids as Load reads each, but a batch at a
// time where the store can (one request for the games of a batch and
// their sent markers), SweepWorkers batches at once, and calls fn with
// each game read, or with the error of a game that could not be read
// (rec nil). It returns the errors fn returned, joined. The sweep's drain
// of pending mail reads the games through it.
func (s *Service) LoadEach(ctx context.Context, ids []string, fn func(ctx context.Context, id string, rec *Record, ver int64, err error) error) error {
	var (
		mu   sync.Mutex
		errs []error
	)
	_ = forAll(ctx, slices.Collect(slices.Chunk(ids, s.tickBatch())), func(ctx context.Context, batch []string) error {
		read, readErr := s.readBatch(ctx, batch)
		for _, id := range batch {
			rec, ver, err := (*Record)(nil), int64(0), readErr
			if err == nil {
				rec, ver, err = s.loadBatched(ctx, id, read)
			}
			if err := fn(ctx, id, rec, ver, err); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}
		return nil
	})
	return errors.Join(errs...)
}

// PendingOutbox lists the games with mail still to send (for the sweep).
func (s *Service) PendingOutbox(ctx context.Context) ([]string, error) {
	return s.store.PendingOutbox(ctx)
}
