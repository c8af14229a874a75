package views

import (
	"slices"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/templates"
)

// storyLines bounds the story of the seat page; the game-over page tells
// only the end.
const (
	storyLines     = 30
	storyLinesOver = 12
)

// SeatRequest is what a game page is made from.
type SeatRequest struct {
	Games   *present.Games
	Lang    string
	Rec     *service.Record
	Version int64
	Game    engine.Game // nil before the game starts
	Reader  Reader
	// LinkPosition is the seat's position the reader's link was issued
	// for (0: none; service.Record.SeatPosition).
	LinkPosition int64
	Error        string // why the form just sent was refused
	Done         bool   // a form was sent on a page the game had left
	Focus        string // the group of decisions a page of its own lists
	Now          time.Time
	// Link makes a link to another page of the game for the same reader,
	// in the same language: its path, then query names and values.
	Link func(path string, query ...string) string
}

// SeatPage is the game page: a seat's (with its decisions), the
// organiser's or a spectator's (read only), and the game-over page.
type SeatPage struct {
	// Words are what the game calls its score and cash (present.Words).
	Words                 present.Words `json:"-"`
	ID, Status            string
	Notice, Error         string
	Role                  string // seat, organiser or spectator
	Started, Over, Seated bool
	Owes, MyTurn          bool
	Version               int64
	Moves                 int
	// Step and Decision go with each form: what the seat's decision was
	// when the page was drawn (service.Precondition).
	Step              int64
	Decision          string
	Options, Deadline string
	Prompt            string
	Due               *Deadline
	Default           *Choice
	Focus, AllURL     string // a page that lists one long group of decisions
	Groups            []Group
	Waiting           []Waiting
	Events            []EventLine
	EventsMore        bool
	Squares           []present.Square // the board in words, legible on a phone
	OverWhy           string           // what ended the game
	Me                *Panel
	Others            []Panel
	Standings         []Panel
	LogURL            string
	OrdersURL         string // the seat's standing orders, while the game goes on
	// Orders says what the seat's standing orders play for it (near the
	// top of the page, with a link to change them and, while any are set,
	// a button that turns them off); OrdersOn tells whether any are set.
	Orders   string
	OrdersOn bool
	// DealsURL is the seat's deals page (offers to it and from it, offers
	// to prepare), DealsToMe how many deals wait for its answer.
	DealsURL  string
	DealsToMe int
	// SeedSHA256 commits to the dice and cards from the creation on; Seed
	// reveals them once the game is over.
	SeedSHA256, Seed string
	RecordURL        string // the game record to download, once the game is over
	// Seat is the reader's engine seat and Names the players' names by
	// engine seat: what the board is drawn for.
	Seat  int
	Names []string
	// Table tells of a pause and absences, with the reader's own forms.
	Table TableNotes
}

// Seat makes the game page of q's reader.
func Seat(q SeatRequest) SeatPage {
	l, rec, g := q.Lang, q.Rec, q.Game
	d := SeatPage{Words: q.Games.For(rec.Kind).Words(l), ID: rec.ID, Status: rec.Status, Error: q.Error, Role: q.Reader.Role, Seated: q.Reader.Invite >= 0,
		Version: q.Version, Moves: rec.Moves, Options: OptionsText(l, q.Games.For(rec.Kind), rec), Deadline: DeadlineText(l, rec),
		SeedSHA256: rec.SeedCommitment(), Seed: rec.RevealedSeed(), Seat: engine.Spectator, Table: Table(q)}
	if d.Seated && (rec.Status == service.StatusInvited || rec.Status == service.StatusPlaying) {
		d.OrdersURL = q.Link("/g/" + rec.ID + "/orders")
		if specs, err := service.OrderSpecsOf(q.Games.Engines(), rec); err == nil && q.Focus == "" { // a page of one group of decisions says only them
			o := rec.SeatOrders(q.Reader.Invite)
			d.Orders, d.OrdersOn = OrdersSummary(l, q.Games.For(rec.Kind), specs, o), len(o) > 0
		}
	}
	if g == nil {
		return d
	}
	d.Started, d.Over = true, g.Over()
	d.LogURL = q.Link("/g/" + rec.ID + "/log")
	if dl, ok := g.(engine.Dealing); ok && deals(q.Games, rec.Kind) && d.Seated && !d.Over && q.Focus == "" { // a page of one group of decisions says only them
		d.DealsURL = q.Link("/g/" + rec.ID + "/deals")
		seat := q.Reader.Seat(rec)
		for _, x := range dl.Deals() {
			if x.To == seat {
				d.DealsToMe++
			}
		}
	}
	d.Seat, d.Names = q.Reader.Seat(rec), SeatNames(rec, g.Seats())
	name := NameFunc(d.Names)
	pr := q.Games.For(rec.Kind)
	view := g.View(d.Seat)
	if legal := d.legal(q); len(legal) > 0 {
		d.decide(q, pr, legal, view)
	} else if !d.Over {
		d.Waiting = WaitingFor(l, rec, g, d.Names, q.Now)
		d.Prompt = pr.Prompt(l, view, d.Seat, false, name)
	}
	all := Panels(l, pr, g, d.Seat, d.Names)
	for i := range all {
		switch {
		case d.Over: // the standings tell each seat's net worth, broken down
		case d.Focus != "": // a page for one choice among many: just that
		case all[i].Me:
			d.Me = &all[i]
		default:
			d.Others = append(d.Others, all[i])
		}
	}
	d.Squares = pr.Squares(l, view, name)
	lines := storyLines
	if d.Over {
		lines = storyLinesOver
		d.RecordURL = q.Link("/g/" + rec.ID + "/record")
		d.Standings = ByPlace(all)
		if log, err := rec.Recent(); err == nil && len(log) > 0 {
			d.OverWhy = present.OverText(pr, l, log[len(log)-1].Events, name)
		}
	}
	if d.Focus == "" {
		d.Events, d.EventsMore = StorySince(pr, rec, d.Seat, l, name, lines)
	}
	return d
}

// legal lists the decisions the page offers: none once the reader's link
// is for a round the seat has finished, which the page says.
//
// A mail's link acts for the round of decisions it was mailed for, as
// long as the seat owes any of it: a turn of several decisions is resumed
// from it. Once the seat owes nothing more of that round it shows
// "already done" and where things stand (SPEC §4); a newer mail (or "my
// games") has the link for the next round, and so has the page a seat is
// left on after its last decision (Record.LinkPosition).
func (d *SeatPage) legal(q SeatRequest) []engine.Choice {
	legal := q.Game.Legal(d.Seat)
	if q.Rec.LinkDone(d.Seat, q.LinkPosition, len(legal) > 0) {
		legal = nil
		if q.Error == "" {
			d.Notice = templates.T(q.Lang, "already_done")
		}
	}
	if q.Done && q.Error == "" { // a form posted on a page the game had left
		d.Notice = templates.T(q.Lang, "already_done")
	}
	return legal
}

// decide fills in the decisions the seat owes: the forms, the prompt and
// the deadline.
func (d *SeatPage) decide(q SeatRequest, pr present.Game, legal []engine.Choice, view any) {
	l, rec, g := q.Lang, q.Rec, q.Game
	d.Owes, d.MyTurn = true, g.Turn() == d.Seat
	d.Step, d.Decision = rec.SeatStep(d.Seat), service.DecisionOf(legal)
	d.Focus = q.Focus
	more := func(g string) string { return q.Link("/g/"+rec.ID, "show", g) }
	d.Default, d.Groups = Arrange(l, pr, legal, view, d.Names, TurnEnders(g, d.Seat, legal), d.Focus, more)
	if !slices.ContainsFunc(d.Groups, func(g Group) bool { return g.Key == d.Focus }) {
		d.Focus = "" // no such group now: the whole page
	}
	d.AllURL = q.Link("/g/" + rec.ID)
	d.Due = NewDeadline(l, Due(rec, d.Seat), q.Now)
	d.Prompt = pr.Prompt(l, view, d.Seat, true, NameFunc(d.Names))
}

// deals tells whether the game of kind has deals between players: its
// pages link to a seat's deals only then.
func deals(gs *present.Games, kind string) bool {
	info, _ := gs.Engines().Lookup(kind)
	return info.Deals
}
