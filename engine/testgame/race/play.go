package race

import "github.com/pbmgames/pbm/engine"

// Event types of «Гонка». Amount is used only for coins: the signed
// change of Seat's coins, so the Amounts of a seat's events add up to the
// change of its coins. Turns, resignations and the end are the shared
// engine.EvTurn, engine.EvResign and engine.EvGameOver (Other: OverFinish,
// engine.OverLastOne or engine.OverEnded).
const (
	EvRoll   = "roll"   // Other: the die
	EvMove   = "move"   // Cell: where the token stopped
	EvCoin   = "coin"   // Amount: +1 coin from a rest
	EvFinish = "finish" // Cell: the finish, reached
)

// OverFinish says, in the Other of the game-over event, that a player
// reached the finish. The engine's shared reason of that number is
// named for laps (engine.OverLaps, "completed the agreed laps"): «Гонка»
// has no laps and reads it as "reached the end of the track".
const OverFinish = engine.OverLaps

// Do applies a legal action (engine.Machine): it checks nothing.
func (s *State) Do(seat engine.Seat, a engine.Action, ev []engine.Event) []engine.Event {
	s.Actions++
	p := &s.Players[seat]
	switch a.Type {
	case ARoll:
		d := s.RNG.IntN(s.Rules.Sides) + 1
		s.Roll = d
		ev = append(ev, engine.Event{Type: EvRoll, Seat: seat, Other: d})
		p.Cell = min(p.Cell+d, s.Opts.Track)
		ev = append(ev, engine.Event{Type: EvMove, Seat: seat, Cell: p.Cell})
		if p.Cell == s.Opts.Track {
			p.Finished = true
			ev = append(ev, engine.Event{Type: EvFinish, Seat: seat, Cell: p.Cell})
			return s.over(OverFinish, ev)
		}
	case ARest:
		ev = engine.Gain(&p.Coins, &s.Bank, seat, s.Rules.Rest, EvCoin, p.Cell, ev)
	case AResign: // with two seats, the other is the last one left
		p.Resigned = true
		ev = append(ev, engine.Event{Type: engine.EvResign, Seat: seat})
		return s.over(engine.OverLastOne, ev)
	}
	s.Turn = other(seat)
	return append(ev, engine.Event{Type: engine.EvTurn, Seat: s.Turn})
}

// over ends the game for the reason why.
func (s *State) over(why int, ev []engine.Event) []engine.Event {
	s.Phase = PhOver
	return append(ev, engine.Event{Type: engine.EvGameOver, Seat: -1, Other: why})
}

// EndNow ends the game at its organiser's command (engine.End): it is
// scored as it stands.
func (s *State) EndNow(ev []engine.Event) []engine.Event { return s.over(engine.OverEnded, ev) }
