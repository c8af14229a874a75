package calendar

import (
	"context"
	"fmt"
	"slices"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// VisitLink is a person following the link of a decision mail to the
// seat of invitation invite, which opens the round of decisions position
// (Record.SeatPosition when it was mailed). Its page offers decisions only
// while the seat owes decisions of that round (Record.LinkDone): if they
// were made meanwhile — by another visit, by the deadline —, the page says
// "already done" and the person leaves, acted false, even if the seat owes
// a newer decision, whose own mail (answered or missed) stands for it.
// Otherwise they make every decision they owe (Visit).
func VisitLink(ctx context.Context, svc *service.Service, id string, invite int, position int64, key func() string) (acted bool, err error) {
	return direct(svc).visitLink(ctx, id, invite, position, key)
}

func (h hands) visitLink(ctx context.Context, id string, invite int, position int64, key func() string) (acted bool, err error) {
	rec, _, err := h.look.Load(ctx, id)
	if err != nil || rec.Status != service.StatusPlaying {
		return false, err
	}
	g, err := h.look.Engine(rec)
	if err != nil {
		return false, err
	}
	seat := rec.Seats[invite].Engine
	if rec.LinkDone(seat, position, slices.Contains(g.Owing(), seat)) {
		return false, nil
	}
	return true, h.visit(ctx, id, invite, key)
}

// maxVisitActions bounds the decisions one visit makes.
const maxVisitActions = 1000

// Visit is a person on the page of their seat (invitation invite) of game
// id: they make every decision they owe, one after another, choosing as
// the engine's bot would (the choice is not what is measured, the time
// is), each through the service with a fresh key from key, as the page
// posts it. The league simulation's members visit the same way.
func Visit(ctx context.Context, svc *service.Service, id string, invite int, key func() string) error {
	return direct(svc).visit(ctx, id, invite, key)
}

func (h hands) visit(ctx context.Context, id string, invite int, key func() string) error {
	for range maxVisitActions {
		rec, _, err := h.look.Load(ctx, id)
		if err != nil {
			return err
		}
		if rec.Status != service.StatusPlaying {
			return nil
		}
		g, err := h.look.Engine(rec)
		if err != nil {
			return err
		}
		seat := rec.Seats[invite].Engine
		if !slices.Contains(g.Owing(), seat) {
			return nil
		}
		a, ok := g.Bot(seat)
		if !ok {
			return fmt.Errorf("seat %d owes a decision the bot cannot make", seat)
		}
		pre := service.Precondition{Position: rec.SeatPosition(seat)}
		err = h.do(ctx, DoDecide, func(ctx context.Context) error {
			_, err := h.act.Act(ctx, id, invite, a, key(), pre)
			return err
		})
		if err != nil {
			return fmt.Errorf("seat %d %v: %w", seat, a, err)
		}
	}
	return fmt.Errorf("person %d: a visit of over %d decisions", invite, maxVisitActions)
}

// AnswerDeal is a person following the link of a mail that asks them to
// answer deal dealID (an offer made to them, or a purchase they kept for
// later): on their deals page they answer it as the engine's bot would,
// if it is still open; acted is false when it is not (answered, lapsed,
// declined at its deadline).
func AnswerDeal(ctx context.Context, svc *service.Service, id string, invite, dealID int, key func() string) (acted bool, err error) {
	return direct(svc).answerDeal(ctx, id, invite, dealID, key)
}

func (h hands) answerDeal(ctx context.Context, id string, invite, dealID int, key func() string) (acted bool, err error) {
	_, dl, seat, err := h.dealing(ctx, id, invite)
	if err != nil || dl == nil {
		return false, err
	}
	for _, d := range dl.Deals() {
		if d.ID != dealID || d.To != seat {
			continue
		}
		a, ok := dl.DealAnswer(d, nil, true)
		if !ok {
			return false, fmt.Errorf("seat %d: no answer to deal %d", seat, d.ID)
		}
		err := h.do(ctx, DoAnswer, func(ctx context.Context) error {
			_, err := h.act.Act(ctx, id, invite, a, key(), service.Precondition{})
			return err
		})
		if err != nil {
			return false, fmt.Errorf("seat %d %v: %w", seat, a, err)
		}
		return true, nil
	}
	return false, nil
}

// dealing reads game id as the person of invitation invite sees it on
// their deals page: its record, its engine's deals and their seat; dl is
// nil when the game is not playing or its rules have no deals.
func (h hands) dealing(ctx context.Context, id string, invite int) (rec *service.Record, dl engine.Dealing, seat int, err error) {
	rec, _, err = h.look.Load(ctx, id)
	if err != nil || rec.Status != service.StatusPlaying {
		return rec, nil, 0, err
	}
	g, err := h.look.Engine(rec)
	if err != nil {
		return rec, nil, 0, err
	}
	dl, _ = g.(engine.Dealing)
	return rec, dl, rec.Seats[invite].Engine, nil
}

// PrepareOffer is a person on one of their pages preparing the offer a
// careful bot would make at its next turn (engine.Dealing's BotOffer),
// unless they have prepared it already or it is open; prepared tells
// whether they did.
func PrepareOffer(ctx context.Context, svc *service.Service, id string, invite int) (prepared bool, err error) {
	return direct(svc).prepareOffer(ctx, id, invite)
}

func (h hands) prepareOffer(ctx context.Context, id string, invite int) (prepared bool, err error) {
	rec, dl, seat, err := h.dealing(ctx, id, invite)
	if err != nil || dl == nil {
		return false, err
	}
	a, ok := dl.BotOffer(seat)
	if !ok {
		return false, nil
	}
	same := func(b engine.Action) bool { return b.Type == a.Type && b.Cell == a.Cell && b.Target == a.Target }
	if len(rec.Prepared[invite]) >= service.MaxPrepared || slices.ContainsFunc(rec.Prepared[invite], same) {
		return false, nil
	}
	for _, d := range dl.Deals() {
		if d.From == seat && same(d.Offer) {
			return false, nil
		}
	}
	// Refused before, they offer more: a third of the first price again
	// for each time, as far as their cash allows.
	log, err := h.look.FullLog(ctx, rec)
	if err != nil {
		return false, err
	}
	refused := int64(0)
	for _, e := range log {
		for _, ev := range e.Events {
			if ev.Deal != nil && ev.Deal.From == seat && same(ev.Deal.Offer) && (ev.Type == engine.EvDealDeclined || ev.Type == engine.EvDealLapsed) {
				refused++
			}
		}
	}
	if refused > 0 && a.Amount > 0 {
		for _, c := range dl.Preparable(seat) {
			if c.Ranged() && same(c.Action) {
				raised := a.Amount + a.Amount*refused/3
				a.Amount = min(c.Max, c.Min+(raised-c.Min)/c.Step*c.Step)
			}
		}
	}
	err = h.do(ctx, DoPrepare, func(ctx context.Context) error { return h.act.Prepare(ctx, id, invite, a) })
	if err != nil {
		return false, fmt.Errorf("seat %d prepares %v: %w", seat, a, err)
	}
	return true, nil
}
