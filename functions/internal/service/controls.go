package service

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/pbmgames/pbm/engine"
)

// The organiser's controls: pause and resume, extend the deadline, hand a
// seat to a bot and back, replace a player by a substitute, remove a
// player, end the game now, cancel a game not started. Each is logged in
// Record.Controls and mailed to the table (MailControl). Those that change
// the play are commands of the game's log — the engine's End, the seat's
// own Resign — so the game replays exactly (P-1); the others change only
// who plays a seat and the clock.

// What a control did (Control.What).
const (
	ControlPause   = "pause"
	ControlResume  = "resume"
	ControlExtend  = "extend"  // Hours: added to the running deadlines
	ControlBot     = "bot"     // a bot plays the seat from now on
	ControlUnbot   = "unbot"   // the seat's player plays it again (By: the player took it back)
	ControlReplace = "replace" // To: the substitute's invitation
	ControlRemove  = "remove"  // the player resigns at their next decision
	ControlEnd     = "end"     // the game ended where it stood (engine.End)
	ControlCancel  = "cancel"  // the game will not start
	ControlBack    = "back"    // the player is back from an absence (away.go)
)

// Controls lists the controls the organiser can give, in the order the
// organiser's page offers them.
var Controls = []string{ControlPause, ControlResume, ControlExtend, ControlBot, ControlUnbot, ControlReplace, ControlRemove, ControlEnd, ControlCancel}

// MailControl tells the table what its organiser did (Mail.Control).
const MailControl = "control"

// StatusCancelled is a game its organiser cancelled before it started.
const StatusCancelled = "cancelled"

// OutReplaced marks an invitation whose seat went to a substitute.
const OutReplaced = "replaced"

// ByOrganiser and ByPlayer say who gave a control (Control.By) or played
// a command (Entry.By: the organiser's End).
const (
	ByOrganiser = "organiser"
	ByPlayer    = "player"
)

// byOrganiser is the origin of the organiser's commands (engine.Organiser).
const byOrganiser origin = -1

// Control is one control, as the table is told of it.
type Control struct {
	What string `json:"what"`
	At   int64  `json:"at"`
	// Seat is the invitation the control is about (−1: the whole table).
	Seat  int    `json:"seat"`
	By    string `json:"by,omitempty"`    // ByPlayer when the seat's own player gave it; the organiser otherwise
	Hours int    `json:"hours,omitempty"` // extend: the hours added; resume: the hours the game stood paused, rounded up
	// Secs: resume: the seconds the game stood paused (controls before
	// issue 27 have only Hours).
	Secs int64  `json:"secs,omitempty"`
	To   int    `json:"to,omitempty"`  // replace: the substitute's invitation
	Key  string `json:"key,omitempty"` // the request's idempotency key
}

// ControlRequest is a control the organiser gives.
type ControlRequest struct {
	Control string `json:"control"`
	// Seat is the invitation index of the seat the control is about
	// (bot, unbot, replace, remove).
	Seat int `json:"seat,omitempty"`
	// Hours extends the running deadlines (extend): 1 to MaxDeadlineHours.
	Hours int `json:"hours,omitempty"`
	// Substitute is who takes the seat (replace).
	Substitute *Person `json:"substitute,omitempty"`
	// Key makes the control idempotent: sent again, it changes nothing.
	Key string `json:"key,omitempty"`
}

// maxInvitations bounds the invitations a game's substitutes add up to.
const maxInvitations = 24

// Control applies one of the organiser's controls to game id and mails
// the table of it. A control sent again with its key, or one that finds
// nothing to do (pause a paused game), changes nothing.
func (s *Service) Control(ctx context.Context, id string, req ControlRequest) error {
	if req.Key != "" {
		if err := checkKey(req.Key); err != nil {
			return err
		}
	}
	if !slices.Contains(Controls, req.Control) {
		return invalid("Неизвестное действие организатора.", "Unknown control.")
	}
	var sub Person
	if req.Control == ControlReplace {
		if req.Substitute == nil {
			return invalid("Укажите, кто займёт место.", "Say who takes the seat.")
		}
		p, err := cleanPerson(*req.Substitute, false)
		if err != nil {
			return err
		}
		sub = p
	}
	if req.Control == ControlExtend && (req.Hours < 1 || req.Hours > MaxDeadlineHours) {
		return invalid(fmt.Sprintf("Продлить можно на 1–%d часов.", MaxDeadlineHours), fmt.Sprintf("Extend by 1 to %d hours.", MaxDeadlineHours))
	}
	err := s.updateAt(ctx, id, func(rec *Record, ver int64) error {
		if req.Key != "" && slices.ContainsFunc(rec.Controls, func(c Control) bool { return c.Key == req.Key }) {
			return errUnchanged
		}
		if req.Control == ControlCancel {
			return rec.cancel(s.now().Unix(), req.Key)
		}
		if rec.Status != StatusPlaying {
			return newError(CodeWrongStatus, "Игра не идёт.", "The game is not in play.", fmt.Errorf("control %s in status %s", req.Control, rec.Status))
		}
		g, err := s.Engine(rec)
		if err != nil {
			return err
		}
		rec.grow(g.Seats())
		c := Control{What: req.Control, At: s.now().Unix(), Seat: -1, Key: req.Key}
		switch req.Control {
		case ControlPause, ControlResume, ControlExtend, ControlEnd:
		default:
			seat, err := rec.controlledSeat(g, req.Seat)
			if err != nil {
				return err
			}
			c.Seat = req.Seat
			switch req.Control {
			case ControlBot:
				if rec.Bots[seat] {
					return errUnchanged
				}
				rec.Bots[seat] = true
			case ControlUnbot:
				if !rec.Bots[seat] {
					return errUnchanged
				}
				rec.unbot(seat)
			case ControlRemove:
				if rec.leaving(seat) {
					return errUnchanged
				}
				rec.setLeaving(seat)
			case ControlReplace:
				if err := s.replace(ctx, rec, req.Seat, seat, sub, &c); err != nil {
					return err
				}
			}
		}
		switch req.Control {
		case ControlPause:
			if rec.Paused != 0 {
				return errUnchanged
			}
			rec.Paused = c.At
		case ControlResume:
			if rec.Paused == 0 {
				return errUnchanged
			}
			rec.resume(c.At, &c)
		case ControlExtend:
			if !rec.extend(req.Hours) {
				return invalid("Сейчас ни у кого не идёт срок хода.", "No deadline is running now.")
			}
			c.Hours = req.Hours
		case ControlEnd:
			rec.Paused = 0
			if _, _, err := s.step(rec, g, decision{seat: engine.Organiser, action: engine.Action{Type: engine.End}, by: byOrganiser}, ver+1); err != nil {
				return err
			}
			rec.Controls = append(rec.Controls, c) // the game-over mail tells the table
			return nil
		}
		rec.tell(c)
		// A seat now played by its bot or leaving plays at once; so do
		// the decisions that came due while the game stood paused.
		return s.autoplay(rec, g, ver+1)
	})
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "control", "game", id, "control", req.Control, "seat", req.Seat)
	return nil
}

// controlledSeat is the engine seat of invitation invite, which a control
// is about: a seat still in the game.
func (r *Record) controlledSeat(g engine.Game, invite int) (int, error) {
	seat := r.engineSeat(invite)
	if seat < 0 || r.Seats[invite].Out != "" {
		return 0, invalid("У этого приглашения нет места в игре.", "That invitation holds no seat in the game.")
	}
	if g.Score()[seat].Bankrupt {
		return 0, invalid("Этот игрок уже выбыл из игры.", "That player has already left the game.")
	}
	return seat, nil
}

// tell logs a control and mails the table of it: every seated player,
// and the invitation it is about (a replaced player).
func (r *Record) tell(c Control, also ...int) {
	n := len(r.Controls)
	r.Controls = append(r.Controls, c)
	for i, st := range r.Seats {
		if st.Accepted && st.Engine >= 0 || i == c.Seat || slices.Contains(also, i) {
			r.Outbox = append(r.Outbox, Mail{ID: fmt.Sprintf("%s-%d-%d", MailControl, i, n), Kind: MailControl, Seat: i, Moves: r.Moves, Control: n})
		}
	}
}

// resume starts the clocks again: the running deadlines move on by the
// time the game stood paused.
func (r *Record) resume(now int64, c *Control) {
	paused := max(now-r.Paused, 0)
	for i, due := range r.Due {
		if due != 0 {
			r.Due[i] = due + paused
		}
	}
	r.Paused = 0
	c.Hours, c.Secs = int((paused+3599)/3600), paused
}

// extend moves the running deadlines on by hours; false when none runs.
func (r *Record) extend(hours int) bool {
	any := false
	for i, due := range r.Due {
		if due != 0 {
			r.Due[i] = due + int64(hours)*3600
			r.Reminded[i] = false // reminded anew before the new deadline
			any = true
		}
	}
	return any
}

// unbot gives engine seat back to its player, with a clean count of
// misses.
func (r *Record) unbot(seat int) {
	r.Bots[seat] = false
	r.Misses[seat] = 0
}

// leaving tells whether the organiser removed engine seat's player.
func (r *Record) leaving(seat int) bool { return seat >= 0 && seat < len(r.Leaving) && r.Leaving[seat] }

func (r *Record) setLeaving(seat int) {
	for len(r.Leaving) <= seat {
		r.Leaving = append(r.Leaving, false)
	}
	r.Leaving[seat] = true
}

// replace gives engine seat, held by invitation invite, to a substitute:
// a new invitation, mailed, that holds the seat with its history; the old
// invitation's links no longer act for it (HasSeat). Until the
// substitute accepts, a bot plays the seat.
func (s *Service) replace(ctx context.Context, rec *Record, invite, seat int, sub Person, c *Control) error {
	for _, st := range rec.Seats {
		if st.Email == sub.Email && st.Out == "" {
			return invalid("Этот адрес уже приглашён в игру: "+sub.Email, "That address is already invited to the game: "+sub.Email)
		}
	}
	if len(rec.Seats) >= maxInvitations {
		return invalid("Замен в этой игре уже слишком много.", "The game has had too many substitutes.")
	}
	to := len(rec.Seats)
	rec.Seats[invite].Engine, rec.Seats[invite].Out = -1, OutReplaced
	rec.Seats = append(rec.Seats, SeatInfo{Person: sub, Engine: seat})
	rec.Bots[seat] = true
	rec.Misses[seat] = 0
	delete(rec.Orders, invite) // the old player's orders are theirs
	g, err := s.Engine(rec)
	if err != nil {
		return err
	}
	rec.suggestOrders(g, to) // the substitute starts as every new seat does
	rec.Outbox = append(rec.Outbox, Mail{ID: fmt.Sprintf("invite-%d", to), Kind: MailInvite, Seat: to})
	c.To = to // listed in the substitute's games by the commit (syncMembers)
	return nil
}

// FirstInvite is the invitation that first held the seat invitation
// invite holds: itself, or for a substitute the invitation whose seat was
// replaced, followed back to the first.
func (r *Record) FirstInvite(invite int) int {
	for i := len(r.Controls) - 1; i >= 0; i-- {
		if c := r.Controls[i]; c.What == ControlReplace && c.To == invite && c.Seat != invite && c.Seat >= 0 {
			invite = c.Seat
		}
	}
	return invite
}

// seatSubstitute seats a substitute who accepts their invitation: they
// play the seat from now on (no longer its bot), and are mailed the
// decision it owes, if any.
func (s *Service) seatSubstitute(rec *Record, invite int) error {
	g, err := s.Engine(rec)
	if err != nil {
		return err
	}
	seat := rec.Seats[invite].Engine
	rec.grow(g.Seats())
	rec.Seats[invite].Accepted = true
	rec.unbot(seat)
	rec.Outbox = append(rec.Outbox, Mail{ID: fmt.Sprintf("accepted-%d", invite), Kind: MailAccepted, Seat: -1, About: invite})
	if slices.Contains(g.Owing(), seat) && rec.Due[seat] != 0 {
		kind := MailTurn
		if seat != g.Turn() {
			kind = MailDecision
		}
		rec.Outbox = append(rec.Outbox, Mail{ID: fmt.Sprintf("%s-%d-%d", kind, invite, rec.Moves), Kind: kind, Seat: invite, Moves: rec.Moves, Due: rec.Due[seat]})
	}
	return nil
}

// cancel calls off a game not started: its invitations, sent or not,
// lapse, and those invited are told.
func (r *Record) cancel(now int64, key string) error {
	switch r.Status {
	case StatusCancelled:
		return errUnchanged
	case StatusInvited, StatusUnconfirmed:
	default:
		return newError(CodeWrongStatus, "Отменить можно только игру, которая ещё не началась.", "Only a game that has not started can be cancelled.",
			fmt.Errorf("cancel in status %s", r.Status))
	}
	invited := r.Status == StatusInvited // an unconfirmed game has mailed nobody
	r.Status = StatusCancelled
	r.Outbox = slices.DeleteFunc(r.Outbox, func(m Mail) bool { return m.Kind == MailInvite || m.Kind == MailConfirm })
	c := Control{What: ControlCancel, At: now, Seat: -1, Key: key}
	if !invited {
		r.Controls = append(r.Controls, c)
		return nil
	}
	all := make([]int, len(r.Seats))
	for i := range all {
		all[i] = i
	}
	r.tell(c, all...)
	return nil
}

// stillSeated refuses the links of an invitation whose seat went to a
// substitute.
func (st SeatInfo) stillSeated() error {
	if st.Out == OutReplaced {
		return newError(CodeForbidden, "Это место в игре передано другому игроку.", "This seat has been given to another player.",
			errors.New("invitation replaced"))
	}
	return nil
}

// standIn is what engine seat plays now without its player being asked,
// if anything: its resignation once the organiser removed it, its bot,
// its standing orders, or its bot while the player is away. Nothing
// plays while the game is paused.
func (s *Service) standIn(rec *Record, g engine.Game, seat int) (decision, bool, error) {
	switch {
	case rec.Paused != 0:
		return decision{}, false, nil
	case rec.leaving(seat):
		a := engine.Action{Type: engine.Resign}
		if !canResign(g, seat) {
			d, ok := g.Default(seat)
			if !ok {
				return decision{}, false, fmt.Errorf("game %s: leaving seat %d can neither resign nor default", rec.ID, seat)
			}
			a = d
		}
		return decision{seat: seat, action: a, by: byOrganiser}, true, nil
	case seat < len(rec.Bots) && rec.Bots[seat]:
		return s.botFor(rec, g, seat)
	}
	if a, ok := rec.byOrders(g, seat); ok {
		return decision{seat: seat, action: a, by: byOrder}, true, nil
	}
	if s.away(rec, seat) {
		return s.botFor(rec, g, seat)
	}
	return decision{}, false, nil
}

// botFor is the bot's decision for seat.
func (s *Service) botFor(rec *Record, g engine.Game, seat int) (decision, bool, error) {
	a, ok := g.Bot(seat)
	if !ok {
		return decision{}, false, fmt.Errorf("game %s: bot of seat %d has no move", rec.ID, seat)
	}
	return decision{seat: seat, action: a, by: byBot}, true, nil
}

// IsPaused tells whether the organiser has paused the game.
func (r *Record) IsPaused() bool { return r.Paused != 0 }

// errPaused refuses a move while the game is paused.
var errPaused = newError(CodeWrongStatus, "Организатор приостановил игру: ходы примут, когда он её продолжит.",
	"The organiser has paused the game: moves are taken again once it resumes.", errors.New("game paused"))

// Substituting tells whether invitation invite is a substitute's, not yet
// accepted, for a seat in play.
func (r *Record) Substituting(invite int) bool {
	return r.Status == StatusPlaying && invite >= 0 && invite < len(r.Seats) && r.Seats[invite].Engine >= 0 && !r.Seats[invite].Accepted
}
