package service

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/store"
)

// Precondition is what a move was chosen on; zero fields check nothing.
type Precondition struct {
	// Version is the stored version of the game (API clients).
	Version int64
	// Position is the seat's position a mail's link was issued for
	// (Record.SeatPosition): the link acts while the seat owes decisions
	// of that round.
	Position int64
	// Step and Decision are what a seat page's form was shown on: the
	// seat's own step (Record.SeatStep) and the decisions it owed
	// (DecisionOf). Only the seat itself moves its step, and only a change
	// of what it owes changes the decision: another seat's move never
	// stales a form whose decision is still owed.
	Step     int64
	Decision string
}

// checkRecord refuses, as a conflict, a move chosen on another version of
// the game, or on a link or a form the seat has moved past.
func (p Precondition) checkRecord(rec *Record, ver int64, seat int) error {
	switch {
	case p.Version != 0 && p.Version != ver:
		return Fail(CodeConflict, fmt.Errorf("%w: move made on version %d, game is at %d", store.ErrConflict, p.Version, ver))
	case p.Position != 0 && p.Position != rec.SeatPosition(seat):
		return Fail(CodeConflict, fmt.Errorf("%w: link for position %d, seat is at %d", store.ErrConflict, p.Position, rec.SeatPosition(seat)))
	case p.Step != 0 && p.Step != rec.SeatStep(seat):
		return Fail(CodeConflict, fmt.Errorf("%w: form for step %d, seat is at %d", store.ErrConflict, p.Step, rec.SeatStep(seat)))
	}
	return nil
}

// checkGame refuses, as a conflict, a move on a link of a round the seat
// owes nothing of any more, or on a form whose decisions have changed.
func (p Precondition) checkGame(g engine.Game, seat int) error {
	if p.Position != 0 && !slices.Contains(g.Owing(), seat) {
		return Fail(CodeConflict, fmt.Errorf("%w: link for position %d, the seat owes nothing", store.ErrConflict, p.Position))
	}
	if p.Decision != "" && p.Decision != DecisionOf(g.Legal(seat)) {
		return Fail(CodeConflict, fmt.Errorf("%w: %w since its form", store.ErrConflict, ErrDecisionChanged))
	}
	return nil
}

// SeatPosition numbers a seat's rounds of decisions: one more each time
// the seat begins to owe decisions after owing none (a turn, a sealed
// bid, an offer), when it is mailed. A link carries it, so it opens the
// seat's decisions for as long as the seat owes any of that round — a
// turn of several decisions, whatever other seats do meanwhile — and
// then shows "already done".
func (r *Record) SeatPosition(seat int) int64 {
	if seat < 0 || seat >= len(r.Rounds) {
		return 1
	}
	return int64(r.Rounds[seat]) + 1
}

// LinkPosition is the position a seat's link issued now carries: its
// round's while the seat owes decisions, else the next round's, so the
// page a player is left on after their last decision opens their next
// decisions once they come rather than saying "already done".
func (r *Record) LinkPosition(seat int) int64 {
	if seat >= 0 && seat < len(r.Due) && r.Due[seat] > 0 {
		return r.SeatPosition(seat)
	}
	return r.SeatPosition(seat) + 1
}

// LinkDone tells whether a link of position pos (0: none) is for a round
// of decisions the seat has finished, owes tells whether the seat owes any
// now.
func (r *Record) LinkDone(seat int, pos int64, owes bool) bool {
	cur := r.SeatPosition(seat)
	return pos != 0 && (pos < cur || pos == cur && !owes || pos > cur+1 || pos == cur+1 && owes)
}

// SeatStep numbers a seat's own commands: 1 before its first, one more
// after each.
func (r *Record) SeatStep(seat int) int64 {
	if seat < 0 || seat >= len(r.Acted) {
		return 1
	}
	return int64(r.Acted[seat]) + 1
}

// ErrDecisionChanged is the cause of a conflict when what a seat owes has
// changed since the form it answers was drawn.
var ErrDecisionChanged = errors.New("the seat's decisions changed")

// DecisionOf fingerprints the decisions a seat owes, as Legal lists them.
func DecisionOf(legal []engine.Choice) string {
	b, err := json.Marshal(legal)
	if err != nil { // plain data: cannot fail
		panic(fmt.Sprintf("decision fingerprint: %v", err))
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:12])
}
