package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/store"
)

// Deals that do not stall a turn (SPEC §1.7, issue 23). The engine keeps
// the open deals (engine.Deal) — offers one seat made another, purchases a
// seat kept for later — and carries them out or lets them lapse; the
// service gives each its deadline and mail, plays its default when the
// deadline passes, has bots and standing orders answer what they cover,
// and keeps the offers a player prepared between turns, which it makes for
// them at the start of their next turn (the first moment of it the game
// allows them).

// MailDeal asks a seat to answer a deal: an offer made to it, or the
// purchase it kept for later.
const MailDeal = "deal"

// MaxPrepared bounds the offers one seat may have prepared at once.
const MaxPrepared = 5

// byPrepared marks a command made from the offers its seat prepared.
const byPrepared origin = 100

// ByPrepared is what Entry.By says of an offer a player prepared between
// turns and the service made for them (shown only to that seat).
const ByPrepared = "prepared"

// dealing is the game's deals, if it makes any.
func dealing(g engine.Game) (engine.Dealing, bool) {
	d, ok := g.(engine.Dealing)
	return d, ok
}

// openDeals lists g's open deals (none for a game without deals).
func openDeals(g engine.Game) []engine.Deal {
	if d, ok := dealing(g); ok && g != nil {
		return d.Deals()
	}
	return nil
}

// planDeals gives each deal the change from before to after opened its
// deadline and its mail, and drops what was planned for a deal it closed
// (a mail not yet sent is no longer needed).
func (s *Service) planDeals(rec *Record, before, after engine.Game, now int64) {
	was := map[int]bool{}
	if before != nil {
		for _, d := range openDeals(before) {
			was[d.ID] = true
		}
	}
	open := map[int]bool{}
	for _, d := range openDeals(after) {
		open[d.ID] = true
		if was[d.ID] {
			continue
		}
		due := now + int64(rec.deadlineHours())*3600
		if rec.DealDue == nil {
			rec.DealDue = map[int]int64{}
		}
		rec.DealDue[d.ID] = due
		inv := rec.inviteOf(d.To)
		if inv < 0 {
			continue
		}
		rec.Outbox = append(rec.Outbox, Mail{ID: fmt.Sprintf("%s-%d-%d", MailDeal, inv, d.ID), Kind: MailDeal, Seat: inv, Moves: rec.Moves, Due: due, Deal: d.ID})
	}
	for id := range rec.DealDue {
		if !open[id] {
			delete(rec.DealDue, id)
			rec.Outbox = slices.DeleteFunc(rec.Outbox, func(m Mail) bool { return m.Kind == MailDeal && m.Deal == id })
		}
	}
	if len(rec.DealDue) == 0 {
		rec.DealDue = nil
	}
}

// dealPastDue is the first open deal whose deadline has passed by now.
func (r *Record) dealPastDue(g engine.Game, now int64) (engine.Deal, bool) {
	for _, d := range openDeals(g) {
		if due := r.DealDue[d.ID]; due != 0 && due <= now {
			return d, true
		}
	}
	return engine.Deal{}, false
}

// dealsDue tells whether a deal's deadline has passed by now.
func (r *Record) dealsDue(now int64) bool {
	for _, due := range r.DealDue {
		if due <= now {
			return true
		}
	}
	return false
}

// firstDealDue is the earliest deadline of an open deal (0: none).
func (r *Record) firstDealDue() int64 {
	var first int64
	for _, due := range r.DealDue {
		if first == 0 || due < first {
			first = due
		}
	}
	return first
}

// answerFor is the answer a deal gets without its seat's player: from
// its bot (a seat handed to a bot), or its standing orders if they cover
// it — never from an absent player's bot: a deal is theirs to weigh on
// their return, or it is declined at its deadline.
func (s *Service) answerFor(rec *Record, g engine.Game, d engine.Deal) (decision, bool) {
	dl, ok := dealing(g)
	if !ok || rec.Paused != 0 {
		return decision{}, false
	}
	if d.To < len(rec.Bots) && rec.Bots[d.To] {
		if a, ok := dl.DealAnswer(d, nil, true); ok {
			return decision{seat: d.To, action: a, by: byBot}, true
		}
	}
	if o := rec.Orders[rec.inviteOf(d.To)]; len(o) > 0 {
		if a, ok := dl.DealAnswer(d, o, false); ok {
			return decision{seat: d.To, action: a, by: byOrder}, true
		}
	}
	return decision{}, false
}

// preparedNow is the first offer the seat whose turn it is prepared that
// the game lets it make now; offers it could never make any more (what
// they offered changed hands, the cash is short) are dropped and noted
// for the player (Record.Unmade).
func (s *Service) preparedNow(rec *Record, g engine.Game) (decision, bool) {
	seat := g.Turn()
	inv := rec.inviteOf(seat)
	if inv < 0 || len(rec.Prepared[inv]) == 0 || rec.Paused != 0 || !slices.Contains(g.Owing(), seat) {
		return decision{}, false
	}
	dl, ok := dealing(g)
	if !ok {
		return decision{}, false
	}
	legal, preparable := g.Legal(seat), dl.Preparable(seat)
	kept := rec.Prepared[inv][:0]
	var made *engine.Action
	for _, a := range rec.Prepared[inv] {
		switch {
		case made == nil && engine.Find(legal, a) >= 0:
			made = &a
		case engine.Find(preparable, a) < 0:
			rec.noteUnmade(inv, a)
		default:
			kept = append(kept, a)
		}
	}
	rec.setPrepared(inv, kept)
	if made == nil {
		return decision{}, false
	}
	return decision{seat: seat, action: *made, by: byPrepared}, true
}

// setPrepared keeps invitation inv's prepared offers (none: removed).
func (r *Record) setPrepared(inv int, offers []engine.Action) {
	if len(offers) == 0 {
		delete(r.Prepared, inv)
		if len(r.Prepared) == 0 {
			r.Prepared = nil
		}
		return
	}
	if r.Prepared == nil {
		r.Prepared = map[int][]engine.Action{}
	}
	r.Prepared[inv] = slices.Clone(offers)
}

// noteUnmade records a prepared offer that could not be made (the last
// few, for the player's deals page).
func (r *Record) noteUnmade(inv int, a engine.Action) {
	if r.Unmade == nil {
		r.Unmade = map[int][]engine.Action{}
	}
	r.Unmade[inv] = append(r.Unmade[inv], a)
	if n := len(r.Unmade[inv]); n > MaxPrepared {
		r.Unmade[inv] = r.Unmade[inv][n-MaxPrepared:]
	}
}

// DealsOf is what a seat sees of deals: those open to it and from it,
// its prepared offers, those it may prepare now, and those it prepared
// that could not be made.
type DealsOf struct {
	ToMe, FromMe []engine.Deal
	Prepared     []engine.Action
	Preparable   []engine.Choice
	Unmade       []engine.Action
	// Due holds each open deal's deadline (seconds since the epoch).
	Due map[int]int64
}

// Deals is what the seat of invitation invite sees of deals in game rec
// (g its engine, nil before the start).
func (r *Record) Deals(g engine.Game, invite int) DealsOf {
	out := DealsOf{Prepared: slices.Clone(r.Prepared[invite]), Unmade: slices.Clone(r.Unmade[invite]), Due: maps.Clone(r.DealDue)}
	seat := r.engineSeat(invite)
	if g == nil || seat < 0 {
		return out
	}
	for _, d := range openDeals(g) {
		switch {
		case d.To == seat:
			out.ToMe = append(out.ToMe, d)
		case d.From == seat:
			out.FromMe = append(out.FromMe, d)
		}
	}
	if dl, ok := dealing(g); ok && !g.Over() {
		out.Preparable = dl.Preparable(seat)
	}
	return out
}

// Prepare keeps an offer for the seat of invitation invite to make at
// the start of its next turn (SPEC §1.7): one of those the engine says it
// could make then (Preparable), at most MaxPrepared waiting. It writes
// the game once; at the seat's turn the offer is made in the commit that
// reaches it, or dropped if it can no longer be made.
func (s *Service) Prepare(ctx context.Context, id string, invite int, offer engine.Action) error {
	return s.changePrepared(ctx, id, invite, func(rec *Record, g engine.Game, seat int) error {
		dl, ok := dealing(g)
		if !ok || engine.Find(dl.Preparable(seat), offer) < 0 {
			return newError(CodeInvalid, "Такое предложение сейчас подготовить нельзя.", "That offer cannot be prepared now.",
				fmt.Errorf("offer %v not preparable by seat %d", offer, seat))
		}
		prepared := rec.Prepared[invite]
		if slices.Contains(prepared, offer) {
			return errUnchanged
		}
		if len(prepared) >= MaxPrepared {
			return newError(CodeInvalid, fmt.Sprintf("Подготовлено уже %d предложений: отзовите одно.", MaxPrepared),
				fmt.Sprintf("%d offers are prepared already: withdraw one first.", MaxPrepared), nil)
		}
		rec.setPrepared(invite, append(slices.Clone(prepared), offer))
		delete(rec.Unmade, invite)
		return nil
	})
}

// Withdraw drops a prepared offer of the seat of invitation invite.
func (s *Service) Withdraw(ctx context.Context, id string, invite int, offer engine.Action) error {
	return s.changePrepared(ctx, id, invite, func(rec *Record, _ engine.Game, _ int) error {
		prepared := rec.Prepared[invite]
		i := slices.Index(prepared, offer)
		if i < 0 {
			return errUnchanged
		}
		rec.setPrepared(invite, slices.Delete(slices.Clone(prepared), i, i+1))
		return nil
	})
}

// Counter declines deal dealID open to the seat of invitation invite and
// prepares offer in its place, to be made at the seat's next turn: so the
// counter-offer, too, comes from the player whose turn it is (B-4). One
// write: both or neither.
func (s *Service) Counter(ctx context.Context, id string, invite, dealID int, offer engine.Action, key string) (Result, error) {
	if err := checkKey(key); err != nil {
		return Result{}, err
	}
	for attempt := 0; ; attempt++ {
		rec, ver, err := s.Load(ctx, id)
		if err != nil {
			return Result{}, err
		}
		seat := rec.engineSeat(invite)
		if err := rec.canDeal(seat); err != nil {
			return Result{}, err
		}
		g, err := s.Engine(rec)
		if err != nil {
			return Result{}, err
		}
		dl, ok := dealing(g)
		if !ok || engine.Find(dl.Preparable(seat), offer) < 0 {
			return Result{}, newError(CodeInvalid, "Такое встречное предложение подготовить нельзя.", "That counter-offer cannot be prepared.",
				fmt.Errorf("counter %v not preparable by seat %d", offer, seat))
		}
		decline := engine.Action{Type: engine.DeclineDeal, Deal: dealID}
		if k, ok := rec.findKey(seat, key); ok {
			return s.replayedResult(ctx, rec, k, decline)
		}
		if len(rec.Prepared[invite]) >= MaxPrepared {
			return Result{}, newError(CodeInvalid, fmt.Sprintf("Подготовлено уже %d предложений: отзовите одно.", MaxPrepared),
				fmt.Sprintf("%d offers are prepared already: withdraw one first.", MaxPrepared), nil)
		}
		if !slices.Contains(rec.Prepared[invite], offer) {
			rec.setPrepared(invite, append(slices.Clone(rec.Prepared[invite]), offer))
		}
		res, err := s.decide(ctx, rec, ver, g, decision{seat: seat, action: decline, key: key, by: byPlayer})
		if errors.Is(err, errLostRace) && attempt < 5 {
			continue
		}
		return res, err
	}
}

// canDeal refuses deals to a seat that is not playing a game in play.
func (r *Record) canDeal(seat int) error {
	switch {
	case r.Status == StatusOver:
		return Fail(CodeGameOver, nil)
	case r.Status != StatusPlaying:
		return Fail(CodeWrongStatus, fmt.Errorf("deal in status %s", r.Status))
	case seat < 0:
		return Fail(CodeForbidden, fmt.Errorf("no seat"))
	}
	return nil
}

// changePrepared reads the game, lets change change the prepared offers
// of invitation invite, and writes it, retrying on a conflict.
func (s *Service) changePrepared(ctx context.Context, id string, invite int, change func(rec *Record, g engine.Game, seat int) error) error {
	for attempt := 0; ; attempt++ {
		rec, ver, err := s.Load(ctx, id)
		if err != nil {
			return err
		}
		seat := rec.engineSeat(invite)
		if err := rec.canDeal(seat); err != nil {
			return err
		}
		g, err := s.Engine(rec)
		if err != nil {
			return err
		}
		if err := change(rec, g, seat); err != nil {
			if errors.Is(err, errUnchanged) {
				return nil
			}
			return err
		}
		// An offer prepared while its seat's turn is on may be made at
		// once.
		if err := s.autoplay(rec, g, ver+1); err != nil {
			return err
		}
		_, err = s.commit(ctx, rec, ver)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue
		}
		if err != nil {
			return fmt.Errorf("prepared offers of game %s: %w", id, err)
		}
		return nil
	}
}
