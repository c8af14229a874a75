package compose_test

import (
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/testenv"
)

// The league's own mails in each member's language and time zone: the
// season's start with its dates, the weekly standings and the result
// with the member's row marked and their move; each with the league's
// page and an unsubscribe link.
func TestLeagueMails(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler),
		Rand: testenv.Rand(t.Name())})
	c := compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "https://pbm.test", NoPicture: true})

	lg := &leagues.League{ID: "lg1", Name: "Клуб", Kind: "western", TableSize: 2, Rounds: 1, ProposedAfter: 1,
		Members: []leagues.Member{{Name: "Анна", Email: "anna@pbm.test", Lang: "ru", TimeZone: "Asia/Yekaterinburg"},
			{Name: "Bob", Email: "bob@pbm.test", Lang: "en", TimeZone: "Europe/London"}},
		Moves: []leaguerules.Move{{Member: "Bob", From: 0, To: 1}}}
	res := &leaguerules.Table{Game: "g1", Round: 1, Finished: true, Results: []leaguerules.Result{{Member: "Анна", Place: 1, NetWorth: 9}, {Member: "Bob", Place: 2, NetWorth: 3}}}
	season := &leagues.Season{N: 1, Divisions: [][]string{{"Анна", "Bob"}}, Rounds: []leagues.Round{
		{N: 1, StartAt: now.Unix(), CloseAt: now.Add(72 * time.Hour).Unix(), Started: true, Closed: true, Tables: []leagues.Table{{Seats: []string{"Анна", "Bob"}, Game: "g1", Result: res}}}}}
	for _, tc := range []struct {
		kind, member string
		want         []string
	}{
		{leagues.LetterStart, "Анна", []string{"Здравствуйте, Анна!", "«Клуб»: начинается сезон 1", "2027-03-01 14:00 Asia/Yekaterinburg", "Ваш дивизион: Анна, Bob"}},
		{leagues.LetterStart, "Bob", []string{"Hello Bob,", "Клуб: season 1 begins", "2027-03-01 09:00 Europe/London"}},
		{leagues.LetterStandings, "Bob", []string{"Клуб: the standings of season 1", "1. Анна — 7.5", "2. Bob — 2.5 *"}},
		{leagues.LetterResult, "Анна", []string{"«Клуб»: итоги сезона 1", "1. Анна — 7,5 *"}},
	} {
		season.Over = tc.kind == leagues.LetterResult
		if season.Over {
			season.Tables, _ = season.Standings()
		}
		msg, err := c.League(t.Context(), lg, season, leagues.Letter{ID: tc.kind + "/" + tc.member, Kind: tc.kind, Member: tc.member})
		if err != nil {
			t.Fatalf("%s to %s: %v", tc.kind, tc.member, err)
		}
		for _, w := range append(tc.want, "https://pbm.test/l/lg1?t=", "/unsubscribe?") {
			if !strings.Contains(msg.Subject+"\n"+msg.Text, w) {
				t.Errorf("%s to %s lacks %q:\n%s\n%s", tc.kind, tc.member, w, msg.Subject, msg.Text)
			}
		}
		if !strings.Contains(msg.HTML, "</html>") || msg.Unsubscribe == "" {
			t.Errorf("%s to %s: html or List-Unsubscribe missing", tc.kind, tc.member)
		}
	}
	// Bob, relegated, is told in the result.
	season.Over, season.Tables = true, nil
	season.Tables, _ = season.Standings()
	msg, err := c.League(t.Context(), lg, season, leagues.Letter{ID: "r/Bob", Kind: leagues.LetterResult, Member: "Bob"})
	if err != nil || !strings.Contains(msg.Text, "You go down to division 2.") {
		t.Errorf("Bob's result: %v\n%s", err, msg.Text)
	}
	if _, err := c.League(t.Context(), lg, season, leagues.Letter{ID: "x", Kind: leagues.LetterStart, Member: "Nobody"}); err == nil {
		t.Error("a mail to a stranger was composed")
	}
}

// TestLeagueConfirmMails (issue 25): the mail that asks a league's
// organiser, or a member who joined, to confirm their address says
// nothing the league's maker wrote — not its name, not a name — in both
// languages, with the link of its confirmation (league-confirm, the
// member's index or none) and an unsubscribe link.
func TestLeagueConfirmMails(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Log: slog.New(slog.DiscardHandler), Rand: testenv.Rand(t.Name())})
	c := compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "https://pbm.test", NoPicture: true})
	lg := &leagues.League{ID: "lg1", Name: "Buy cheap watches", Kind: "businessman",
		Organiser: service.Person{Name: "Watch Seller", Email: "seller@example.org", Lang: "en"},
		Members:   []leagues.Member{{Name: "Watches For You", Email: "victim@example.org", Lang: "ru", Pending: true}}}
	for _, tc := range []struct {
		member, to, subject string
		seat                int
	}{
		{"", "seller@example.org", "Confirm your address for a play-by-mail league", linksign.NoSeat},
		{"Watches For You", "victim@example.org", "Подтвердите адрес для лиги игр по почте", 0},
	} {
		msg, err := c.League(t.Context(), lg, nil, leagues.Letter{ID: "confirm/x/1", Kind: leagues.LetterConfirm, Member: tc.member})
		if err != nil {
			t.Fatal(err)
		}
		all := msg.Subject + msg.Text + msg.HTML
		if msg.To != tc.to || msg.Subject != tc.subject || strings.Contains(strings.ToLower(all), "watch") {
			t.Errorf("to %s: %q, %q", msg.To, msg.Subject, msg.Text)
		}
		if !strings.Contains(msg.Text, "«Бизнесмен»") || !strings.Contains(msg.Text, "Businessman") || msg.Unsubscribe == "" {
			t.Errorf("to %s: the game's name in both languages and an unsubscribe link: %q", tc.to, msg.Text)
		}
		i := strings.Index(msg.Text, "https://pbm.test/l/lg1/confirm?")
		if i < 0 {
			t.Fatalf("to %s: no confirmation link: %s", tc.to, msg.Text)
		}
		link, _ := url.Parse(strings.Fields(msg.Text[i:])[0])
		claims, err := svc.Authorize(link.Query().Get("t"), "lg1", linksign.PurposeLeagueConfirm)
		if err != nil || claims.Seat != tc.seat {
			t.Errorf("to %s: the link's token: %+v, %v; want seat %d", tc.to, claims, err, tc.seat)
		}
	}
}
