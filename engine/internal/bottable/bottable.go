// Package bottable measures bots: it plays many seeded games with a mix of
// policies and tells how games end and who wins. The two games' bot table
// tests use it; nothing in the service does.
package bottable

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// Game is what a measurement needs of a game's state: its moves are
// checked and made by engine.Play.
type Game interface {
	engine.Mover
	Owing() []engine.Seat
	Legal(seat engine.Seat) []engine.Choice
	Score() []engine.Score
}

// Progress is what a game tells of its course: the most laps any player
// has completed, how many players are bankrupt, and whether the agreed
// laps have been completed.
type Progress func(g Game) (lead, bankrupt int, lapsDone bool)

// Policy picks seat's action in g; rnd is the seat's own generator.
type Policy func(g Game, seat engine.Seat, rnd *rand.Rand) engine.Action

// Random picks uniformly among the legal actions other than resign, and a
// ranged amount uniformly on its steps.
func Random(g Game, seat engine.Seat, rnd *rand.Rand) engine.Action {
	legal := g.Legal(seat)
	n := 0
	for _, c := range legal {
		if c.Type != engine.Resign {
			legal[n] = c
			n++
		}
	}
	if n == 0 {
		return engine.Action{Type: engine.Resign}
	}
	c := legal[rnd.IntN(n)]
	a := c.Action
	if c.Step > 0 {
		a.Amount = c.Min + c.Step*rnd.Int64N((c.Max-c.Min)/c.Step+1)
	}
	return a
}

// Result is one game's end.
type Result struct {
	LapsDone      bool // the agreed laps were completed (not one left standing, not cut off)
	FirstBankrupt int  // the leader's laps when the first player went bankrupt; −1 if none did
	Winner        int  // the seat placed first
	Actions       int
}

// MaxActions cuts off a game that does not end (counted as not done).
const MaxActions = 200_000

// Play plays one game, seat i by policies[i].
func Play(g Game, progress Progress, policies []Policy, seed uint64) (Result, error) {
	rnds := make([]*rand.Rand, len(policies))
	for i := range rnds {
		rnds[i] = rand.New(rand.NewPCG(seed, uint64(i)))
	}
	r := Result{FirstBankrupt: -1}
	var ev []engine.Event
	var err error
	for !g.Over() && r.Actions < MaxActions {
		seat := g.Owing()[0]
		a := policies[seat](g, seat, rnds[seat])
		if ev, err = engine.Play(g, seat, a, ev[:0]); err != nil {
			return r, fmt.Errorf("action %d, seat %d %v: %w", r.Actions, seat, a, err)
		}
		r.Actions++
		if r.FirstBankrupt < 0 {
			if lead, b, _ := progress(g); b > 0 {
				r.FirstBankrupt = lead
			}
		}
	}
	_, _, r.LapsDone = progress(g)
	r.LapsDone = r.LapsDone && g.Over()
	for _, s := range g.Score() {
		if s.Place == 1 {
			r.Winner = s.Seat
		}
	}
	return r, nil
}

// Row is one line of the table: games of one mix of policies.
type Row struct {
	Name          string
	Seats, Games  int
	LapsDone      int   // games that completed the agreed laps
	FirstBankrupt []int // the leader's laps at each game's first bankruptcy
	Wins          int   // games the tested seat won
}

// Median is the median lap of first bankruptcy, −1 when no game had one.
func (r Row) Median() int {
	if len(r.FirstBankrupt) == 0 {
		return -1
	}
	l := slices.Clone(r.FirstBankrupt)
	slices.Sort(l)
	return l[len(l)/2]
}

// WinRate is the tested seat's share of wins.
func (r Row) WinRate() float64 { return float64(r.Wins) / float64(r.Games) }

// Measure plays games seeded 0…games−1 of seats players: the tested
// policy sits in seat i mod seats of game i, the others play rest.
func Measure(name string, newGame func(seats int, seed uint64) Game, progress Progress, seats, games int, tested, rest Policy) (Row, error) {
	row := Row{Name: name, Seats: seats, Games: games}
	for i := range games {
		me := i % seats
		pol := make([]Policy, seats)
		for k := range pol {
			pol[k] = rest
		}
		pol[me] = tested
		r, err := Play(newGame(seats, uint64(i)), progress, pol, uint64(i))
		if err != nil {
			return row, fmt.Errorf("%s, %d seats, game %d: %w", name, seats, i, err)
		}
		if r.LapsDone {
			row.LapsDone++
		}
		if r.FirstBankrupt >= 0 {
			row.FirstBankrupt = append(row.FirstBankrupt, r.FirstBankrupt)
		}
		if r.Winner == me {
			row.Wins++
		}
	}
	return row, nil
}

// Print writes rows as a Markdown table.
func Print(w io.Writer, game string, rows []Row) {
	fmt.Fprintf(w, "| game | seats | seats played by | games | agreed laps reached | median lap of first bankruptcy (games with one) | the new bot's wins |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		med := "—"
		if m := r.Median(); m >= 0 {
			med = fmt.Sprintf("%d (%d)", m, len(r.FirstBankrupt))
		}
		fmt.Fprintf(w, "| %s | %d | %s | %d | %.0f%% | %s | %.0f%% |\n", game, r.Seats, r.Name, r.Games,
			100*float64(r.LapsDone)/float64(r.Games), med, 100*r.WinRate())
	}
}

// Check plays the bot table of a game (issue 11): for 3 and 6 seats, 200
// seeded games a line with tested in every seat, then one tested bot
// among seats that play at random, then among previous bots (previous),
// and fails t where the tested bot wins less than its target — 80 %
// against random seats, 2 / seats against previous bots. It prints the
// table to w.
func Check(t testing.TB, w io.Writer, game string, newGame func(seats int, seed uint64) Game, progress Progress, tested, previous Policy) {
	t.Helper()
	const games = 200
	var rows []Row
	for _, seats := range []int{3, 6} {
		for _, mix := range []struct {
			name  string
			rest  Policy
			least float64
		}{
			{"new bots only", tested, 0},
			{"1 new bot, the rest random", Random, 0.8},
			{"1 new bot, the rest previous bots", previous, 2 / float64(seats)},
		} {
			row, err := Measure(mix.name, newGame, progress, seats, games, tested, mix.rest)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, row)
			if row.WinRate() < mix.least {
				t.Errorf("%d seats, %s: the new bot wins %.0f%%, want at least %.0f%%", seats, mix.name, 100*row.WinRate(), 100*mix.least)
			}
		}
	}
	Print(w, game, rows)
}
