package western

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// Marshal serialises the whole state (for storage: it holds the sealed
// bids and the generator, so never send it to a player).
func (s *State) Marshal() ([]byte, error) { return engine.MarshalState(Name, s) }

// Unmarshal reads a state written by Marshal and checks that it is one the
// engine can continue.
func Unmarshal(data []byte) (*State, error) { return engine.UnmarshalState[State](Name, data) }

// Loaded checks that a state just read is one the engine can continue, and
// gives it the current rules version's numbers, which are not stored (the
// service then sets the game's own: engine/games).
func (s *State) Loaded() error {
	if err := s.Stored(FormatVersion, seating, len(s.Players)); err != nil {
		return err
	}
	for i, p := range s.Players {
		if p.Cell < 1 || p.Cell > NumCells {
			return fmt.Errorf("seat %d on cell %d", i, p.Cell)
		}
	}
	for _, o := range s.Owner {
		if int(o) >= len(s.Players) || o < -1 {
			return fmt.Errorf("owner %d", o)
		}
	}
	s.Rules = Rulebook[CurrentRules]
	return nil
}
