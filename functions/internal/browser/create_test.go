package browser

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// fillCreateForm opens the home page at origin and fills in a game of
// «Вестерн» of one lap for the organiser and players.
func fillCreateForm(b *browser, origin, organiser string) {
	b.t.Helper()
	b.open("home", origin+"/?lang=en")
	b.do(
		chromedp.SetValue(chromedp.CSS(`input[name="opt_western_laps"]`), "1"),
		chromedp.SendKeys(chromedp.CSS(`input[name="org_name"]`), "Org"),
		chromedp.SendKeys(chromedp.CSS(`input[name="org_email"]`), organiser),
	)
	for i, pl := range players {
		n := fmt.Sprint(i)
		b.do(
			chromedp.SendKeys(chromedp.CSS(`input[name="name`+n+`"]`), pl.name),
			chromedp.SendKeys(chromedp.CSS(`input[name="email`+n+`"]`), pl.email),
		)
	}
}

// submitCreateForm presses the form's button and waits until the tab has
// left the home page, answering where it landed (path and query) — or
// fails the test saying where it stayed.
func submitCreateForm(b *browser) *url.URL {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`form[action^="/games"] ` + submitSel)))
	deadline := time.Now().Add(10 * time.Second)
	for {
		href := eval[string](b, `location.href`)
		u, err := url.Parse(href)
		if err == nil && strings.HasPrefix(u.Path, "/g/") && eval[string](b, `document.readyState`) == "complete" {
			return u
		}
		if time.Now().After(deadline) {
			busy := eval[bool](b, `!!document.querySelector('button[aria-busy="true"]')`)
			b.t.Fatalf("10 s after pressing «create» the tab is still at %s (its button busy: %v): the form's answer never arrived", b.location(), busy)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// gameOf is the game id of a page's path /g/<id>/….
func gameOf(u *url.URL) string {
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 2 || parts[0] != "g" {
		return ""
	}
	return parts[1]
}

// TestCreateFormOnAnotherHostName (issue 10, symptom 2): the service is
// configured with the public origin http://localhost:P, but the organiser
// opened it as http://127.0.0.1:P. The form's answer must lead to the
// organiser's page on the origin the organiser is on: a redirect to the
// configured origin is blocked by the page's form-action 'self', and the
// organiser's link is lost.
func TestCreateFormOnAnotherHostName(t *testing.T) {
	s := newSiteAt(t, t.Name(), func(origin string) string { return strings.Replace(origin, "127.0.0.1", "localhost", 1) })
	if !strings.Contains(s.url, "127.0.0.1") {
		t.Fatalf("the test server is at %s, not on 127.0.0.1", s.url)
	}
	b := newBrowser(t, s.url)
	fillCreateForm(b, s.url, "org@pbm.test")
	u := submitCreateForm(b)
	if origin := eval[string](b, `location.origin`); origin != s.url {
		t.Errorf("the form led to %s, not to the origin it was posted on, %s", origin, s.url)
	}
	if !strings.HasSuffix(u.Path, "/org") || gameOf(u) == "" {
		t.Errorf("the form led to %s, not to the organiser's page", u.Path)
	}
}

// TestCreateFormBackAndResubmit (issue 10, symptom 3): pressing «create»,
// going back and pressing it again makes one game, and its players get
// one set of invitations.
func TestCreateFormBackAndResubmit(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	fillCreateForm(b, s.url, "org@pbm.test")
	first := submitCreateForm(b)
	// Back as the browser's button does it. The page may come back from
	// the back/forward cache, which chromedp's view of the tab does not
	// follow: the test reads and clicks by script, and watches what the
	// second press made through the mail.
	eval[any](b, `history.back()`)
	for i := 0; !eval[bool](b, `location.pathname == "/" && document.readyState == "complete" && !!document.querySelector('form[action^="/games"]')`); i++ {
		if i > 100 {
			t.Fatalf("back from the organiser's page did not lead to the form (at %s)", b.location())
		}
		time.Sleep(100 * time.Millisecond)
	}
	sent := len(s.mails(t))
	eval[any](b, `setTimeout(function(){document.querySelector('form[action^="/games"] button').click()}, 0)`)
	// The server mails before it answers.
	for i := 0; s.created.Load() < 2; i++ {
		if i > 300 {
			t.Fatal("the second press of «create» was not answered in 30 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	games := map[string]bool{}
	for _, m := range s.mails(t) {
		if u, err := url.Parse(m.link("/g/", true)); err == nil && gameOf(u) != "" {
			games[gameOf(u)] = true
		}
	}
	if len(games) != 1 || !games[gameOf(first)] {
		t.Fatalf("the form sent twice made games %v (%d mails after the first press, %d after the second)", games, sent, len(s.mails(t)))
	}
	// The organiser confirms from another tab; the players get one
	// invitation each.
	b2 := newBrowser(t, s.url)
	confirmByMail(t, s, b2, gameOf(first), "org@pbm.test")
	for _, pl := range players {
		n := 0
		for _, m := range s.mails(t) {
			if strings.EqualFold(m.Destination.To[0], pl.email) && m.link("/g/"+gameOf(first)+"/invite", false) != "" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s got %d invitations, want 1", pl.email, n)
		}
	}
}

// confirmByMail has the organiser open the confirmation mail of game id
// and press its button, landing on the organiser's page.
func confirmByMail(t *testing.T, s *site, b *browser, id, organiser string) {
	t.Helper()
	link := s.latest(t, organiser).link("/g/"+id+"/confirm", false)
	if link == "" {
		t.Fatalf("the latest mail to %s has no confirmation link", organiser)
	}
	b.open("confirm", link)
	b.press("organiser", `form[method=post] `+submitSel, nil)
	if u, err := url.Parse(eval[string](b, `location.href`)); err != nil || u.Path != "/g/"+id+"/org" {
		t.Fatalf("confirming led to %s, not to the organiser's page", b.location())
	}
}
