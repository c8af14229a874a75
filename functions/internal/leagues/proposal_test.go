package leagues_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
)

// At a season's end the proposal promotes and relegates, leaves out a
// member who said they leave and puts one who joined during the season in
// the bottom division; the next season cannot start before the end.
func TestProposalAfterLeavingAndJoining(t *testing.T) {
	ctx := context.Background()
	st := boltStore(t)
	start := time.Date(2027, 6, 7, 9, 0, 0, 0, time.UTC)
	c := &clock{now: start}
	svc, lg := services(t, st, st, c)
	l := newLeague(t, lg, leagues.CreateRequest{Name: "Pairs", Organiser: servicePerson("Organiser", "org@pairs.example"),
		Kind: "western", Options: []byte(`{"laps":1}`), TableSize: 2, DeadlineHours: 12, Rounds: 1, Divisions: 2, RoundDays: 1},
		"Ada", "Bea", "Cid", "Dan")
	if err := lg.AddMember(ctx, l.ID, leagues.Member{Name: "Ada", Email: "other@pairs.example"}, ""); service.AsError(err).Code != service.CodeInvalid {
		t.Errorf("a second Ada: %v, want invalid", err)
	}
	if _, err := lg.StartSeason(ctx, l.ID, nil, start, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := lg.StartSeason(ctx, l.ID, nil, start, ""); service.AsError(err).Code != service.CodeWrongStatus {
		t.Errorf("a second season while the first runs: %v, want wrong status", err)
	}
	if err := lg.Sweep(ctx, start); err != nil {
		t.Fatal(err)
	}
	s, _, err := lg.Season(ctx, l.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, s.Rounds[0].Tables[0].Game)
	if err := lg.Leave(ctx, l.ID, "Bea"); err != nil {
		t.Fatal(err)
	}
	servicetest.Join(t, lg, l.ID, leagues.Member{Name: "Eve", Email: "eve@league.example"})
	for at := start.Add(time.Hour); !at.After(start.Add(24 * time.Hour)); at = at.Add(time.Hour) {
		c.Set(at)
		if err := lg.Sweep(ctx, at); err != nil {
			t.Fatal(err)
		}
	}
	if s, _, err = lg.Season(ctx, l.ID, 1); err != nil || !s.Over {
		t.Fatalf("season after its day: %+v, %v", s, err)
	}
	top, bottom := s.Tables[0], s.Tables[1]
	l, _, err = lg.League(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Division 1 keeps its winner and gets division 2's; division 2 keeps
	// its loser and gets division 1's; Bea leaves, Eve joins at the bottom.
	want := [][]string{{top[0].Member, bottom[0].Member}, {bottom[1].Member, top[1].Member, "Eve"}}
	for d := range want {
		var kept []string
		for _, m := range want[d] {
			if m != "Bea" {
				kept = append(kept, m)
			}
		}
		want[d] = kept
	}
	got, err := lg.Proposal(ctx, l.ID)
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("proposal %v, %v; want %v (tables %+v %+v)", got, err, want, top, bottom)
	}
}
