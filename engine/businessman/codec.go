package businessman

import (
	"encoding/json"
	"fmt"
)

// Marshal serialises the whole state (for storage: it holds the hidden
// hands, the piles' order and the generator, so never send it to a player).
func (s *State) Marshal() ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("marshal businessman state: %w", err)
	}
	return b, nil
}

// Unmarshal reads a state written by Marshal and checks that it is one the
// engine can continue.
func Unmarshal(data []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("unmarshal businessman state: %w", err)
	}
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("unmarshal businessman state: %w", err)
	}
	s.Rules = Rulebook[CurrentRules] // the service sets the game's own (engine/games)
	return &s, nil
}

func (s *State) validate() error {
	if s.Format != FormatVersion {
		return fmt.Errorf("format %d, want %d", s.Format, FormatVersion)
	}
	if err := s.Opts.Validate(); err != nil {
		return err
	}
	n := len(s.Players)
	if n < MinSeats || n > MaxSeats || s.Turn < 0 || s.Turn >= n {
		return fmt.Errorf("%d seats, turn %d", n, s.Turn)
	}
	if s.Phase > PhOver || s.Resume > PhOver {
		return fmt.Errorf("phase %d", s.Phase)
	}
	if s.Spot < 0 || s.Spot >= NumCells || s.RoulPos < 0 || s.RoulPos >= RouletteLen {
		return fmt.Errorf("spot %d, roulette %d", s.Spot, s.RoulPos)
	}
	for i, p := range s.Players {
		if p.Cell < 1 || p.Cell >= NumCells || p.Cash < 0 || p.NHand < 0 || p.NHand > MaxHand {
			return fmt.Errorf("seat %d: cell %d, cash %d, %d cards", i, p.Cell, p.Cash, p.NHand)
		}
		for _, c := range p.hand() {
			if int(c) >= len(XCards) {
				return fmt.Errorf("seat %d holds card %d", i, c)
			}
		}
		for _, k := range p.Shares {
			if k < 0 {
				return fmt.Errorf("seat %d: negative shares", i)
			}
		}
	}
	for c := range s.Owner {
		if o := int(s.Owner[c]); o < -1 || o >= n || (o >= 0 && !isProperty(c)) || s.Level[c] > 2 {
			return fmt.Errorf("cell %d: owner %d, level %d", c, o, s.Level[c])
		}
	}
	for _, pt := range s.Points {
		if pt < MinPoints || pt > MaxPoints {
			return fmt.Errorf("exchange points %d", pt)
		}
	}
	if s.Surprise.N < 0 || s.Surprise.N > len(SurpriseCards) || s.Notice.N < 0 || s.Notice.N > len(NoticeCards) ||
		s.Large.N < 0 || s.Large.N > len(s.Large.Cards) || s.Small.N < 0 || s.Small.N > len(s.Small.Cards) {
		return fmt.Errorf("pile sizes")
	}
	for _, d := range s.Debts {
		if d.Seat < 0 || d.Seat >= n || d.To < -1 || d.To >= n || d.Amount <= 0 {
			return fmt.Errorf("debt %+v", d)
		}
	}
	if s.Phase == PhDebt && len(s.Debts) == 0 {
		return fmt.Errorf("debt phase without debts")
	}
	if s.Phase == PhOffer && (s.Offer.To < 0 || s.Offer.To >= n || s.Offer.From < 0 || s.Offer.From >= n) {
		return fmt.Errorf("offer %+v", s.Offer)
	}
	if s.Phase == PhClaim && (s.Claim.Owner < 0 || s.Claim.Owner >= n || s.Claim.Payer < 0 || s.Claim.Payer >= n) {
		return fmt.Errorf("claim %+v", s.Claim)
	}
	return nil
}
