package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// maxLeaguePage is SPEC §6's bound of a page.
const maxLeaguePage = 60 << 10

// TestLeaguePageSizeFullSeason: the largest season a league may have —
// MaxRounds rounds of three divisions of seven, every round closed — keeps
// its page under 60 KB in both languages, with the longest names.
func TestLeaguePageSizeFullSeason(t *testing.T) {
	w := newLeagueWorld(t)
	ctx := t.Context()
	l, err := w.app.Leagues.Create(ctx, leagues.CreateRequest{Name: "Лига", Organiser: service.Person{Name: "Ольга", Email: "olga@pbm.test", Lang: "ru"},
		Kind: "western", TableSize: 4, Rounds: leagues.MaxRounds, Divisions: 3})
	if err != nil {
		t.Fatal(err)
	}
	var divisions [][]string
	for d := range 3 {
		var div []string
		for i := range 7 {
			name := fmt.Sprintf("%c%038d", 'A'+d*7+i, 0)
			servicetest.Join(t, w.app.Leagues, l.ID, leagues.Member{Name: name, Email: fmt.Sprintf("m%d@pbm.test", d*7+i), Lang: "en"})
			div = append(div, name)
		}
		divisions = append(divisions, div)
	}
	season := leagues.Season{N: 1, Divisions: divisions, Over: false}
	for r := range leagues.MaxRounds {
		round := leagues.Round{N: r + 1, StartAt: int64(r) * 86400, CloseAt: int64(r+1) * 86400, Started: true, Closed: true}
		for d, div := range divisions {
			for _, seats := range [][]string{{div[(r)%7], div[(r+1)%7], div[(r+2)%7], div[(r+3)%7]}, {div[(r+4)%7], div[(r+5)%7], div[(r+6)%7]}} {
				game := fmt.Sprintf("%024d", len(round.Tables)+r*100+d*10)
				res := &leaguerules.Table{Game: game, Round: r + 1, Finished: r%2 == 0}
				for i, m := range seats {
					res.Results = append(res.Results, leaguerules.Result{Member: m, Place: i + 1, NetWorth: int64(100000 - 1000*i - r)})
				}
				round.Tables = append(round.Tables, leagues.Table{Division: d, Seats: seats, Game: game, Result: res})
			}
		}
		season.Rounds = append(season.Rounds, round)
	}
	body, _ := json.Marshal(season)
	if _, err := w.app.Store.PutLeagueItem(ctx, store.LeagueItem{League: l.ID, Key: "season/0001", Body: body}, 0); err != nil {
		t.Fatal(err)
	}
	tok, err := w.app.Service.Token(linksign.PurposeLeagueMember, l.ID, 0, 0, service.OrganiserTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"ru", "en"} {
		rec := w.do(t, "GET", "/l/"+l.ID+"?lang="+lang+"&t="+url.QueryEscape(tok), "", nil)
		if rec.Code != 200 {
			t.Fatalf("league page: %d %.300s", rec.Code, rec.Body)
		}
		t.Logf("a season of %d rounds, 3 divisions of 7 (%s): the league page weighs %.1f KB", leagues.MaxRounds, lang, float64(rec.Body.Len())/1024)
		if dump := os.Getenv("LEAGUE_PAGE_DUMP"); dump != "" {
			_ = os.WriteFile(dump+"."+lang+".html", rec.Body.Bytes(), 0o644)
		}
		if rec.Body.Len() > maxLeaguePage {
			t.Errorf("the league page (%s) weighs %d bytes, over %d", lang, rec.Body.Len(), maxLeaguePage)
		}
	}
}
