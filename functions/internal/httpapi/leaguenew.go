package httpapi

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// newLeagueData is the form that makes a league (issue 27).
type newLeagueData struct {
	page
	Error                         string
	Name, Laps, TableSize, Rounds string
	Divisions, Deadline           string
	OrgName, OrgEmail, OrgLang    string
	Kinds                         []kindChoice
}

// kindChoice is a game the form offers.
type kindChoice struct {
	Kind, Name string
	Selected   bool
}

func (a *api) newLeaguePage(w http.ResponseWriter, r *http.Request) {
	a.renderNewLeague(w, r, http.StatusOK, "", nil)
}

// renderNewLeague draws the form, filled with f (nil: the defaults).
func (a *api) renderNewLeague(w http.ResponseWriter, r *http.Request, status int, msg string, f url.Values) {
	l := lang(r)
	get := func(k, def string) string {
		if v := f.Get(k); v != "" {
			return v
		}
		return def
	}
	d := newLeagueData{page: newPage(r, "league_new_title"), Error: msg, Name: f.Get("name"), Laps: get("laps", "2"),
		TableSize: get("table_size", "4"), Rounds: get("rounds", "4"), Divisions: get("divisions", "1"),
		Deadline: get("deadline", strconv.Itoa(service.DefaultDeadlineHours)), OrgName: f.Get("org_name"),
		OrgEmail: f.Get("org_email"), OrgLang: get("org_lang", l)}
	chosen := get("kind", a.defaultKind())
	for _, info := range a.games.Engines().List() {
		d.Kinds = append(d.Kinds, kindChoice{Kind: info.Kind, Name: a.gameName(l, info.Kind), Selected: info.Kind == chosen})
	}
	a.render(w, r, status, "league_new.html", d)
}

// createLeaguePage makes a league from the form and lands on its
// organiser's page; a refusal shows the form again with what was wrong.
func (a *api) createLeaguePage(w http.ResponseWriter, r *http.Request) {
	l := lang(r)
	err := readForm(r)
	f := r.PostForm
	fail := func(err error) {
		e, status := a.classify(r, err)
		a.renderNewLeague(w, r, status, e.Message(l), f)
	}
	if err != nil {
		fail(err)
		return
	}
	if a.leagues == nil {
		a.pageError(w, r, service.Fail(service.CodeNotFound, errors.New("no leagues here")))
		return
	}
	req := leagues.CreateRequest{Name: f.Get("name"), Kind: f.Get("kind"), Client: clientAddr(r),
		Organiser: service.Person{Name: f.Get("org_name"), Email: f.Get("org_email"), Lang: f.Get("org_lang")}}
	for _, fld := range []struct {
		name string
		dst  *int
	}{{"table_size", &req.TableSize}, {"rounds", &req.Rounds}, {"divisions", &req.Divisions}, {"deadline", &req.DeadlineHours}} {
		if v := strings.TrimSpace(f.Get(fld.name)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				fail(service.Fail(service.CodeInvalid, err))
				return
			}
			*fld.dst = n
		}
	}
	// The form's length ("laps") is the chosen game's length option; a
	// game without one takes its default length.
	if v := strings.TrimSpace(f.Get("laps")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			fail(service.Fail(service.CodeInvalid, err))
			return
		}
		if info, ok := a.games.Engines().Lookup(req.Kind); ok && info.Length.Has() {
			req.Options = info.Length.Options(n)
		}
	}
	lg, err := a.leagues.Create(r.Context(), req)
	if err != nil {
		fail(err)
		return
	}
	token, err := a.svc.Token(linksign.PurposeLeagueOrganiser, lg.ID, linksign.NoSeat, 0, service.OrganiserTokenTTL)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	http.Redirect(w, r, pageLink("/l/"+lg.ID+"/org", token, l), http.StatusSeeOther)
}
