package leaguerules

import (
	"slices"
	"testing"

	"github.com/pbmgames/pbm/engine"
)

func TestPlacePoints(t *testing.T) {
	want := map[int][]int64{
		2: {750, 250},
		3: {900, 450, 150},
		4: {1000, 600, 300, 100},
		5: {1071, 714, 429, 214, 71},
		6: {1125, 804, 536, 321, 161, 54},
	}
	for size, pts := range want {
		var sum int64
		for place := 1; place <= size; place++ {
			got, err := PlacePoints(place, size)
			if err != nil || got != pts[place-1] {
				t.Errorf("PlacePoints(%d, %d) = %d, %v; want %d", place, size, got, err, pts[place-1])
			}
			sum += got
		}
		// 5 points a seat on average, give or take the rounding.
		if d := sum - 500*int64(size); d < -1 || d > 1 {
			t.Errorf("a table of %d hands out %d hundredths, want %d", size, sum, 500*size)
		}
	}
	if _, err := PlacePoints(5, 4); err == nil {
		t.Error("place 5 of 4 accepted")
	}
	for centi, s := range map[int64]string{1000: "10", 750: "7.5", 54: "0.54", 1071: "10.71", 0: "0"} {
		if got := FormatPoints(centi); got != s {
			t.Errorf("FormatPoints(%d) = %q, want %q", centi, got, s)
		}
	}
}

func TestTablePointsShareLevelPlaces(t *testing.T) {
	got, err := TablePoints([]Result{
		{Member: "a", Place: 1, NetWorth: 100},
		{Member: "b", Place: 3, NetWorth: 80}, // level with c: the engine kept seat order
		{Member: "c", Place: 2, NetWorth: 80},
		{Member: "d", Place: 4, NetWorth: 80, Bankrupt: true}, // bankrupt: not level
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{1000, 450, 450, 100}; !slices.Equal(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
	if _, err := TablePoints([]Result{{Place: 1}, {Place: 1}}); err == nil {
		t.Error("two first places accepted")
	}
}

// A hand-checked division of six at tables of three (9 / 4.5 / 1.5):
//
//	round 1  g1: p 1st (100)  q 2nd (50)  r 3rd (10)    g2: s 1st (100) t 2nd (50) u 3rd (10)
//	round 2  g3: q 1st (100)  r 2nd (60)  u 3rd (20)    g4: s 1st (90)  p 2nd (50) t 3rd (5), unfinished
//
//	s 9+9 = 18, worth 190                                    → 1
//	p 9+4.5 = 13.5, worth 150; q 4.5+9 = 13.5, worth 150:
//	  level, and p finished ahead of q in g1 (head to head 2 : 0) → p 2, q 3
//	r 1.5+4.5 = 6, worth 70; t 4.5+1.5 = 6, worth 55        → r 4, t 5
//	u 1.5+1.5 = 3                                           → 6
func TestStandingsFixture(t *testing.T) {
	tables := []Table{
		{Game: "g3", Round: 2, Finished: true, Results: []Result{{"q", 1, 100, false}, {"r", 2, 60, false}, {"u", 3, 20, false}}},
		{Game: "g4", Round: 2, Results: []Result{{"s", 1, 90, false}, {"p", 2, 50, false}, {"t", 3, 5, false}}},
		{Game: "g1", Round: 1, Finished: true, Results: []Result{{"p", 1, 100, false}, {"q", 2, 50, false}, {"r", 3, 10, false}}},
		{Game: "g2", Round: 1, Finished: true, Results: []Result{{"s", 1, 100, false}, {"t", 2, 50, false}, {"u", 3, 10, false}}},
	}
	got, err := Standings([]string{"p", "q", "r", "s", "t", "u"}, tables)
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{Member: "s", Rank: 1, Played: 2, Points: 1800, NetWorth: 190, Wins: 2, Games: []string{"g2", "g4"}},
		{Member: "p", Rank: 2, Played: 2, Points: 1350, NetWorth: 150, Wins: 1, HeadToHead: 2, Games: []string{"g1", "g4"}},
		{Member: "q", Rank: 3, Played: 2, Points: 1350, NetWorth: 150, Wins: 1, Games: []string{"g1", "g3"}},
		{Member: "r", Rank: 4, Played: 2, Points: 600, NetWorth: 70, Games: []string{"g1", "g3"}},
		{Member: "t", Rank: 5, Played: 2, Points: 600, NetWorth: 55, Games: []string{"g2", "g4"}},
		{Member: "u", Rank: 6, Played: 2, Points: 300, NetWorth: 30, Games: []string{"g2", "g3"}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if g, w := got[i], want[i]; g.Member != w.Member || g.Rank != w.Rank || g.Played != w.Played ||
			g.Points != w.Points || g.NetWorth != w.NetWorth || g.Wins != w.Wins || g.HeadToHead != w.HeadToHead ||
			!slices.Equal(g.Games, w.Games) {
			t.Errorf("row %d = %+v, want %+v", i+1, g, w)
		}
	}
}

// Members level on points and worth who never met share a rank.
func TestStandingsShareRankWhenStillTied(t *testing.T) {
	got, err := Standings([]string{"d", "c", "b", "a", "e"}, []Table{
		{Game: "x", Round: 1, Results: []Result{{"a", 1, 100, false}, {"b", 2, 50, false}}},
		{Game: "y", Round: 1, Results: []Result{{"c", 1, 100, false}, {"d", 2, 50, false}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var ranks []int
	var names []string
	for _, r := range got {
		ranks, names = append(ranks, r.Rank), append(names, r.Member)
	}
	if !slices.Equal(ranks, []int{1, 1, 3, 3, 5}) || !slices.Equal(names, []string{"a", "c", "b", "d", "e"}) {
		t.Errorf("ranks %v of %v, want [1 1 3 3 5] of [a c b d e]", ranks, names)
	}
	if _, err := Standings([]string{"a"}, []Table{{Game: "x", Results: []Result{{"a", 1, 1, false}, {"z", 2, 0, false}}}}); err == nil {
		t.Error("a result of a non-member accepted")
	}
}

func TestResultsNameEngineScores(t *testing.T) {
	scores := []engine.Score{{Seat: 0, NetWorth: 50}, {Seat: 1, NetWorth: 90}, {Seat: 2, NetWorth: 70, Bankrupt: true}}
	engine.Rank(scores)
	got, err := Results([]string{"ann", "bob", "cat"}, scores)
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{{"ann", 2, 50, false}, {"bob", 1, 90, false}, {"cat", 3, 70, true}}
	if !slices.Equal(got, want) {
		t.Errorf("Results = %+v, want %+v", got, want)
	}
	if _, err := Results([]string{"ann"}, scores); err == nil {
		t.Error("three scores for one seat accepted")
	}
}

func TestPointsByRound(t *testing.T) {
	got, err := PointsByRound([]string{"p", "q", "z"}, []Table{
		{Game: "g1", Round: 1, Results: []Result{{"p", 1, 100, false}, {"q", 2, 50, false}}},
		{Game: "g2", Round: 3, Results: []Result{{"q", 1, 100, false}, {"p", 2, 50, false}}},
	}, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Tables of two pay 7.5 and 2.5; nobody played in round 2; z never.
	for m, want := range map[string][]int64{"p": {750, 750, 1000}, "q": {250, 250, 1000}, "z": {0, 0, 0}} {
		if !slices.Equal(got[m], want) {
			t.Errorf("%s: %v, want %v", m, got[m], want)
		}
	}
	if _, err := PointsByRound([]string{"p"}, []Table{{Game: "g", Round: 4, Results: []Result{{"p", 1, 1, false}}}}, 3); err == nil {
		t.Error("a game of round 4 in a season of 3 accepted")
	}
}
