package leaguerules

import (
	"fmt"
	"math"
)

// Rating is a member's skill estimate across seasons in the Weng-Lin
// Bayesian model: a normal distribution of mean Mu and spread Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is the rating shown and sorted on: Mu − 3·Sigma, a skill the
// member very probably (99.7 %) has at least. A newcomer starts at 0 and
// climbs as the model grows sure of them.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// RatingModel holds the constants of the Plackett-Luce model of Weng & Lin
// (2011, Algorithm 4), with the defaults of the OpenSkill libraries.
type RatingModel struct {
	Mu, Sigma float64 // a newcomer's rating
	Beta      float64 // spread of one game's performance around skill
	Kappa     float64 // floor of the factor that shrinks Sigma, so it stays positive
	// Tau is added (in quadrature) to every Sigma before a game, so ratings
	// keep moving over long leagues; 0 leaves Sigma as the last game left it.
	Tau float64
}

// DefaultRatingModel is OpenSkill's: Mu 25, Sigma 25/3, Beta 25/6,
// Kappa 0.0001, no Tau.
func DefaultRatingModel() RatingModel {
	return RatingModel{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001}
}

// New is a newcomer's rating.
func (m RatingModel) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Rate updates the ratings of one game's players from their places
// (1 = best; equal places are a tie). Each player is a team of one.
func (m RatingModel) Rate(ratings []Rating, places []int) ([]Rating, error) {
	n := len(ratings)
	if len(places) != n {
		return nil, fmt.Errorf("rate: %d ratings but %d places", n, len(places))
	}
	for i, r := range ratings {
		if !(r.Sigma > 0) || math.IsInf(r.Sigma, 0) || math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || places[i] < 1 {
			return nil, fmt.Errorf("rate: player %d has rating %+v and place %d", i, r, places[i])
		}
	}
	out := make([]Rating, n)
	if n < 2 {
		copy(out, ratings)
		return out, nil
	}
	sigmaSq := make([]float64, n)
	c := 0.0
	for i, r := range ratings {
		sigmaSq[i] = r.Sigma*r.Sigma + m.Tau*m.Tau
		c += sigmaSq[i] + m.Beta*m.Beta
	}
	c = math.Sqrt(c)
	// strength[i] = exp(mu_i / c); below[q] sums it over the players placed
	// no better than q (the ones q could have beaten); ties[q] counts the
	// players sharing q's place.
	strength := make([]float64, n)
	for i, r := range ratings {
		strength[i] = math.Exp(r.Mu / c)
	}
	below := make([]float64, n)
	ties := make([]float64, n)
	for q := range n {
		for s := range n {
			if places[s] >= places[q] {
				below[q] += strength[s]
			}
			if places[s] == places[q] {
				ties[q]++
			}
		}
	}
	for i, r := range ratings {
		omega, delta := 0.0, 0.0
		for q := range n {
			if places[q] > places[i] {
				continue
			}
			p := strength[i] / below[q] // chance i comes first among those from q down
			if q == i {
				omega += (1 - p) / ties[q]
			} else {
				omega -= p / ties[q]
			}
			delta += p * (1 - p) / ties[q]
		}
		gamma := math.Sqrt(sigmaSq[i]) / c
		omega *= sigmaSq[i] / c
		delta *= gamma * sigmaSq[i] / (c * c)
		out[i] = Rating{
			Mu:    r.Mu + omega,
			Sigma: math.Sqrt(sigmaSq[i]) * math.Sqrt(math.Max(1-delta, m.Kappa)),
		}
	}
	return out, nil
}
