package service

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/infra/store"
)

// byOrders is the action the standing orders of engine seat play now, if
// they cover its decision.
func (r *Record) byOrders(g engine.Game, seat int) (engine.Action, bool) {
	st, ok := g.(engine.Standing)
	if !ok || len(r.Orders) == 0 {
		return engine.Action{}, false
	}
	o := r.Orders[r.inviteOf(seat)]
	if len(o) == 0 {
		return engine.Action{}, false
	}
	return st.ByOrders(seat, o)
}

// suggestOrders gives invitation invite the suggested standing orders of
// game g (each spec's Sensible value): what a new seat starts with.
func (r *Record) suggestOrders(g engine.Game, invite int) {
	st, ok := g.(engine.Standing)
	if !ok {
		return
	}
	if r.Orders == nil {
		r.Orders = map[int]engine.Orders{}
	}
	r.Orders[invite] = engine.SensibleOrders(st.OrderSpecs())
}

// covered tells whether seat's orders play its decision in g at once.
func (r *Record) covered(g engine.Game, seat int) bool {
	if g == nil || g.Over() {
		return false
	}
	_, ok := r.byOrders(g, seat)
	return ok
}

// unasked tells whether seat's current decision was not mailed because
// its orders were to play it.
func (r *Record) unasked(seat int) bool { return seat < len(r.Unasked) && r.Unasked[seat] }

// setUnasked notes whether seat's current decision is left to its orders
// (the slice is made only once some seat has orders that cover one).
func (r *Record) setUnasked(seat int, v bool) {
	if !v && seat >= len(r.Unasked) {
		return
	}
	for len(r.Unasked) <= seat {
		r.Unasked = append(r.Unasked, false)
	}
	r.Unasked[seat] = v
}

// OrderSpecs lists the standing orders the game of rec takes.
func (s *Service) OrderSpecs(rec *Record) ([]engine.OrderSpec, error) {
	return OrderSpecsOf(s.games, rec)
}

// OrderSpecsOf lists the standing orders the game of rec takes, started
// or not.
func OrderSpecsOf(reg *games.Registry, rec *Record) ([]engine.OrderSpec, error) {
	var g engine.Game
	var err error
	if rec.State != nil {
		g, err = reg.Load(rec.Kind, rec.Rules, rec.State)
	} else {
		g, err = reg.New(rec.Kind, rec.Rules, rec.Options, len(rec.Seats), [32]byte(rec.Seed))
	}
	if err != nil {
		return nil, err
	}
	st, ok := g.(engine.Standing)
	if !ok {
		return nil, nil
	}
	return st.OrderSpecs(), nil
}

// Orders are the standing orders of the seat holding invitation invite
// (empty when none are set). Only that seat's token may ask for them.
func (s *Service) Orders(ctx context.Context, id string, invite int) (engine.Orders, error) {
	rec, _, err := s.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if invite < 0 || invite >= len(rec.Seats) {
		return nil, Fail(CodeForbidden, fmt.Errorf("invite %d of %d", invite, len(rec.Seats)))
	}
	return rec.SeatOrders(invite), nil
}

// SeatOrders is a copy of the orders of invitation invite.
func (r *Record) SeatOrders(invite int) engine.Orders {
	o := engine.Orders{}
	maps.Copy(o, r.Orders[invite])
	return o
}

// SetOrders replaces the standing orders of the seat holding invitation
// invite. They take effect from the seat's next decision, which may be
// the one it owes now: whatever they cover is played at once, in the same
// commit, and logged as the seat's own commands made by its orders.
func (s *Service) SetOrders(ctx context.Context, id string, invite int, o engine.Orders) error {
	for attempt := 0; ; attempt++ {
		rec, ver, err := s.Load(ctx, id)
		if err != nil {
			return err
		}
		if invite < 0 || invite >= len(rec.Seats) {
			return Fail(CodeForbidden, fmt.Errorf("invite %d of %d", invite, len(rec.Seats)))
		}
		if rec.Status == StatusOver {
			return Fail(CodeGameOver, nil)
		}
		specs, err := s.OrderSpecs(rec)
		if err != nil {
			return err
		}
		if err := engine.CheckOrders(specs, o); err != nil {
			return refusedOrders(specs, o, err)
		}
		if maps.Equal(rec.Orders[invite], o) {
			return nil // the same orders again (a form sent twice): nothing to write
		}
		if rec.Orders == nil {
			rec.Orders = map[int]engine.Orders{}
		}
		if len(o) == 0 {
			delete(rec.Orders, invite)
		} else {
			rec.Orders[invite] = maps.Clone(o)
		}
		if rec.Status == StatusPlaying {
			g, err := s.Engine(rec)
			if err != nil {
				return err
			}
			// A decision owed now and mailed already keeps its mail; what
			// the orders now cover is played.
			if err := s.autoplay(rec, g, ver+1); err != nil {
				return err
			}
			// A decision left to orders now cleared (one past the
			// bound of the commit that reached it) is asked by mail.
			if g, err = s.Engine(rec); err != nil {
				return err
			}
			if !g.Over() {
				s.planMail(rec, g, g)
			}
		}
		_, err = s.commit(ctx, rec, ver)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue
		}
		if err != nil {
			return fmt.Errorf("set orders of game %s: %w", id, err)
		}
		s.log.InfoContext(ctx, "standing orders set", "game", id, "invite", invite, "orders", len(o))
		return nil
	}
}
