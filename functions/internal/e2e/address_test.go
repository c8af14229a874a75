package e2e

import (
	"fmt"
	"net/http"
	"net/mail"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
)

// longAddress is a valid address of exactly n characters (n ≥ 80): a local
// part of up to 64, then a domain of labels of up to 63.
func longAddress(t *testing.T, tag string, n int) string {
	t.Helper()
	local := 64
	rest := n - local - 1 - len("pbm.test")
	if rest%64 == 1 { // a label cannot be empty: shift one character
		local--
		rest++
	}
	domain := ""
	for rest > 0 {
		k := min(rest, 64) // a label and its dot
		domain += strings.Repeat("d", k-1) + "."
		rest -= k
	}
	a := tag + strings.Repeat("l", local-len(tag)) + "@" + domain + "pbm.test"
	if len(a) != n {
		t.Fatalf("address of %d characters, want %d", len(a), n)
	}
	if p, err := mail.ParseAddress(a); err != nil || p.Address != a {
		t.Fatalf("%s is not an address: %v", a, err)
	}
	return a
}

// TestLongAddressesMailed: every address the service accepts is served.
// An organiser and players with addresses of 129 to 254 characters get
// their invitations, the organiser hears of each acceptance, the first
// seat to move gets its turn mail with working links, and nothing is
// left in the outbox.
func TestLongAddressesMailed(t *testing.T) {
	m := newMailEnv(t)
	org := longAddress(t, "org", service.MaxEmailLen)
	players := []string{longAddress(t, "p0", 129), longAddress(t, "p1", 200), longAddress(t, "p2", service.MaxEmailLen)}
	req := map[string]any{"kind": "western", "options": map[string]any{"laps": 2},
		"organiser": map[string]string{"name": "Org", "email": org, "lang": "en"}}
	var seats []map[string]string
	for i, a := range players {
		seats = append(seats, map[string]string{"name": fmt.Sprintf("P%d", i), "email": a, "lang": "en"})
	}
	req["seats"] = seats
	var created service.Created
	if st := m.call("POST", "/api/games", "", req, &created); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	latest := func(addr string) (sesMail, int) {
		var last sesMail
		n := 0
		for _, x := range m.mails() {
			if slices.Contains(x.Destination.To, addr) {
				last = x
				n++
			}
		}
		return last, n
	}
	// The organiser's long address gets the confirmation, and confirms.
	if x, n := latest(org); n != 1 {
		t.Fatalf("the confirmation to the %d-character organiser: %d mails", len(org), n)
	} else {
		code, page := m.page("GET", linkTo(t, x, "/g/"+created.ID+"/confirm"), nil)
		forms := pageForms(m.url, page)
		if code != 200 || len(forms) != 1 {
			t.Fatalf("confirmation page: %d, %d forms", code, len(forms))
		}
		if code, _ := m.page("POST", forms[0].action, forms[0].values); code != 200 {
			t.Fatalf("confirm: %d", code)
		}
	}
	for i, a := range players {
		x, n := latest(a)
		if n != 1 {
			t.Fatalf("the invitation to the %d-character address: %d mails", len(a), n)
		}
		code, page := m.page("GET", linkTo(t, x, "/g/"), nil)
		forms := pageForms(m.url, page)
		if code != 200 || len(forms) != 1 {
			t.Fatalf("invitation page of player %d: %d, %d forms", i, code, len(forms))
		}
		if code, _ := m.page("POST", forms[0].action, forms[0].values); code != 200 {
			t.Fatalf("accept %d: %d", i, code)
		}
		// The mail's own links work for such an address too.
		for _, l := range mailLinkRE.FindAllString(x.Body.Text, -1) {
			if strings.Contains(l, "/me?") {
				if code, _ := m.page("GET", l, nil); code != 200 {
					t.Errorf("the \"my games\" link of the %d-character address: %d", len(a), code)
				}
			}
		}
	}
	if _, n := latest(org); n != 1+len(players) {
		t.Errorf("the %d-character organiser got %d mails, want the confirmation and one for each acceptance", len(org), n)
	}
	rec, _, err := m.svc.Load(t.Context(), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != service.StatusPlaying || len(rec.Outbox) != 0 {
		t.Fatalf("status %s, %d mails left in the outbox: %+v", rec.Status, len(rec.Outbox), rec.Outbox)
	}
	turns := 0
	for _, a := range players {
		if _, n := latest(a); n == 2 {
			turns++
		}
	}
	if turns == 0 {
		t.Error("no player got the mail of the first move")
	}
}
