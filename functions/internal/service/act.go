package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/store"
)

// Result of an action.
type Result struct {
	Version  int64          `json:"version"`
	N        int            `json:"n"`
	Position int64          `json:"position"` // what a link issued now carries (Record.LinkPosition)
	Events   []engine.Event `json:"events"`
	Replayed bool           `json:"replayed,omitempty"` // a retry: nothing was applied again
}

// Act applies one action of the seat holding invitation invite. key makes
// it idempotent: the same key again answers as the first time and applies
// nothing. pre says what the player saw: if the game has moved on since,
// the move is refused as a conflict rather than applied to a state the
// player has not seen. A move costs one read and one conditional write.
//
// A move whose precondition names the seat's own step (a page's form) is
// tried again when another write commits between its read and its write:
// the retry checks the step and the decisions again, so only a change of
// that seat's own decision refuses it, never someone else's write.
func (s *Service) Act(ctx context.Context, id string, invite int, a engine.Action, key string, pre Precondition) (Result, error) {
	if err := checkKey(key); err != nil {
		return Result{}, err
	}
	for attempt := 1; ; attempt++ {
		res, err := s.act(ctx, id, invite, a, key, pre)
		if pre.Step == 0 || attempt == maxActAttempts || !errors.Is(err, errLostRace) {
			return res, err
		}
	}
}

// maxActAttempts bounds the retries of a move that lost races to other
// writes.
const maxActAttempts = 5

// errLostRace marks a move whose conditional write found the game moved on.
var errLostRace = errors.New("lost the race")

func (s *Service) act(ctx context.Context, id string, invite int, a engine.Action, key string, pre Precondition) (Result, error) {
	rec, ver, err := s.Load(ctx, id)
	if err != nil {
		return Result{}, err
	}
	if invite < 0 || invite >= len(rec.Seats) {
		return Result{}, Fail(CodeForbidden, fmt.Errorf("invite %d of %d", invite, len(rec.Seats)))
	}
	seat := rec.engineSeat(invite)
	if k, ok := rec.findKey(seat, key); ok && seat >= 0 {
		return s.replayedResult(ctx, rec, k, a)
	}
	if engine.IsAnswer(a) {
		// A deal is answered whenever its seat likes: the deal it names
		// is its own precondition (the engine refuses one no longer open).
		pre = Precondition{Version: pre.Version}
	}
	if err := pre.checkRecord(rec, ver, seat); err != nil {
		return Result{}, err
	}
	switch {
	case rec.Status == StatusOver:
		return Result{}, Fail(CodeGameOver, nil)
	case rec.Status != StatusPlaying:
		return Result{}, Fail(CodeWrongStatus, fmt.Errorf("act in status %s", rec.Status))
	case rec.Paused != 0:
		return Result{}, errPaused
	case seat < 0:
		return Result{}, Fail(CodeForbidden, fmt.Errorf("invite %d has no seat", invite))
	}
	g, err := s.Engine(rec)
	if err != nil {
		return Result{}, err
	}
	if err := pre.checkGame(g, seat); err != nil {
		return Result{}, err
	}
	res, err := s.decide(ctx, rec, ver, g, decision{seat: seat, action: a, key: key, by: byPlayer})
	if err != nil {
		return Result{}, err
	}
	s.log.InfoContext(ctx, "action applied", "game", id, "version", res.Version, "seat", seat, "action", a.Type)
	return res, nil
}

// ActBot plays the engine's bot for the seat of invitation invite: for
// seats handed to a bot and for tests. Like Act it costs one read and one
// conditional write.
func (s *Service) ActBot(ctx context.Context, id string, invite int, key string) (Result, error) {
	rec, ver, err := s.Load(ctx, id)
	if err != nil {
		return Result{}, err
	}
	if rec.Status != StatusPlaying {
		return Result{}, Fail(CodeWrongStatus, fmt.Errorf("bot in status %s", rec.Status))
	}
	seat := rec.engineSeat(invite)
	g, err := s.Engine(rec)
	if err != nil {
		return Result{}, err
	}
	a, ok := g.Bot(seat)
	if !ok {
		return Result{}, Fail(CodeNotYourTurn, fmt.Errorf("bot for seat %d: nothing owed", seat))
	}
	return s.decide(ctx, rec, ver, g, decision{seat: seat, action: a, key: key, by: byBot})
}

// decide is the end of a move (Act, ActBot): it steps the decision d,
// plays on what nobody need be asked, and commits rec as the version
// after ver. The result is the seat's.
func (s *Service) decide(ctx context.Context, rec *Record, ver int64, g engine.Game, d decision) (Result, error) {
	next, ev, err := s.step(rec, g, d, ver+1)
	if err != nil {
		return Result{}, err
	}
	if err := s.autoplay(rec, next, ver+1); err != nil {
		return Result{}, err
	}
	v, err := s.commit(ctx, rec, ver)
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			err = fmt.Errorf("%w: %w", errLostRace, err)
		}
		return Result{}, fmt.Errorf("%s on game %s v%d: %w", d.by.verb(), rec.ID, ver, err)
	}
	return Result{Version: v, N: rec.Moves - 1, Position: rec.LinkPosition(d.seat), Events: visible(ev, d.seat)}, nil
}

// Who made a command: the seat's player, the clock (a missed deadline
// plays the default, P-4), or the bot a seat was handed to.
type origin int

const (
	byPlayer origin = iota
	byDeadline
	byBot
	byOrder // the seat's standing orders
)

// What Entry.By says of each origin.
const (
	ByDeadline = "deadline"
	ByBot      = "bot"
	ByOrder    = "order"
)

func (o origin) String() string {
	switch o {
	case byDeadline:
		return ByDeadline
	case byBot:
		return ByBot
	case byOrder:
		return ByOrder
	case byOrganiser:
		return ByOrganiser
	case byPrepared:
		return ByPrepared
	}
	return ""
}

// verb names a move of the origin in an error.
func (o origin) verb() string {
	if o == byPlayer {
		return "act"
	}
	return o.String()
}

// decision is one command picked for a seat: the player's, or one picked
// for it (its bot, its orders, its deadline's default).
type decision struct {
	seat   int
	action engine.Action
	key    string // its idempotency key ("" for none)
	by     origin
}

// step applies d to g and records it in rec, to be committed as version
// next: the one path every command takes, whoever picked it. A player's
// action the engine refuses is refused with the engine's own error, which
// the player reads; any other origin picked it from the engine, so a
// refusal is the server's fault and says what was tried.
func (s *Service) step(rec *Record, g engine.Game, d decision, next int64) (engine.Game, []engine.Event, error) {
	after, ev, err := g.Apply(d.seat, d.action)
	if err != nil {
		if d.by == byPlayer {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("game %s: %s of seat %d chose %v: %w", rec.ID, d.by, d.seat, d.action, err)
	}
	if err := s.record(rec, g, after, d, ev, next); err != nil {
		return nil, nil, err
	}
	return after, ev, nil
}

// playOn steps, in one commit, the commands pick picks, until it picks
// none, the game ends or the commit's log reaches maxCommitLog; it
// answers the game and whether it stopped at that bound (full), the game
// not over: there may be more to play, in another commit.
func (s *Service) playOn(rec *Record, g engine.Game, next int64, pick func(engine.Game) (decision, bool, error)) (_ engine.Game, full bool, _ error) {
	for !g.Over() {
		if rec.logBytes >= maxCommitLog {
			return g, true, nil
		}
		d, ok, err := pick(g)
		if err != nil || !ok {
			return g, false, err
		}
		if g, _, err = s.step(rec, g, d, next); err != nil {
			return nil, false, err
		}
	}
	return g, false, nil
}

// record appends an applied command to the record, to be committed as
// version next.
func (s *Service) record(rec *Record, before, after engine.Game, d decision, ev []engine.Event, next int64) error {
	seat, key, by := d.seat, d.key, d.by
	state, err := after.MarshalJSON()
	if err != nil {
		return err
	}
	rec.State = state
	if err := rec.appendEntry(Entry{N: rec.Moves, Seat: seat, Action: d.action, At: s.now().Unix(), Key: key, Events: ev, By: by.String()}); err != nil {
		return err
	}
	rec.Moves++
	for len(rec.Acted) < after.Seats() {
		rec.Acted = append(rec.Acted, 0)
	}
	if seat >= 0 { // not the organiser's (engine.Organiser)
		rec.Acted[seat]++
	}
	rec.grow(after.Seats())
	if by == byPlayer {
		rec.Misses[seat] = 0 // misses count in a row
	}
	if key != "" {
		rec.Keys = rec.Keys.add(Idem{Seat: seat, Key: key, N: rec.Moves - 1, Version: next}, keepKeys)
	}
	if after.Over() {
		rec.Status = StatusOver
	}
	s.planMail(rec, before, after)
	return nil
}

// replayedResult answers a retried key as the first time, reading the
// entry from its chunk if it has left the game item (a rare, late retry).
// A key sent again with another action than the one it made (want) is no
// retry: it is refused, as payment APIs do, rather than
// answered with the first action's result.
func (s *Service) replayedResult(ctx context.Context, rec *Record, k Idem, want engine.Action) (Result, error) {
	var e Entry
	if first := rec.Moves - rec.Log.Len(); k.N >= first {
		_, rest := rec.Log.split(k.N - first)
		one, _ := rest.split(1)
		entries, err := one.decode()
		if err != nil || len(entries) != 1 {
			return Result{}, fmt.Errorf("game %s: entry %d of a retried key: %v", rec.ID, k.N, err)
		}
		e = entries[0]
	} else {
		all, err := s.FullLog(ctx, rec)
		if err != nil {
			return Result{}, err
		}
		e = all[k.N]
	}
	if want != e.Action {
		return Result{}, Fail(CodeKeyReused, fmt.Errorf("key %q made %v, sent again with %v", k.Key, e.Action, want))
	}
	return Result{Version: k.Version, N: k.N, Position: rec.LinkPosition(e.Seat), Events: visible(e.Events, e.Seat), Replayed: true}, nil
}

// visible keeps the events seat may see (P-3).
func visible(ev []engine.Event, seat int) []engine.Event {
	out := make([]engine.Event, 0, len(ev))
	for _, e := range ev {
		if e.VisibleTo(seat) {
			out = append(out, e)
		}
	}
	return out
}

// autoplay plays, in the same commit and for as long as there are any
// (bounded by maxCommitLog), the decisions nobody need be asked: those of
// seats handed to a bot, and those the seats' standing orders cover.
//
// When it stops at the bound, it marks the record so that the sweep wakes
// the game at once and plays on (Tick), rather than leaving a decision
// nobody is asked about to its deadline.
func (s *Service) autoplay(rec *Record, g engine.Game, next int64) error {
	_, full, err := s.playOn(rec, g, next, func(g engine.Game) (decision, bool, error) {
		for _, d := range openDeals(g) {
			if d, ok := s.answerFor(rec, g, d); ok {
				return d, true, nil
			}
		}
		// The offers the player prepared come first in their turn (B-4).
		if d, ok := s.preparedNow(rec, g); ok {
			return d, true, nil
		}
		for _, o := range g.Owing() {
			if d, ok, err := s.standIn(rec, g, o); ok || err != nil {
				return d, ok, err
			}
		}
		return decision{}, false, nil
	})
	if err != nil {
		return err
	}
	rec.PlayOn = full
	return nil
}
