package httpapi

import (
	"html/template"
	"net/http"
	"strconv"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
)

// logData is the log page: the view of its reader (views.LogPage), with
// its token, names and board.
type logData struct {
	gameHead
	views.LogPage
	Started bool
	Board   template.HTML
}

// logPage is GET /g/{id}/log: the game's commands with what a reader may
// see of them, a page at a time (?from=N), or with ?step=N the board and
// the players as they were after command N, replayed from the seed.
func (a *api) logPage(w http.ResponseWriter, r *http.Request) {
	head, rd, rec, _, ok := a.loadGamePage(w, r, r.URL.Query().Get("t"), "log_title", anyReader...)
	if !ok {
		return
	}
	l, token := lang(r), head.Token
	d := logData{gameHead: head}
	d.Game = true
	d.Title = d.GameName + " — " + d.Title
	if rec.State == nil {
		a.render(w, r, http.StatusOK, "log.html", d)
		return
	}
	h, err := views.LoadHistory(r.Context(), a.svc, rec)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	q := views.LogRequest{Games: a.games, Lang: l, Rec: rec, History: h, Reader: rd.view(),
		Link: func(path string, query ...string) string { return pageLink(path, token, l, query...) }}
	if s := r.URL.Query().Get("step"); s != "" {
		q.Replay = true
		if q.Step, err = strconv.Atoi(s); err != nil {
			a.pageError(w, r, service.Fail(service.CodeInvalid, err))
			return
		}
	} else if s := r.URL.Query().Get("from"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			a.pageError(w, r, service.Fail(service.CodeInvalid, err))
			return
		}
		q.From = max(n, 1)
	}
	d.Started = true
	if d.LogPage, err = views.Log(q); err != nil {
		a.pageError(w, r, err)
		return
	}
	if d.Replay {
		if d.Board, err = boardSVG(l, a.games.For(rec.Kind), d.At, d.Seat, d.Names); err != nil {
			a.pageError(w, r, err)
			return
		}
	}
	a.render(w, r, http.StatusOK, "log.html", d)
}
