package httpapi

import (
	"net/http"
	"strings"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
)

// orgData is the organiser's page: its view (views.OrgPage), with its
// token and the game's name.
type orgData struct {
	page
	views.OrgPage
	Token, GameName string
}

func (a *api) orgPage(w http.ResponseWriter, r *http.Request) {
	a.renderOrg(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
}

// renderOrg draws the organiser's page: who accepted and who cannot be
// mailed, the invitation links, the start, and later who is to move.
func (a *api) renderOrg(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string) {
	d, ok := a.orgView(w, r, token, errMsg, "organiser_page", "/g/{id}/org")
	if ok {
		a.render(w, r, status, "org.html", d)
	}
}

// orgView makes the organiser's view of the game (views.OrgPage) for a
// page titled titleKey at path; on an error it answers and returns false.
func (a *api) orgView(w http.ResponseWriter, r *http.Request, token, errMsg, titleKey, path string) (orgData, bool) {
	_, rec, _, ok := a.loadGame(w, r, a.pageError, token, linksign.PurposeOrganiser)
	if !ok {
		return orgData{}, false
	}
	g, err := a.engine(rec)
	if err != nil {
		a.pageError(w, r, err)
		return orgData{}, false
	}
	l := lang(r)
	d := orgData{page: newPage(r, titleKey), Token: token, GameName: a.gameName(l, rec.Kind)}
	d.Named = rec.Name
	d.OrgPage, err = views.Organiser(views.OrgRequest{Games: a.games, Lang: l, Rec: rec, Game: g, Error: errMsg, Now: a.now(), Sign: a.sign,
		Link: func(path string) string { return pageLink(path, token, l) }, Share: a.link})
	if err != nil {
		a.pageError(w, r, err)
		return orgData{}, false
	}
	d.retitle(r, d.GameName+" — "+d.Title, strings.ReplaceAll(path, "{id}", rec.ID), token)
	return d, true
}

// startPage starts the game with those who have accepted; a refusal (too
// few of them) is shown on the organiser's page.
func (a *api) startPage(w http.ResponseWriter, r *http.Request) {
	_, token, ok := a.postedReader(w, r, linksign.PurposeOrganiser)
	if !ok {
		return
	}
	if err := a.svc.Start(r.Context(), r.PathValue("id")); err != nil {
		e, status := a.classify(r, err)
		a.renderOrg(w, r, token, status, e.Message(lang(r)))
		return
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id")+"/org", token, lang(r)), http.StatusSeeOther)
}

// inviteData is the invitation page.
type inviteData struct {
	page
	ID, Token, GameName, Name, Organiser string
	Options, Deadline, GameURL, RulesURL string
	Accepted, Open                       bool
	Players                              []string
	// Orders says what the seat's standing orders will play for the
	// player (they start with the game's suggested ones).
	Orders string
}

func (a *api) invitePage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	rd, rec, _, ok := a.loadGame(w, r, a.pageError, token, linksign.PurposeInvite)
	if !ok {
		return
	}
	if rd.claims.Seat < 0 || rd.claims.Seat >= len(rec.Seats) {
		a.pageError(w, r, service.Fail(service.CodeForbidden, nil))
		return
	}
	l := lang(r)
	me := rec.Seats[rd.claims.Seat]
	d := inviteData{page: newPage(r, "invite_title"), ID: rec.ID, Token: token, GameName: a.gameName(l, rec.Kind), Name: me.Name,
		Organiser: rec.Organiser.Name, Options: views.OptionsText(l, a.games.For(rec.Kind), rec), Deadline: views.Duration(l, timeHours(views.DeadlineHours(rec))),
		Accepted: me.Accepted, Open: rec.Status == service.StatusInvited || rec.Substituting(rd.claims.Seat), RulesURL: rulesLink(rec.Kind, l)}
	d.Named = rec.Name
	for i, s := range rec.Seats {
		if i != rd.claims.Seat && s.Out == "" {
			d.Players = append(d.Players, s.Name)
		}
	}
	if specs, err := service.OrderSpecsOf(a.games.Engines(), rec); err == nil && d.Open {
		d.Orders = views.OrdersSummary(l, a.games.For(rec.Kind), specs, rec.SeatOrders(rd.claims.Seat))
	}
	if me.Accepted && rec.State != nil {
		t, err := a.svc.Token(linksign.PurposeSeat, rec.ID, rd.claims.Seat, 0, service.SeatTokenTTL)
		if err != nil {
			a.pageError(w, r, err)
			return
		}
		d.GameURL = pageLink("/g/"+rec.ID, t, l)
	}
	a.render(w, r, http.StatusOK, "invite.html", d)
}

func (a *api) acceptPage(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	seatToken, _, err := a.acceptInvite(r, r.PostFormValue("t"), service.AcceptOptions{OrdersOff: r.PostFormValue("orders") == "off"})
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id"), seatToken, lang(r)), http.StatusSeeOther)
}
