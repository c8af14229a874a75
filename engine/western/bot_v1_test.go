package western

import "github.com/pbmgames/pbm/engine"

// The previous bot's thresholds.
const (
	v1Reserve     = 8_000
	v1DepositOver = 60_000
	v1CreditBelow = 3_000
	v1CreditTake  = 20_000
)

// botV1 is the bot before issue 11, kept to measure the new one against
// (bottable_test.go); it chooses seat's action: always one of Legal(seat). ok is false when
// the seat owes nothing.
func (s *State) botV1(seat engine.Seat) (engine.Action, bool) {
	var buf [48]engine.Choice
	// Bots never sell at par (W-7): they choose among the rest.
	legal := s.appendChoices(buf[:0], seat, false)
	if len(legal) == 0 {
		return engine.Action{}, false
	}
	return s.botV1Pick(seat, legal), true
}

func (s *State) botV1Pick(seat int, legal []engine.Choice) engine.Action {
	p := &s.Players[seat]
	first := func(typ string) (engine.Choice, bool) {
		for _, c := range legal {
			if c.Type == typ {
				return c, true
			}
		}
		return engine.Choice{}, false
	}
	switch s.Phase {
	case PhRoll:
		return engine.Action{Type: ARoll}
	case PhFork:
		// The business path, except to sail for the colony's plantations
		// when rich enough to pay its way, or to try the slippery path
		// when nearly broke with no debt to lose in prison.
		best := legal[0].Action
		for _, c := range legal {
			colony := c.Cell >= 111 && c.Cell <= 114 && p.Cash > 30_000 && p.ColonyLaps == 0
			slippery := c.Cell == 91 && p.Cash < 15_000
			if c.Type == AFork && (colony || slippery) {
				best = c.Action
			}
		}
		return best
	case PhRaid:
		if p.Loot < 5_000 {
			return engine.Action{Type: ASurrender}
		}
		return engine.Action{Type: APrison}
	case PhOffer:
		// 1.5× the price is a good sale unless the share pays better than
		// a tenth of that a lap.
		if c := Board[s.Offer.Cell]; leadIndex(c.N) < 0 && c.Profit*10 < s.Offer.Price {
			return engine.Action{Type: AAccept}
		}
		return engine.Action{Type: ADecline}
	case PhAuction:
		if c, ok := first(ABid); ok && c.Min+v1Reserve <= p.Cash {
			return engine.Action{Type: ABid, Cell: c.Cell, Amount: c.Min}
		}
		return engine.Action{Type: APass}
	}
	// PhAct: take the cell's opportunities, then end the turn.
	for _, c := range legal {
		switch c.Type {
		case ABuy:
			if p.Cash-Board[c.Cell].Price >= v1Reserve {
				return c.Action
			}
		case ASellGood, ANarcoSell:
			return engine.Action{Type: c.Type, Good: c.Good, Amount: c.Max}
		case ARepay:
			if p.Cash-c.Max >= v1Reserve {
				return engine.Action{Type: ARepay, Amount: c.Max}
			}
			if p.Cash > 2*v1Reserve {
				return engine.Action{Type: ARepay, Amount: p.Cash - 2*v1Reserve}
			}
		case ARepayLoan:
			if p.Cash-c.Max >= 2*v1Reserve {
				return engine.Action{Type: ARepayLoan, Amount: c.Max}
			}
		case ACredit:
			if p.Cash < v1CreditBelow && p.Credit == 0 {
				return engine.Action{Type: ACredit, Amount: min(v1CreditTake, c.Max)}
			}
		case ADeposit:
			if p.Credit == 0 && p.Cash > v1DepositOver {
				return engine.Action{Type: ADeposit, Amount: p.Cash - v1DepositOver/2}
			}
		case AWithdraw:
			if p.Cash < v1Reserve {
				return engine.Action{Type: AWithdraw, Amount: min(c.Max, v1Reserve)}
			}
		case ATrinkets:
			return c.Action
		case ASpecSell:
			// Three times the price beats ten laps of most dividends.
			if Board[p.Cell].Mult >= 6 && leadIndex(c.Cell) < 0 {
				return c.Action
			}
		case ADropGood:
			if GoodByName(c.Good) != NoGood && p.Goods[GoodByName(c.Good)] == 0 {
				return c.Action
			}
		}
	}
	return engine.Action{Type: AEnd}
}
