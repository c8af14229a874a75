package race

import "github.com/pbmgames/pbm/engine"

// Action types of «Гонка»: no field is used.
const (
	ARoll   = "roll" // move 1–6 cells
	ARest   = "rest" // no move, +1 coin
	AResign = engine.Resign
)

// Secret tells whether an action is secret from the other seats (P-3): no
// action of «Гонка» is.
func Secret(engine.Action) bool { return false }

// Legal lists seat's legal actions in a stable order (empty if it owes
// nothing): roll (the default, R-7), rest while it may, resign last.
func (s *State) Legal(seat engine.Seat) []engine.Choice {
	if !s.Owes(seat) {
		return nil
	}
	out := []engine.Choice{{Action: engine.Action{Type: ARoll}, Default: true}}
	if s.mayRest(seat) {
		out = append(out, engine.Choice{Action: engine.Action{Type: ARest}})
	}
	return append(out, engine.Choice{Action: engine.Action{Type: AResign}})
}

// mayRest tells whether seat may rest: fewer than MaxCoins coins.
func (s *State) mayRest(seat engine.Seat) bool { return s.Players[seat].Coins < s.Rules.MaxCoins }

// Allows tells whether a is among seat's legal actions (engine.Machine);
// there are no deals to answer.
func (s *State) Allows(seat engine.Seat, a engine.Action) bool {
	if !s.Owes(seat) {
		return false
	}
	switch a {
	case engine.Action{Type: ARoll}, engine.Action{Type: AResign}:
		return true
	case engine.Action{Type: ARest}:
		return s.mayRest(seat)
	}
	return false
}
