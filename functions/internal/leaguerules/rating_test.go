package leaguerules

import (
	"math"
	"testing"
)

// The expected values are the Plackett-Luce reference results of
// openskill.js (philihp/openskill.js, src/models/__tests__/plackett-luce.test.ts,
// "2p FFA" to "5p FFA": default ratings, teams of one, listed in finishing
// order), which openskill.py's tests repeat.
func TestRateMatchesOpenSkillReference(t *testing.T) {
	for _, c := range []struct {
		name string
		want []Rating
	}{
		{"2p FFA", []Rating{{27.63523138347365, 8.065506316323548}, {22.36476861652635, 8.065506316323548}}},
		{"3p FFA", []Rating{{27.868876552746237, 8.204837030780652}, {25.717219138186557, 8.057829747583874}, {21.413904309067206, 8.057829747583874}}},
		{"4p FFA", []Rating{{27.795084971874736, 8.263160757613477}, {26.552824984374855, 8.179213704945203}, {24.68943500312503, 8.083731307186588}, {20.96265504062538, 8.083731307186588}}},
		{"5p FFA", []Rating{{27.666666666666668, 8.290556877154474}, {26.833333333333332, 8.240145629781066}, {25.72222222222222, 8.179996679645559}, {24.055555555555557, 8.111796013701358}, {20.72222222222222, 8.111796013701358}}},
	} {
		m := DefaultRatingModel()
		ratings := make([]Rating, len(c.want))
		places := make([]int, len(c.want))
		for i := range ratings {
			ratings[i], places[i] = m.New(), i+1
		}
		got, err := m.Rate(ratings, places)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i := range got {
			if math.Abs(got[i].Mu-c.want[i].Mu) > 1e-9 || math.Abs(got[i].Sigma-c.want[i].Sigma) > 1e-9 {
				t.Errorf("%s: place %d rated %+v, want %+v", c.name, i+1, got[i], c.want[i])
			}
		}
	}
}

// openskill.js's README rates four newcomers with ranks [4, 1, 3, 2]: the
// numbers are the 4p FFA ones in that order, so the order of the list does
// not matter, only the places.
func TestRateUsesPlacesNotListOrder(t *testing.T) {
	m := DefaultRatingModel()
	r := m.New()
	got, err := m.Rate([]Rating{r, r, r, r}, []int{4, 1, 3, 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{20.96265504062538, 27.795084971874736, 24.68943500312503, 26.552824984374855}
	for i := range want {
		if math.Abs(got[i].Mu-want[i]) > 1e-9 {
			t.Errorf("player %d: mu %v, want %v", i, got[i].Mu, want[i])
		}
	}
}

func TestRateTiesAndProperties(t *testing.T) {
	m := DefaultRatingModel()
	r := m.New()
	got, err := m.Rate([]Rating{r, r, r}, []int{1, 1, 3})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != got[1] {
		t.Errorf("two tied newcomers rated differently: %+v %+v", got[0], got[1])
	}
	if !(got[0].Mu > r.Mu && got[2].Mu < r.Mu) {
		t.Errorf("the tied winners should rise and the last fall: %+v", got)
	}
	for i, g := range got {
		if g.Sigma >= r.Sigma {
			t.Errorf("player %d: a game should make the model surer, sigma %v", i, g.Sigma)
		}
	}
	// An upset moves more than the expected result.
	strong, weak := Rating{Mu: 35, Sigma: 3}, Rating{Mu: 15, Sigma: 3}
	expected, _ := m.Rate([]Rating{strong, weak}, []int{1, 2})
	upset, _ := m.Rate([]Rating{strong, weak}, []int{2, 1})
	if upset[1].Mu-weak.Mu <= expected[0].Mu-strong.Mu {
		t.Errorf("the upset winner gained %v, the expected winner %v", upset[1].Mu-weak.Mu, expected[0].Mu-strong.Mu)
	}
	if _, err := m.Rate([]Rating{r, r}, []int{1}); err == nil {
		t.Error("places of the wrong length accepted")
	}
	if _, err := m.Rate([]Rating{r, {Mu: 25, Sigma: 0}}, []int{1, 2}); err == nil {
		t.Error("a zero sigma accepted")
	}
	if one, _ := m.Rate([]Rating{r}, []int{1}); one[0] != r {
		t.Error("a game of one changed its rating")
	}
}

// A series of three games with ties and ratings that differ, from
// openskill.js (src/models/__tests__/plackett-luce-series.test.ts), whose
// numbers come from Weng and Lin's own implementation (rank-1.02):
//
//	players 0 1 2 3 4 score 9 7 7 5 5
//	players 4 2 1     score 9 5 5
//	players 3 1 2 0   score 9 9 7 7
//
// openskill.js checks them to two decimals (toBeCloseTo); they are given
// to nine or ten digits, and we agree to 1e-9, so we check to 1e-8.
func TestRateMatchesWengLinSeriesWithTies(t *testing.T) {
	m := DefaultRatingModel()
	p := make([]Rating, 5)
	for i := range p {
		p[i] = m.New()
	}
	play := func(players []int, places []int) {
		t.Helper()
		in := make([]Rating, len(players))
		for i, who := range players {
			in[i] = p[who]
		}
		out, err := m.Rate(in, places)
		if err != nil {
			t.Fatal(err)
		}
		for i, who := range players {
			p[who] = out[i]
		}
	}
	play([]int{0, 1, 2, 3, 4}, []int{1, 2, 2, 4, 4})
	play([]int{4, 2, 1}, []int{1, 2, 2})
	play([]int{3, 1, 2, 0}, []int{1, 1, 3, 3})
	want := []Rating{
		{26.353761103, 8.11102706},
		{24.618479789, 7.90533551},
		{23.065819512, 7.822005595},
		{24.476332403, 8.106111471},
		{26.385499685, 8.054090809},
	}
	for i := range want {
		if math.Abs(p[i].Mu-want[i].Mu) > 1e-8 || math.Abs(p[i].Sigma-want[i].Sigma) > 1e-8 {
			t.Errorf("player %d rated %+v, want %+v", i, p[i], want[i])
		}
	}
}
