package httpapi

import (
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/templates"
)

// chartPoints bounds the samples of the net-worth chart.
const chartPoints = service.ChartPoints

// seatData is the game page: the view of its reader (views.SeatPage),
// with its token, names and pictures.
type seatData struct {
	page
	views.SeatPage
	Token, GameName string
	RulesURL        string
	// BoardNear is the part of the board a phone shows (an inline
	// picture); BoardURL the whole picture, an image of its own, W × H.
	BoardNear      template.HTML
	BoardURL       string
	BoardW, BoardH int
	Chart          template.HTML
	Talk           *views.Talk // the newest table talk (talk.go)
	// Confirm asks to confirm a large amount before it is acted on.
	Confirm *confirmStep
}

// confirmStep is the form that makes a decision of a large amount once
// the player confirms it: the fields they posted, and "sure".
type confirmStep struct {
	Action, Button, Text, Back string
	Fields                     []field
}

type field struct{ Name, Value string }

func (a *api) seatPage(w http.ResponseWriter, r *http.Request) {
	a.renderSeat(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
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
	a.renderSeatWith(w, r, token, status, errMsg, nil)
}

// renderSeatWith is renderSeat, asking first to confirm cf if any.
func (a *api) renderSeatWith(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string, cf *confirmStep) {
	templates.Prepare("seat.html") // parsed while the game is read
	rd, rec, ver, ok := a.loadGame(w, r, a.pageError, token, anyReader...)
	if !ok {
		return
	}
	l := lang(r)
	g, err := a.engine(rec)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	q := r.URL.Query()
	d := seatData{page: newPage(r, "game"), Token: token, GameName: a.gameName(l, rec.Kind), RulesURL: rulesLink(rec.Kind, l)}
	d.Named = rec.Name
	d.SeatPage = views.Seat(views.SeatRequest{Games: a.games, Lang: l, Rec: rec, Version: ver, Game: g, Reader: rd.view(),
		LinkPosition: rd.claims.Version, Error: errMsg, Done: q.Get("done") != "", Focus: q.Get("show"), Now: a.now(),
		Link: func(path string, query ...string) string { return pageLink(path, token, l, query...) }})
	d.Game, d.Confirm = true, cf
	d.retitle(r, rec.Title(l, d.GameName), "/g/"+rec.ID, token)
	if g == nil {
		a.render(w, r, status, "seat.html", d)
		return
	}
	// A page of one long group of decisions is that alone: its board
	// and talk are on the game's page, a link away.
	if d.Focus != "" {
		a.render(w, r, status, "seat.html", d)
		return
	}
	d.Talk = a.talkCard(r, rec, rd, token)
	if d.BoardNear, d.BoardW, d.BoardH, err = boardNear(l, a.games.For(rec.Kind), g, d.Seat, d.Names); err != nil {
		a.pageError(w, r, err)
		return
	}
	if d.BoardNear != "" {
		d.BoardURL = pageLink("/g/"+rec.ID+"/board.svg", token, l, "v", strconv.FormatInt(ver, 10))
	}
	if d.Over {
		d.Chart = a.chart(r, rec, l, d.Names)
	}
	a.render(w, r, status, "seat.html", d)
}

// chart draws the net worth of every seat over a game that is over; none
// when its log does not replay (the page goes without it). The commit that
// ended the game kept the chart in it; a game that ended before charts
// were kept is replayed for each view (a GET never writes).
func (a *api) chart(r *http.Request, rec *service.Record, l string, names []string) template.HTML {
	if rec.Chart != nil {
		return netWorthChart(l, a.games.For(rec.Kind), *rec.Chart, names)
	}
	h, err := views.LoadHistory(r.Context(), a.svc, rec)
	if err != nil {
		a.log.ErrorContext(r.Context(), "net worth chart", "game", rec.ID, "err", err.Error())
		return ""
	}
	s, err := h.NetWorth(chartPoints)
	if err != nil {
		a.log.ErrorContext(r.Context(), "net worth chart", "game", rec.ID, "err", err.Error())
		return ""
	}
	return netWorthChart(l, a.games.For(rec.Kind), s, names)
}

// askToConfirm answers a posted decision whose amount is large
// (views.ConfirmAmount) and not yet confirmed with the seat page asking
// to confirm it, and tells whether it did. Anything else, the decision
// refused included, is left to the service.
func (a *api) askToConfirm(w http.ResponseWriter, r *http.Request, token string, rd reader, act engine.Action) bool {
	if act.Amount <= 0 || r.PostFormValue("sure") != "" {
		return false
	}
	rec, _, err := a.svc.Load(r.Context(), r.PathValue("id"))
	if err != nil || rd.claims.Seat < 0 || rd.claims.Seat >= len(rec.Seats) || rec.Seats[rd.claims.Seat].Engine < 0 {
		return false
	}
	g, err := a.engine(rec)
	if err != nil || g == nil {
		return false
	}
	seat, l := rec.Seats[rd.claims.Seat].Engine, lang(r)
	for _, c := range g.Legal(seat) {
		if c.Type != act.Type || c.Cell != act.Cell || c.Target != act.Target || c.Good != act.Good || !views.ConfirmAmount(c, act.Amount) {
			continue
		}
		cf := &confirmStep{Action: "/g/" + rec.ID + "/act?lang=" + l, Back: pageLink("/g/"+rec.ID, token, l),
			Button: views.AmountButton(l, a.games.For(rec.Kind), c, g.View(seat), views.SeatNames(rec, g.Seats()), act.Amount)}
		cf.Text = templates.Tf(l, "confirm_amount_text", views.AmountText(l, a.games.For(rec.Kind).Choice(l, c, g.View(seat), views.NameFunc(nil)).Unit, c.Max))
		for _, k := range slices.Sorted(maps.Keys(r.PostForm)) {
			if k != "sure" {
				cf.Fields = append(cf.Fields, field{k, r.PostForm.Get(k)})
			}
		}
		a.renderSeatWith(w, r, token, http.StatusOK, "", cf)
		return true
	}
	return false
}
