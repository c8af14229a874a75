package race

import "github.com/pbmgames/pbm/engine"

// Def is the game's entry in the registry (engine/games). A game by mail
// gets the default track.
func Def() engine.Def {
	// Its length is the track's; no length is offered with estimates (the
	// calendar simulator plays the catalog's games only).
	info := engine.Info{Kind: Name, RU: "Гонка", EN: "Race", MinSeats: MinSeats, MaxSeats: MaxSeats,
		Length: engine.Length{Option: "track"}}
	return engine.Define[Options, *State, View](info, DefaultOptions, DefaultOptions(), &Rulebook, &CurrentRules, New, Unmarshal, Secret)
}

// Kind names the game.
func (s *State) Kind() string { return Name }

// SetRules gives the state a rules version's numbers, which are not stored.
func (s *State) SetRules(r Rules) { s.Rules = r }

// Game adapts a State to engine.Game for the service.
type Game = engine.Adapter[*State, View]

// Replay plays a log from the start (P-1); see engine.Replay.
func Replay(opts Options, seats int, seed [32]byte, log []engine.Command) (*State, error) {
	return engine.Replay(New, opts, seats, seed, log)
}
