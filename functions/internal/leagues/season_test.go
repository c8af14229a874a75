package leagues_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/calendar"
	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
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
	box := &postbox{}
	svc, lg := servicesWithPost(t, st, st, c, box)

	l, err := lg.Create(ctx, leagues.CreateRequest{Name: "Клуб по средам", Organiser: servicePerson("Organiser", "org@club.example"),
		Kind: "businessman", Options: []byte(`{"laps":2}`), TableSize: 4, DeadlineHours: 24, Rounds: 4, Divisions: 3})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.ConfirmLeague(t, lg, l.ID)
	if got, want := l.RoundLength(testGames.Engines()), 3*24*time.Hour; got != want {
		t.Errorf("round length %v, want %v (the 90th percentile of a 4-seat 2-lap «Бизнесмен» at 24 h, 2.2 days, rounded up)", got, want)
	}
	for d, div := range simMembers {
		for i, name := range div {
			m := leagues.Member{Name: name, Email: fmt.Sprintf("%s@club.example", name), Lang: []string{"ru", "en"}[i%2],
				TimeZone: []string{"Europe/Moscow", "Europe/Berlin", "Asia/Yekaterinburg"}[(d+i)%3],
				Mail:     []string{store.MailAll, store.MailTurns, store.MailDigest}[(d*7+i)%3]}
			servicetest.Join(t, lg, l.ID, m)
		}
	}
	proposal, err := lg.Proposal(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(proposal) != fmt.Sprint(simMembers) {
		t.Fatalf("first proposal %v, want the members as they joined, seven a division", proposal)
	}
	if _, err := lg.StartSeason(ctx, l.ID, nil, start, ""); err != nil {
		t.Fatal(err)
	}
	// The first sweep makes round 1's games, which start at once: the
	// organiser confirmed their address for the league.
	if err := lg.Sweep(ctx, start); err != nil {
		t.Fatal(err)
	}
	s1, _, err := lg.Season(ctx, l.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r := s1.Rounds[0]; !r.Started || len(r.Tables) != 6 || r.Tables[0].Game == "" {
		t.Fatalf("round 1 after the first sweep: %+v, want 6 games made and started", r)
	}

	zones := map[string]int{}
	for d, div := range simMembers {
		for i, name := range div {
			zones[name] = (d + i) % 3
		}
	}
	p := &people{t: t, ctx: ctx, svc: svc, lg: lg, clock: c, league: l.ID, model: calendar.DefaultModel(),
		rng: rand.New(rand.NewPCG(14, 2027)), zones: zones, vanished: map[string]bool{vanished: true}, asked: map[string]int64{}, ordered: map[string]bool{}}
	season := p.run(1, start.Add(30*24*time.Hour))
	if got := describe(season); got != wantTables {
		t.Errorf("tables:\n%s\nwant:\n%s", got, wantTables)
	}
	if got := standingsText(season.Tables); got != wantStandings {
		t.Errorf("standings:\n%s\nwant:\n%s", got, wantStandings)
	}
	for d, rows := range season.Tables {
		chart, err := season.PointsByRound(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			if line := chart[row.Member]; len(line) != 4 || line[3] != row.Points {
				t.Errorf("%s's points by round %v end elsewhere than the table's %d", row.Member, line, row.Points)
			}
		}
	}
	if end := time.Unix(season.Rounds[3].CloseAt, 0); !end.Equal(start.Add(12 * 24 * time.Hour)) {
		t.Errorf("the season ends %s, want four rounds of three days after %s", end, start)
	}
	l, _, err = lg.League(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Proposal); got != wantProposal {
		t.Errorf("proposal %s, want %s", got, wantProposal)
	}
	if got := fmt.Sprint(l.Moves); got != wantMoves {
		t.Errorf("moves %s, want %s", got, wantMoves)
	}
	checkVanished(t, svc, season)
	logMails(t, svc, season)
	// The season of twelve days had one weekly standings, on day 7.
	checkLetters(t, box, l, 4, 1)

	// The ratings are the season's tables rated one after another.
	var all []leaguerules.Table
	for d := range season.Divisions {
		all = append(all, season.Results(d)...)
	}
	want, err := leaguerules.DefaultRatingModel().RateTables(nil, all)
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
	// Ranked by ordinal the ratings follow the season closely: the
	// winners of the bottom and top divisions lead, the last of each
	// trail.
	if !(l.Ratings["Tanya"].Mu > 25 && l.Ratings["Denis"].Mu > 25 && l.Ratings["Quinn"].Mu < 25 && l.Ratings["Galina"].Mu < 25) {
		t.Errorf("ratings of the first and last: Tanya %+v, Denis %+v, Quinn %+v, Galina %+v", l.Ratings["Tanya"], l.Ratings["Denis"], l.Ratings["Quinn"], l.Ratings["Galina"])
	}

	// The organiser confirms the proposal: season 2 seats it, and its
	// first round starts at once (the organiser's address is confirmed).
	start2 := c.Now().Add(24 * time.Hour).Truncate(24 * time.Hour).Add(9 * time.Hour)
	c.Set(start2)
	n, err := lg.StartSeason(ctx, l.ID, nil, start2, "")
	if err != nil || n != 2 {
		t.Fatalf("start season 2 = %d, %v", n, err)
	}
	if err := lg.Sweep(ctx, start2); err != nil {
		t.Fatal(err)
	}
	s2, _, err := lg.Season(ctx, l.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s2.Divisions) != wantProposal || !s2.Rounds[0].Started {
		t.Errorf("season 2: divisions %v, round 1 started %v; want the proposal, started", s2.Divisions, s2.Rounds[0].Started)
	}
	for _, table := range s2.Rounds[0].Tables {
		if table.Division == 0 && slices.Contains(table.Seats, "Lev") || table.Division == 1 && slices.Contains(table.Seats, "Galina") {
			return
		}
	}
	t.Errorf("season 2 round 1 seats neither Lev in division 1 nor Galina in division 2: %+v", s2.Rounds[0].Tables)
}

// checkVanished: the vanished member never played a decision themself;
// their standing orders and deadlines did, then a bot.
func checkVanished(t *testing.T, svc *service.Service, season *leagues.Season) {
	t.Helper()
	games, bots := 0, 0
	for _, r := range season.Rounds {
		for _, table := range r.Tables {
			inv := slices.Index(table.Seats, vanished)
			if inv < 0 {
				continue
			}
			games++
			rec, _, err := svc.Load(t.Context(), table.Game)
			if err != nil {
				t.Fatal(err)
			}
			seat := rec.Seats[inv].Engine
			log, err := svc.FullLog(t.Context(), rec)
			if err != nil {
				t.Fatal(err)
			}
			by := map[string]int{}
			for _, e := range log {
				if e.Seat == seat {
					by[e.By]++
				}
			}
			if by[""] != 0 {
				t.Errorf("game %s: the vanished member made %d decisions", table.Game, by[""])
			}
			if seat < len(rec.Bots) && rec.Bots[seat] {
				bots++
			}
			t.Logf("round %d game %s: %s's decisions by %v", r.N, table.Game, vanished, by)
		}
	}
	// Her orders covered most decisions; a turn they did not cover waited
	// for its deadline, and the second such turn handed her seat to a bot
	// (in round 1; the other games ended, or their round closed, first).
	if games != 4 || bots < 1 {
		t.Errorf("%s sat at %d games, handed to a bot in %d; want 4 and at least 1", vanished, games, bots)
	}
}

// logMails counts the mails the season's games left for the organiser and
// for the members, by kind (no notifier runs: the outboxes keep them).
func logMails(t *testing.T, svc *service.Service, season *leagues.Season) {
	t.Helper()
	organiser, members := map[string]int{}, map[string]int{}
	for _, r := range season.Rounds {
		for _, table := range r.Tables {
			rec, _, err := svc.Load(t.Context(), table.Game)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range rec.Outbox {
				if m.Seat < 0 {
					organiser[m.Kind]++
				} else {
					members[m.Kind]++
				}
			}
		}
	}
	t.Logf("mails of the season's 24 games: to the organiser %v; to the members %v", organiser, members)
}
