package views

import (
	"slices"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
)

// Panel is what a page shows of one seat: what the game's presenter
// makes of the reader's view (P-3), and the score.
type Panel struct {
	Seat                     int
	Name                     string
	Me, Turn, Owes, Bankrupt bool
	Detailed                 bool // Pos is filled
	Place                    int
	NetWorth                 int64
	Worth                    string // NetWorth in the game's money
	Pos                      present.Seat
	Parts                    []PartRow
}

// PartRow is one part of a seat's score, in the game's money.
type PartRow struct {
	Label, Value string
	Zero         bool
}

// breakdown lists a score's parts in the game's order.
func breakdown(l string, p present.Game, parts map[string]int64) []PartRow {
	var out []PartRow
	for _, x := range p.Parts(l, parts) {
		out = append(out, PartRow{Label: x.Label, Value: p.Money(l, x.Value), Zero: x.Value == 0})
	}
	return out
}

// Panels makes the panel of every seat from the game as reader sees it.
func Panels(l string, p present.Game, g engine.Game, reader int, names []string) []Panel {
	scores := g.Score()
	owing := g.Owing()
	out := make([]Panel, g.Seats())
	for i := range out {
		out[i] = Panel{Seat: i, Name: NameFunc(names)(i), Me: i == reader,
			Turn: !g.Over() && g.Turn() == i, Owes: slices.Contains(owing, i)}
	}
	for _, sc := range scores {
		if sc.Seat >= 0 && sc.Seat < len(out) {
			s := &out[sc.Seat]
			s.Place, s.NetWorth, s.Bankrupt, s.Parts = sc.Place, sc.NetWorth, sc.Bankrupt, breakdown(l, p, sc.Parts)
			s.Worth = p.Money(l, sc.NetWorth)
		}
	}
	for i, pos := range p.Seats(l, g.View(reader)) {
		if i < len(out) {
			out[i].Pos, out[i].Detailed = pos, true
		}
	}
	return out
}

// ByPlace orders panels by their place, best first.
func ByPlace(ps []Panel) []Panel {
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b Panel) int { return a.Place - b.Place })
	return out
}
