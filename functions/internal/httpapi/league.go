package httpapi

import (
	"errors"
	"fmt"
	"html"
	"html/template"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// The leagues' routes (issue 14): pages under /l/{id}, the API under
// /api/leagues. A league's links carry tokens of the league purposes,
// whose Game is the league's id: the member's (Seat: their index among
// the members), the organiser's and the invitation's.
func (a *api) leagueRoutes() []handledRoute {
	return []handledRoute{
		{Route{"POST", "/api/leagues"}, a.createLeague},
		{Route{"GET", "/leagues/new"}, a.newLeaguePage},
		{Route{"POST", "/leagues"}, a.createLeaguePage},
		{Route{"GET", "/api/leagues/{id}"}, a.leagueJSON},
		{Route{"POST", "/api/leagues/{id}/members"}, a.joinLeagueJSON},
		{Route{"POST", "/api/leagues/{id}/leave"}, a.leaveLeagueJSON},
		{Route{"POST", "/api/leagues/{id}/seasons"}, a.startSeasonJSON},
		{Route{"POST", "/api/leagues/{id}/substitutes"}, a.substituteJSON},
		{Route{"POST", "/api/leagues/{id}/confirm"}, a.confirmLeagueJSON},
		{Route{"GET", "/l/{id}/confirm"}, a.confirmLeaguePage},
		{Route{"POST", "/l/{id}/confirm"}, a.confirmLeaguePost},
		{Route{"GET", "/l/{id}"}, a.leaguePage},
		{Route{"GET", "/l/{id}/me"}, a.leagueMemberPage},
		{Route{"POST", "/l/{id}/leave"}, a.leaveLeaguePage},
		{Route{"GET", "/l/{id}/join"}, a.joinLeaguePage},
		{Route{"POST", "/l/{id}/join"}, a.joinLeaguePost},
		{Route{"GET", "/l/{id}/org"}, a.leagueOrgPage},
		{Route{"POST", "/l/{id}/start"}, a.startSeasonPage},
		{Route{"POST", "/l/{id}/substitute"}, a.substitutePage},
	}
}

// leagueReaders may read a league's page.
var leagueReaders = []linksign.Purpose{linksign.PurposeLeagueMember, linksign.PurposeLeagueOrganiser}

// loadLeague authorizes token for the league in the path and reads it.
func (a *api) loadLeague(r *http.Request, token string, purposes ...linksign.Purpose) (linksign.Claims, *leagues.League, error) {
	if a.leagues == nil {
		return linksign.Claims{}, nil, service.Fail(service.CodeNotFound, errors.New("no leagues here"))
	}
	c, err := a.svc.Authorize(token, r.PathValue("id"), purposes...)
	if err != nil {
		return c, nil, err
	}
	l, _, err := a.leagues.League(r.Context(), r.PathValue("id"))
	if err != nil {
		return c, nil, err
	}
	if (c.Purpose == linksign.PurposeLeagueMember || c.Purpose == linksign.PurposeLeagueConfirm && c.Seat != linksign.NoSeat) && (c.Seat < 0 || c.Seat >= len(l.Members)) {
		return c, nil, service.Fail(service.CodeForbidden, fmt.Errorf("member token for %d of %d", c.Seat, len(l.Members)))
	}
	return c, l, nil
}

// viewLeague loads the league for token and builds its model for the
// token's reader.
func (a *api) viewLeague(r *http.Request, token string, purposes ...linksign.Purpose) (linksign.Claims, *leagues.League, views.LeaguePage, views.LeagueRequest, error) {
	c, l, err := a.loadLeague(r, token, purposes...)
	if err != nil {
		return c, nil, views.LeaguePage{}, views.LeagueRequest{}, err
	}
	p, req, err := a.leagueView(r, token, c, l)
	return c, l, p, req, err
}

// leagueView builds the league's model for the token's reader.
func (a *api) leagueView(r *http.Request, token string, c linksign.Claims, l *leagues.League) (views.LeaguePage, views.LeagueRequest, error) {
	hist, err := a.leagues.History(r.Context(), l.ID)
	if err != nil {
		return views.LeaguePage{}, views.LeagueRequest{}, err
	}
	lang := lang(r)
	req := views.LeagueRequest{Games: a.games, Lang: lang, League: l, History: hist, Member: -1, Sign: a.sign,
		Link: func(path, token string) string { return pageLink(path, token, lang) }}
	if len(hist) > 0 {
		req.Season = hist[len(hist)-1]
	}
	if c.Purpose == linksign.PurposeLeagueMember {
		req.Member = c.Seat
	}
	p, err := views.LeagueView(req)
	return p, req, err
}

// leagueData is the league's page.
type leagueData struct {
	page
	views.LeaguePage
	Token  string
	MyURL  string
	OrgURL string
	Charts []template.HTML
	// Shown is the round the page shows the tables of (?round=, else the
	// latest whose games are made); RoundLinks lead to the others.
	Shown      *views.RoundView
	RoundLinks []views.LinkView
	Rating     string
	Notice     string
	Error      string
	IsMember   bool
	// Pending: the member has not confirmed their address yet.
	Pending bool
}

func (a *api) leaguePage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	c, l, p, _, err := a.viewLeague(r, token, leagueReaders...)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	lg := lang(r)
	d := leagueData{page: newPage(r, "league"), LeaguePage: p, Token: token}
	d.Title = l.Name + " — " + d.Title
	switch c.Purpose {
	case linksign.PurposeLeagueMember:
		d.MyURL, d.IsMember = pageLink("/l/"+l.ID+"/me", token, lg), true
	case linksign.PurposeLeagueOrganiser:
		d.OrgURL = pageLink("/l/"+l.ID+"/org", token, lg)
	}
	d.Shown, d.RoundLinks = shownRound(p.Rounds, r.URL.Query().Get("round"), func(n int) string {
		return pageLink("/l/"+l.ID, token, lg, "round", strconv.Itoa(n)) + "#rounds"
	})
	for _, div := range p.Divisions {
		var names []string
		for _, row := range div.Rows {
			names = append(names, row.Member)
		}
		d.Charts = append(d.Charts, pointsChart(lg, div.Title, names, div.Points))
	}
	a.render(w, r, http.StatusOK, "league.html", d)
}

// shownRound picks the round the league's page shows: the one asked
// for, else the latest whose games are made, else the first; every round
// but the one shown is linked.
func shownRound(rounds []views.RoundView, asked string, link func(int) string) (*views.RoundView, []views.LinkView) {
	if len(rounds) == 0 {
		return nil, nil
	}
	shown := 0
	for i, r := range rounds {
		if len(r.Tables) > 0 && r.Tables[0].URL != "" {
			shown = i
		}
	}
	if n, err := strconv.Atoi(asked); err == nil && n >= 1 && n <= len(rounds) {
		shown = n - 1
	}
	links := make([]views.LinkView, len(rounds))
	for i, r := range rounds {
		links[i].Text = strconv.Itoa(r.N)
		if i != shown {
			links[i].URL = link(r.N)
		}
	}
	return &rounds[shown], links
}

func (a *api) leagueMemberPage(w http.ResponseWriter, r *http.Request) {
	a.renderLeagueMember(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
}

func (a *api) renderLeagueMember(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string) {
	c, l, p, _, err := a.viewLeague(r, token, linksign.PurposeLeagueMember)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	notice := ""
	switch q := r.URL.Query(); {
	case q.Get("joined") != "":
		notice = templates.T(lang(r), "league_joined")
	case q.Get("left") != "":
		notice = templates.T(lang(r), "league_left")
	case q.Get("asked") != "":
		notice = templates.T(lang(r), "league_asked")
	}
	d := leagueData{page: newPage(r, "league_my_page"), LeaguePage: p, Token: token, Notice: notice, Error: errMsg, IsMember: true,
		MyURL: pageLink("/l/"+l.ID, token, lang(r)), Pending: l.Members[c.Seat].Pending}
	a.renderLeague(w, r, status, "league_member.html", &d, l, "/me", token)
}

// leaveLeaguePage marks the member as leaving at the season's end.
func (a *api) leaveLeaguePage(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	token := r.PostFormValue("t")
	_, l, err := a.loadLeague(r, token, linksign.PurposeLeagueMember)
	if err == nil {
		err = a.leave(r, token, l)
	}
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, pageLink("/l/"+l.ID+"/me", token, lang(r), "left", "1"), http.StatusSeeOther)
}

func (a *api) leave(r *http.Request, token string, l *leagues.League) error {
	c, err := a.svc.Authorize(token, l.ID, linksign.PurposeLeagueMember)
	if err != nil {
		return err
	}
	return a.leagues.Leave(r.Context(), l.ID, l.Members[c.Seat].Name)
}

// joinData is the invitation's page.
type joinData struct {
	page
	ID, Token, Name, Text, Error string
}

// joinLeaguePage shows the invitation and the form to join: a GET changes
// nothing (mail scanners open links); the button posts.
func (a *api) joinLeaguePage(w http.ResponseWriter, r *http.Request) {
	a.renderJoin(w, r, r.URL.Query().Get("t"), http.StatusOK, "")
}

func (a *api) renderJoin(w http.ResponseWriter, r *http.Request, token string, status int, errMsg string) {
	_, l, err := a.loadLeague(r, token, linksign.PurposeLeagueInvite)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	lg := lang(r)
	d := joinData{page: newPage(r, "league_join_title"), ID: l.ID, Token: token, Name: l.Name, Error: errMsg,
		Text: templates.Tf(lg, "league_join_text", l.Name, a.gameName(lg, l.Kind), l.TableSize)}
	a.renderLeague(w, r, status, "league_join.html", &d, l, "/join", token)
}

func (a *api) joinLeaguePost(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	token := r.PostFormValue("t")
	if _, _, err := a.loadLeague(r, token, linksign.PurposeLeagueInvite); err != nil {
		a.pageError(w, r, err)
		return
	}
	f := r.PostForm
	m := leagues.Member{Name: f.Get("name"), Email: f.Get("email"), Lang: f.Get("member_lang"), TimeZone: strings.TrimSpace(f.Get("tz")), Mail: f.Get("mail")}
	if m.Lang == "" {
		m.Lang = lang(r)
	}
	memberToken, err := a.join(r, m)
	if err != nil {
		e, status := a.classify(r, err)
		a.renderJoin(w, r, token, status, e.Message(lang(r)))
		return
	}
	http.Redirect(w, r, pageLink("/l/"+r.PathValue("id")+"/me", memberToken, lang(r), "joined", "1"), http.StatusSeeOther)
}

// join adds a member to the league in the path and answers their token.
func (a *api) join(r *http.Request, m leagues.Member) (string, error) {
	id := r.PathValue("id")
	if err := a.leagues.AddMember(r.Context(), id, m, clientAddr(r)); err != nil {
		return "", err
	}
	l, _, err := a.leagues.League(r.Context(), id)
	if err != nil {
		return "", err
	}
	name := strings.TrimSpace(m.Name)
	i := slices.IndexFunc(l.Members, func(o leagues.Member) bool { return o.Name == name })
	if i < 0 {
		return "", fmt.Errorf("member %q added but not found", name)
	}
	return a.svc.Token(linksign.PurposeLeagueMember, id, i, 0, service.OrganiserTokenTTL)
}

// leagueOrgData is the organiser's page.
type leagueOrgData struct {
	page
	views.LeagueOrgPage
	ID, Token, Name, Notice, Error, LeagueURL, SeasonText string
	Rounds                                                []views.RoundView // their dates
}

func (a *api) leagueOrgPage(w http.ResponseWriter, r *http.Request) {
	notice := ""
	switch {
	case r.URL.Query().Get("started") != "":
		notice = templates.T(lang(r), "league_started")
	case r.URL.Query().Get("seated") != "":
		notice = templates.T(lang(r), "league_sub_done")
	case r.URL.Query().Get("asked") != "":
		notice = templates.T(lang(r), "league_asked")
	}
	a.renderLeagueOrg(w, r, r.URL.Query().Get("t"), http.StatusOK, notice, "")
}

func (a *api) renderLeagueOrg(w http.ResponseWriter, r *http.Request, token string, status int, notice, errMsg string) {
	_, l, p, req, err := a.viewLeague(r, token, linksign.PurposeLeagueOrganiser)
	var org views.LeagueOrgPage
	if err == nil {
		org, err = a.organiserView(r, l, req)
	}
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	d := leagueOrgData{page: newPage(r, "league_org_title"), ID: l.ID, Token: token, Name: l.Name, Notice: notice, Error: errMsg,
		LeagueURL: pageLink("/l/"+l.ID, token, lang(r)), SeasonText: p.SeasonText, LeagueOrgPage: org, Rounds: p.Rounds}
	a.renderLeague(w, r, status, "league_org.html", &d, l, "/org", token)
}

// renderLeague renders a page of league l for the reader of token: d
// points at its data. The page is titled by the league's name and, in
// answer to a POST, its language switch leads to the GET of the league's
// path and tail (page.retitle).
func (a *api) renderLeague(w http.ResponseWriter, r *http.Request, status int, name string, d interface{ head() *page }, l *leagues.League, tail, token string) {
	p := d.head()
	p.retitle(r, l.Name+" — "+p.Title, "/l/"+l.ID+tail, token)
	a.render(w, r, status, name, d)
}

// organiserView is the organiser's part of a league: the members, the
// next season's proposal once it may start, the invitation link.
func (a *api) organiserView(r *http.Request, l *leagues.League, req views.LeagueRequest) (views.LeagueOrgPage, error) {
	proposal, err := a.leagues.Proposal(r.Context(), l.ID)
	if e := service.AsError(err); err != nil && e.Code != service.CodeWrongStatus {
		return views.LeagueOrgPage{}, err
	}
	if req.Season != nil && !req.Season.Over {
		proposal = nil
	}
	invite, err := a.svc.Token(linksign.PurposeLeagueInvite, l.ID, linksign.NoSeat, 0, service.InviteTokenTTL)
	if err != nil {
		return views.LeagueOrgPage{}, err
	}
	org := views.LeagueOrganiser(req, proposal, a.link("/l/"+l.ID+"/join", invite, req.Lang), a.now())
	if !l.Confirmed {
		// Confirmed for a game of theirs, the address needs no league mail.
		ok, err := a.svc.Confirmed(r.Context(), l.Organiser.Email)
		if err != nil {
			return views.LeagueOrgPage{}, err
		}
		org.Unconfirmed, org.CanStart = !ok, org.CanStart && ok
	}
	return org, nil
}

// orgPost answers a form of the organiser's page: it authorizes the
// posted token, runs do, and shows a refusal on the page or redirects to
// it with done set.
func (a *api) orgPost(w http.ResponseWriter, r *http.Request, done string, do func(l *leagues.League) error) {
	if !a.parseForm(w, r) {
		return
	}
	token := r.PostFormValue("t")
	_, l, err := a.loadLeague(r, token, linksign.PurposeLeagueOrganiser)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	if err := do(l); err != nil {
		e, status := a.classify(r, err)
		a.renderLeagueOrg(w, r, token, status, "", e.Message(lang(r)))
		return
	}
	http.Redirect(w, r, pageLink("/l/"+l.ID+"/org", token, lang(r), done, "1"), http.StatusSeeOther)
}

// startSeasonPage starts the next season with the proposal as it stands,
// its first round on the date given (09:00 UTC).
func (a *api) startSeasonPage(w http.ResponseWriter, r *http.Request) {
	a.orgPost(w, r, "started", func(l *leagues.League) error {
		start, err := startDate(r.PostFormValue("start"), a.now())
		if err == nil {
			_, err = a.leagues.StartSeason(r.Context(), l.ID, nil, start, clientAddr(r))
		}
		return err
	})
}

// startDate reads a season's first day (YYYY-MM-DD; empty: now), its
// round starting at 09:00 UTC; a day already past starts now.
func startDate(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return now, nil
	}
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, &service.Error{Code: service.CodeInvalid, RU: "Дата — в виде ГГГГ-ММ-ДД.", EN: "The date must be YYYY-MM-DD.", Cause: err}
	}
	d = d.Add(9 * time.Hour)
	if d.Before(now) {
		return now, nil
	}
	return d, nil
}

// substitutePage seats a substitute from the organiser's page.
func (a *api) substitutePage(w http.ResponseWriter, r *http.Request) {
	a.orgPost(w, r, "seated", func(l *leagues.League) error {
		f := r.PostForm
		from, _ := strconv.Atoi(f.Get("from"))
		return a.leagues.SeatSubstitute(r.Context(), l.ID, f.Get("member"), service.Person{Name: f.Get("name"), Email: f.Get("email"), Lang: f.Get("sub_lang")}, from)
	})
}

// The JSON API.

// createdLeague answers POST /api/leagues.
type createdLeague struct {
	ID             string `json:"id"`
	OrganiserToken string `json:"organiser_token"`
	InviteToken    string `json:"invite_token"`
	OrganiserURL   string `json:"organiser_url"`
	InviteURL      string `json:"invite_url"`
	// Unconfirmed: the league mails no one until the organiser confirms
	// their address from the mail just sent to it.
	Unconfirmed bool `json:"unconfirmed,omitempty"`
}

func (a *api) createLeague(w http.ResponseWriter, r *http.Request) {
	if a.leagues == nil {
		a.fail(w, r, service.Fail(service.CodeNotFound, errors.New("no leagues here")))
		return
	}
	var req leagues.CreateRequest
	if err := decodeJSON(r, &req); err != nil {
		a.fail(w, r, err)
		return
	}
	req.Client = clientAddr(r)
	l, err := a.leagues.Create(r.Context(), req)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out := createdLeague{ID: l.ID, Unconfirmed: !l.Confirmed}
	if out.OrganiserToken, err = a.svc.Token(linksign.PurposeLeagueOrganiser, l.ID, linksign.NoSeat, 0, service.OrganiserTokenTTL); err == nil {
		out.InviteToken, err = a.svc.Token(linksign.PurposeLeagueInvite, l.ID, linksign.NoSeat, 0, service.InviteTokenTTL)
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	out.OrganiserURL = a.link("/l/"+l.ID+"/org", out.OrganiserToken, l.Organiser.Lang)
	out.InviteURL = a.link("/l/"+l.ID+"/join", out.InviteToken, l.Organiser.Lang)
	writeJSON(w, http.StatusCreated, out)
}

// leagueCall answers a league's API call: it authorizes the bearer's
// token for one of purposes, decodes the JSON body into req (nil: the
// call takes none), and answers what do does, or its error.
func (a *api) leagueCall(w http.ResponseWriter, r *http.Request, req any, do func(c linksign.Claims, l *leagues.League) (int, any, error), purposes ...linksign.Purpose) {
	c, l, err := a.loadLeague(r, bearer(r), purposes...)
	if err == nil && req != nil {
		err = decodeJSON(r, req)
	}
	status, out := 0, any(nil)
	if err == nil {
		status, out, err = do(c, l)
	}
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeJSON(w, status, out)
}

func (a *api) leagueJSON(w http.ResponseWriter, r *http.Request) {
	a.leagueCall(w, r, nil, func(c linksign.Claims, l *leagues.League) (int, any, error) {
		p, req, err := a.leagueView(r, bearer(r), c, l)
		if err == nil && c.Purpose == linksign.PurposeLeagueOrganiser {
			var org views.LeagueOrgPage
			org, err = a.organiserView(r, l, req)
			p.Organiser = &org
		}
		return http.StatusOK, p, err
	}, leagueReaders...)
}

// joinLeagueJSON adds a member: the organiser adds anyone, an invitation
// adds its holder.
func (a *api) joinLeagueJSON(w http.ResponseWriter, r *http.Request) {
	var m leagues.Member
	a.leagueCall(w, r, &m, func(linksign.Claims, *leagues.League) (int, any, error) {
		m.Joined, m.Leaving, m.Pending, m.Asked = 0, false, false, 0
		tok, err := a.join(r, m)
		return http.StatusCreated, map[string]string{"member_token": tok}, err
	}, linksign.PurposeLeagueOrganiser, linksign.PurposeLeagueInvite)
}

func (a *api) leaveLeagueJSON(w http.ResponseWriter, r *http.Request) {
	a.leagueCall(w, r, nil, func(_ linksign.Claims, l *leagues.League) (int, any, error) {
		return http.StatusOK, map[string]bool{"leaving": true}, a.leave(r, bearer(r), l)
	}, linksign.PurposeLeagueMember)
}

func (a *api) startSeasonJSON(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Divisions [][]string `json:"divisions,omitempty"` // nil: the proposal
		Start     string     `json:"start,omitempty"`     // YYYY-MM-DD; empty: now
	}
	a.leagueCall(w, r, &req, func(_ linksign.Claims, l *leagues.League) (int, any, error) {
		start, err := startDate(req.Start, a.now())
		if err != nil {
			return 0, nil, err
		}
		n, err := a.leagues.StartSeason(r.Context(), l.ID, req.Divisions, start, clientAddr(r))
		return http.StatusCreated, map[string]int{"season": n}, err
	}, linksign.PurposeLeagueOrganiser)
}

func (a *api) substituteJSON(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Member    string         `json:"member"`
		Person    service.Person `json:"person"`
		FromRound int            `json:"from_round"`
	}
	a.leagueCall(w, r, &req, func(_ linksign.Claims, l *leagues.League) (int, any, error) {
		err := a.leagues.SeatSubstitute(r.Context(), l.ID, req.Member, req.Person, req.FromRound)
		return http.StatusOK, map[string]bool{"seated": true}, err
	}, linksign.PurposeLeagueOrganiser)
}

// pointsChart draws a division's points by round as the net-worth chart
// draws a game (chart.go's geometry, colours, dashes and markers): one
// line a member, in table order.
func pointsChart(l, title string, names []string, pts [][]int64) template.HTML {
	if len(pts) == 0 || len(pts[0]) < 2 {
		return ""
	}
	var hi int64 = 100
	for _, p := range pts {
		hi = max(hi, p[len(p)-1])
	}
	step := niceStep(float64(hi)/100, 4) * 100
	ymax := math.Ceil(float64(hi)/step) * step
	rounds := len(pts[0]) - 1
	plotW := float64(chartW - chartLeft - chartRight)
	x := func(r int) float64 { return chartLeft + plotW*float64(r)/float64(rounds) }
	y := func(v float64) float64 { return chartTop + chartPlotH*(ymax-v)/ymax }
	rows := (len(pts) + 1) / 2
	axisY := chartTop + chartPlotH
	legendTop := axisY + 40
	height := legendTop + rows*chartLegend + 4
	label := title + ": " + templates.T(l, "league_chart_title")
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-label="%s" class="chart" font-family="system-ui,sans-serif" font-size="%d" fill="#2b2118">`,
		chartW, height, html.EscapeString(label), chartFont)
	var desc []string
	for i, p := range pts {
		desc = append(desc, templates.Tf(l, "league_chart_desc_seat", names[i], views.LeaguePoints(l, p[len(p)-1])))
	}
	fmt.Fprintf(&b, "<title>%s</title><desc>%s</desc>\n", html.EscapeString(label),
		html.EscapeString(templates.Tf(l, "league_chart_desc", rounds)+" "+strings.Join(desc, "; ")+"."))
	b.WriteString(`<g stroke="#d9d0bf">`)
	for v := 0.0; v <= ymax+step/2; v += step {
		fmt.Fprintf(&b, `<path d="M%d %.0fH%d"/>`, chartLeft, y(v), chartW-chartRight)
	}
	b.WriteString("</g>\n<g text-anchor=\"end\">")
	for v := 0.0; v <= ymax+step/2; v += step {
		fmt.Fprintf(&b, `<text x="%d" y="%.0f">%s</text>`, chartLeft-4, y(v)+4, views.LeaguePoints(l, int64(v)))
	}
	b.WriteString("</g>\n")
	fmt.Fprintf(&b, `<text transform="translate(11 %d) rotate(-90)" text-anchor="middle">%s</text>`, chartTop+chartPlotH/2, html.EscapeString(templates.T(l, "league_points")))
	fmt.Fprintf(&b, `<path d="M%d %dH%d" stroke="#7a6e60"/><g text-anchor="middle">`, chartLeft, axisY, chartW-chartRight)
	for r := 0; r <= rounds; r++ {
		fmt.Fprintf(&b, `<text x="%.0f" y="%d">%d</text>`, x(r), axisY+15, r)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%d">%s</text></g>`+"\n", chartLeft+plotW/2, axisY+31, html.EscapeString(templates.T(l, "league_chart_x")))
	for i, p := range pts {
		chartLine(&b, i, p, func(r int) float64 { return x(r) }, y, names[i])
	}
	for i, p := range pts {
		marker(&b, i, x(rounds), y(float64(p[len(p)-1])), 7)
	}
	chartLegendRows(&b, len(pts), legendTop, func(i int) string { return names[i] })
	b.WriteString("</svg>")
	return template.HTML(b.String()) // every text in it is escaped above
}

// The confirmations (issue 25): a league's mail to an address asks its
// owner to confirm it — the organiser's, or a member's who joined — with
// a token of purpose league-confirm (Seat: the member's index, or NoSeat
// for the organiser). Its GET shows a button and changes nothing; the
// button's POST confirms. The same routes, with the organiser's or a
// member's own token, ask for the mail again.

// leagueConfirmData is the confirmation link's page.
type leagueConfirmData struct {
	page
	ID, Token, Text, PageURL string
	Done                     bool
}

func (a *api) confirmLeaguePage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("t")
	c, l, err := a.loadLeague(r, token, linksign.PurposeLeagueConfirm)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	lg := lang(r)
	// Nothing the league's maker wrote: the address and the game.
	d := leagueConfirmData{page: newPage(r, "league_confirm_title"), ID: l.ID, Token: token,
		Text: templates.Tf(lg, "league_confirm_org", l.Organiser.Email, a.gameName(lg, l.Kind)), Done: l.Confirmed}
	if c.Seat != linksign.NoSeat {
		d.Text = templates.Tf(lg, "league_confirm_member", l.Members[c.Seat].Email, a.gameName(lg, l.Kind))
		d.Done = !l.Members[c.Seat].Pending
	}
	if d.Done {
		if d.PageURL, err = a.ownLeaguePage(l.ID, c.Seat, lg); err != nil {
			a.pageError(w, r, err)
			return
		}
	}
	a.render(w, r, http.StatusOK, "league_confirm.html", d)
}

// ownLeaguePage is the page of the confirmed address's owner: the
// organiser's (seat NoSeat) or the member's.
func (a *api) ownLeaguePage(id string, seat int, lg string) (string, error) {
	if seat == linksign.NoSeat {
		tok, err := a.svc.Token(linksign.PurposeLeagueOrganiser, id, linksign.NoSeat, 0, service.OrganiserTokenTTL)
		return pageLink("/l/"+id+"/org", tok, lg), err
	}
	tok, err := a.svc.Token(linksign.PurposeLeagueMember, id, seat, 0, service.OrganiserTokenTTL)
	return pageLink("/l/"+id+"/me", tok, lg), err
}

// confirmLeaguePost is the confirmation's button, or, posted with the
// organiser's or a member's own token, their page's "send the mail
// again".
func (a *api) confirmLeaguePost(w http.ResponseWriter, r *http.Request) {
	if !a.parseForm(w, r) {
		return
	}
	token := r.PostFormValue("t")
	c, l, err := a.loadLeague(r, token, linksign.PurposeLeagueConfirm, linksign.PurposeLeagueOrganiser, linksign.PurposeLeagueMember)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	lg := lang(r)
	switch c.Purpose {
	case linksign.PurposeLeagueConfirm:
		err = a.leagues.Confirm(r.Context(), l.ID, c.Seat)
		var next string
		if err == nil {
			next, err = a.ownLeaguePage(l.ID, c.Seat, lg)
		}
		if err != nil {
			a.pageError(w, r, err)
			return
		}
		http.Redirect(w, r, next, http.StatusSeeOther)
	case linksign.PurposeLeagueOrganiser:
		if err = a.leagues.AskAgain(r.Context(), l.ID, linksign.NoSeat); err != nil {
			e, status := a.classify(r, err)
			retryAfter(w, e)
			a.renderLeagueOrg(w, r, token, status, "", e.Message(lg))
			return
		}
		http.Redirect(w, r, pageLink("/l/"+l.ID+"/org", token, lg, "asked", "1"), http.StatusSeeOther)
	default:
		if err = a.leagues.AskAgain(r.Context(), l.ID, c.Seat); err != nil {
			e, status := a.classify(r, err)
			retryAfter(w, e)
			a.renderLeagueMember(w, r, token, status, e.Message(lg))
			return
		}
		http.Redirect(w, r, pageLink("/l/"+l.ID+"/me", token, lg, "asked", "1"), http.StatusSeeOther)
	}
}

// confirmLeagueJSON is the API's confirmation, with the token of the
// mail's link; with the organiser's or a member's own token it asks for
// the mail again.
func (a *api) confirmLeagueJSON(w http.ResponseWriter, r *http.Request) {
	a.leagueCall(w, r, nil, func(c linksign.Claims, l *leagues.League) (int, any, error) {
		if c.Purpose != linksign.PurposeLeagueConfirm {
			seat := c.Seat
			if c.Purpose == linksign.PurposeLeagueOrganiser {
				seat = linksign.NoSeat
			}
			return http.StatusAccepted, map[string]bool{"asked": true}, a.leagues.AskAgain(r.Context(), l.ID, seat)
		}
		return http.StatusOK, map[string]bool{"confirmed": true}, a.leagues.Confirm(r.Context(), l.ID, c.Seat)
	}, linksign.PurposeLeagueConfirm, linksign.PurposeLeagueOrganiser, linksign.PurposeLeagueMember)
}
