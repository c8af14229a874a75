package httpapi

import (
	"net/http"
	"slices"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
)

// orgPlayer is one invited player on the organiser's page.
type orgPlayer struct {
	Index               int
	Seat                int // in the engine, −1 if not playing
	Name, Email         string
	Accepted            bool
	Unreachable         bool   // their mail bounced or complained
	Unsent              bool   // a mail to them was parked (service.ParkedMail)
	Bot                 bool   // a bot plays the seat (missed deadlines)
	Owes, Out           bool   // owes a decision now; bankrupt or left
	NetWorth            int64  // in a started game
	Worth               string // NetWorth in the game's money
	InviteURL, InviteID string // while the game waits for them
	Due                 *views.Deadline
}

// orgData is the organiser's page.
type orgData struct {
	page
	ID, Token, GameName, Status, Error  string
	Options, Deadline                   string
	Unconfirmed, Invited, Playing, Over bool
	OrgEmail                            string
	Players                             []orgPlayer
	Accepted, MinSeats                  int
	CanStart                            bool
	UnsentToYou                         bool // a mail to the organiser was parked
	GameURL, LogURL, SpectatorURL       string
}

func (a *api) orgPage(w http.ResponseWriter, r *http.Request) {
	a.renderOrg(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
}

// renderOrg draws the organiser's page: who accepted and who cannot be
// mailed, the invitation links, the start, and later who is to move.
func (a *api) renderOrg(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string) {
	_, rec, _, ok := a.loadGame(w, r, a.pageError, token, linksign.PurposeOrganiser)
	if !ok {
		return
	}
	l := lang(r)
	info, _ := games.Lookup(rec.Kind)
	d := orgData{page: newPage(r, "organiser_page"), ID: rec.ID, Token: token, GameName: gameName(l, rec.Kind), Status: rec.Status,
		Error: errMsg, Options: views.OptionsText(l, rec), Deadline: views.DeadlineText(l, rec), MinSeats: info.MinSeats,
		Unconfirmed: rec.Status == service.StatusUnconfirmed, OrgEmail: rec.Organiser.Email,
		Invited: rec.Status == service.StatusInvited, Playing: rec.Status == service.StatusPlaying, Over: rec.Status == service.StatusOver}
	d.Title = d.GameName + " — " + d.Title
	if r.Method != http.MethodGet {
		d.langLinks("/g/"+rec.ID+"/org", token)
	}
	spect, err := a.svc.Token(linksign.PurposeSpectator, rec.ID, linksign.NoSeat, 0, service.OrganiserTokenTTL)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	d.SpectatorURL = a.link("/g/"+rec.ID, spect, l)
	d.GameURL, d.LogURL = pageLink("/g/"+rec.ID, token, l), pageLink("/g/"+rec.ID+"/log", token, l)
	for i, s := range rec.Seats {
		p := orgPlayer{Index: i, Seat: s.Engine, Name: s.Name, Email: s.Email, Accepted: s.Accepted,
			Unreachable: slices.Contains(rec.Unreachable, i),
			Unsent:      slices.ContainsFunc(rec.Parked, func(m service.ParkedMail) bool { return m.Seat == i })}
		if s.Accepted {
			d.Accepted++
		}
		if d.Invited && !s.Accepted {
			t, err := a.svc.Token(linksign.PurposeInvite, rec.ID, i, 0, service.InviteTokenTTL)
			if err != nil {
				a.pageError(w, r, err)
				return
			}
			p.InviteURL = a.link("/g/"+rec.ID+"/invite", t, s.Lang)
		}
		d.Players = append(d.Players, p)
	}
	d.CanStart = d.Invited && d.Accepted >= d.MinSeats
	d.UnsentToYou = slices.ContainsFunc(rec.Parked, func(m service.ParkedMail) bool { return m.Seat < 0 })
	if rec.State != nil {
		g, err := a.svc.Engine(rec)
		if err != nil {
			a.pageError(w, r, err)
			return
		}
		scores, owing := g.Score(), g.Owing()
		now := a.now()
		for i := range d.Players {
			p := &d.Players[i]
			if p.Seat < 0 || !p.Accepted {
				continue
			}
			p.Bot = p.Seat < len(rec.Bots) && rec.Bots[p.Seat]
			p.Owes = slices.Contains(owing, p.Seat)
			if p.Owes {
				p.Due = views.NewDeadline(l, views.Due(rec, p.Seat), now)
			}
			for _, sc := range scores {
				if sc.Seat == p.Seat {
					p.NetWorth, p.Out = sc.NetWorth, sc.Bankrupt
					p.Worth = present.For(rec.Kind).Money(l, sc.NetWorth)
				}
			}
		}
	}
	a.render(w, r, status, "org.html", d)
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
	d := inviteData{page: newPage(r, "invite_title"), ID: rec.ID, Token: token, GameName: gameName(l, rec.Kind), Name: me.Name,
		Organiser: rec.Organiser.Name, Options: views.OptionsText(l, rec), Deadline: views.Duration(l, timeHours(views.DeadlineHours(rec))),
		Accepted: me.Accepted, Open: rec.Status == service.StatusInvited, RulesURL: rulesLink(rec.Kind, l)}
	for i, s := range rec.Seats {
		if i != rd.claims.Seat {
			d.Players = append(d.Players, s.Name)
		}
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
	seatToken, _, err := a.acceptInvite(r, r.PostFormValue("t"))
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, pageLink("/g/"+r.PathValue("id"), seatToken, lang(r)), http.StatusSeeOther)
}
