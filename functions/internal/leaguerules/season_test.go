package leaguerules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

// playSeason plays every table of every division: a member's net worth is
// their strength plus a little luck; the engine's Rank places them.
func playSeason(t *testing.T, divisions [][]string, f Format, season int, strength map[string]int64, rng *rand.Rand) [][]Table {
	t.Helper()
	out := make([][]Table, len(divisions))
	for d, members := range divisions {
		plan, err := PlanDivision(members, f, uint64(100*season+d))
		if err != nil {
			t.Fatal(err)
		}
		for r, round := range plan {
			for ti, seats := range round {
				scores := make([]engine.Score, len(seats))
				for s, m := range seats {
					scores[s] = engine.Score{Seat: s, NetWorth: strength[m] + rng.Int64N(300)}
				}
				engine.Rank(scores)
				results, err := Results(seats, scores)
				if err != nil {
					t.Fatal(err)
				}
				game := fmt.Sprintf("s%d-d%d-r%d-t%d", season, d, r+1, ti+1)
				out[d] = append(out[d], Table{Game: game, Round: r + 1, Finished: true, Results: results})
			}
		}
	}
	return out
}

// Three divisions of seven, four rounds at tables of four (4 + 3), two
// seasons: everyone plays every round, the points add up, two go up and
// two down between neighbours, and the ratings find the strong.
func TestTwoSeasonsOfThreeDivisions(t *testing.T) {
	f := Format{TableSize: 4, MinSeats: 2, MaxSeats: 6, Rounds: 4, Swap: 2}
	strength := map[string]int64{}
	var divisions [][]string
	for d := range 3 {
		var members []string
		for i := range 7 {
			m := fmt.Sprintf("m%d", 7*d+i)
			// The strongest members start at the bottom, to be promoted.
			strength[m] = int64(100 * (7*d + i))
			members = append(members, m)
		}
		divisions = append(divisions, members)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	model := DefaultRatingModel()
	ratings := map[string]Rating{}
	for season := 1; season <= 2; season++ {
		played := playSeason(t, divisions, f, season, strength, rng)
		var tables [][]Row
		for d, members := range divisions {
			rows, err := Standings(members, played[d])
			if err != nil {
				t.Fatal(err)
			}
			var total, handed int64
			for _, r := range rows {
				if r.Played != f.Rounds || len(r.Games) != f.Rounds {
					t.Errorf("season %d: %s played %d games, want %d", season, r.Member, r.Played, f.Rounds)
				}
				total += r.Points
			}
			for _, tb := range played[d] {
				pts, _ := TablePoints(tb.Results)
				for _, p := range pts {
					handed += p
				}
			}
			if total != handed {
				t.Errorf("season %d division %d: rows total %d points, tables handed %d", season, d+1, total, handed)
			}
			tables = append(tables, rows)
		}
		next, moves, err := Promote(tables, f.Swap)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != 8 {
			t.Errorf("season %d: %d moves, want 8", season, len(moves))
		}
		for d := range next {
			if len(next[d]) != 7 {
				t.Errorf("season %d: division %d has %d members next season", season, d+1, len(next[d]))
			}
			if d > 0 && !slices.Contains(next[d-1], tables[d][0].Member) {
				t.Errorf("season %d: the winner of division %d was not promoted", season, d+1)
			}
		}
		for _, tb := range played {
			if ratings, err = model.RateTables(ratings, tb); err != nil {
				t.Fatal(err)
			}
		}
		if divisions, err = NextSeason(next, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Members meet only their division, so compare within the division
	// where the strongest and the weakest of a season's tables met.
	if strong, weak := ratings["m20"], ratings["m14"]; strong.Mu <= weak.Mu || strong.Sigma >= model.Sigma {
		t.Errorf("m20 (strongest) rated %+v, m14 rated %+v", strong, weak)
	}
	if len(ratings) != 21 {
		t.Errorf("%d members rated, want 21", len(ratings))
	}
}

func TestRateTablesSharesLevelPlaces(t *testing.T) {
	m := DefaultRatingModel()
	got, err := m.RateTables(nil, []Table{{Game: "g", Round: 1, Results: []Result{
		{"a", 2, 50, false}, {"b", 1, 50, false}, {"c", 3, 10, false},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := m.Rate([]Rating{m.New(), m.New(), m.New()}, []int{1, 1, 3})
	if got["a"] != want[0] || got["b"] != want[1] || got["c"] != want[2] {
		t.Errorf("ratings %v, want a and b tied: %v", got, want)
	}
}
