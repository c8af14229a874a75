package service_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// unversion rewrites a stored game as it was stored before games
// recorded their rules version: the same item without "rules".
func unversion(t *testing.T, st *boltstore.Store, id string) {
	t.Helper()
	g, err := st.GetGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := service.RecordJSON(g.Body)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	if _, ok := body["rules"]; !ok {
		t.Fatal("the stored game has no rules version to take away")
	}
	delete(body, "rules")
	raw, _ = json.Marshal(body)
	if g.Body, err = service.RecordBody(raw); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutGame(t.Context(), g, g.Version); err != nil {
		t.Fatal(err)
	}
}

// TestUnversionedGamesSettleTheirRules: a game stored before rules
// versions were recorded is of the first version — unless it has not
// started, or its whole log replays to its stored state under today's
// rules, when it goes on under them. One that does not replay under
// today's rules can be viewed but not played on.
func TestUnversionedGamesSettleTheirRules(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler),
		Limits: servicetest.Roomy, Rand: testenv.Rand(t.Name())})
	create := func(accept bool) string {
		var people []service.Person
		for i := range 3 {
			people = append(people, service.Person{Name: fmt.Sprintf("P%d", i), Email: fmt.Sprintf("p%d@pbm.test", i)})
		}
		c := servicetest.Create(t, svc, service.CreateRequest{Kind: western.Name, Options: []byte(`{"laps":3}`),
			Organiser: service.Person{Email: "o@pbm.test"}, Seats: people})
		servicetest.OrdersOff(t, svc, c.ID) // the moves made one by one below
		if accept {
			for i := range 3 {
				if _, err := svc.Accept(t.Context(), c.ID, i); err != nil {
					t.Fatal(err)
				}
			}
			// Past a chunk of the log and a lap income (W-3), not to the end.
			for paid := false; !paid; {
				rec, _, err := svc.Load(t.Context(), c.ID)
				if err != nil {
					t.Fatal(err)
				}
				g, err := svc.Engine(rec)
				if err != nil {
					t.Fatal(err)
				}
				if g.Over() {
					t.Fatal("the game ended before a lap income")
				}
				res, err := svc.ActBot(t.Context(), c.ID, rec.Seats[g.Owing()[0]].Engine, "")
				if err != nil {
					t.Fatal(err)
				}
				for _, ev := range res.Events {
					paid = paid || ev.Type == western.EvIncome && res.N > 2*service.ChunkSize
				}
			}
		}
		return c.ID
	}
	rulesOf := func(id string) (*service.Record, engine.Game) {
		rec, _, err := svc.Load(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.State == nil {
			return rec, nil
		}
		g, err := svc.Engine(rec)
		if err != nil {
			t.Fatal(err)
		}
		return rec, g
	}
	today := testGames.Engines().CurrentRules(western.Name)

	waiting, playing := create(false), create(true)
	unversion(t, st, waiting)
	unversion(t, st, playing)
	if rec, _ := rulesOf(waiting); rec.Rules != today {
		t.Errorf("a game not started settles to rules %d, want today's %d", rec.Rules, today)
	}
	rec, g := rulesOf(playing)
	if rec.Rules != today || len(g.Owing()) == 0 {
		t.Errorf("a game whose log replays under today's rules settles to %d (owing %v), want %d", rec.Rules, g.Owing(), today)
	}
	// Its next move writes the version down.
	if _, err := svc.ActBot(t.Context(), playing, rec.Seats[g.Owing()[0]].Engine, ""); err != nil {
		t.Fatal(err)
	}
	unversioned := create(true)

	// Today's rules change a number (as issue 11 changed rules before
	// versions were recorded): a game stored without a version whose log
	// no longer replays to its state is of the first version.
	book, cur := western.Rulebook, western.CurrentRules
	t.Cleanup(func() { western.Rulebook, western.CurrentRules = book, cur })
	western.Rulebook = map[int]western.Rules{cur: book[cur], cur + 1: {LapIncome: book[cur].LapIncome + 1000}}
	western.CurrentRules = cur + 1
	unversion(t, st, unversioned)
	rec, g = rulesOf(unversioned)
	if rec.Rules != service.FirstRules {
		t.Fatalf("a game that no longer replays settles to rules %d, want %d", rec.Rules, service.FirstRules)
	}
	if len(g.Owing()) != 0 || len(g.Score()) != 3 {
		t.Errorf("a first-version game: owing %v, scores %v; want none owing, its standings", g.Owing(), g.Score())
	}
	_, err := svc.Act(t.Context(), unversioned, 0, engine.Action{Type: western.ARoll}, "first-version-roll", service.Precondition{})
	var e *service.Error
	if !errors.As(err, &e) || e.Code != service.CodeWrongStatus {
		t.Errorf("a move in a first-version game: %v, want wrong_status", err)
	}
	// The game settled before keeps its version through the change.
	if rec, _ := rulesOf(playing); rec.Rules != today {
		t.Errorf("a settled game has rules %d after the change, want %d", rec.Rules, today)
	}
}
