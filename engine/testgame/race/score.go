package race

import "github.com/pbmgames/pbm/engine"

// Parts of the score, the keys of engine.Score.Parts.
const (
	PartCells  = "cells"  // cells covered
	PartCoins  = "coins"  // coins from resting
	PartFinish = "finish" // Rules.Finish for the player who reached the finish
)

// NetWorth is R-6's score: cells covered + coins, and Rules.Finish for the
// finisher (engine.Worth; the shared name says money, «Гонка» counts
// progress).
func (s *State) NetWorth(seat engine.Seat) (int64, map[string]int64) {
	p := &s.Players[seat]
	var finish int64
	if p.Finished {
		finish = s.Rules.Finish
	}
	cells := int64(p.Cell)
	return cells + p.Coins + finish, map[string]int64{PartCells: cells, PartCoins: p.Coins, PartFinish: finish}
}

// Bankrupt tells whether seat has left the game: the shared word
// for it (engine.Score.Bankrupt) ranks it last.
func (s *State) Bankrupt(seat engine.Seat) bool { return s.Players[seat].Resigned }

// Score ranks the seats through engine.Ranked.
func (s *State) Score() []engine.Score { return engine.Ranked(s) }
