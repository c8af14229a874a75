package leaguerules

import (
	"fmt"
	"slices"
	"testing"
)

func rows(names ...string) []Row {
	out := make([]Row, len(names))
	for i, n := range names {
		out[i] = Row{Member: n, Rank: i + 1}
	}
	return out
}

// Three divisions of seven, two up and two down between neighbours.
func TestPromoteThreeDivisions(t *testing.T) {
	tables := [][]Row{
		rows("a1", "a2", "a3", "a4", "a5", "a6", "a7"),
		rows("b1", "b2", "b3", "b4", "b5", "b6", "b7"),
		rows("c1", "c2", "c3", "c4", "c5", "c6", "c7"),
	}
	next, moves, err := Promote(tables, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"a1", "a2", "a3", "a4", "a5", "b1", "b2"},
		{"b3", "b4", "b5", "a6", "a7", "c1", "c2"},
		{"c3", "c4", "c5", "c6", "c7", "b6", "b7"},
	}
	if fmt.Sprint(next) != fmt.Sprint(want) {
		t.Errorf("next divisions %v, want %v", next, want)
	}
	wantMoves := []Move{
		{"a6", 0, 1, false}, {"a7", 0, 1, false},
		{"b1", 1, 0, false}, {"b2", 1, 0, false}, {"b6", 1, 2, false}, {"b7", 1, 2, false},
		{"c1", 2, 1, false}, {"c2", 2, 1, false},
	}
	if !slices.Equal(moves, wantMoves) {
		t.Errorf("moves %v, want %v", moves, wantMoves)
	}
}

func TestPromoteFlagsTiesAtTheLine(t *testing.T) {
	lower := rows("b1", "b2", "b3", "b4")
	lower[2].Rank = 2 // b2 and b3 share second place: the line falls between them
	upper := rows("a1", "a2", "a3", "a4")
	upper[2].Rank = 2 // a2 and a3 share second: a3 goes down, a2 stays
	_, moves, err := Promote([][]Row{upper, lower}, 2)
	if err != nil {
		t.Fatal(err)
	}
	tied := map[string]bool{}
	for _, m := range moves {
		tied[m.Member] = m.Tied
	}
	if !tied["b2"] || tied["b1"] || !tied["a3"] || tied["a4"] {
		t.Errorf("tied flags %v, want b2 and a3 only", tied)
	}
}

func TestPromoteRefusesSmallDivisions(t *testing.T) {
	if _, _, err := Promote([][]Row{rows("a", "b", "c"), rows("d", "e", "f")}, 2); err == nil {
		t.Error("three members swapping two each way accepted")
	}
	next, moves, err := Promote([][]Row{rows("a", "b")}, 2)
	if err != nil || len(moves) != 0 || fmt.Sprint(next) != "[[a b]]" {
		t.Errorf("one division: %v %v %v, want it unchanged", next, moves, err)
	}
}

func TestNextSeason(t *testing.T) {
	got, err := NextSeason([][]string{{"a", "b", "c"}, {"d", "e"}}, []string{"b", "e"}, []string{"f"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[[a c] [d f]]" {
		t.Errorf("next season %v, want [[a c] [d f]]", got)
	}
	if _, err := NextSeason([][]string{{"a"}, {"a"}}, nil, nil); err == nil {
		t.Error("a member in two divisions accepted")
	}
	if _, err := NextSeason([][]string{{"a"}}, nil, []string{"a"}); err == nil {
		t.Error("a member joining twice accepted")
	}
}
