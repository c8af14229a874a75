package httpapi

import (
	"html/template"
	"net/http"
	"net/url"

	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
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
	Board           template.HTML
	Chart           template.HTML
	Talk            *views.Talk // the newest table talk (talk.go)
}

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
	d := seatData{page: newPage(r, "game"), Token: token, GameName: gameName(l, rec.Kind), RulesURL: rulesLink(rec.Kind, l)}
	d.SeatPage = views.Seat(views.SeatRequest{Lang: l, Rec: rec, Version: ver, Game: g, Reader: rd.view(),
		LinkPosition: rd.claims.Version, Error: errMsg, Done: q.Get("done") != "", Focus: q.Get("show"), Now: a.now(),
		Link: func(path string, query ...string) string { return pageLink(path, token, l, query...) }})
	d.Title, d.Game = rec.Title(l, d.GameName), true
	if r.Method != http.MethodGet {
		d.langLinks("/g/"+rec.ID, token)
	}
	if g == nil {
		a.render(w, r, status, "seat.html", d)
		return
	}
	if d.Focus == "" { // a page of one long group of decisions is that alone
		d.Talk = a.talkCard(r, rec, rd, token)
	}
	if d.Board, err = boardSVG(l, g, d.Seat, d.Names); err != nil {
		a.pageError(w, r, err)
		return
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
		return netWorthChart(l, present.For(rec.Kind), *rec.Chart, names)
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
	return netWorthChart(l, present.For(rec.Kind), s, names)
}
