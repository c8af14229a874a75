package httpapi_test

import (
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/templates"
)

// TestAmountFormsNameTheirAction (issue 27): an amount form's button
// names what it does — never «Сделать» — and, once an amount is there,
// the amount; the credit's field is not filled in with the least credit
// (one press took a $1 credit); and a large amount asks to be confirmed
// before anything is done.
func TestAmountFormsNameTheirAction(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 20, 2)
	var room int64
	f.playUntil(c.ID, func(g engine.Game, _ int) bool {
		s := g.Owing()[0]
		for _, ch := range g.Legal(s) {
			if ch.Type == western.ACredit && ch.Max >= 1000 {
				room = ch.Max
				return true
			}
		}
		return false
	})
	_, g := f.game(c.ID)
	seat := g.Owing()[0]
	b := newBrowser(t, f.srv.URL)
	code, page := b.get("/g/" + c.ID + "?lang=ru&t=" + url.QueryEscape(f.mailToken(c.ID, seat)))
	if code != 200 {
		t.Fatalf("seat page: %d", code)
	}
	credit := regexp.MustCompile(`(?s)<form [^>]*data-choice="credit">.*?</form>`).FindString(page)
	if credit == "" {
		t.Fatalf("no credit form:\n%s", page)
	}
	if strings.Contains(credit, ">"+templates.T("ru", "do")+"<") || !strings.Contains(credit, ">Взять кредит<") {
		t.Errorf("the credit's button does not name its action:\n%s", credit)
	}
	if regexp.MustCompile(`name="amount" value="\d`).MatchString(credit) {
		t.Errorf("the credit's amount is filled in:\n%s", credit)
	}
	fm := formOf(t, page, western.ACredit)
	fm.values.Set("amount", strconv.FormatInt(room, 10))
	want := "Взять кредит " + templates.USD("ru", room)
	unchanged(t, f.st, c.ID, func() {
		code, page, _ := b.post(fm.action, fm.values)
		text := html.UnescapeString(page)
		if code != 200 || !strings.Contains(text, want) || !strings.Contains(page, `name="sure"`) {
			t.Fatalf("a credit of the most allowed, %d: %d, want a page asking to confirm %q:\n%s", room, code, want, page)
		}
	})
	fm.values.Set("sure", "1")
	if code, _, at := b.post(fm.action, fm.values); code != 200 || strings.Contains(at, "/act") {
		t.Fatalf("the credit confirmed: %d at %s", code, at)
	}
	rec, _ := f.game(c.ID)
	log, err := rec.Recent()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(log, func(e service.Entry) bool { return e.Action.Type == western.ACredit && e.Action.Amount == room }) {
		t.Errorf("no credit of %d in the log after it was confirmed", room)
	}
}
