package western

import (
	"encoding/json"
	"fmt"
)

// Marshal serialises the whole state (for storage: it holds the sealed
// bids and the generator, so never send it to a player).
func (s *State) Marshal() ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal western state: %w", err)
	}
	return b, nil
}

// Unmarshal reads a state written by Marshal and checks that it is one the
// engine can continue.
func Unmarshal(data []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("unmarshal western state: %w", err)
	}
	if s.Format != FormatVersion {
		return nil, fmt.Errorf("unmarshal western state: format %d, want %d", s.Format, FormatVersion)
	}
	if err := s.Opts.Validate(); err != nil {
		return nil, fmt.Errorf("unmarshal western state: %w", err)
	}
	if n := len(s.Players); n < MinSeats || n > MaxSeats || s.Turn < 0 || s.Turn >= n {
		return nil, fmt.Errorf("unmarshal western state: %d seats, turn %d", n, s.Turn)
	}
	for i, p := range s.Players {
		if p.Cell < 1 || p.Cell > NumCells {
			return nil, fmt.Errorf("unmarshal western state: seat %d on cell %d", i, p.Cell)
		}
	}
	for _, o := range s.Owner {
		if int(o) >= len(s.Players) || o < -1 {
			return nil, fmt.Errorf("unmarshal western state: owner %d", o)
		}
	}
	s.Rules = Rulebook[CurrentRules] // the service sets the game's own (engine/games)
	return &s, nil
}
