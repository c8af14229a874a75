package httpapi_test

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// browser is a minimal form-following client for the plain pages.
type browser struct {
	t      *testing.T
	client *http.Client
	base   string
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, client: &http.Client{Jar: jar}, base: base}
}

func (b *browser) get(path string) (int, string) {
	b.t.Helper()
	resp, err := b.client.Get(b.abs(path))
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func (b *browser) post(path string, form url.Values) (int, string, string) {
	b.t.Helper()
	resp, err := b.client.PostForm(b.abs(path), form)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), resp.Request.URL.RequestURI()
}

func (b *browser) abs(path string) string {
	if strings.HasPrefix(path, "http") {
		return path
	}
	return b.base + path
}

var (
	formRE        = regexp.MustCompile(`(?s)<form method="post" action="([^"]+)"[^>]*>(.*?)</form>`)
	inputRE       = regexp.MustCompile(`<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"`)
	selectRE      = regexp.MustCompile(`(?s)<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>`)
	optionRE      = regexp.MustCompile(`<option value="([^"]*)"`)
	linkRE        = regexp.MustCompile(`href="([^"]*/invite\?[^"]*)"`)
	emptyAmountRE = regexp.MustCompile(`<input type="number" id="[^"]*" name="amount" min="(-?\d+)"`)
	fixedRE       = regexp.MustCompile(`<input type="hidden" name="amount" value="([^"]*)"`)
)

// form is a form of a page: its fields as a browser would post them (a
// list's first option), and every option of its list.
type form struct {
	action string
	values url.Values
	alts   []string // the options of the decision list ("alt"), if any
	fixed  string   // an amount the decision carries, not typed in (a «двойка»'s ±2)
}

func forms(page string) []form {
	var out []form
	for _, m := range formRE.FindAllStringSubmatch(page, -1) {
		if strings.Contains(m[0], `class="orders-off"`) {
			continue // the seat page's one click that turns the orders off, not a decision
		}
		f := form{action: html.UnescapeString(m[1]), values: url.Values{}}
		for _, in := range inputRE.FindAllStringSubmatch(m[2], -1) {
			f.values.Set(in[1], html.UnescapeString(in[2]))
		}
		// An amount the page leaves for the player to type (issue 27):
		// the least, as a player types it.
		if am := emptyAmountRE.FindStringSubmatch(m[2]); am != nil && f.values.Get("amount") == "" {
			f.values.Set("amount", am[1])
		}
		if h := fixedRE.FindStringSubmatch(m[2]); h != nil {
			f.fixed = h[1]
		}
		for _, sel := range selectRE.FindAllStringSubmatch(m[2], -1) {
			opts := optionRE.FindAllStringSubmatch(sel[2], -1)
			if len(opts) > 0 {
				f.values.Set(sel[1], html.UnescapeString(opts[0][1]))
			}
			if sel[1] == "alt" {
				for _, o := range opts {
					f.alts = append(f.alts, html.UnescapeString(o[1]))
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// decisions are the keys (decisionKey) of the decisions a seat page's
// form makes: one, or one for each option of its list.
func (f form) decisions() []string {
	typ := f.values.Get("type")
	if len(f.alts) == 0 {
		num := func(k string) string {
			if v := f.values.Get(k); v != "" {
				return v
			}
			return "0"
		}
		return []string{typ + "/" + num("cell") + "/" + num("target") + "/" + f.values.Get("good") + "/" + f.fixed}
	}
	var out []string
	for _, a := range f.alts { // cell/target/good/amount, the amount empty when typed in
		out = append(out, typ+"/"+a)
	}
	return out
}

// decisionKey names a legal choice as the pages' forms do.
func decisionKey(ch engine.Choice) string {
	k := fmt.Sprintf("%s/%d/%d/%s/", ch.Type, ch.Cell, ch.Target, ch.Good)
	if !ch.Ranged() && ch.Amount != 0 {
		k += strconv.FormatInt(ch.Amount, 10)
	}
	return k
}

// TestPagesPlayAGame creates a game on the home page, accepts the
// invitations from the organiser's page and plays the whole game by
// pressing the buttons of the seat pages. Every GET leaves the stored game
// as it was (a mail scanner opening links changes nothing).
func TestPagesPlayAGame(t *testing.T) {
	for _, tc := range []struct {
		kind string
		opts url.Values
	}{
		{"western", url.Values{"laps": {"2"}}},
		{"businessman", url.Values{"opt_businessman_laps": {"2"}, "opt_businessman_rent_claim": {"claim"}}},
	} {
		t.Run(tc.kind, func(t *testing.T) { pagesPlayAGame(t, tc.kind, tc.opts) })
	}
}

func pagesPlayAGame(t *testing.T, kind string, opts url.Values) {
	st := openStore(t)
	c, svc := newContract(t, st)
	b := newBrowser(t, c.srv.URL)

	if code, page := b.get("/?lang=en"); code != 200 || !strings.Contains(page, "New game") {
		t.Fatalf("home: %d", code)
	}
	form := url.Values{"kind": {kind}, "org_email": {"org@example.org"}, "org_lang": {"en"},
		"name0": {"Анна"}, "email0": {"anna@example.org"}, "lang0": {"ru"},
		"name1": {"Bob"}, "email1": {"bob@example.org"}, "lang1": {"en"}}
	for k, v := range opts {
		form[k] = v
	}
	code, orgPage, orgURL := b.post("/games?lang=en", form)
	if code != 200 || !strings.Contains(orgPage, "Organiser") {
		t.Fatalf("create: %d %s", code, orgPage)
	}
	id := strings.Split(strings.TrimPrefix(orgURL, "/g/"), "/")[0]

	// The organiser confirms their address from the mail's link: its
	// page changes nothing, its button confirms.
	confirmTok, err := svc.Token(linksign.PurposeConfirm, id, linksign.NoSeat, 0, service.ConfirmTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	var confirmPage string
	unchanged(t, st, id, func() { _, confirmPage = b.get("/g/" + id + "/confirm?lang=en&t=" + confirmTok) })
	if f := forms(confirmPage); len(f) != 1 {
		t.Fatalf("the confirmation page has %d forms", len(f))
	} else if code, orgPage, _ = b.post(f[0].action, f[0].values); code != 200 || !strings.Contains(orgPage, "Organiser") {
		t.Fatalf("confirm: %d %.300s", code, orgPage)
	}

	// Bad input on the home form: shown on the page, nothing created.
	if code, page, _ := b.post("/games?lang=en", url.Values{"kind": {kind}, "org_email": {"x"},
		"name0": {"A"}, "email0": {"a@example.org"}, "name1": {"B"}, "email1": {"b@example.org"}}); code != 400 || !strings.Contains(page, "Organiser: invalid email address") {
		t.Fatalf("bad form: %d", code)
	}

	var seatURLs []string
	for _, m := range linkRE.FindAllStringSubmatch(orgPage, -1) {
		invite := html.UnescapeString(m[1])
		unchanged(t, st, id, func() { b.get(invite) })
		_, page := b.get(invite)
		f := forms(page)
		if len(f) != 1 {
			t.Fatalf("invitation page has %d forms", len(f))
		}
		code, _, seatURL := b.post(f[0].action, f[0].values)
		if code != 200 {
			t.Fatalf("accept: %d", code)
		}
		seatURLs = append(seatURLs, seatURL)
	}
	if len(seatURLs) != 2 {
		t.Fatalf("%d invitations on the organiser's page", len(seatURLs))
	}

	if rec, _, err := svc.Load(t.Context(), id); err != nil || rec.Kind != kind || !strings.Contains(string(rec.Options), `"laps":2`) {
		t.Fatalf("the form made a game of %v with %s (%v)", rec.Kind, rec.Options, err)
	}
	for step := 0; ; step++ {
		if step > 3000 {
			t.Fatal("the game does not end")
		}
		acted := false
		for _, u := range seatURLs {
			var page string
			unchanged(t, st, id, func() { _, page = b.get(u) })
			labelledWorth(t, page)
			if strings.Contains(page, "Standings") || strings.Contains(page, "Итоги") {
				return // the game-over page with the standings
			}
			fs := forms(page)
			if len(fs) == 0 {
				continue
			}
			f := fs[0] // the default decision comes first
			code, after, _ := b.post(f.action, f.values)
			if code != 200 {
				t.Fatalf("step %d: %d %s", step, code, after)
			}
			// The same form again (a double click) changes nothing.
			unchanged(t, st, id, func() { b.post(f.action, f.values) })
			acted = true
			break
		}
		if !acted {
			t.Fatalf("step %d: nobody has a button to press", step)
		}
	}
}

var worthRE = regexp.MustCompile(`(?s)<span class="nw">(.*?)</span>`)

// labelledWorth (issue 10, 7): the big number beside each name says what
// it is, and a game's holdings have one name on every page (the net
// worth's part names them: «Акции», «Участки»).
func labelledWorth(t *testing.T, page string) {
	t.Helper()
	for _, m := range worthRE.FindAllStringSubmatch(page, -1) {
		if !strings.Contains(m[1], "Net worth") && !strings.Contains(m[1], "Капитал") {
			t.Fatalf("an unlabelled number beside a name: %q", m[1])
		}
	}
	for _, other := range []string{"Владения", "Holdings"} {
		if strings.Contains(page, other) {
			t.Fatalf("the page calls holdings %q", other)
		}
	}
}

// TestPagesRefuseBadInput: forged tokens and malformed forms get a page
// that says what is wrong, in the reader's language, and change nothing.
func TestPagesRefuseBadInput(t *testing.T) {
	st := openStore(t)
	c, _ := newContract(t, st)
	created := c.create(2, map[string]any{"laps": 2})
	seat := c.accept(created.ID, created.InviteTokens[0])
	c.accept(created.ID, created.InviteTokens[1])
	b := newBrowser(t, c.srv.URL)
	for _, tc := range []struct {
		name   string
		do     func() (int, string)
		status int
		text   string
	}{
		{"forged token", func() (int, string) {
			return b.get("/g/" + created.ID + "?lang=en&t=" + url.QueryEscape(corrupt(seat)))
		}, 401, "invalid"},
		{"no token", func() (int, string) { return b.get("/g/" + created.ID + "?lang=ru") }, 401, "недействительна"},
		{"other purpose", func() (int, string) {
			return b.get("/g/" + created.ID + "/org?lang=en&t=" + url.QueryEscape(seat))
		}, 403, "does not allow"},
		{"bad amount", func() (int, string) {
			code, page, _ := b.post("/g/"+created.ID+"/act?lang=en", url.Values{"t": {seat}, "key": {"abcdefgh1"}, "type": {"credit"}, "amount": {"lots"}})
			return code, page
		}, 400, "Invalid request"},
		{"illegal move", func() (int, string) {
			code, page, _ := b.post("/g/"+created.ID+"/act?lang=en", url.Values{"t": {seat}, "key": {"abcdefgh2"}, "type": {"fly"}})
			return code, page
		}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			var page string
			unchanged(t, st, created.ID, func() { code, page = tc.do() })
			if tc.status != 0 && (code != tc.status || !strings.Contains(page, tc.text)) {
				t.Fatalf("status %d, want %d with %q in:\n%s", code, tc.status, tc.text, page)
			}
			if code < 400 {
				t.Fatalf("status %d for bad input", code)
			}
		})
	}
}

// unchanged runs f and checks the stored game is byte-identical after it.
func unchanged(t *testing.T, st store.Store, id string, f func()) {
	t.Helper()
	before, err := st.GetGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	f()
	after, err := st.GetGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if before.Version != after.Version || string(before.Body) != string(after.Body) {
		t.Fatalf("the stored game changed (version %d → %d)", before.Version, after.Version)
	}
}
