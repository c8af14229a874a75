package leagues_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// TestRoundSeatsAtOnce (issue 27): the pass that makes a round's games
// starts them, its members seated with no invitation and no "accepted"
// mail: each member is mailed their table once, by the league.
func TestRoundSeatsAtOnce(t *testing.T) {
	ctx := t.Context()
	st := boltStore(t)
	start := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	c := &clock{now: start}
	box := &postbox{}
	svc, lg := servicesWithPost(t, st, st, c, box)
	l := newLeague(t, lg, leagues.CreateRequest{Name: "Среда", Organiser: servicePerson("Org", "org@league.example"),
		Kind: "businessman", Options: []byte(`{"laps":2}`), TableSize: 3, DeadlineHours: 24, Rounds: 1, Divisions: 1},
		"Anna", "Boris", "Clara", "Denis", "Elena", "Fyodor")
	if _, err := lg.StartSeason(ctx, l.ID, nil, start, ""); err != nil {
		t.Fatal(err)
	}
	if err := lg.Sweep(ctx, start); err != nil {
		t.Fatal(err)
	}
	s, _, err := lg.Season(ctx, l.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Rounds[0]
	if !r.Started || len(r.Tables) != 2 {
		t.Fatalf("round 1 after the pass that made it: %+v", r)
	}
	for _, name := range []string{"Anna", "Boris", "Clara", "Denis", "Elena", "Fyodor"} {
		if n := box.got[name][leagues.LetterRound]; n != 1 {
			t.Errorf("%s got %d table letters, want 1", name, n)
		}
	}
	for _, table := range r.Tables {
		rec, _, err := svc.Load(ctx, table.Game)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status != service.StatusPlaying {
			t.Errorf("game %s is %s after the pass that made it, want playing", table.Game, rec.Status)
		}
		kinds := map[string]int{}
		for _, m := range rec.Outbox {
			kinds[m.Kind]++
		}
		if kinds[service.MailInvite]+kinds[service.MailAccepted]+kinds[service.MailConfirm] != 0 {
			t.Errorf("game %s mails %v: want no invitation, confirmation or acceptance", table.Game, kinds)
		}
		for i, seat := range rec.Seats {
			if !seat.Accepted || seat.Engine != i {
				t.Errorf("game %s seat %d: %+v, want seated in the table's order", table.Game, i, seat)
			}
		}
	}
}

// TestReplacedSeatKeepsLeagueResult (issue 27): a member whose seat the
// game's organiser gave to a substitute keeps the seat's result: the
// league counts the seat, not who last held it.
func TestReplacedSeatKeepsLeagueResult(t *testing.T) {
	ctx := t.Context()
	st := boltStore(t)
	start := time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	c := &clock{now: start}
	svc, lg := services(t, st, st, c)
	l := newLeague(t, lg, leagues.CreateRequest{Name: "Среда", Organiser: servicePerson("Org", "org@league.example"),
		Kind: "businessman", Options: []byte(`{"laps":2}`), TableSize: 3, DeadlineHours: 24, Rounds: 1, Divisions: 1},
		"Anna", "Boris", "Clara")
	if _, err := lg.StartSeason(ctx, l.ID, nil, start, ""); err != nil {
		t.Fatal(err)
	}
	if err := lg.Sweep(ctx, start); err != nil {
		t.Fatal(err)
	}
	s, _, err := lg.Season(ctx, l.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	table := s.Rounds[0].Tables[0]
	for inv := range table.Seats {
		if _, err := svc.Accept(ctx, table.Game, inv); err != nil && service.AsError(err) == nil {
			t.Fatal(err) // a game made the old way waits for its seats
		}
	}
	gone := table.Seats[1]
	if err := svc.Control(ctx, table.Game, service.ControlRequest{Control: service.ControlReplace, Seat: 1,
		Substitute: &service.Person{Name: "Sub", Email: "sub@league.example", Lang: "en"}, Key: "replace-1"}); err != nil {
		t.Fatal(err)
	}
	if err := svc.Control(ctx, table.Game, service.ControlRequest{Control: service.ControlEnd, Key: "end-game"}); err != nil {
		t.Fatal(err)
	}
	c.Set(start.Add(2 * time.Hour))
	if err := lg.Sweep(ctx, c.Now()); err != nil {
		t.Fatal(err)
	}
	if s, _, err = lg.Season(ctx, l.ID, 1); err != nil {
		t.Fatal(err)
	}
	res := s.Rounds[0].Tables[0].Result
	if res == nil {
		t.Fatalf("round not closed: %+v", s.Rounds[0])
	}
	got := fmt.Sprint(res.Results)
	for _, m := range table.Seats {
		found := false
		for _, r := range res.Results {
			found = found || r.Member == m
		}
		if !found {
			t.Errorf("the table's result %s lacks %s (the replaced seat was %s's)", got, m, gone)
		}
	}
}
