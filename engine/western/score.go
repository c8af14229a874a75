package western

import (
	"github.com/pbmgames/pbm/engine"
)

// Parts of net worth (W-40), the keys of engine.Score.Parts.
const (
	PartCash      = "cash"
	PartDeposit   = "deposit"
	PartShares    = "shares"
	PartGoods     = "goods"
	PartCredit    = "credit"
	PartLoan      = "colony_loan"
	PartStartLoan = "start_loan"
)

// NetWorth is W-40: cash + deposit + shares at their rate + goods at the
// exchange price − credits − the $50,000 starting loan. The colony loan is
// a debt like a credit (W-32).
func (s *State) NetWorth(seat int) (int64, map[string]int64) {
	p := &s.Players[seat]
	var shares, goods int64
	for cell := 1; cell <= NumCells; cell++ {
		if int(s.Owner[cell]) == seat {
			shares += s.shareValue(cell)
		}
	}
	for g := Cars; g < numGoods; g++ {
		goods += p.Goods[g] * s.goodPrice(g)
	}
	parts := map[string]int64{
		PartCash: p.Cash, PartDeposit: p.Deposit, PartShares: shares, PartGoods: goods,
		PartCredit: -p.Credit, PartLoan: -p.ColonyLoan, PartStartLoan: -StartLoan,
	}
	var total int64
	for _, v := range parts {
		total += v
	}
	return total, parts
}

// Score ranks the seats (W-0, W-40): those still playing by net worth, then
// the bankrupt; ties keep seat order.
func (s *State) Score() []engine.Score { return engine.Ranked(s) }

// Bankrupt tells whether seat has left the game.
func (s *State) Bankrupt(seat engine.Seat) bool { return s.Players[seat].Bankrupt }
