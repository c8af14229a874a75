package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
)

// A season of two rounds at one table of four, the second unfinished:
// the table's rows with their tie notes, places and points by round, the
// reader's own games linked to their seat, ratings shown as μ ± σ with
// the language's decimal mark.
func TestLeagueView(t *testing.T) {
	members := []string{"Anna", "Boris", "Clara", "Denis"}
	lg := &leagues.League{ID: "lg1", Name: "Club", Kind: "western", TableSize: 4, Rounds: 2, DeadlineHours: 72,
		Ratings: map[string]leaguerules.Rating{"Anna": {Mu: 27.5, Sigma: 7.25}}}
	for _, m := range members {
		lg.Members = append(lg.Members, leagues.Member{Name: m, Email: strings.ToLower(m) + "@pbm.test", Lang: "en"})
	}
	// Round 1: Anna, Boris, Clara, Denis in that order. Round 2: Boris
	// first, Anna second, Clara and Denis level (equal net worth).
	r1 := &leaguerules.Table{Game: "g1", Round: 1, Finished: true, Results: []leaguerules.Result{
		{Member: "Anna", Place: 1, NetWorth: 400}, {Member: "Boris", Place: 2, NetWorth: 300}, {Member: "Clara", Place: 3, NetWorth: 200}, {Member: "Denis", Place: 4, NetWorth: 100}}}
	r2 := &leaguerules.Table{Game: "g2", Round: 2, Finished: false, Results: []leaguerules.Result{
		{Member: "Boris", Place: 1, NetWorth: 500}, {Member: "Anna", Place: 2, NetWorth: 300}, {Member: "Clara", Place: 3, NetWorth: 150}, {Member: "Denis", Place: 4, NetWorth: 150}}}
	season := &leagues.Season{N: 1, Divisions: [][]string{members}, Rounds: []leagues.Round{
		{N: 1, StartAt: 0, CloseAt: 86400, Started: true, Closed: true, Tables: []leagues.Table{{Seats: members, Game: "g1", Result: r1}}},
		{N: 2, StartAt: 86400, CloseAt: 2 * 86400, Started: true, Closed: true, Tables: []leagues.Table{{Seats: []string{"Boris", "Anna", "Clara", "Denis"}, Game: "g2", Result: r2}}},
	}}
	signed := map[linksign.Purpose]int{}
	req := views.LeagueRequest{Games: testGames, Lang: "ru", League: lg, Season: season, History: []*leagues.Season{season}, Member: 1,
		Sign: func(p linksign.Purpose, game string, seat int, _ time.Duration) (string, error) {
			signed[p]++
			return string(p) + "-" + game, nil
		},
		Link: func(path, token string) string { return path + "?t=" + token }}
	p, err := views.LeagueView(req)
	if err != nil {
		t.Fatal(err)
	}
	rows := p.Divisions[0].Rows
	var got []string
	for _, r := range rows {
		got = append(got, r.Member+" "+r.Points+" ["+r.Places+"] "+r.Note)
	}
	// Anna 10+6, Boris 6+10: level on points, Boris ahead by net worth
	// (800 to 700);
	// Clara 3 + 2 (3 and 1 shared), Denis 1 + 2: level, Clara ahead by
	// net worth.
	want := []string{
		"Boris 16 [2 · 1] равенство очков: решил капитал",
		"Anna 16 [1 · 2] равенство очков: решил капитал",
		"Clara 5 [3 · 3] ",
		"Denis 3 [4 · 4] ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if pts := p.Divisions[0].Points[1]; len(pts) != 3 || pts[0] != 0 || pts[1] != 1000 || pts[2] != 1600 {
		t.Errorf("Anna's points by round %v, want 0, 1000, 1600", pts)
	}
	// Boris reads: his two games link to his seats, in his row and on his part.
	if len(rows[0].Games) != 2 || rows[0].Games[0].URL != "/g/g1?t=seat-g1" || len(rows[1].Games) != 0 {
		t.Errorf("the games linked: Boris %v, Anna %v", rows[0].Games, rows[1].Games)
	}
	if p.Me == nil || p.Me.Name != "Boris" || len(p.Me.Games) != 2 || p.Me.Rating != "25,0 ± 8,3" {
		t.Errorf("Boris's part: %+v", p.Me)
	}
	if len(p.Ratings) != 1 || p.Ratings[0].Text != "27,5 ± 7,2" && p.Ratings[0].Text != "27,5 ± 7,3" {
		t.Errorf("ratings %+v", p.Ratings)
	}
	if r := p.Rounds[1]; r.Tables[0].URL != "/g/g2?t=view-g2" || !strings.Contains(r.Tables[0].Result, "не окончена") {
		t.Errorf("round 2's table: %+v", r.Tables[0])
	}
	if signed[linksign.PurposeSpectator] != 2 {
		t.Errorf("signed %v: want a spectator's link for each game once", signed)
	}
}

// TestLeagueBeforeAnyGame (issue 27): a season whose first round has
// just begun reads as such: no row is «полное равенство» before anyone
// has played.
func TestLeagueBeforeAnyGame(t *testing.T) {
	members := []string{"Anna", "Boris", "Clara"}
	lg := &leagues.League{ID: "lg1", Name: "Club", Kind: "western", TableSize: 3, Rounds: 2, DeadlineHours: 72}
	for _, m := range members {
		lg.Members = append(lg.Members, leagues.Member{Name: m, Email: strings.ToLower(m) + "@pbm.test", Lang: "ru"})
	}
	season := &leagues.Season{N: 1, Divisions: [][]string{members}, Rounds: []leagues.Round{
		{N: 1, StartAt: 0, CloseAt: 86400, Started: true, Tables: []leagues.Table{{Seats: members, Game: "g1"}}},
		{N: 2, StartAt: 86400, CloseAt: 2 * 86400}}}
	p, err := views.LeagueView(views.LeagueRequest{Games: testGames, Lang: "ru", League: lg, Season: season, History: []*leagues.Season{season}, Member: 0,
		Sign: func(p linksign.Purpose, game string, seat int, _ time.Duration) (string, error) { return "tok", nil },
		Link: func(path, token string) string { return path + "?t=" + token }})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Divisions[0].Rows {
		if r.Note != "" {
			t.Errorf("%s before any game: %q", r.Member, r.Note)
		}
	}
	if strings.Contains(p.SeasonText, "не начался") {
		t.Errorf("season 1 under way reads %q", p.SeasonText)
	}
}
