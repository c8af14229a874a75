package leagues_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// Two sweeps closing the same round at once record one result: both read
// the season before either writes (a barrier holds them), one writes and
// the other, finding the item moved, reads it again and finds the round
// closed. The ratings take the round in once. Two sweeps starting a round
// at once make its games once.
func TestTwoSweepsCloseARoundOnce(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		st := boltStore(t)
		raceClose(t, st)
	})
	t.Run("dynalite", func(t *testing.T) {
		client := testenv.DynamoClient(t, testenv.Dynalite(t))
		b := make([]byte, 6)
		rand.Read(b)
		table := "leagues-race-" + hex.EncodeToString(b) // a dynalite of DYNALITE_ENDPOINT outlives the test
		if err := dynamostore.CreateTable(t.Context(), client, table); err != nil {
			t.Fatal(err)
		}
		raceClose(t, dynamostore.New(client, table))
	})
}

func raceClose(t *testing.T, st gameStore) {
	ctx := context.Background()
	start := time.Date(2027, 5, 3, 9, 0, 0, 0, time.UTC)
	c := &clock{now: start}
	racing := &barrierStore{LeagueStore: st}
	svc, lg := services(t, st, racing, c)
	l := newLeague(t, lg, leagues.CreateRequest{Name: "Race", Organiser: servicePerson("Organiser", "org@race.example"),
		Kind: "western", Options: []byte(`{"laps":1}`), TableSize: 4, DeadlineHours: 24, Rounds: 1, Divisions: 1, RoundDays: 2},
		"Ada", "Bea", "Cid", "Dan")
	if _, err := lg.StartSeason(ctx, l.ID, nil, start, ""); err != nil {
		t.Fatal(err)
	}
	// Two sweeps start the round at once: its game is made once (the
	// second creation with the table's key answers the first's game).
	racing.arm()
	twoSweeps(t, lg, start)
	s, _, err := lg.Season(ctx, l.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	game := s.Rounds[0].Tables[0].Game
	// A game made twice would be listed with its invitations pending;
	// the table's own may have been written again since its mail went
	// (the second creation answers it), which takes it off the list.
	if pending, err := pendingGames(ctx, st, start); err != nil || len(pending) > 1 || len(pending) == 1 && pending[0] != game {
		t.Fatalf("games made by two sweeps starting a round of one table: %v, %v; want none but the table's %s", pending, err, game)
	}
	servicetest.Confirm(t, svc, game)
	c.Set(start.Add(leagues.CheckEvery))
	if err := lg.Sweep(ctx, c.Now()); err != nil {
		t.Fatal(err)
	}
	if s, _, err = lg.Season(ctx, l.ID, 1); err != nil || !s.Rounds[0].Started {
		t.Fatalf("round 1 not started after the organiser confirmed: %+v, %v", s, err)
	}
	rec, _, err := svc.Load(ctx, game)
	if err != nil || rec.Status != "playing" {
		t.Fatalf("game %s: %+v, %v", game, rec, err)
	}

	// The closing date passes with the game still running: it is scored
	// as it stands, and the game is left as it is.
	closeAt := time.Unix(s.Rounds[0].CloseAt, 0)
	c.Set(closeAt)
	rec, gameVersion, err := svc.Load(ctx, game)
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	scores := g.Score()
	racing.arm()
	twoSweeps(t, lg, closeAt)
	if closes, conflicts := racing.counts(); closes != 1 || conflicts < 1 {
		t.Errorf("%d writes closed the round and %d lost the race; want 1 and at least 1", closes, conflicts)
	}
	s, _, err = lg.Season(ctx, l.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Rounds[0]
	if !r.Closed || !s.Over || r.Tables[0].Result == nil || r.Tables[0].Result.Finished || r.ClosedAt != closeAt.Unix() {
		t.Fatalf("round after the race: %+v (season over %v)", r, s.Over)
	}
	if _, v, err := svc.Load(ctx, game); err != nil || v != gameVersion {
		t.Errorf("the game after its round closed: version %d (%v), want %d, untouched", v, err, gameVersion)
	}
	wantResults, err := leaguerules.Results(s.Rounds[0].Tables[0].Seats, scores)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Tables[0].Result.Results) != fmt.Sprint(wantResults) {
		t.Errorf("results %+v, want the engine's score as the game stood: %+v", r.Tables[0].Result.Results, wantResults)
	}
	l, _, err = lg.League(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	want, err := leaguerules.DefaultRatingModel().RateTables(nil, []leaguerules.Table{*r.Tables[0].Result})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(l.Rated) != "[0001/01]" || fmt.Sprint(l.Ratings) != fmt.Sprint(want) || l.ProposedAfter != 1 {
		t.Errorf("league after the race: rated %v, ratings %v (want %v), proposed after %d", l.Rated, l.Ratings, want, l.ProposedAfter)
	}
	// Nothing is due any more: the season's wake is cleared.
	if ids, err := st.LeaguesWaking(ctx, closeAt.Add(365*24*time.Hour).Unix()); err != nil || len(ids) != 0 {
		t.Errorf("leagues due after the season: %v, %v", ids, err)
	}
}

// twoSweeps runs two sweeps at once.
func twoSweeps(t *testing.T, lg *leagues.Service, at time.Time) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = lg.Sweep(context.Background(), at)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("sweep %d: %v", i, err)
		}
	}
}

// barrierStore holds the first reads of the seasons, once made, until
// waiting of them have been, so that racing sweeps read the same version, and counts
// the writes that close a round and those that lose to another.
type barrierStore struct {
	store.LeagueStore
	mu        sync.Mutex
	armed     bool
	waiting   int
	release   chan struct{}
	closes    int
	conflicts int
}

// arm makes the next two reads of the seasons wait for each other, and
// starts the counts again.
func (b *barrierStore) arm() {
	b.mu.Lock()
	b.armed, b.waiting, b.release = true, 2, make(chan struct{})
	b.closes, b.conflicts = 0, 0
	b.mu.Unlock()
}

func (b *barrierStore) counts() (int, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closes, b.conflicts
}

// LeagueItems reads, then waits for the other racers to have read too.
func (b *barrierStore) LeagueItems(ctx context.Context, id, prefix string) ([]store.LeagueItem, error) {
	items, err := b.LeagueStore.LeagueItems(ctx, id, prefix)
	b.mu.Lock()
	hold := b.armed && prefix == "season/" && b.waiting > 0
	if hold {
		b.waiting--
		if b.waiting == 0 {
			close(b.release)
		}
	}
	b.mu.Unlock()
	if hold {
		<-b.release
	}
	return items, err
}

func (b *barrierStore) PutLeagueItem(ctx context.Context, it store.LeagueItem, prev int64) (int64, error) {
	var before store.LeagueItem
	if prev > 0 {
		before, _ = b.LeagueStore.GetLeagueItem(ctx, it.League, it.Key)
	}
	v, err := b.LeagueStore.PutLeagueItem(ctx, it, prev)
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case errors.Is(err, store.ErrConflict):
		b.conflicts++
	case err == nil && closedRounds(it.Body) > closedRounds(before.Body):
		b.closes++
	}
	return v, err
}

// closedRounds counts the closed rounds of a season item's body (0 for
// any other item).
func closedRounds(body []byte) int {
	var s leagues.Season
	if json.Unmarshal(body, &s) != nil {
		return 0
	}
	n := 0
	for _, r := range s.Rounds {
		if r.Closed {
			n++
		}
	}
	return n
}

// pendingGames lists the games with mail pending after commits made at
// now: listed as pending (a store without sent markers), or under the
// mail keys of now's period and the few after (service.MailKeys).
func pendingGames(ctx context.Context, st store.Store, now time.Time) ([]string, error) {
	ids, err := st.PendingOutbox(ctx)
	if err != nil {
		return nil, err
	}
	for _, key := range service.MailKeys(now, now.Add(4*service.SweepEvery)) {
		keyed, err := st.PendingMail(ctx, key)
		if err != nil {
			return nil, err
		}
		ids = append(ids, keyed...)
	}
	return ids, nil
}
