package leagues_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/calendar"
	"github.com/pbmgames/pbm/functions/internal/league"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

// The members of the simulated league: three divisions of seven.
var simMembers = [][]string{
	{"Anna", "Boris", "Clara", "Denis", "Elena", "Fyodor", "Galina"},
	{"Hugo", "Irina", "Jakob", "Kira", "Lev", "Marta", "Nikita"},
	{"Olga", "Pavel", "Quinn", "Rita", "Stepan", "Tanya", "Ulrich"},
}

// vanished is the member who never answers: their deadlines play the
// default, then a bot.
const vanished = "Kira"

func TestSeasonOfThreeDivisions(t *testing.T) {
	ctx := context.Background()
	st := boltStore(t)
	start := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	c := &clock{now: start}
	svc, lg := services(t, st, st, c)

	l, err := lg.Create(ctx, leagues.CreateRequest{Name: "Клуб по средам", Organiser: servicePerson("Organiser", "org@club.example"),
		Kind: "businessman", Options: []byte(`{"laps":2}`), TableSize: 4, DeadlineHours: 24, Rounds: 4, Divisions: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.RoundLength(), 3*24*time.Hour; got != want {
		t.Errorf("round length %v, want %v (the 90th percentile of a 4-seat 2-lap «Бизнесмен» at 24 h, 2.2 days, rounded up)", got, want)
	}
	for d, div := range simMembers {
		for i, name := range div {
			m := leagues.Member{Name: name, Email: fmt.Sprintf("%s@club.example", name), Lang: []string{"ru", "en"}[i%2],
				TimeZone: []string{"Europe/Moscow", "Europe/Berlin", "Asia/Yekaterinburg"}[(d+i)%3], Mail: "all"}
			if err := lg.AddMember(ctx, l.ID, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	proposal, err := lg.Proposal(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(proposal) != fmt.Sprint(simMembers) {
		t.Fatalf("first proposal %v, want the members as they joined, seven a division", proposal)
	}
	if _, err := lg.StartSeason(ctx, l.ID, nil, start); err != nil {
		t.Fatal(err)
	}
	// The first sweep makes round 1's games; they wait for the organiser
	// to confirm their address, which they do from the first game's mail.
	if err := lg.Sweep(ctx, start); err != nil {
		t.Fatal(err)
	}
	s1, _, err := lg.Season(ctx, l.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r := s1.Rounds[0]; r.Started || len(r.Tables) != 6 || r.Tables[0].Game == "" {
		t.Fatalf("round 1 after the first sweep: %+v, want 6 games made and waiting", r)
	}
	servicetest.Confirm(t, svc, s1.Rounds[0].Tables[0].Game)

	zones := map[string]int{}
	for d, div := range simMembers {
		for i, name := range div {
			zones[name] = (d + i) % 3
		}
	}
	p := &people{t: t, ctx: ctx, svc: svc, lg: lg, clock: c, league: l.ID, model: calendar.DefaultModel(),
		rng: rand.New(rand.NewPCG(14, 2027)), zones: zones, vanished: map[string]bool{vanished: true}, asked: map[string]int64{}, ordered: map[string]bool{}}
	season := p.run(1, start.Add(30*24*time.Hour))
	t.Logf("tables:\n%s", describe(season))
	t.Logf("standings:\n%s", standingsText(season.Tables))
	l, _, err = lg.League(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("proposal %v moves %+v", l.Proposal, l.Moves)

	// The ratings are the season's tables rated one after another.
	var all []league.Table
	for d := range season.Divisions {
		all = append(all, season.Results(d)...)
	}
	want, err := league.DefaultRatingModel().RateTables(nil, all)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Ratings) != 21 || len(l.Rated) != 4 {
		t.Errorf("%d ratings over rounds %v, want 21 over 4", len(l.Ratings), l.Rated)
	}
	for m, r := range want {
		if l.Ratings[m] != r {
			t.Errorf("rating of %s: %+v, want %+v", m, l.Ratings[m], r)
		}
	}
}
