package leaguerules

import (
	"math"
	"testing"
)

// Bad input gets an error, never a panic or a silent wrong table.
func TestStandingsRefuseBadTables(t *testing.T) {
	for name, tb := range map[string]Table{
		"an empty table":        {Game: "g"},
		"a member seated twice": {Game: "g", Results: []Result{{"a", 1, 10, false}, {"a", 2, 5, false}}},
		"places not 1 to n":     {Game: "g", Results: []Result{{"a", 1, 10, false}, {"b", 3, 5, false}}},
	} {
		if _, err := Standings([]string{"a", "b"}, []Table{tb}); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func TestRateRefusesNaN(t *testing.T) {
	m := DefaultRatingModel()
	for _, bad := range []Rating{{Mu: 25, Sigma: math.NaN()}, {Mu: math.NaN(), Sigma: 8}, {Mu: 25, Sigma: math.Inf(1)}} {
		if _, err := m.Rate([]Rating{m.New(), bad}, []int{1, 2}); err == nil {
			t.Errorf("rating %+v accepted", bad)
		}
	}
}
