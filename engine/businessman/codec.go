package businessman

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
)

// Marshal serialises the whole state (for storage: it holds the hidden
// hands, the piles' order and the generator, so never send it to a player).
func (s *State) Marshal() ([]byte, error) { return engine.MarshalState(Name, s) }

// Unmarshal reads a state written by Marshal and checks that it is one the
// engine can continue.
func Unmarshal(data []byte) (*State, error) { return engine.UnmarshalState[State](Name, data) }

// Loaded checks that a state just read is one the engine can continue, and
// gives it the current rules version's numbers, which are not stored (the
// service then sets the game's own: engine/games).
func (s *State) Loaded() error {
	n := len(s.Players)
	if err := s.Stored(FormatVersion, seating, n); err != nil {
		return err
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
	s.Rules = Rulebook[CurrentRules]
	return nil
}
