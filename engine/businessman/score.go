package businessman

import (
	"github.com/pbmgames/pbm/engine"
)

// Parts of net worth, the keys of engine.Score.Parts.
const (
	PartCash      = "cash"
	PartLots      = "lots"      // unpledged lots and the supermarket at their price
	PartPledged   = "pledged"   // pledged lots at their price less the cost to redeem
	PartBuildings = "buildings" // branches and enterprises at cost
	PartShares    = "shares"    // shares at the exchange price (B-13)
)

// NetWorth is the decider of B-0 (DECISIONS.md): cash + property at its
// price + buildings at cost + shares at the exchange price; a pledged lot
// counts what is left after redeeming it.
func (s *State) NetWorth(seat int) (int64, map[string]int64) {
	p := &s.Players[seat]
	var lots, pledged, buildings, shares int64
	for c := 1; c < NumCells; c++ {
		if int(s.Owner[c]) != seat {
			continue
		}
		if s.Mort[c] >= 0 {
			pledged += Board[c].Price - redeemCost(c)
		} else {
			lots += Board[c].Price
		}
		for l := uint8(0); l < s.Level[c]; l++ {
			buildings += buildCost(c, l)
		}
	}
	for k := range p.Shares {
		shares += p.Shares[k] * s.sharePrice(k)
	}
	parts := map[string]int64{PartCash: p.Cash, PartLots: lots, PartPledged: pledged, PartBuildings: buildings, PartShares: shares}
	return p.Cash + lots + pledged + buildings + shares, parts
}

// Score ranks the seats (B-0): players still in by net worth, then the
// bankrupt; ties keep seat order.
func (s *State) Score() []engine.Score { return engine.Ranked(s) }

// Bankrupt tells whether seat has left the game.
func (s *State) Bankrupt(seat engine.Seat) bool { return s.Players[seat].Bankrupt }
