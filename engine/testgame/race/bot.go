package race

import "github.com/pbmgames/pbm/engine"

// Default is the action played for seat when its deadline passes (R-7,
// P-4): a roll, so an absent player still moves and the game ends.
func (s *State) Default(seat engine.Seat) (engine.Action, bool) {
	if !s.Owes(seat) {
		return engine.Action{}, false
	}
	return engine.Action{Type: ARoll}, true
}

// Bot chooses seat's action: always a legal one, never resign. It rests
// (a sure coin) only when it leads by more than a roll and the finish is
// still more than a roll away; otherwise it rolls.
func (s *State) Bot(seat engine.Seat) (engine.Action, bool) {
	if !s.Owes(seat) {
		return engine.Action{}, false
	}
	me, them := s.Players[seat], s.Players[other(seat)]
	sides := s.Rules.Sides
	if s.mayRest(seat) && me.Cell-them.Cell > sides && them.Cell+sides < s.Opts.Track {
		return engine.Action{Type: ARest}, true
	}
	return engine.Action{Type: ARoll}, true
}
