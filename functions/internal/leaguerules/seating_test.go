package leaguerules

import (
	"fmt"
	"slices"
	"testing"
)

func TestTableSizes(t *testing.T) {
	for _, c := range []struct {
		members, size, min, max int
		want                    []int
	}{
		{4, 4, 2, 6, []int{4}},
		{7, 4, 2, 6, []int{4, 3}},
		{8, 4, 2, 6, []int{4, 4}},
		{9, 4, 2, 6, []int{5, 4}},
		{13, 4, 2, 6, []int{5, 4, 4}},
		{21, 4, 2, 6, []int{5, 4, 4, 4, 4}},
		{11, 4, 2, 6, []int{4, 4, 3}},
		{10, 4, 2, 6, []int{4, 3, 3}}, // 5,5 is as far from 4 in all; more tables win
		{14, 5, 2, 6, []int{5, 5, 4}},
		{3, 4, 2, 6, []int{3}},
		{2, 6, 2, 6, []int{2}},
		{13, 6, 2, 6, []int{5, 4, 4}},          // 7+6 breaks the limit of 6
		{13, 2, 2, 6, []int{3, 2, 2, 2, 2, 2}}, // nearest to 2 the limit of 6 tables allows
	} {
		got, err := TableSizes(c.members, c.size, c.min, c.max)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("TableSizes(%d, %d, %d..%d) = %v, %v; want %v", c.members, c.size, c.min, c.max, got, err, c.want)
		}
	}
}

// seasonStats measures a season: how often each pair met, and how often
// each member sat in each seat.
func seasonStats(members int, season []Round) (pairs []int, seats [][]int) {
	met := make([][]int, members)
	seats = make([][]int, members)
	for m := range members {
		met[m] = make([]int, members)
		seats[m] = make([]int, 8)
	}
	for _, round := range season {
		for _, table := range round {
			for s, a := range table {
				seats[a][s]++
				for _, b := range table[s+1:] {
					met[a][b]++
					met[b][a]++
				}
			}
		}
	}
	for a := range members {
		for b := a + 1; b < members; b++ {
			pairs = append(pairs, met[a][b])
		}
	}
	return pairs, seats
}

// The bounds are what the planner reaches on seeds 1 to 3 (measured when it
// was written); ideal spreads are often impossible, so the test guards
// against a planner that gets worse. For 7 members × 4 rounds at tables of
// 4 and 3 the bound is the best there is: a search of all 35⁴ seasons
// (which 3 sit at the small table each round) found no season where every
// pair meets and fewer than 3 pairs meet 3 times ({1:9, 2:9, 3:3} pairs by
// meetings; the only spread without threes leaves 3 pairs never meeting).
func TestSeatSpreadsMeetingsAndSeats(t *testing.T) {
	for _, c := range []struct {
		members, rounds    int
		minMeet, maxMeet   int // every pair meets within these
		maxNever, maxTop   int // pairs that never meet; pairs that meet maxMeet times
		maxSameSeat        int // times one member sits in one seat
		minFirst, maxFirst int // times a member sits first (moves first)
	}{
		{7, 4, 1, 3, 0, 3, 2, 1, 2},
		{21, 6, 0, 2, 15, 9, 2, 1, 2},
		{13, 5, 0, 3, 8, 2, 2, 1, 2},
		{8, 7, 3, 3, 0, 28, 2, 1, 2}, // two tables of 4: everyone meets everyone 3 times
	} {
		sizes, err := TableSizes(c.members, 4, 2, 6)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			name := fmt.Sprintf("%d members × %d rounds at %v, seed %d", c.members, c.rounds, sizes, seed)
			season, err := Seat(c.members, c.rounds, sizes, seed)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkSeated(t, name, c.members, sizes, season)
			pairs, seats := seasonStats(c.members, season)
			never, top := 0, 0
			for _, n := range pairs {
				if n < c.minMeet || n > c.maxMeet {
					t.Errorf("%s: a pair met %d times, want %d to %d", name, n, c.minMeet, c.maxMeet)
				}
				if n == 0 {
					never++
				}
				if n == c.maxMeet {
					top++
				}
			}
			if never > c.maxNever || top > c.maxTop {
				t.Errorf("%s: %d pairs never met (at most %d), %d met %d times (at most %d)", name, never, c.maxNever, top, c.maxMeet, c.maxTop)
			}
			for m := range c.members {
				if n := slices.Max(seats[m]); n > c.maxSameSeat {
					t.Errorf("%s: member %d sat %d times in one seat (%v), at most %d", name, m, n, seats[m], c.maxSameSeat)
				}
				if n := seats[m][0]; n < c.minFirst || n > c.maxFirst {
					t.Errorf("%s: member %d sat first %d times, want %d to %d", name, m, n, c.minFirst, c.maxFirst)
				}
			}
		}
	}
}

// checkSeated checks every round seats every member once at tables of the
// given sizes.
func checkSeated(t *testing.T, name string, members int, sizes []int, season []Round) {
	t.Helper()
	for r, round := range season {
		seen := make([]bool, members)
		if len(round) != len(sizes) {
			t.Fatalf("%s: round %d has %d tables, want %d", name, r, len(round), len(sizes))
		}
		for ti, table := range round {
			if len(table) != sizes[ti] {
				t.Errorf("%s: round %d table %d seats %d, want %d", name, r, ti, len(table), sizes[ti])
			}
			for _, m := range table {
				if m < 0 || m >= members || seen[m] {
					t.Fatalf("%s: round %d seats member %d twice or out of range", name, r, m)
				}
				seen[m] = true
			}
		}
	}
}

func TestSeatTakesTurnsAtSmallTables(t *testing.T) {
	season, err := Seat(7, 4, []int{4, 3}, 9)
	if err != nil {
		t.Fatal(err)
	}
	turns := make([]int, 7)
	for _, round := range season {
		for _, m := range round[1] {
			turns[m]++
		}
	}
	// 12 seats at the table of 3 over 4 rounds: evenly, 5 members twice and
	// 2 once. Meetings weigh more, so the planner reaches a spread of 2
	// (measured); more would mean the turns are not taken into account.
	if slices.Max(turns)-slices.Min(turns) > 2 || slices.Min(turns) == 0 {
		t.Errorf("turns at the small table %v: someone never or too often", turns)
	}
}

func TestSeatIsDeterministic(t *testing.T) {
	a, err := Seat(13, 5, []int{5, 4, 4}, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Seat(13, 5, []int{5, 4, 4}, 42)
	c, _ := Seat(13, 5, []int{5, 4, 4}, 43)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the same seed seated two seasons differently")
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Error("two seeds seated the same season")
	}
}

func TestSeatRefusesBadInput(t *testing.T) {
	if _, err := Seat(7, 4, []int{4, 4}, 1); err == nil {
		t.Error("tables of 8 seats accepted for 7 members")
	}
	if _, err := Seat(7, 0, []int{4, 3}, 1); err == nil {
		t.Error("a season of no rounds accepted")
	}
	if _, err := TableSizes(1, 4, 2, 6); err == nil {
		t.Error("one member seated")
	}
	if _, err := TableSizes(8, 7, 2, 6); err == nil {
		t.Error("a table size over the game's limit accepted")
	}
}

// BenchmarkSeat plans a season of 21 members × 6 rounds, the largest case
// the tests measure.
func BenchmarkSeat(b *testing.B) {
	sizes, _ := TableSizes(21, 4, 2, 6)
	for i := range b.N {
		if _, err := Seat(21, 6, sizes, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}
