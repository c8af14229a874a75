package httpapi_test

import (
	"html"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

var boardRE = regexp.MustCompile(`(?s)<svg[^>]*viewBox="0 0 700 [^>]*>.*?</svg>`)

// TestLogPage: the log lists the commands a page at a time, newest page
// first; the replay steps through the game from its seed, and its last
// step is the game as it stands.
func TestLogPage(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 3, 2)
	f.playUntil(c.ID, func(_ engine.Game, moves int) bool { return moves == 120 })
	tok := f.token(linksign.PurposeSeat, c.ID, 0)
	get := func(kv ...string) (int, string) {
		q := url.Values{"t": {tok}, "lang": {"en"}}
		for i := 0; i+1 < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		return f.page("/g/"+c.ID+"/log", q)
	}
	has := func(t *testing.T, body string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(body, w) {
				t.Errorf("no %q on the page", w)
			}
		}
	}
	t.Run("newest", func(t *testing.T) {
		code, body := get()
		if code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		has(t, body, "Actions 101–120 of 120", ">#120<", "from=51", "step=120", "step=0")
		if strings.Contains(body, ">#100<") || strings.Contains(body, ">#121<") {
			t.Errorf("the newest page lists other commands")
		}
		checkPage(t, body)
	})
	t.Run("first", func(t *testing.T) {
		_, body := get("from", "1")
		has(t, body, "Actions 1–50 of 120", ">#1<", ">#50<", "from=51")
	})
	t.Run("replay", func(t *testing.T) {
		_, body := get("step", "60")
		has(t, body, "after action 60 of 120", "step=59", "step=61", "step=50", "step=70", `role="img"`)
		checkPage(t, body)
		_, start := get("step", "0")
		has(t, start, "the start of the game", "step=1")
		if strings.Contains(start, "step=-1") {
			t.Errorf("a step back from the start")
		}
	})
	t.Run("the last step is the game", func(t *testing.T) {
		_, body := get("step", "9999") // past the end: the end
		has(t, body, "after action 120 of 120")
		// The game's page shows its board as an image of its own (issue 27).
		_, game := f.page("/g/"+c.ID, url.Values{"t": {tok}, "lang": {"en"}})
		src := regexp.MustCompile(`<img class="full" src="([^"]+)"`).FindStringSubmatch(game)
		if src == nil {
			t.Fatal("the game's page has no picture of the board")
		}
		u, _ := url.Parse(html.UnescapeString(src[1]))
		_, img := f.page(u.Path, u.Query())
		a, b := boardRE.FindString(body), boardRE.FindString(img)
		if a == "" || a != b {
			t.Errorf("the replay's last board differs from the game's (%d, %d bytes)", len(a), len(b))
		}
	})
	t.Run("bad step", func(t *testing.T) {
		if code, _ := get("step", "x"); code != http.StatusBadRequest {
			t.Errorf("status %d", code)
		}
	})
	t.Run("not started", func(t *testing.T) {
		w := f.create(2, 3, 1)
		code, body := f.page("/g/"+w.ID+"/log", url.Values{"t": {w.OrganiserToken}, "lang": {"en"}})
		if code != http.StatusOK || !strings.Contains(body, "has not started") {
			t.Errorf("status %d", code)
		}
	})
}

// TestOrganiserPage: who accepted, who cannot be mailed, the invitation
// links of those who have not, and a start that needs enough players.
func TestOrganiserPage(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(3, 3, 1)
	if err := f.svc.MarkSent(t.Context(), c.ID, nil, []int{2}); err != nil {
		t.Fatal(err)
	}
	org := url.Values{"t": {c.OrganiserToken}, "lang": {"en"}}
	_, body := f.page("/g/"+c.ID+"/org", org)
	checkPage(t, body)
	if n := strings.Count(body, "cannot be reached by mail"); n != 1 {
		t.Errorf("%d players marked unreachable, want 1", n)
	}
	if i, j := strings.Index(body, fixtureNames[2]), strings.Index(body, "cannot be reached by mail"); i < 0 || j < i {
		t.Errorf("the unreachable mark is not on %s", fixtureNames[2])
	}
	if n := len(linkRE.FindAllString(body, -1)); n != 2 {
		t.Errorf("%d invitation links, want 2", n)
	}
	if len(forms(body)) != 0 || !strings.Contains(body, "At least 2 players") {
		t.Errorf("a start with one player accepted")
	}
	// Too few, posted anyway: said on the page.
	b := newBrowser(t, f.srv.URL)
	if code, page, _ := b.post("/g/"+c.ID+"/start?lang=en", url.Values{"t": {c.OrganiserToken}}); code != http.StatusConflict || !strings.Contains(page, "At least 2") {
		t.Errorf("start with one player: %d", code)
	}
	if _, err := f.svc.Accept(t.Context(), c.ID, 1); err != nil {
		t.Fatal(err)
	}
	_, body = f.page("/g/"+c.ID+"/org", org)
	fs := forms(body)
	if len(fs) != 1 || !strings.Contains(fs[0].action, "/start") {
		t.Fatalf("%d forms, want the start", len(fs))
	}
	code, page, _ := b.post(fs[0].action, fs[0].values)
	if code != http.StatusOK || !strings.Contains(page, "in play") || !strings.Contains(page, "did not join") {
		t.Errorf("after the start: %d", code)
	}
	// The invitation of the one who did not join says so.
	_, inv := f.page("/g/"+c.ID+"/invite", url.Values{"t": {c.InviteTokens[2]}, "lang": {"en"}})
	if len(forms(inv)) != 0 || !strings.Contains(inv, "started without you") {
		t.Errorf("the invitation after the start")
	}
}

// TestTextsComplete: every text the pages and their handlers name exists
// in Russian and English, with the same blanks to fill in.
func TestTextsComplete(t *testing.T) {
	keys := map[string]bool{}
	tmplRE := regexp.MustCompile(`\{\{\s*tf? \$?[\w.]*\.?Lang "([a-z0-9_]+)"`)
	goRE := regexp.MustCompile(`templates\.Tf?\(l, "([a-z0-9_]+)"|"((?:grp|opt|note|ask|chart)_[a-z0-9_]+)"`)
	pages, _ := filepath.Glob("../../../templates/pages/*.html")
	// The handler's sources and the games' presenters, which word the
	// game pages (their tests name form fields, not texts).
	var srcs []string
	for _, glob := range []string{"*.go", "../present/*.go", "../present/*/*.go"} {
		found, _ := filepath.Glob(glob)
		for _, f := range found {
			if !strings.HasSuffix(f, "_test.go") {
				srcs = append(srcs, f)
			}
		}
	}
	if len(pages) == 0 || len(srcs) == 0 {
		t.Fatal("no sources found")
	}
	for _, p := range append(pages, srcs...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		re := goRE
		if strings.HasSuffix(p, ".html") {
			re = tmplRE
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			for _, k := range m[1:] {
				keys[k] = true
			}
		}
	}
	for _, s := range []string{"invited", "playing", "over"} {
		keys["status_"+s] = true
	}
	for k := range keys {
		if k == "" || strings.HasSuffix(k, "_") || k == "grp_here" { // prefixes; the group with no title
			delete(keys, k)
		}
	}
	verbs := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)
	for k := range keys {
		ru, en := templates.T("ru", k), templates.T("en", k)
		has := templates.Has(k)
		for _, kind := range testGames.Kinds() { // a game's own text, said by its presenter
			if p := testGames.For(kind); !has && p.Text("en", k) != k {
				ru, en, has = p.Text("ru", k), p.Text("en", k), true
			}
		}
		if !has || ru == "" || en == "" {
			t.Errorf("text %q is missing", k)
			continue
		}
		if a, b := len(verbs.FindAllString(ru, -1)), len(verbs.FindAllString(en, -1)); a != b {
			t.Errorf("text %q: %d blanks in Russian, %d in English", k, a, b)
		}
	}
	if len(keys) < 100 {
		t.Errorf("only %d texts found: the patterns miss them", len(keys))
	}
}
