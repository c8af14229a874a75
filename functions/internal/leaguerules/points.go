package leaguerules

import "fmt"

// PlacePoints is what a place at a table of size players earns, in
// hundredths of a point: 1000/600/300/100 (10/6/3/1) at a table of four.
// Other sizes follow the same shape, triangular numbers counted from the
// last place (1, 3, 6, 10, 15, 21), scaled so that every table hands out
// 5 points a seat on average: a member's expected points do not depend on
// the size of the tables they were seated at.
//
//	2: 7.50 2.50
//	3: 9.00 4.50 1.50
//	4: 10 6 3 1
//	5: 10.71 7.14 4.29 2.14 0.71
//	6: 11.25 8.04 5.36 3.21 1.61 0.54
func PlacePoints(place, players int) (int64, error) {
	if players < 1 || place < 1 || place > players {
		return 0, fmt.Errorf("place %d at a table of %d", place, players)
	}
	k := int64(players - place + 1)
	s := int64(players)
	num, den := 3000*k*(k+1)/2, (s+1)*(s+2)
	return (2*num + den) / (2 * den), nil // rounded half up
}

// FormatPoints shows hundredths of a point as a decimal: "10", "7.5", "0.54".
func FormatPoints(centi int64) string {
	sign := ""
	if centi < 0 {
		sign, centi = "-", -centi
	}
	whole, frac := centi/100, centi%100
	switch {
	case frac == 0:
		return fmt.Sprintf("%s%d", sign, whole)
	case frac%10 == 0:
		return fmt.Sprintf("%s%d.%d", sign, whole, frac/10)
	}
	return fmt.Sprintf("%s%d.%02d", sign, whole, frac)
}
