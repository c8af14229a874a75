package leagues_test

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/boltstore"
)

// gameStore is what a test's services keep games and leagues in: both
// stores are all of these.
type gameStore interface {
	store.Store
	store.PlayerStore
	store.GuardStore
	store.LeagueStore
}

// clock is a test's injected time.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// services builds the game service and the league service on st, both
// seeded from the test's name.
func services(t *testing.T, st gameStore, leagueStore store.LeagueStore, c *clock) (*service.Service, *leagues.Service) {
	t.Helper()
	return servicesWithPost(t, st, leagueStore, c, nil)
}

func boltStore(t *testing.T) *boltstore.Store {
	t.Helper()
	st, err := boltstore.OpenScratch(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func servicePerson(name, email string) service.Person {
	return service.Person{Name: name, Email: email, Lang: "ru"}
}

// newLeague creates a league of req, its organiser's address confirmed,
// with members of the names given (addresses <name>@league.example, in
// English), each having confirmed theirs.
func newLeague(t *testing.T, lg *leagues.Service, req leagues.CreateRequest, names ...string) *leagues.League {
	t.Helper()
	l, err := lg.Create(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	servicetest.ConfirmLeague(t, lg, l.ID)
	for _, name := range names {
		servicetest.Join(t, lg, l.ID, leagues.Member{Name: name, Email: name + "@league.example", Lang: "en"})
	}
	return l
}
