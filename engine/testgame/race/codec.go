package race

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// Marshal serialises the whole state (for storage: it holds the
// generator, so never send it to a player).
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
	if s.Phase > PhOver {
		return fmt.Errorf("phase %d", s.Phase)
	}
	var coins int64
	finished := 0
	for i, p := range s.Players {
		if p.Cell < 0 || p.Cell > s.Opts.Track || p.Coins < 0 || p.Finished != (p.Cell == s.Opts.Track) {
			return fmt.Errorf("seat %d: cell %d, coins %d, finished %v", i, p.Cell, p.Coins, p.Finished)
		}
		coins += p.Coins
		if p.Finished || p.Resigned {
			finished++
		}
	}
	if coins != s.Bank {
		return fmt.Errorf("players hold %d coins, the bank paid %d", coins, s.Bank)
	}
	if finished > 0 && s.Phase != PhOver {
		return fmt.Errorf("a seat is out but the game goes on")
	}
	s.Rules = Rulebook[CurrentRules]
	return nil
}
