package leaguerules

import (
	"cmp"
	"fmt"
	"slices"
)

// Format is how a league seats and promotes: the table size it aims for,
// the game's seat limits, the rounds of a season and how many members
// change division between neighbours at a season's end.
type Format struct {
	TableSize          int `json:"table_size"`
	MinSeats, MaxSeats int `json:"-"` // the game's, from engine/games
	Rounds             int `json:"rounds"`
	Swap               int `json:"swap"`
}

// PlanDivision seats one division's members for a season: for each round,
// its tables, each the names in seat (turn) order. Members are seated in
// the order given; the seed (one per division and season, kept with the
// season) makes the plan repeatable.
func PlanDivision(members []string, f Format, seed uint64) ([][][]string, error) {
	sizes, err := TableSizes(len(members), f.TableSize, f.MinSeats, f.MaxSeats)
	if err != nil {
		return nil, fmt.Errorf("plan division: %w", err)
	}
	season, err := Seat(len(members), f.Rounds, sizes, seed)
	if err != nil {
		return nil, fmt.Errorf("plan division: %w", err)
	}
	out := make([][][]string, len(season))
	for r, round := range season {
		out[r] = make([][]string, len(round))
		for t, table := range round {
			for _, m := range table {
				out[r][t] = append(out[r][t], members[m])
			}
		}
	}
	return out, nil
}

// RateTables updates ratings (by member; a member without one starts as a
// newcomer) with the tables' results in round order, then by game id: the
// games of a round are rated one after another, which for the small
// changes of one game is as good as at once.
func (m RatingModel) RateTables(ratings map[string]Rating, tables []Table) (map[string]Rating, error) {
	out := make(map[string]Rating, len(ratings))
	for k, v := range ratings {
		out[k] = v
	}
	tables = slices.Clone(tables)
	slices.SortStableFunc(tables, func(a, b Table) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Game, b.Game))
	})
	for _, t := range tables {
		before := make([]Rating, len(t.Results))
		places := make([]int, len(t.Results))
		// Level results share the better place, as in the points.
		order := slices.Clone(t.Results)
		slices.SortFunc(order, func(a, b Result) int { return cmp.Compare(a.Place, b.Place) })
		shared := map[string]int{}
		for i, r := range order {
			shared[r.Member] = r.Place
			if i > 0 && level(order[i-1], r) {
				shared[r.Member] = shared[order[i-1].Member]
			}
		}
		for i, r := range t.Results {
			rating, ok := out[r.Member]
			if !ok {
				rating = m.New()
			}
			before[i], places[i] = rating, shared[r.Member]
		}
		after, err := m.Rate(before, places)
		if err != nil {
			return nil, fmt.Errorf("rate game %s: %w", t.Game, err)
		}
		for i, r := range t.Results {
			out[r.Member] = after[i]
		}
	}
	return out, nil
}
