package businessman

import (
	"github.com/pbmgames/pbm/engine"
)

// MailLaps is the length a game by mail gets unless its organiser chooses
// another (README, "Calendar"); DefaultOptions' laps are the full length.
const MailLaps = 10

// Def is the game's entry in the registry (engine/games).
func Def() engine.Def {
	info := engine.Info{Kind: Name, RU: "Бизнесмен", EN: "Businessman", MinSeats: MinSeats, MaxSeats: MaxSeats,
		Length: engine.Laps(1, 2, 3, 5, 10, 20), Deals: true}
	return engine.Define[Options, *State, any](info, DefaultOptions, Options{Laps: MailLaps, RentClaim: RentAuto}, &Rulebook, &CurrentRules, New, Unmarshal, Secret)
}

// Kind names the game.
func (s *State) Kind() string { return Name }

// SetRules gives the state a rules version's numbers, which are not stored.
func (s *State) SetRules(r Rules) { s.Rules = r }

// Game adapts a State to engine.Game for the service.
type Game = engine.Adapter[*State, any]

// Replay plays a log from the start (P-1); see engine.Replay.
func Replay(opts Options, seats int, seed [32]byte, log []engine.Command) (*State, error) {
	return engine.Replay(New, opts, seats, seed, log)
}
