package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
)

// The organiser's controls, a player's absences and back from the bot,
// through the API and the pages (service.Control, Away, Back).

// control gives one of the organiser's controls (the API) and answers the
// game as the organiser sees it.
func (a *api) control(w http.ResponseWriter, r *http.Request) {
	var req service.ControlRequest
	_, err := a.authorize(r, bearer(r), linksign.PurposeOrganiser)
	if err == nil {
		err = decodeJSON(r, &req)
	}
	if err == nil {
		err = a.svc.Control(r.Context(), r.PathValue("id"), req)
	}
	a.viewAfter(w, r, err)
}

// viewAfter answers a change's API call: its error, or the game as the
// caller sees it after the change.
func (a *api) viewAfter(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		a.fail(w, r, err)
		return
	}
	a.view(w, r)
}

// controlsData is the page of the organiser's controls.
type controlsData struct {
	orgData
	OrgURL string
	// Done says what the control just given did (issue 27: «Продлить»
	// confirmed nothing).
	Done string
}

func (a *api) controlsPage(w http.ResponseWriter, r *http.Request) {
	a.renderControls(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
}

// renderControls draws the page of the organiser's controls: a form for
// each, and what was done.
func (a *api) renderControls(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string) {
	d, ok := a.orgView(w, r, token, errMsg, "controls", "/g/{id}/controls")
	if ok {
		cd := controlsData{orgData: d, OrgURL: pageLink("/g/"+d.ID+"/org", token, lang(r))}
		if log := d.Controls.Log; r.URL.Query().Get("done") != "" && errMsg == "" && len(log) > 0 {
			cd.Done = log[len(log)-1].Text
		}
		a.render(w, r, status, "controls.html", cd)
	}
}

// controlPage acts on a form of the controls' page: the page again, with
// the refusal if there is one.
func (a *api) controlPage(w http.ResponseWriter, r *http.Request) {
	_, token, ok := a.postedReader(w, r, linksign.PurposeOrganiser)
	if !ok {
		return
	}
	f := r.PostForm
	req := service.ControlRequest{Control: f.Get("control"), Key: f.Get("key")}
	if req.Key != "" { // one form carries several controls: each its own key
		req.Key += "-" + req.Control + "-" + f.Get("seat")
	}
	var err error
	if v := f.Get("seat"); v != "" {
		if req.Seat, err = strconv.Atoi(v); err != nil {
			err = service.Fail(service.CodeInvalid, err)
		}
	}
	if v := f.Get("hours"); v != "" && err == nil {
		if req.Hours, err = strconv.Atoi(v); err != nil {
			err = service.Fail(service.CodeInvalid, err)
		}
	}
	if (req.Control == service.ControlEnd || req.Control == service.ControlCancel) && f.Get("sure") == "" && err == nil {
		err = service.Fail(service.CodeInvalid, errors.New("not confirmed")) // the form's box, which browsers require, left unticked
	}
	if req.Control == service.ControlReplace {
		req.Substitute = &service.Person{Name: f.Get("name"), Email: f.Get("email"), Lang: f.Get("sub_lang")}
	}
	if err == nil {
		err = a.svc.Control(r.Context(), r.PathValue("id"), req)
	}
	if err != nil {
		e, status := a.classify(r, err)
		a.renderControls(w, r, token, status, e.Message(lang(r)))
		return
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id")+"/controls", token, lang(r), "done", "1"), http.StatusSeeOther)
}

// absence is an absence as the API and the page's form send it: days
// (YYYY-MM-DD, UTC; until inclusive) or times (RFC 3339); none for "from
// now" and "until I'm back".
type absence struct {
	From  string `json:"from,omitempty"`
	Until string `json:"until,omitempty"`
}

// times reads the absence as Unix seconds (0: none).
func (b absence) times() (from, until int64, err error) {
	if from, err = absenceTime(b.From, false); err == nil {
		until, err = absenceTime(b.Until, true)
	}
	return from, until, err
}

func absenceTime(v string, end bool) (int64, error) {
	if v == "" {
		return 0, nil
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		if end {
			d = d.AddDate(0, 0, 1) // the whole last day
		}
		return d.Unix(), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return 0, service.Fail(service.CodeInvalid, err)
	}
	return t.Unix(), nil
}

// away declares the seat's player away (the API).
func (a *api) away(w http.ResponseWriter, r *http.Request) {
	var b absence
	rd, ok := a.seatRequest(w, r, &b)
	if !ok {
		return
	}
	from, until, err := b.times()
	if err == nil {
		err = a.svc.Away(r.Context(), r.PathValue("id"), rd.claims.Seat, from, until)
	}
	a.viewAfter(w, r, err)
}

// back ends the seat's player's absence and takes their seat back from
// its bot (the API).
func (a *api) back(w http.ResponseWriter, r *http.Request) {
	rd, err := a.authorize(r, bearer(r), linksign.PurposeSeat)
	if err == nil {
		err = a.svc.Back(r.Context(), r.PathValue("id"), rd.claims.Seat)
	}
	a.viewAfter(w, r, err)
}

// awayData is the page where a player declares an absence.
type awayData struct {
	gameHead
	Error string
	Table views.TableNotes
}

func (a *api) awayGet(w http.ResponseWriter, r *http.Request) {
	a.renderAway(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
}

// renderAway draws the absence page of the seat of token.
func (a *api) renderAway(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string) {
	h, rd, rec, ver, ok := a.loadGamePage(w, r, token, "away_title", linksign.PurposeSeat)
	if !ok {
		return
	}
	l := lang(r)
	link := func(path string, query ...string) string { return pageLink(path, token, l, query...) }
	d := awayData{gameHead: h, Error: errMsg}
	d.Table = views.Table(views.SeatRequest{Games: a.games, Lang: l, Rec: rec, Version: ver, Reader: rd.view(), Now: a.now(), Link: link})
	d.retitle(r, rec.Title(l, d.GameName)+" — "+d.Title, "/g/"+rec.ID+"/away", token)
	a.render(w, r, status, "away.html", d)
}

// awayPage is the absence page's form; the game page follows.
func (a *api) awayPage(w http.ResponseWriter, r *http.Request) {
	rd, token, ok := a.postedReader(w, r, linksign.PurposeSeat)
	if !ok {
		return
	}
	from, until, err := absence{From: r.PostFormValue("from"), Until: r.PostFormValue("until")}.times()
	if err == nil {
		err = a.svc.Away(r.Context(), r.PathValue("id"), rd.claims.Seat, from, until)
	}
	a.afterSeatForm(w, r, token, err)
}

// afterSeatForm follows the absence page's and the back page's forms:
// the absence page again with the refusal, or the game page.
func (a *api) afterSeatForm(w http.ResponseWriter, r *http.Request, token string, err error) {
	if err != nil {
		e, status := a.classify(r, err)
		a.renderAway(w, r, token, status, e.Message(lang(r)))
		return
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id"), token, lang(r)), http.StatusSeeOther)
}

// backData is the page a mail's "take your seat back" link opens: a
// button, which the POST acts on (a GET changes nothing).
type backData struct {
	gameHead
	Bot   bool
	Error string
}

func (a *api) backPage(w http.ResponseWriter, r *http.Request) {
	h, rd, rec, _, ok := a.loadGamePage(w, r, r.URL.Query().Get("t"), "back_title", linksign.PurposeSeat)
	if !ok {
		return
	}
	d := backData{gameHead: h}
	if seat := rec.Seats[rd.claims.Seat].Engine; rec.Status == service.StatusPlaying && seat >= 0 && seat < len(rec.Bots) {
		d.Bot = rec.Bots[seat]
	}
	d.Title = rec.Title(lang(r), d.GameName) + " — " + d.Title
	a.render(w, r, http.StatusOK, "back.html", d)
}

// backPost takes the seat back (and ends an absence): the seat page
// follows.
func (a *api) backPost(w http.ResponseWriter, r *http.Request) {
	rd, token, ok := a.postedReader(w, r, linksign.PurposeSeat)
	if !ok {
		return
	}
	a.afterSeatForm(w, r, token, a.svc.Back(r.Context(), r.PathValue("id"), rd.claims.Seat))
}
