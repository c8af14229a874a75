package leaguerules

import (
	"fmt"
	"slices"
)

// Move is one member changing division at a season's end.
type Move struct {
	Member string `json:"member"`
	From   int    `json:"from"` // division index, 0 = top
	To     int    `json:"to"`
	// Tied says the member shared their rank with one who stays: the
	// standings order (by name) decided, so the organiser should look.
	Tied bool `json:"tied,omitempty"`
}

// Promote applies promotion and relegation to the season tables of the
// divisions (top division first, each in standings order): between each
// two neighbouring divisions the top swap of the lower go up and the bottom
// swap of the upper go down, so divisions keep their sizes. Every division
// needs at least 2·swap members (so nobody goes both up and down); with
// one division nothing moves. It returns the members of each division for
// the next season, in the order of the tables they come from (those who
// stay, then those who arrive).
func Promote(tables [][]Row, swap int) ([][]string, []Move, error) {
	if swap < 1 {
		return nil, nil, fmt.Errorf("promotion of %d members a division", swap)
	}
	for d, rows := range tables {
		if len(tables) > 1 && len(rows) < 2*swap {
			return nil, nil, fmt.Errorf("division %d has %d members, fewer than the %d who would move", d+1, len(rows), 2*swap)
		}
	}
	next := make([][]string, len(tables))
	arrive := make([][]string, len(tables))
	var moves []Move
	for d, rows := range tables {
		up, down := 0, 0
		if d > 0 {
			up = swap
		}
		if d < len(tables)-1 {
			down = swap
		}
		for i, r := range rows {
			switch {
			case i < up:
				tied := i == up-1 && i+1 < len(rows) && rows[i+1].Rank == r.Rank
				moves = append(moves, Move{Member: r.Member, From: d, To: d - 1, Tied: tied})
				arrive[d-1] = append(arrive[d-1], r.Member)
			case i >= len(rows)-down:
				first := len(rows) - down
				tied := i == first && rows[i-1].Rank == r.Rank
				moves = append(moves, Move{Member: r.Member, From: d, To: d + 1, Tied: tied})
				arrive[d+1] = append(arrive[d+1], r.Member)
			default:
				next[d] = append(next[d], r.Member)
			}
		}
	}
	for d := range next {
		next[d] = append(next[d], arrive[d]...)
	}
	return next, moves, nil
}

// NextSeason proposes the next season's divisions from those Promote gave:
// members who leave are taken out, and those who join go to the bottom
// division. The organiser confirms or edits the proposal; then each
// division is seated with TableSizes and Seat.
func NextSeason(divisions [][]string, leaving, joining []string) ([][]string, error) {
	if len(divisions) == 0 {
		return nil, fmt.Errorf("a league needs at least one division")
	}
	seen := map[string]bool{}
	out := make([][]string, len(divisions))
	for d, members := range divisions {
		for _, m := range members {
			if seen[m] {
				return nil, fmt.Errorf("%q is in two divisions", m)
			}
			seen[m] = true
			if !slices.Contains(leaving, m) {
				out[d] = append(out[d], m)
			}
		}
	}
	for _, m := range joining {
		if seen[m] {
			return nil, fmt.Errorf("%q joins but is already a member", m)
		}
		seen[m] = true
		out[len(out)-1] = append(out[len(out)-1], m)
	}
	return out, nil
}
