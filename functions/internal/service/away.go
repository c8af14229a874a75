package service

import (
	"context"
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// Absences: a player says when they will be away — between two dates, or
// from now until they say they are back. While they are away their
// standing orders, then their bot, play for them at once, so no deadline
// of theirs runs and none counts as missed; the others see "away until …".
// Each seat has a vacation allowance a game (Record.AwayDays): an absence
// counts only as far as the allowance goes, and past it the usual
// deadlines hold.

// DefaultAwayDays is a seat's vacation allowance a game unless its
// organiser states another (CreateRequest.AwayDays).
const DefaultAwayDays = 14

// MaxAwayDays is the largest allowance an organiser may state.
const MaxAwayDays = 365

// maxAbsences bounds the absences a seat keeps in a game.
const maxAbsences = 16

// Absence is a time a player is away.
type Absence struct {
	From int64 `json:"from"`
	// Until is when they are back (0: until they say so).
	Until int64 `json:"until,omitempty"`
}

// awayAllowance is each seat's allowance, in seconds.
func (r *Record) awayAllowance() int64 {
	switch {
	case r.AwayDays < 0:
		return 0
	case r.AwayDays == 0:
		return DefaultAwayDays * 86400
	}
	return int64(r.AwayDays) * 86400
}

// window is the time an absence counts; open: it was said "until I'm
// back".
type window struct {
	Absence
	open bool
}

// awayWindows are the times invitation invite's absences count, oldest
// first: each cut where the allowance runs out (an open one there too).
func (r *Record) awayWindows(invite int) []window {
	left := r.awayAllowance()
	var out []window
	for _, a := range r.Away[invite] {
		end := a.From + left
		if a.Until != 0 {
			end = min(end, a.Until)
		}
		if end <= a.From {
			continue
		}
		left -= end - a.From
		out = append(out, window{Absence{From: a.From, Until: end}, a.Until == 0})
	}
	return out
}

// AwayUntil says whether invitation invite is away at now, and until
// when its absence counts; open tells an absence "until I'm back".
func (r *Record) AwayUntil(invite int, now int64) (until int64, open, away bool) {
	for _, w := range r.awayWindows(invite) {
		if w.From <= now && now < w.Until {
			return w.Until, w.open, true
		}
	}
	return 0, false, false
}

// AwayLeft is the allowance invitation invite has not yet used or planned
// (seconds).
func (r *Record) AwayLeft(invite int) int64 {
	left := r.awayAllowance()
	for _, w := range r.awayWindows(invite) {
		left -= w.Until - w.From
	}
	return max(left, 0)
}

// away tells whether engine seat's player is away now.
func (s *Service) away(rec *Record, seat int) bool {
	if len(rec.Away) == 0 {
		return false
	}
	_, _, away := rec.AwayUntil(rec.inviteOf(seat), s.now().Unix())
	return away
}

// nextAway is the start of engine seat's next absence after now (0:
// none): the clock wakes the game then, to play the decision it owes.
func (r *Record) nextAway(seat int, now int64) int64 {
	if len(r.Away) == 0 {
		return 0
	}
	for _, w := range r.awayWindows(r.inviteOf(seat)) {
		if w.From > now {
			return w.From
		}
	}
	return 0
}

// awayOwes tells whether a seat that owes a decision in g is away now.
func (s *Service) awayOwes(rec *Record, g engine.Game) bool {
	for _, o := range g.Owing() {
		if s.away(rec, o) {
			return true
		}
	}
	return false
}

// Away records that the player of invitation invite will be away from
// from (0 or past: now) until until (0: until they say they are back).
// Planned absences it overlaps give way to it. A decision the seat owes
// now is played at once if the absence begins now.
func (s *Service) Away(ctx context.Context, id string, invite int, from, until int64) error {
	return s.updateAt(ctx, id, func(rec *Record, ver int64) error {
		if err := rec.checkAbsent(invite); err != nil {
			return err
		}
		now := s.now().Unix()
		from = max(from, now)
		// The allowance is a game's (MaxAwayDays at most): an absence
		// planned further ahead than it could ever reach is no absence
		// from this game (issue 25: one from the year 9999 was kept).
		if from-now > MaxAwayDays*86400 {
			return invalid(fmt.Sprintf("Отсутствие должно начаться в ближайшие %d дней.", MaxAwayDays),
				fmt.Sprintf("An absence must begin within the next %d days.", MaxAwayDays))
		}
		if until != 0 && until <= from {
			return invalid("Дата возвращения — позже даты отъезда.", "The day you are back must come after the day you leave.")
		}
		if until != 0 && until-from > MaxAwayDays*86400 {
			return invalid(fmt.Sprintf("Отсутствие — не дольше %d дней.", MaxAwayDays), fmt.Sprintf("An absence lasts %d days at most.", MaxAwayDays))
		}
		kept := rec.Away[invite][:0:0]
		for _, a := range rec.Away[invite] {
			switch {
			case a.Until != 0 && a.Until <= from: // over before this one
				kept = append(kept, a)
			case a.From < from: // cut where this one begins
				kept = append(kept, Absence{From: a.From, Until: from})
			}
		}
		if len(kept) >= maxAbsences {
			return invalid("Отсутствий в этой игре уже слишком много.", "Too many absences in this game.")
		}
		if rec.Away == nil {
			rec.Away = map[int][]Absence{}
		}
		rec.Away[invite] = kept
		if rec.AwayLeft(invite) == 0 {
			return invalid("Отпуск в этой игре уже исчерпан.", "Your vacation allowance for this game is used up.")
		}
		rec.Away[invite] = append(kept, Absence{From: from, Until: until})
		return s.playAway(rec, ver)
	})
}

// Back ends the absence of the player of invitation invite and drops
// those planned, and gives them their seat back from its bot: one click
// from any mail. Back when neither applies changes nothing.
func (s *Service) Back(ctx context.Context, id string, invite int) error {
	return s.update(ctx, id, func(rec *Record) error {
		if err := rec.checkAbsent(invite); err != nil {
			return err
		}
		now := s.now().Unix()
		changed := false
		kept := rec.Away[invite][:0:0]
		for _, a := range rec.Away[invite] {
			switch {
			case a.From > now:
				changed = true
			case a.Until == 0 || a.Until > now:
				kept = append(kept, Absence{From: a.From, Until: now})
				changed = true
			default:
				kept = append(kept, a)
			}
		}
		if changed {
			rec.Away[invite] = kept
		}
		if seat := rec.engineSeat(invite); seat >= 0 && seat < len(rec.Bots) && rec.Bots[seat] && rec.Seats[invite].Accepted {
			rec.unbot(seat)
			rec.Controls = append(rec.Controls, Control{What: ControlUnbot, At: now, Seat: invite, By: ByPlayer})
			changed = true
		}
		if !changed {
			return errUnchanged
		}
		return nil
	})
}

// checkAbsent refuses an absence of an invitation that holds no seat, or
// of a game that is over.
func (r *Record) checkAbsent(invite int) error {
	if invite < 0 || invite >= len(r.Seats) || r.Seats[invite].Out != "" {
		return Fail(CodeForbidden, fmt.Errorf("absence of invite %d of %d", invite, len(r.Seats)))
	}
	if err := r.Seats[invite].stillSeated(); err != nil {
		return err
	}
	switch r.Status {
	case StatusInvited, StatusUnconfirmed, StatusPlaying:
		return nil
	}
	return newError(CodeWrongStatus, "Игра уже не идёт.", "The game is no longer in play.", fmt.Errorf("absence in status %s", r.Status))
}

// playAway plays, as the version after ver, what seats away now owe.
func (s *Service) playAway(rec *Record, ver int64) error {
	if rec.Status != StatusPlaying {
		return nil
	}
	g, err := s.Engine(rec)
	if err != nil {
		return err
	}
	rec.grow(g.Seats())
	if !s.awayOwes(rec, g) {
		return nil
	}
	// Mailed already, the decision is now its orders' or its bot's.
	for _, o := range g.Owing() {
		if s.away(rec, o) {
			rec.setUnasked(o, true)
		}
	}
	return s.autoplay(rec, g, ver+1)
}

// Absent lists, by invitation, who is away at now and until when, for
// the pages (0: until they are back).
func (r *Record) Absent(now int64) map[int]int64 {
	out := map[int]int64{}
	for inv := range r.Away {
		if until, open, away := r.AwayUntil(inv, now); away {
			if open {
				until = 0
			}
			out[inv] = until
		}
	}
	return out
}
