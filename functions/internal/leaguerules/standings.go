package leaguerules

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/pbmgames/pbm/engine"
)

// Result is one member's result at one table.
type Result struct {
	Member   string `json:"member"`
	Place    int    `json:"place"`
	NetWorth int64  `json:"net_worth"`
	Bankrupt bool   `json:"bankrupt,omitempty"`
}

// Table is one game of a round and its results, as the engine's Score gave
// them when the game ended, or when the round closed with the game
// unfinished (then Finished is false: scored by net worth as it stood).
type Table struct {
	Game     string   `json:"game"`
	Round    int      `json:"round"`
	Finished bool     `json:"finished"`
	Results  []Result `json:"results"`
}

// Results names the engine's scores: seats[i] is the member at seat i.
func Results(seats []string, scores []engine.Score) ([]Result, error) {
	if len(scores) != len(seats) {
		return nil, fmt.Errorf("%d scores for %d seats", len(scores), len(seats))
	}
	out := make([]Result, len(scores))
	for i, s := range scores {
		if s.Seat < 0 || s.Seat >= len(seats) {
			return nil, fmt.Errorf("score of seat %d at a table of %d", s.Seat, len(seats))
		}
		out[i] = Result{Member: seats[s.Seat], Place: s.Place, NetWorth: s.NetWorth, Bankrupt: s.Bankrupt}
	}
	return out, nil
}

// level tells whether two results at one table are a tie: the engine gives
// distinct places (ties keep seat order, W-40, B-0), but the league treats
// equal net worth (both bankrupt or both not) as a shared place.
func level(a, b Result) bool { return a.NetWorth == b.NetWorth && a.Bankrupt == b.Bankrupt }

// TablePoints is the points of each result of a table, in hundredths
// (see PlacePoints); members level with each other share the points of the
// places they span, averaged and rounded half up.
func TablePoints(results []Result) ([]int64, error) {
	n := len(results)
	if n == 0 {
		return nil, fmt.Errorf("a table without results")
	}
	order := make([]int, n)
	seen := make(map[int]bool, n)
	who := make(map[string]bool, n)
	for i, r := range results {
		if r.Place < 1 || r.Place > n || seen[r.Place] {
			return nil, fmt.Errorf("places %v are not 1 to %d", places(results), n)
		}
		if who[r.Member] {
			return nil, fmt.Errorf("%q has two results at one table", r.Member)
		}
		seen[r.Place], who[r.Member] = true, true
		order[r.Place-1] = i
	}
	out := make([]int64, n)
	for start := 0; start < n; {
		end := start + 1
		for end < n && level(results[order[start]], results[order[end]]) {
			end++
		}
		var sum int64
		for p := start; p < end; p++ {
			pts, _ := PlacePoints(p+1, n)
			sum += pts
		}
		k := int64(end - start)
		for p := start; p < end; p++ {
			out[order[p]] = (2*sum + k) / (2 * k)
		}
		start = end
	}
	return out, nil
}

func places(results []Result) []int {
	out := make([]int, len(results))
	for i, r := range results {
		out[i] = r.Place
	}
	return out
}

// Row is one member's line of a season table.
type Row struct {
	Member string `json:"member"`
	// Rank is 1 for the first; members still tied after every tie-break
	// share a rank.
	Rank     int   `json:"rank"`
	Played   int   `json:"played"`
	Points   int64 `json:"points"`    // hundredths of a point
	NetWorth int64 `json:"net_worth"` // summed over the season's games
	Wins     int   `json:"wins"`      // first places (shared ones count)
	// HeadToHead is, among the members tied with this one on points and
	// net worth, twice the number of games it finished ahead of one of them
	// (level finishes count one); zero when nobody is tied.
	HeadToHead int      `json:"head_to_head,omitempty"`
	Games      []string `json:"games"` // the member's games in round order
}

// Standings is the season table of one division: members by points, then
// net worth summed over their games, then head to head among those still
// tied; members tied after that share a rank and are listed by name.
// Every result must be of a member; a member without games has a row of
// zeros.
func Standings(members []string, tables []Table) ([]Row, error) {
	rows := make(map[string]*Row, len(members))
	for _, m := range members {
		if rows[m] != nil {
			return nil, fmt.Errorf("member %q listed twice", m)
		}
		rows[m] = &Row{Member: m, Games: []string{}}
	}
	tables = slices.Clone(tables)
	slices.SortStableFunc(tables, func(a, b Table) int { return cmp.Compare(a.Round, b.Round) })
	for _, t := range tables {
		pts, err := TablePoints(t.Results)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", t.Game, err)
		}
		best := slices.Max(pts)
		for i, r := range t.Results {
			row := rows[r.Member]
			if row == nil {
				return nil, fmt.Errorf("game %s: %q is not a member of the division", t.Game, r.Member)
			}
			row.Played++
			row.Points += pts[i]
			row.NetWorth += r.NetWorth
			if pts[i] == best {
				row.Wins++
			}
			row.Games = append(row.Games, t.Game)
		}
	}
	out := make([]Row, 0, len(members))
	for _, m := range members {
		out = append(out, *rows[m])
	}
	byPoints := func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.NetWorth, a.NetWorth))
	}
	slices.SortFunc(out, func(a, b Row) int { return cmp.Or(byPoints(a, b), cmp.Compare(a.Member, b.Member)) })
	for start := 0; start < len(out); {
		end := start + 1
		for end < len(out) && byPoints(out[start], out[end]) == 0 {
			end++
		}
		if end-start > 1 {
			headToHead(out[start:end], tables)
		}
		start = end
	}
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && byPoints(out[i-1], out[i]) == 0 && out[i-1].HeadToHead == out[i].HeadToHead {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out, nil
}

// headToHead scores a group tied on points and net worth on their games
// against each other, and orders it by that score, then by name.
func headToHead(group []Row, tables []Table) {
	score := make(map[string]int, len(group))
	for _, r := range group {
		score[r.Member] = 0
	}
	for _, t := range tables {
		for _, a := range t.Results {
			if _, ok := score[a.Member]; !ok {
				continue
			}
			for _, b := range t.Results {
				if _, ok := score[b.Member]; !ok || a.Member == b.Member {
					continue
				}
				switch {
				case level(a, b):
					score[a.Member]++
				case a.Place < b.Place:
					score[a.Member] += 2
				}
			}
		}
	}
	for i := range group {
		group[i].HeadToHead = score[group[i].Member]
	}
	slices.SortStableFunc(group, func(a, b Row) int { return cmp.Compare(b.HeadToHead, a.HeadToHead) })
}

// PointsByRound is each member's running total of points after each round
// 1..rounds (hundredths), for the chart of a season: a member without a
// game in a round keeps their total.
func PointsByRound(members []string, tables []Table, rounds int) (map[string][]int64, error) {
	perRound := make(map[string][]int64, len(members))
	for _, m := range members {
		perRound[m] = make([]int64, rounds)
	}
	for _, t := range tables {
		if t.Round < 1 || t.Round > rounds {
			return nil, fmt.Errorf("game %s: round %d of %d", t.Game, t.Round, rounds)
		}
		pts, err := TablePoints(t.Results)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", t.Game, err)
		}
		for i, r := range t.Results {
			line := perRound[r.Member]
			if line == nil {
				return nil, fmt.Errorf("game %s: %q is not a member of the division", t.Game, r.Member)
			}
			line[t.Round-1] += pts[i]
		}
	}
	for _, line := range perRound {
		for r := 1; r < len(line); r++ {
			line[r] += line[r-1]
		}
	}
	return perRound, nil
}
