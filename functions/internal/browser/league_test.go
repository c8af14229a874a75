package browser

import (
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/testenv"
)

// leagueClock is the leagues' injected time: the test moves it past a
// round's closing date; the games keep the wall clock.
type leagueClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *leagueClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *leagueClock) add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

// TestLeaguePages: Chromium walks a league's pages — the invitation
// (joined by its button), the league's page with its tables, chart and
// rounds, a member's page, the organiser's — in Russian and English,
// after a season's first two rounds closed with their games scored as
// they stood. On every page axe-core finds nothing serious or critical;
// none weighs more than maxPageBytes or is wider than a 360 px phone.
func TestLeaguePages(t *testing.T) {
	st, keys := scratchStore(t)
	log := slog.New(slog.DiscardHandler)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Log: log, Rand: testenv.Rand(t.Name()), Limits: servicetest.Roomy})
	clock := &leagueClock{now: time.Now().UTC().Truncate(time.Hour)}
	lg := leagues.New(leagues.Config{Store: st, Games: svc, Now: clock.Now, Rand: testenv.Rand(t.Name() + "/leagues"), Log: log})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Leagues: lg, Log: log}))
	t.Cleanup(srv.Close)
	ctx := t.Context()

	l, err := lg.Create(ctx, leagues.CreateRequest{Name: strings.Repeat("Ж", leagues.MaxLeagueNameLen), Kind: "businessman",
		Options: []byte(`{"laps":2}`), TableSize: 4, Rounds: 3, Divisions: 2,
		Organiser: service.Person{Name: "Ольга", Email: "olga@pbm.test", Lang: "ru"}})
	if err != nil {
		t.Fatal(err)
	}
	// Eleven members with the longest names, and one who joins in the
	// browser.
	for i := range 11 {
		name := fmt.Sprintf("%s%02d", strings.Repeat(string(rune('A'+i)), service.MaxNameLen-2), i)
		servicetest.Join(t, lg, l.ID, leagues.Member{Name: name, Email: fmt.Sprintf("m%02d@pbm.test", i), Lang: []string{"ru", "en"}[i%2]})
	}
	tok := func(p linksign.Purpose, seat int) string {
		tk, err := svc.Token(p, l.ID, seat, 0, service.OrganiserTokenTTL)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	b := newBrowser(t, srv.URL)
	var reports []axeReport
	check := func(kind string) {
		t.Helper()
		reports = append(reports, b.axe(kind))
		b.phone()
		if w := eval[int](b, `document.documentElement.scrollWidth`); w > phoneWidth {
			wide := eval[string](b, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest("svg")).slice(0, 3).map(e => e.tagName + "." + e.className + ": " + (e.innerText || "").slice(0, 30)).join(" | ")`)
			t.Errorf("the %s page is %d px wide at %d px: %s", kind, w, phoneWidth, wide)
			b.screenshot("league-wide-"+strings.ReplaceAll(kind, " ", "-"), phoneWidth)
		}
		b.do(chromedp.EmulateViewport(desktopWidth, desktopHeight))
	}
	visit := func(kind, link string) {
		t.Helper()
		b.open(kind, link)
		check(kind)
	}

	// The invitation: its page, then its button, in the browser.
	for _, lang := range []string{"en", "ru"} {
		visit("join "+lang, srv.URL+"/l/"+l.ID+"/join?lang="+lang+"&t="+tok(linksign.PurposeLeagueInvite, linksign.NoSeat))
	}
	b.do(
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "Зоя"),
		chromedp.SendKeys(chromedp.CSS(`input[name="email"]`), "zoya@pbm.test"),
	)
	b.press("member, joined", `form[action^="/l/"] button`, nil)
	if got := eval[string](b, `location.pathname`); got != "/l/"+l.ID+"/me" {
		t.Fatalf("the join button led to %s", got)
	}
	check("member, joined")
	org := srv.URL + "/l/" + l.ID + "/org?t=" + tok(linksign.PurposeLeagueOrganiser, linksign.NoSeat)
	visit("organiser, before", org+"&lang=ru")
	// The confirmations (issue 25), from their mails' links: the
	// organiser's address, then Зоя's; each page's button leads home.
	visit("league confirm, organiser", srv.URL+"/l/"+l.ID+"/confirm?lang=ru&t="+tok(linksign.PurposeLeagueConfirm, linksign.NoSeat))
	b.press("organiser, confirmed", `form[action^="/l/"] button`, nil)
	if got := eval[string](b, `location.pathname`); got != "/l/"+l.ID+"/org" {
		t.Fatalf("the organiser's confirmation led to %s", got)
	}
	visit("league confirm, member", srv.URL+"/l/"+l.ID+"/confirm?lang=en&t="+tok(linksign.PurposeLeagueConfirm, 11))
	b.press("member, confirmed", `form[action^="/l/"] button`, nil)
	if got := eval[string](b, `location.pathname`); got != "/l/"+l.ID+"/me" {
		t.Fatalf("the member's confirmation led to %s", got)
	}

	// The season: twelve members in two divisions of six (tables of 3+3).
	if _, err := lg.StartSeason(ctx, l.ID, nil, clock.Now(), ""); err != nil {
		t.Fatal(err)
	}
	if err := lg.Sweep(ctx, clock.Now()); err != nil {
		t.Fatal(err)
	}
	s, err := lg.Current(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, s.Rounds[0].Tables[0].Game)
	// Two rounds close by their date, their games scored as they stand.
	for range 2 {
		if err := lg.Sweep(ctx, clock.Now()); err != nil {
			t.Fatal(err)
		}
		clock.add(l.RoundLength(testGames.Engines()) + time.Hour)
		if err := lg.Sweep(ctx, clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if s, err = lg.Current(ctx, l.ID); err != nil || !s.Rounds[1].Closed || !s.Rounds[2].Started {
		t.Fatalf("after two rounds: %+v, %v", s, err)
	}
	if err := lg.SeatSubstitute(ctx, l.ID, s.Divisions[0][0], service.Person{Name: "Sub", Email: "sub@pbm.test", Lang: "en"}, 3); err == nil {
		t.Error("a substitute seated for a round already started")
	}
	for _, lang := range []string{"ru", "en"} {
		visit("league "+lang, srv.URL+"/l/"+l.ID+"?lang="+lang+"&t="+tok(linksign.PurposeLeagueMember, 0))
		if n := b.count("svg.chart"); n != 2 {
			t.Errorf("the league page (%s) has %d charts, want one a division", lang, n)
		}
		// At a phone's width the standings scroll (issue 27).
		b.do(chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateMobile))
		visit("league, phone "+lang, srv.URL+"/l/"+l.ID+"?lang="+lang+"&t="+tok(linksign.PurposeLeagueMember, 0))
		b.do(chromedp.EmulateViewport(desktopWidth, desktopHeight))
		visit("member "+lang, srv.URL+"/l/"+l.ID+"/me?lang="+lang+"&t="+tok(linksign.PurposeLeagueMember, 1))
		visit("organiser "+lang, org+"&lang="+lang)
	}
	// A link from the league's page opens a game.
	b.open("league", srv.URL+"/l/"+l.ID+"?lang=en&t="+tok(linksign.PurposeLeagueMember, 0))
	b.press("game", `section a[href^="/g/"]`, nil)

	for _, r := range reports {
		grave := r.grave()
		t.Logf("%-20s %d rules, %d moderate or worse, %d minor", r.Kind+":", r.Rules, len(grave), len(r.Violations)-len(grave))
		for _, v := range grave {
			t.Errorf("the %s page %s: %s", r.Kind, r.Path, v)
		}
	}
	for _, p := range b.pages {
		t.Logf("%-20s %9s  %s", p.Kind, kb(p.Bytes), p.Path)
		if p.Bytes > maxPageBytes {
			t.Errorf("the %s page weighs %s, over %s", p.Kind, kb(p.Bytes), kb(maxPageBytes))
		}
		for _, u := range p.Outside {
			t.Errorf("the %s page requests %s, outside the service", p.Kind, u)
		}
	}
}
