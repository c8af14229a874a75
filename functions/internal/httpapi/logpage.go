package httpapi

import (
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
)

// logPageSize is how many commands one page of the log lists.
const logPageSize = 50

// logEntry is one command of the log as its reader may see it (P-3).
type logEntry struct {
	N      int // 1-based
	Seat   int
	Name   string
	Action string
	At     string
	Events []views.EventLine
	Step   string // the replay after it
}

// logData is the log page: a page of commands, or the replay at a step.
type logData struct {
	page
	ID, Token, GameName, GameURL string
	Total                        int
	Started                      bool
	// The list.
	Entries               []logEntry
	From, To              int // 1-based, inclusive
	Earlier, Later        string
	First, Last, StartURL string
	// The replay.
	Replay                                            bool
	Step                                              int
	Entry                                             *logEntry
	Board                                             template.HTML
	Squares                                           []present.Square // the board in words
	Panels                                            []views.Panel
	Back, Back10, Fwd, Fwd10, ToStart, ToEnd, ListURL string
}

// logPage is GET /g/{id}/log: the game's commands with what a reader may
// see of them, a page at a time (?from=N), or with ?step=N the board and
// the players as they were after command N, replayed from the seed.
func (a *api) logPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	rd, rec, _, ok := a.loadGame(w, r, a.pageError, token, anyReader...)
	if !ok {
		return
	}
	l := lang(r)
	d := logData{page: newPage(r, "log_title"), ID: rec.ID, Token: token, GameName: gameName(l, rec.Kind),
		GameURL: pageLink("/g/"+rec.ID, token, l)}
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
	d.Started, d.Total = true, len(h.Entries)
	seat := engine.Spectator
	if inv := rd.seatIndex(); inv >= 0 {
		seat = rec.Seats[inv].Engine
	}
	names := views.SeatNames(rec, h.Seats)
	link := func(k string, v int) string { return pageLink("/g/"+rec.ID+"/log", token, l, k, strconv.Itoa(v)) }
	pr := present.For(rec.Kind)
	name := views.NameFunc(names)
	entry := func(i int) logEntry {
		e := h.Entries[i]
		le := logEntry{N: i + 1, Seat: e.Seat, Name: name(e.Seat), Action: pr.Command(l, e.Action, name),
			At: views.DateTime(l, time.Unix(e.At, 0).UTC()), Step: link("step", i+1)}
		if hidden(pr, e, seat) {
			le.Action = pr.SecretText(l) // its details stay secret (P-3)
		}
		if e.Seat == seat {
			// Only the seat itself is told its orders played it.
			if t := present.PlayedFor(l, pr, e.Action, e.By, name); t != "" {
				le.Action = t
			}
		}
		le.Events = views.EventLines(l, pr, e.Events, seat, name)
		return le
	}
	d.StartURL, d.ListURL = link("step", 0), pageLink("/g/"+rec.ID+"/log", token, l)

	q := r.URL.Query()
	if s := q.Get("step"); s != "" {
		step, err := strconv.Atoi(s)
		if err != nil {
			a.pageError(w, r, service.Fail(service.CodeInvalid, err))
			return
		}
		step = min(max(step, 0), d.Total)
		g, err := h.At(step)
		if err != nil {
			a.pageError(w, r, err)
			return
		}
		d.Replay, d.Step = true, step
		if step > 0 {
			e := entry(step - 1)
			d.Entry = &e
			d.ListURL = link("from", (step-1)/logPageSize*logPageSize+1)
		}
		d.Panels = views.Panels(l, rec.Kind, g, seat, names)
		if d.Board, err = boardSVG(l, g, seat, names); err != nil {
			a.pageError(w, r, err)
			return
		}
		d.Squares = present.For(rec.Kind).Squares(l, g.View(seat), views.NameFunc(names))
		d.ToStart, d.ToEnd = link("step", 0), link("step", d.Total)
		if step > 0 {
			d.Back, d.Back10 = link("step", step-1), link("step", max(step-10, 0))
		}
		if step < d.Total {
			d.Fwd, d.Fwd10 = link("step", step+1), link("step", min(step+10, d.Total))
		}
		a.render(w, r, http.StatusOK, "log.html", d)
		return
	}

	// The list: by default its last page, the newest commands.
	from := (max(d.Total-1, 0))/logPageSize*logPageSize + 1
	if s := q.Get("from"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			a.pageError(w, r, service.Fail(service.CodeInvalid, err))
			return
		}
		from = min(max(n, 1), max(d.Total, 1))
	}
	d.From, d.To = from, min(from+logPageSize-1, d.Total)
	for i := d.From - 1; i < d.To; i++ {
		d.Entries = append(d.Entries, entry(i))
	}
	if d.From > 1 {
		d.Earlier, d.First = link("from", max(d.From-logPageSize, 1)), link("from", 1)
	}
	if d.To < d.Total {
		d.Later, d.Last = link("from", d.To+1), pageLink("/g/"+rec.ID+"/log", token, l)
	}
	a.render(w, r, http.StatusOK, "log.html", d)
}
