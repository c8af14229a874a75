package service

import (
	"context"
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// Kinds of mail a commit can decide.
const (
	MailInvite   = "invite"
	MailAccepted = "accepted" // to the organiser
	MailTurn     = "turn"     // a seat owes a decision
	MailOver     = "over"
)

// planMail puts into the outbox the mail a change of the game calls for:
// each seat that newly owes a decision, and everyone when the game ends.
func (s *Service) planMail(rec *Record, before, after engine.Game) {
	if after.Over() {
		for i, st := range rec.Seats {
			if st.Engine >= 0 {
				rec.Outbox = append(rec.Outbox, Mail{ID: fmt.Sprintf("over-%d", i), Kind: MailOver, Seat: i, Moves: rec.Moves})
			}
		}
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
		// be on its page walking through its turn: no new mail.
		if owedBefore[seat] {
			continue
		}
		inv := rec.inviteOf(seat)
		rec.Outbox = append(rec.Outbox, Mail{ID: fmt.Sprintf("turn-%d-%d", inv, rec.Moves), Kind: MailTurn, Seat: inv, Moves: rec.Moves})
	}
}

// MarkSent removes sent mail from a game's outbox. It retries on a
// conflict: a move racing with it only ever adds mail.
func (s *Service) MarkSent(ctx context.Context, id string, sent []string) error {
	if len(sent) == 0 {
		return nil
	}
	done := make(map[string]bool, len(sent))
	for _, m := range sent {
		done[m] = true
	}
	return s.update(ctx, id, func(rec *Record) error {
		kept := rec.Outbox[:0]
		for _, m := range rec.Outbox {
			if !done[m.ID] {
				kept = append(kept, m)
			}
		}
		rec.Outbox = kept
		return nil
	})
}
