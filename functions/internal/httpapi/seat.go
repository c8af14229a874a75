package httpapi

import (
	"html/template"
	"net/http"
	"net/url"
	"slices"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// chartPoints bounds the samples of the net-worth chart.
const chartPoints = 200

// storyLines bounds the story of the seat page; the game-over page tells
// only the end.
const (
	storyLines     = 30
	storyLinesOver = 12
)

// seatData is the game page: a seat's (with its decisions), the
// organiser's or a spectator's (read only), and the game-over page.
type seatData struct {
	page
	ID, Token, GameName, Status string
	Notice, Error               string
	Role                        string // seat, organiser or spectator
	Started, Over, Seated       bool
	Owes, MyTurn                bool
	Version                     int64
	Moves                       int
	// Step and Decision go with each form: what the seat's decision was
	// when the page was drawn (service.Precondition).
	Step              int64
	Decision          string
	Options, Deadline string
	Prompt            string
	Due               *views.Deadline
	Default           *views.Choice
	Focus, AllURL     string // a page that lists one long group of decisions
	Groups            []views.Group
	Waiting           []views.Waiting
	Events            []views.EventLine
	EventsMore        bool
	Board             template.HTML
	Squares           []present.Square // the board in words, legible on a phone
	OverWhy           string           // what ended the game
	RulesURL          string
	Me                *views.Panel
	Others            []views.Panel
	Standings         []views.Panel
	Chart             template.HTML
	LogURL            string
	OrdersURL         string // the seat's standing orders, while the game goes on
	// SeedSHA256 commits to the dice and cards from the creation on; Seed
	// reveals them once the game is over.
	SeedSHA256, Seed string
	RecordURL        string // the game record to download, once the game is over
}

func (a *api) seatPage(w http.ResponseWriter, r *http.Request) {
	a.renderSeat(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
}

// roleOf names who a token says is reading.
func roleOf(rd reader) string {
	switch rd.claims.Purpose {
	case linksign.PurposeSeat:
		return "seat"
	case linksign.PurposeOrganiser:
		return "organiser"
	}
	return "spectator"
}

// pageLink is a link from one page of a game to another, relative to the
// service: the token and the language go along.
func pageLink(path, token, l string, extra ...string) string {
	q := url.Values{"t": {token}, "lang": {l}}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	return path + "?" + q.Encode()
}

// renderSeat draws the game page for the reader of token.
func (a *api) renderSeat(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string) {
	rd, rec, ver, ok := a.loadGame(w, r, a.pageError, token, anyReader...)
	if !ok {
		return
	}
	l := lang(r)
	inv := rd.seatIndex()
	d := seatData{page: newPage(r, "game"), ID: rec.ID, Token: token, GameName: gameName(l, rec.Kind), Status: rec.Status,
		Error: errMsg, Role: roleOf(rd), Seated: inv >= 0, Version: ver, Moves: rec.Moves,
		Options: views.OptionsText(l, rec), Deadline: views.DeadlineText(l, rec), RulesURL: rulesLink(rec.Kind, l),
		SeedSHA256: rec.SeedCommitment(), Seed: rec.RevealedSeed()}
	d.Title, d.Game = rec.Title(l, d.GameName), true
	if r.Method != http.MethodGet {
		d.langLinks("/g/"+rec.ID, token)
	}
	if rec.State == nil {
		a.render(w, r, status, "seat.html", d)
		return
	}
	g, err := a.svc.Engine(rec)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	d.Started, d.Over = true, g.Over()
	d.LogURL = pageLink("/g/"+rec.ID+"/log", token, l)
	if inv >= 0 && !d.Over {
		d.OrdersURL = pageLink("/g/"+rec.ID+"/orders", token, l)
	}
	seat := engine.Spectator
	if inv >= 0 {
		seat = rec.Seats[inv].Engine
	}
	names := views.SeatNames(rec, g.Seats())
	now := a.now()

	legal := g.Legal(seat)
	// A mail's link acts for the round of decisions it was mailed for,
	// as long as the seat owes any of it: a turn of several decisions is
	// resumed from it. Once the seat owes nothing more of that round it
	// shows "already done" and where things stand (SPEC §4); a newer mail
	// (or "my games") has the link for the next round, and so has the page
	// a seat is left on after its last decision (Record.LinkPosition).
	if rec.LinkDone(seat, rd.claims.Version, len(legal) > 0) {
		legal = nil
		if errMsg == "" {
			d.Notice = templates.T(l, "already_done")
		}
	}
	if r.URL.Query().Get("done") != "" && errMsg == "" { // a form posted on a page the game had left
		d.Notice = templates.T(l, "already_done")
	}
	pr := present.For(rec.Kind)
	view := g.View(seat)
	if len(legal) > 0 {
		d.Owes, d.MyTurn = true, g.Turn() == seat
		d.Step, d.Decision = rec.SeatStep(seat), service.DecisionOf(legal)
		d.Focus = r.URL.Query().Get("show")
		more := func(g string) string { return pageLink("/g/"+rec.ID, token, l, "show", g) }
		d.Default, d.Groups = views.Arrange(l, pr, legal, view, names, views.TurnEnders(g, seat, legal), d.Focus, more)
		if !slices.ContainsFunc(d.Groups, func(g views.Group) bool { return g.Key == d.Focus }) {
			d.Focus = "" // no such group now: the whole page
		}
		d.AllURL = pageLink("/g/"+rec.ID, token, l)
		d.Due = views.NewDeadline(l, views.Due(rec, seat), now)
		d.Prompt = pr.Prompt(l, view, seat, true, views.NameFunc(names))
	} else if !d.Over {
		d.Waiting = views.WaitingFor(l, rec, g, names, now)
		d.Prompt = pr.Prompt(l, view, seat, false, views.NameFunc(names))
	}

	all := views.Panels(l, rec.Kind, g, seat, names)
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
	if d.Board, err = boardSVG(l, g, seat, names); err != nil {
		a.pageError(w, r, err)
		return
	}
	d.Squares = pr.Squares(l, view, views.NameFunc(names))
	if d.Over {
		d.RecordURL = pageLink("/g/"+rec.ID+"/record", token, l)
		d.Standings = views.ByPlace(all)
		if log, err := rec.Recent(); err == nil && len(log) > 0 {
			d.OverWhy = present.OverText(pr, l, log[len(log)-1].Events, views.NameFunc(names))
		}
		if h, err := views.LoadHistory(r.Context(), a.svc, rec); err != nil {
			a.log.ErrorContext(r.Context(), "net worth chart", "game", rec.ID, "err", err.Error())
		} else if s, err := h.NetWorth(chartPoints); err != nil {
			a.log.ErrorContext(r.Context(), "net worth chart", "game", rec.ID, "err", err.Error())
		} else {
			d.Chart = netWorthChart(l, pr, s, names)
		}
	}
	lines := storyLines
	if d.Over {
		lines = storyLinesOver
	}
	if d.Focus == "" {
		d.Events, d.EventsMore = views.StorySince(rec, seat, l, views.NameFunc(names), lines)
	}
	a.render(w, r, status, "seat.html", d)
}
