package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/store"
)

// Kinds of mail a commit can decide.
const (
	MailConfirm  = "confirm" // to the organiser: confirm your address
	MailInvite   = "invite"
	MailAccepted = "accepted" // to the organiser
	MailTurn     = "turn"     // the seat whose turn it is owes a decision
	MailDecision = "decision" // another seat owes one: an offer, a bid (P-2)
	MailOver     = "over"
	MailReminder = "reminder" // a decision's deadline is near
)

// Deadline bounds (hours) and the default.
const (
	DefaultDeadlineHours = 72
	MaxDeadlineHours     = 30 * 24
)

// planMail puts into the outbox the mail a change of the game calls for:
// each seat that newly owes a decision, and everyone when the game ends.
func (s *Service) planMail(rec *Record, before, after engine.Game) {
	now := s.now().Unix()
	s.planDeals(rec, before, after, now)
	due := make([]int64, after.Seats())
	if after.Over() {
		plays := false // the organiser plays: their seat's mail is theirs
		for i, st := range rec.Seats {
			if st.Engine >= 0 {
				rec.Outbox = append(rec.Outbox, Mail{ID: fmt.Sprintf("over-%d", i), Kind: MailOver, Seat: i, Moves: rec.Moves})
				plays = plays || strings.EqualFold(st.Email, rec.Organiser.Email)
			}
		}
		// The organiser is told the end as every player is (issue 27);
		// a league's organiser reads it on the league's pages.
		if !plays && !rec.Seated && rec.Organiser.Email != "" {
			rec.Outbox = append(rec.Outbox, Mail{ID: "over-org", Kind: MailOver, Seat: -1, Moves: rec.Moves})
		}
		rec.Due = nil
		return
	}
	owedBefore := map[int]bool{}
	if before != nil {
		for _, seat := range before.Owing() {
			owedBefore[seat] = true
		}
	}
	for _, seat := range after.Owing() {
		// A seat that already owed a decision was mailed then, and may
		// be on its page walking through its turn: no new mail, and the
		// same deadline. One whose orders were to play it was not
		// mailed: its next decision is asked anew.
		if owedBefore[seat] && seat < len(rec.Due) && rec.Due[seat] > 0 && !rec.unasked(seat) {
			due[seat] = rec.Due[seat]
			continue
		}
		due[seat] = now + int64(rec.deadlineHours())*3600
		rec.grow(len(due))
		rec.Reminded[seat] = false
		rec.Rounds[seat]++ // a new round: its mail's link acts until the seat owes nothing
		covered := rec.covered(after, seat) || rec.leaving(seat) || s.away(rec, seat)
		rec.setUnasked(seat, covered)
		if rec.Bots[seat] || covered {
			continue // the bot or the orders play it at once: nobody to mail
		}
		kind := MailTurn
		if seat != after.Turn() {
			kind = MailDecision
		}
		inv := rec.inviteOf(seat)
		m := Mail{ID: fmt.Sprintf("%s-%d-%d", kind, inv, rec.Moves), Kind: kind, Seat: inv, Moves: rec.Moves, Due: due[seat]}
		if !slices.Contains(rec.OrdersTold, inv) {
			m.Orders = true // the first decision mail says what the orders play
			rec.OrdersTold = append(rec.OrdersTold, inv)
		}
		rec.Outbox = append(rec.Outbox, m)
	}
	rec.Due = due
}

// deadlineHours is the game's time for a decision.
func (r *Record) deadlineHours() int {
	if r.DeadlineHours > 0 {
		return r.DeadlineHours
	}
	return DefaultDeadlineHours
}

// MaxMailFailures is how many drains may fail to compose a mail before it
// is parked: a mail that cannot be composed now will not be composed by
// retrying it on every commit and sweep for ever.
const MaxMailFailures = 3

// Drained is what a drain of a game's outbox did.
type Drained struct {
	Sent        []string // mail ids sent, or not to be sent (obsolete, unwanted)
	Unreachable []int    // invitation indexes whose address refused mail for good
	// Failed maps the ids of mail that could not be composed to why.
	Failed map[string]string
}

// MarkSent removes mail from a game's outbox: the sent ones, and those to
// seats that cannot be reached, which it records for the organiser.
func (s *Service) MarkSent(ctx context.Context, id string, sent []string, unreachable []int) error {
	return s.Settle(ctx, id, Drained{Sent: sent, Unreachable: unreachable})
}

// Settle records a drain: sent mail leaves the outbox, seats that cannot
// be reached are recorded for the organiser, and a mail that has failed
// MaxMailFailures times is parked — out of the outbox, shown on the
// organiser's page, logged as an error for the operator. It retries on a
// conflict: a move racing with it only ever adds mail.
func (s *Service) Settle(ctx context.Context, id string, d Drained) error {
	if d.empty() {
		return nil
	}
	var parked []ParkedMail
	err := s.update(ctx, id, func(rec *Record) error {
		parked = s.settle(rec, d)
		return nil
	})
	if err != nil {
		return err
	}
	s.logParked(ctx, id, parked)
	return nil
}

// SettleAt records a drain of rec's outbox as Settle does, where rec is
// the game as version ver — what the drain read or the commit wrote — in
// one write conditioned on that version, without reading the game again.
// If the game has moved on meanwhile, it settles as Settle does. rec is
// left as it was.
func (s *Service) SettleAt(ctx context.Context, rec *Record, ver int64, d Drained) error {
	if d.empty() {
		return nil
	}
	next := *rec
	next.Outbox = slices.Clone(rec.Outbox)
	next.Parked = slices.Clone(rec.Parked)
	next.Unreachable = slices.Clone(rec.Unreachable)
	parked := s.settle(&next, d)
	_, err := s.commit(ctx, &next, ver)
	if errors.Is(err, store.ErrConflict) {
		return s.Settle(ctx, rec.ID, d)
	}
	if err != nil {
		return err
	}
	s.logParked(ctx, rec.ID, parked)
	return nil
}

func (d Drained) empty() bool {
	return len(d.Sent) == 0 && len(d.Unreachable) == 0 && len(d.Failed) == 0
}

// settle applies a drain to rec and returns the mail it parked.
func (s *Service) settle(rec *Record, d Drained) []ParkedMail {
	done := make(map[string]bool, len(d.Sent))
	for _, m := range d.Sent {
		done[m] = true
	}
	var parked []ParkedMail
	kept := rec.Outbox[:0]
	for _, m := range rec.Outbox {
		reason, failed := d.Failed[m.ID]
		switch {
		case done[m.ID]:
			continue
		case failed && m.Failures+1 >= MaxMailFailures:
			m.Failures++
			p := ParkedMail{Mail: m, Reason: reason, At: s.now().Unix()}
			rec.Parked = append(rec.Parked, p)
			parked = append(parked, p)
			continue
		case failed:
			m.Failures++
		}
		kept = append(kept, m)
	}
	rec.Outbox = kept
	for _, seat := range d.Unreachable {
		if !slices.Contains(rec.Unreachable, seat) {
			rec.Unreachable = append(rec.Unreachable, seat)
		}
	}
	return parked
}

func (s *Service) logParked(ctx context.Context, id string, parked []ParkedMail) {
	for _, p := range parked {
		// An operator's alarm: this mail will never go by itself.
		s.log.ErrorContext(ctx, "mail parked", "game", id, "mail", p.ID, "kind", p.Kind, "seat", p.Seat, "failures", p.Failures, "err", p.Reason)
	}
}
