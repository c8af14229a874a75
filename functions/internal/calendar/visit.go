package calendar

import (
	"context"
	"fmt"
	"slices"

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
	rec, _, err := svc.Load(ctx, id)
	if err != nil || rec.Status != service.StatusPlaying {
		return false, err
	}
	g, err := svc.Engine(rec)
	if err != nil {
		return false, err
	}
	seat := rec.Seats[invite].Engine
	if rec.LinkDone(seat, position, slices.Contains(g.Owing(), seat)) {
		return false, nil
	}
	return true, Visit(ctx, svc, id, invite, key)
}

// maxVisitActions bounds the decisions one visit makes.
const maxVisitActions = 1000

// Visit is a person on the page of their seat (invitation invite) of game
// id: they make every decision they owe, one after another, choosing as
// the engine's bot would (the choice is not what is measured, the time
// is), each through the service with a fresh key from key, as the page
// posts it. The league simulation's members visit the same way.
func Visit(ctx context.Context, svc *service.Service, id string, invite int, key func() string) error {
	for range maxVisitActions {
		rec, _, err := svc.Load(ctx, id)
		if err != nil {
			return err
		}
		if rec.Status != service.StatusPlaying {
			return nil
		}
		g, err := svc.Engine(rec)
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
		if _, err := svc.Act(ctx, id, invite, a, key(), pre); err != nil {
			return fmt.Errorf("seat %d %v: %w", seat, a, err)
		}
	}
	return fmt.Errorf("person %d: a visit of over %d decisions", invite, maxVisitActions)
}
