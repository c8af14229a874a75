package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/infra/linksign"
)

// crossSite posts a form as a browser does from a page of another site,
// or of this one: its Origin and Sec-Fetch-Site.
func (w *leagueWorld) crossSite(target string, form url.Values, origin, site string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", target, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Host = "pbm.test"
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	if site != "" {
		r.Header.Set("Sec-Fetch-Site", site)
	}
	rec := httptest.NewRecorder()
	w.h.ServeHTTP(rec, r)
	return rec
}

// TestIdentityFormsRefuseOtherSites (issue 25, symptom 6: login CSRF):
// the forms that change who the browser is — spending a sign-in link,
// revoking a link, signing out everywhere — are refused when another
// site's page sends them (by Sec-Fetch-Site, or the Origin where a
// browser sends no Fetch Metadata), and change nothing; from the
// service's own pages, and from clients that are no browser, they work.
func TestIdentityFormsRefuseOtherSites(t *testing.T) {
	w, _, _ := textWorld(t)
	svc := w.app.Service
	signIn := func() string {
		t.Helper()
		tok, _, ok, err := svc.IssueSignIn(t.Context(), "a@example.org")
		if err != nil || !ok {
			t.Fatalf("sign-in link: %v %v", ok, err)
		}
		return tok
	}
	hostile := []struct{ origin, site string }{
		{"https://evil.example", "cross-site"},
		{"https://evil.pbm.test", "same-site"},
		{"https://evil.example", ""}, // a browser without Fetch Metadata
		{"null", "cross-site"},
	}
	tok := signIn()
	for _, h := range hostile {
		rec := w.crossSite("/signin/open", url.Values{"t": {tok}}, h.origin, h.site)
		if rec.Code != http.StatusForbidden || rec.Header().Get("Location") != "" {
			t.Errorf("sign in from %s (%s): %d %s, want 403", h.origin, h.site, rec.Code, rec.Header().Get("Location"))
		}
	}
	// The link was not spent: from the service's own page it opens.
	rec := w.crossSite("/signin/open", url.Values{"t": {tok}}, "http://pbm.test", "same-origin")
	loc, _ := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusSeeOther || loc == nil || loc.Path != "/me" {
		t.Fatalf("sign in from the service's page: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	session := loc.Query().Get("t")
	me, err := svc.Me(t.Context(), session, linksign.PurposeMyGames)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hostile {
		for _, path := range []string{"/me/signout", "/me/links/revoke"} {
			rec := w.crossSite(path, url.Values{"t": {session}, "link": {me.Link}}, h.origin, h.site)
			if rec.Code != http.StatusForbidden {
				t.Errorf("%s from %s (%s): %d, want 403", path, h.origin, h.site, rec.Code)
			}
		}
	}
	if _, err := svc.Me(t.Context(), session, linksign.PurposeMyGames); err != nil {
		t.Fatalf("the session was ended by another site's form: %v", err)
	}
	// A client that is no browser (no Origin, no Sec-Fetch-Site) signs out.
	if rec := w.crossSite("/me/signout", url.Values{"t": {session}}, "", ""); rec.Code != http.StatusOK {
		t.Errorf("sign out by a plain client: %d", rec.Code)
	}
	if _, err := svc.Me(t.Context(), session, linksign.PurposeMyGames); err == nil {
		t.Error("the session still works after signing out")
	}
}
