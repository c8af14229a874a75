package httpapi

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// page is what every page template reads.
type page struct {
	Lang           string
	Title          string
	LinkRU, LinkEN string
}

func newPage(r *http.Request, title string) page {
	l := lang(r)
	q := r.URL.Query()
	q.Set("lang", "ru")
	ru := r.URL.Path + "?" + q.Encode()
	q.Set("lang", "en")
	en := r.URL.Path + "?" + q.Encode()
	if r.Method != http.MethodGet { // after a POST, link to the page itself
		ru, en = "?lang=ru", "?lang=en"
	}
	return page{Lang: l, Title: templates.T(l, title), LinkRU: ru, LinkEN: en}
}

// render writes a page; a template failure is an internal error.
func (a *api) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var buf bytes.Buffer
	if err := templates.Render(&buf, name, data); err != nil {
		a.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}

// pageError shows a failure as a page in the reader's language.
func (a *api) pageError(w http.ResponseWriter, r *http.Request, err error) {
	e, status := a.classify(r, err)
	a.render(w, r, status, "message.html", struct {
		page
		Message string
		IsError bool
	}{newPage(r, "error"), e.Message(lang(r)), true})
}

func gameName(l, kind string) string { return present.GameName(l, kind) }

func (a *api) homePage(w http.ResponseWriter, r *http.Request) {
	a.renderHome(w, r, http.StatusOK, "")
}

func (a *api) renderHome(w http.ResponseWriter, r *http.Request, status int, msg string) {
	a.render(w, r, status, "home.html", struct {
		page
		Kinds []games.Info
		Rows  []int
		Error string
	}{newPage(r, "create"), games.List(), make([]int, western.MaxSeats), msg})
}

// createPage creates a game from the home page's form.
func (a *api) createPage(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		a.renderHome(w, r, http.StatusBadRequest, service.Fail(service.CodeInvalid, err).Message(lang(r)))
		return
	}
	f := r.PostForm
	req := service.CreateRequest{
		Kind:      f.Get("kind"),
		Organiser: service.Person{Name: f.Get("org_name"), Email: f.Get("org_email"), Lang: f.Get("org_lang")},
	}
	if laps := f.Get("laps"); laps != "" {
		n, err := strconv.Atoi(laps)
		if err != nil {
			a.renderHome(w, r, http.StatusBadRequest, templates.T(lang(r), "laps")+": "+service.Fail(service.CodeInvalid, err).Message(lang(r)))
			return
		}
		opts := map[string]any{"laps": n}
		if f.Get("beginners") != "" {
			opts["beginners"] = true
		}
		req.Options, _ = json.Marshal(opts)
	}
	for i := 0; i < western.MaxSeats; i++ {
		k := strconv.Itoa(i)
		name, email := strings.TrimSpace(f.Get("name"+k)), strings.TrimSpace(f.Get("email"+k))
		if name == "" && email == "" {
			continue
		}
		req.Seats = append(req.Seats, service.Person{Name: name, Email: email, Lang: f.Get("lang" + k)})
	}
	out, err := a.svc.Create(r.Context(), req)
	if err != nil {
		e, status := a.classify(r, err)
		a.renderHome(w, r, status, e.Message(lang(r)))
		return
	}
	http.Redirect(w, r, a.link("/g/"+out.ID+"/org", out.OrganiserToken, lang(r)), http.StatusSeeOther)
}

// link builds a page URL with its token.
func (a *api) link(path, token, l string) string {
	q := url.Values{"t": {token}}
	if l != "" {
		q.Set("lang", l)
	}
	return a.base + path + "?" + q.Encode()
}

func (a *api) orgPage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	if _, err := a.authorize(r, token, linksign.PurposeOrganiser); err != nil {
		a.pageError(w, r, err)
		return
	}
	rec, _, err := a.svc.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	type invite struct{ Name, URL string }
	data := struct {
		page
		ID, Token, GameName, Status, SpectatorURL string
		Players                                   []service.SeatInfo
		CanStart                                  bool
		InviteLinks                               []invite
	}{page: newPage(r, "organiser_page"), ID: rec.ID, Token: token, GameName: gameName(lang(r), rec.Kind),
		Status: rec.Status, Players: rec.Seats, CanStart: rec.Status == service.StatusInvited}
	spect, err := a.svc.Token(linksign.PurposeSpectator, rec.ID, linksign.NoSeat, 0, service.OrganiserTokenTTL)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	data.SpectatorURL = a.link("/g/"+rec.ID, spect, lang(r))
	if rec.Status == service.StatusInvited {
		for i, s := range rec.Seats {
			if s.Accepted {
				continue
			}
			t, err := a.svc.Token(linksign.PurposeInvite, rec.ID, i, 0, service.InviteTokenTTL)
			if err != nil {
				a.pageError(w, r, err)
				return
			}
			data.InviteLinks = append(data.InviteLinks, invite{s.Name, a.link("/g/"+rec.ID+"/invite", t, s.Lang)})
		}
	}
	a.render(w, r, http.StatusOK, "org.html", data)
}

func (a *api) startPage(w http.ResponseWriter, r *http.Request) {
	token := r.PostFormValue("t")
	if _, err := a.authorize(r, token, linksign.PurposeOrganiser); err != nil {
		a.pageError(w, r, err)
		return
	}
	if err := a.svc.Start(r.Context(), r.PathValue("id")); err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, a.link("/g/"+r.PathValue("id")+"/org", token, lang(r)), http.StatusSeeOther)
}

func (a *api) invitePage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	rd, err := a.authorize(r, token, linksign.PurposeInvite)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	rec, _, err := a.svc.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	me := rec.Seats[rd.claims.Seat]
	a.render(w, r, http.StatusOK, "invite.html", struct {
		page
		ID, Token, GameName, Name string
		Accepted                  bool
		Players                   []service.SeatInfo
	}{newPage(r, "invite_title"), rec.ID, token, gameName(lang(r), rec.Kind), me.Name, me.Accepted, rec.Seats})
}

func (a *api) acceptPage(w http.ResponseWriter, r *http.Request) {
	rd, err := a.authorize(r, r.PostFormValue("t"), linksign.PurposeInvite)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	seatToken, err := a.svc.Accept(r.Context(), r.PathValue("id"), rd.claims.Seat)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, a.link("/g/"+r.PathValue("id"), seatToken, lang(r)), http.StatusSeeOther)
}

// choiceView is one button or form of the seat page.
type choiceView struct {
	engine.Choice
	Index int
	Label string
}

// panel is one player's row.
type panel struct {
	Name                            string
	Cell                            string
	Cash, Deposit, Credit, NetWorth int64
	Laps                            int
	Holdings                        string
	Me, Bankrupt                    bool
}

type standing struct {
	Place    int
	Name     string
	NetWorth int64
	Bankrupt bool
}

func (a *api) seatPage(w http.ResponseWriter, r *http.Request) {
	a.renderSeat(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
}

// renderSeat draws the page of a seat, the organiser or a spectator.
func (a *api) renderSeat(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string) {
	rd, err := a.authorize(r, token, anyReader...)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	rec, ver, err := a.svc.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	l := lang(r)
	inv := rd.seatIndex()
	data := struct {
		page
		ID, Token, GameName, Status, Key, Notice, Error string
		Seated, Over                                    bool
		Version                                         int64
		Choices                                         []choiceView
		Panels                                          []panel
		Standings                                       []standing
		Events                                          []string
	}{page: newPage(r, "game"), ID: rec.ID, Token: token, GameName: gameName(l, rec.Kind), Status: rec.Status,
		Error: errMsg, Seated: inv >= 0, Version: ver}
	if rec.State == nil {
		a.render(w, r, status, "seat.html", data)
		return
	}
	g, err := a.svc.Engine(rec)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	seat := engine.Spectator
	if inv >= 0 {
		seat = rec.Seats[inv].Engine
	}
	name := func(s int) string {
		if i := indexOfSeat(rec, s); i >= 0 {
			return rec.Seats[i].Name
		}
		return "—"
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	data.Key = hex.EncodeToString(b[:])
	for i, c := range g.Legal(seat) {
		data.Choices = append(data.Choices, choiceView{Choice: c, Index: i, Label: present.ActionLabel(l, c.Action)})
	}
	// A mail's link acts only on the version it was made for: once that
	// move is made it shows "already done" and where things stand (SPEC
	// §4); a newer mail (or "my games") has the link for the next move.
	if rd.claims.Version != 0 && rd.claims.Version != rec.SeatPosition(seat) {
		data.Choices = nil
		if errMsg == "" {
			data.Notice = templates.T(l, "already_done")
		}
	}
	scores := g.Score()
	data.Over = g.Over()
	if v, ok := g.View(seat).(western.View); ok {
		for i, p := range v.Players {
			var hold []string
			for cell, o := range v.Owner {
				if int(o) == i {
					hold = append(hold, present.CellName(l, cell))
				}
			}
			data.Panels = append(data.Panels, panel{Name: name(i), Cell: present.CellName(l, p.Cell), Cash: p.Cash, Deposit: p.Deposit,
				Credit: p.Credit, Laps: p.Laps, NetWorth: scores[i].NetWorth, Holdings: strings.Join(hold, ", "),
				Me: i == seat, Bankrupt: p.Bankrupt})
		}
	}
	for _, sc := range scores {
		data.Standings = append(data.Standings, standing{Place: sc.Place, Name: name(sc.Seat), NetWorth: sc.NetWorth, Bankrupt: sc.Bankrupt})
	}
	sortStandings(data.Standings)
	data.Events = recentEvents(rec, seat, l, name, 30)
	a.render(w, r, status, "seat.html", data)
}

// recentEvents tells the last n events seat may see, oldest first.
func recentEvents(rec *service.Record, seat int, l string, name func(int) string, n int) []string {
	var out []string
	log, err := rec.Recent()
	if err != nil {
		return nil // the page shows the state without the story
	}
	for i := len(log) - 1; i >= 0 && len(out) < n; i-- {
		ev := log[i].Events
		for j := len(ev) - 1; j >= 0 && len(out) < n; j-- {
			if ev[j].VisibleTo(seat) {
				out = append(out, present.EventText(l, ev[j], name))
			}
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func sortStandings(s []standing) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Place < s[j-1].Place; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func indexOfSeat(rec *service.Record, seat int) int {
	for i, s := range rec.Seats {
		if s.Engine == seat && s.Accepted {
			return i
		}
	}
	return -1
}

// actPage applies one decision from the seat page's forms. A token from a
// mail acts only on the game version it was issued for; each answer
// redirects with a token for the version the move made, so a turn of
// several decisions goes on in one visit, and an old link or a stale page
// gets "already done" with the current state.
func (a *api) actPage(w http.ResponseWriter, r *http.Request) {
	token := r.PostFormValue("t")
	rd, err := a.authorize(r, token, linksign.PurposeSeat)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	act, err := formAction(r)
	if err != nil {
		a.renderSeat(w, r, token, http.StatusBadRequest, service.AsError(err).Message(lang(r)))
		return
	}
	pre := service.Precondition{Position: rd.claims.Version}
	if v := r.PostFormValue("version"); v != "" {
		if pre.Version, err = strconv.ParseInt(v, 10, 64); err != nil {
			a.renderSeat(w, r, token, http.StatusBadRequest, service.Fail(service.CodeInvalid, err).Message(lang(r)))
			return
		}
	}
	res, err := a.svc.Act(r.Context(), r.PathValue("id"), rd.claims.Seat, act, r.PostFormValue("key"), pre)
	if err != nil {
		e, status := a.classify(r, err)
		msg := e.Message(lang(r))
		if e.Code == service.CodeConflict {
			msg = templates.T(lang(r), "already_done")
		}
		a.renderSeat(w, r, token, status, msg)
		return
	}
	next := token
	if rd.claims.Version != 0 {
		if next, err = a.svc.Token(linksign.PurposeSeat, r.PathValue("id"), rd.claims.Seat, res.Position, service.SeatTokenTTL); err != nil {
			a.pageError(w, r, err)
			return
		}
	}
	http.Redirect(w, r, a.link("/g/"+r.PathValue("id"), next, lang(r)), http.StatusSeeOther)
}

// formAction reads an action from a posted form.
func formAction(r *http.Request) (engine.Action, error) {
	f := r.PostForm
	a := engine.Action{Type: f.Get("type"), Good: f.Get("good")}
	for _, fld := range []struct {
		name string
		dst  *int
	}{{"cell", &a.Cell}, {"target", &a.Target}} {
		if v := f.Get(fld.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return a, service.Fail(service.CodeInvalid, fmt.Errorf("%s: %w", fld.name, err))
			}
			*fld.dst = n
		}
	}
	if v := f.Get("amount"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return a, service.Fail(service.CodeInvalid, fmt.Errorf("amount: %w", err))
		}
		a.Amount = n
	}
	return a, nil
}
