package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestLeagueFromAPageForm (issue 27): a league is made from a page's
// form, linked from the home page, in both languages; the form lands on
// the league's organiser page, and a refused form is shown again with
// what was wrong.
func TestLeagueFromAPageForm(t *testing.T) {
	w := newLeagueWorld(t)
	for _, l := range []string{"ru", "en"} {
		if rec := w.do(t, "GET", "/?lang="+l, "", nil); !strings.Contains(rec.Body.String(), `href="/leagues/new?lang=`+l+`"`) {
			t.Errorf("the home page (%s) has no link to the league form", l)
		}
		rec := w.do(t, "GET", "/leagues/new?lang="+l, "", nil)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `action="/leagues?lang=`+l+`"`) || !strings.Contains(rec.Body.String(), `name="table_size"`) {
			t.Fatalf("league form (%s): %d %.400s", l, rec.Code, rec.Body)
		}
	}
	form := url.Values{"name": {"Клуб по средам"}, "kind": {"businessman"}, "laps": {"2"}, "table_size": {"4"}, "rounds": {"3"},
		"divisions": {"1"}, "deadline": {"24"}, "org_name": {"Ольга"}, "org_email": {"olga@pbm.test"}, "org_lang": {"ru"}}
	bad := url.Values{}
	for k, v := range form {
		bad[k] = v
	}
	bad.Set("table_size", "1")
	if rec := w.do(t, "POST", "/leagues?lang=ru", "", bad); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `class="error"`) ||
		!strings.Contains(rec.Body.String(), `value="Клуб по средам"`) {
		t.Errorf("a refused league: %d %.600s", rec.Code, rec.Body)
	}
	rec := w.do(t, "POST", "/leagues?lang=ru", "", form)
	loc, _ := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusSeeOther || loc == nil || !strings.HasPrefix(loc.Path, "/l/") || !strings.HasSuffix(loc.Path, "/org") {
		t.Fatalf("create a league by the form: %d %s %.300s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(loc.Path, "/l/"), "/org")
	l, _, err := w.app.Leagues.League(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "Клуб по средам" || l.Kind != "businessman" || l.TableSize != 4 || l.Rounds != 3 || l.DeadlineHours != 24 ||
		l.Organiser.Email != "olga@pbm.test" || !strings.Contains(string(l.Options), `"laps":2`) {
		t.Errorf("the league made: %+v", l)
	}
	if rec := w.do(t, "GET", loc.RequestURI(), "", nil); rec.Code != 200 || !strings.Contains(rec.Body.String(), "Клуб по средам") {
		t.Errorf("the organiser's page after the form: %d", rec.Code)
	}
}
