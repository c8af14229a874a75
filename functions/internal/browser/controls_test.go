package browser

import (
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TestControlsInChromium (issue 17): on a phone, the organiser hands a
// seat to a bot from the controls' page; the mail its player gets says so
// and links to taking the seat back, which one press does; the player's
// absence page works too. Every page is axe clean and no wider than the
// phone.
func TestControlsInChromium(t *testing.T) {
	s := newSite(t, "browser controls")
	ctx := t.Context()
	c := s.twoSeatGame(t)
	b := newBrowser(t, s.url)
	b.phone()
	check := func(kind string) {
		t.Helper()
		for _, v := range b.axe(kind).grave() {
			t.Errorf("the %s page: %s", kind, v)
		}
		if w := eval[int](b, `document.documentElement.scrollWidth`); w > phoneWidth {
			t.Errorf("the %s page is %d px wide on a %d px phone", kind, w, phoneWidth)
		}
	}
	b.open("controls", s.url+"/g/"+c.ID+"/controls?lang=en&t="+c.OrganiserToken)
	check("controls")
	b.press("controls, bot", `form:has(input[name="seat"][value="1"]) button[value="bot"]`, nil)
	if !strings.Contains(b.location(), "/controls") {
		t.Fatalf("after the control: %s", b.location())
	}
	b.screenshot("controls-360", phoneWidth)
	b.phone() // the screenshot leaves the tab as wide as a desktop
	m := s.latest(t, "p1@pbm.test")
	back := m.link("/g/"+c.ID+"/back", false)
	// Said to Bob: his seat, not "Bob's" (issue 27).
	if back == "" || !strings.Contains(m.Body.Text, "handed your seat to a bot") {
		t.Fatalf("the mail to the seat given to a bot: %q", m.Body.Text)
	}
	b.open("back", back)
	check("back")
	b.press("back, taken", `form[action*="/back"] button`, nil)
	rec, _, err := s.svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Bots[rec.Seats[1].Engine] {
		t.Fatal("the seat stayed with its bot after the press")
	}
	tok, err := s.svc.Token(linksign.PurposeSeat, c.ID, 0, 0, service.SeatTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	b.open("away", s.url+"/g/"+c.ID+"/away?lang=en&t="+tok)
	check("away")
	b.press("away, sent", `form[action*="/away"] button`, nil)
	if !strings.Contains(eval[string](b, `document.body.innerText`), "You are away") {
		t.Error("the game page does not say its player is away")
	}
}
