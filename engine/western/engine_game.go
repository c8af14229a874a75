package western

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// MailLaps is the length a game by mail gets unless its organiser chooses
// another (README, "Calendar"); DefaultOptions' laps are the full length.
const MailLaps = 5

// Def is the game's entry in the registry (engine/games).
func Def() engine.Def {
	mail := DefaultOptions()
	mail.Laps = MailLaps
	return engine.Spec[Options, *State, Rules]{
		Info:      engine.Info{Kind: Name, RU: "Вестерн", EN: "Western", MinSeats: MinSeats, MaxSeats: MaxSeats},
		Defaults:  DefaultOptions,
		Mail:      mail,
		Rulebook:  &Rulebook,
		Current:   &CurrentRules,
		New:       New,
		Unmarshal: Unmarshal,
		Start: func(s *State, r Rules) engine.Game {
			s.Rules = r
			return Game{S: s}
		},
	}.Def()
}

// Game adapts a State to engine.Game for the service.
type Game struct{ S *State }

var _ engine.Game = Game{}

func (g Game) Kind() string                                   { return Name }
func (g Game) Seats() int                                     { return len(g.S.Players) }
func (g Game) Over() bool                                     { return g.S.Over() }
func (g Game) Turn() engine.Seat                              { return g.S.Turn }
func (g Game) Owing() []engine.Seat                           { return g.S.Owing() }
func (g Game) Legal(seat engine.Seat) []engine.Choice         { return g.S.Legal(seat) }
func (g Game) Default(seat engine.Seat) (engine.Action, bool) { return g.S.Default(seat) }
func (g Game) Bot(seat engine.Seat) (engine.Action, bool)     { return g.S.Bot(seat) }
func (g Game) View(seat engine.Seat) any                      { return g.S.View(seat) }
func (g Game) Score() []engine.Score                          { return g.S.Score() }
func (g Game) MarshalJSON() ([]byte, error)                   { return g.S.Marshal() }

func (g Game) Apply(seat engine.Seat, a engine.Action) (engine.Game, []engine.Event, error) {
	n, ev, err := g.S.Apply(seat, a)
	if err != nil {
		return nil, nil, err
	}
	return Game{n}, ev, nil
}

// Replay plays a log from the start (P-1): the same options, seats, seed
// and commands always give the same state. It stops at the first command
// the engine refuses and says which.
func Replay(opts Options, seats int, seed [32]byte, log []engine.Command) (*State, error) {
	s, err := New(opts, seats, seed)
	if err != nil {
		return nil, err
	}
	var ev []engine.Event
	for i, c := range log {
		ev, err = s.Play(c.Seat, c.Action, ev[:0])
		if err != nil {
			return nil, fmt.Errorf("replay command %d: %w", i, err)
		}
	}
	return s, nil
}
