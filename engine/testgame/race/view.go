package race

import "github.com/pbmgames/pbm/engine"

// PlayerView is what everyone may see of a seat: all of it.
type PlayerView struct {
	Seat     int   `json:"seat"`
	Cell     int   `json:"cell"`
	Coins    int64 `json:"coins"`
	Finished bool  `json:"finished,omitempty"`
	Resigned bool  `json:"resigned,omitempty"`
}

// View is one seat's (or a spectator's) view of the game.
type View struct {
	Seat    int            `json:"seat"`
	Turn    int            `json:"turn"`
	Phase   Phase          `json:"phase"`
	Owing   []int          `json:"owing"`
	Track   int            `json:"track"`
	Roll    int            `json:"roll"`
	MayRest bool           `json:"may_rest,omitempty"` // the turn's seat may rest
	Players []PlayerView   `json:"players"`
	Score   []engine.Score `json:"score,omitempty"`
}

// View is what seat may see (P-3, R-8): the whole position, never the
// generator (what the next roll will be). Every seat's view is the same
// but for its Seat.
func (s *State) View(seat engine.Seat) View {
	v := View{Seat: seat, Turn: s.Turn, Phase: s.Phase, Owing: s.Owing(), Track: s.Opts.Track, Roll: s.Roll}
	if !s.Over() {
		v.MayRest = s.mayRest(s.Turn)
	}
	for i, p := range s.Players {
		v.Players = append(v.Players, PlayerView{Seat: i, Cell: p.Cell, Coins: p.Coins, Finished: p.Finished, Resigned: p.Resigned})
	}
	if s.Over() {
		v.Score = s.Score()
	}
	return v
}
