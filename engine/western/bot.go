package western

import "github.com/pbmgames/pbm/engine"

// Bot thresholds (filled-in): a bot keeps a cash reserve for fees and
// interest, banks surplus and pays its credit back.
const (
	botReserve     = 8_000
	botCreditBelow = 3_000
	botCreditTake  = 20_000
	botColonyCash  = 12_000 // enough to buy a plantation on the way
	botKeepCash    = 60_000 // cash kept in hand to buy what the bot stops on

)

// Bot chooses seat's action: always one of Legal(seat). ok is false when
// the seat owes nothing.
//
// It plays like a careful person who counts: a holding is worth its
// price now plus what it will pay in the laps that are left; it sells
// only when the price beats that (speculation, offers), buys what pays,
// keeps a reserve for fees and interest, sails to the colony's high-paying
// plantations when it can pay its way, and bids at auctions below what a
// firm is worth.
func (s *State) Bot(seat engine.Seat) (engine.Action, bool) {
	var buf [48]engine.Choice
	// Bots never sell at par (W-7): they choose among the rest.
	legal := s.appendChoices(buf[:0], seat, false)
	if len(legal) == 0 {
		return engine.Action{}, false
	}
	return s.botPick(seat, legal), true
}

// lapsLeft is how many laps seat may still collect before the game ends.
func (s *State) lapsLeft(seat int) int64 {
	lead := 0
	for i := range s.Players {
		lead = max(lead, s.Players[i].Laps)
	}
	return int64(max(0, s.Opts.Laps-lead))
}

// yield is what holding cell pays its owner a lap: the dividend, or the
// product of a leading company at today's price.
func (s *State) yield(cell int) int64 {
	c := &Board[cell]
	if cell == cellLeadingCola || cell == cellLeadingCars {
		return s.shareValue(cell) / ProductionUnit * s.goodPrice(c.Good)
	}
	return c.Profit
}

// keepWorth is what keeping holding cell is worth to seat: its value plus
// what it pays in the laps left (a colony holding is at risk of the reefs
// and the expropriation, so it counts for fewer laps).
func (s *State) keepWorth(seat, cell int) int64 {
	laps := s.lapsLeft(seat)
	if Board[cell].Colony {
		laps = min(laps, 3)
	}
	return s.shareValue(cell) + s.yield(cell)*laps
}

// freePlantations tells whether the colony still has a holding to buy.
func (s *State) freePlantations() bool {
	for cell := 114; cell <= 129; cell++ {
		if Board[cell].Kind == KHolding && s.Owner[cell] < 0 {
			return true
		}
	}
	return false
}

func (s *State) botPick(seat int, legal []engine.Choice) engine.Action {
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
		// The business path, except to the colony's plantations when
		// there are some to buy and the bot can pay its way — by the
		// travel agency only: the sea route's pirates take half the cash
		// and its reefs everything earned in the colony, and a second
		// round risks the expropriation again —, or to the slippery path
		// when nearly broke.
		best := legal[0].Action
		colonyOK := s.freePlantations() && p.Cash > botColonyCash && s.lapsLeft(seat) > 1
		for _, c := range legal {
			if c.Type != AFork {
				continue
			}
			switch {
			case c.Cell == 114 && colonyOK:
				return c.Action
			case c.Cell == 91 && p.Cash < 15_000:
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
		// Sell when 1.5× the value beats keeping the share.
		if s.Offer.Price > s.keepWorth(seat, s.Offer.Cell) {
			return engine.Action{Type: AAccept}
		}
		return engine.Action{Type: ADecline}
	case PhAuction:
		// Sealed: bid three quarters of the price, well above the
		// minimum, as long as the reserve stays.
		if c, ok := first(ABid); ok {
			bid := min(c.Max, max(c.Min, Board[c.Cell].Price*3/4), p.Cash-botReserve)
			if bid >= c.Min {
				return engine.Action{Type: ABid, Cell: c.Cell, Amount: bid}
			}
		}
		return engine.Action{Type: APass}
	}
	// PhAct: take the cell's opportunities, then end the turn.
	for _, c := range legal {
		switch c.Type {
		case ABuy:
			reserve := int64(botReserve)
			if Board[c.Cell].Colony {
				reserve = 1_000 // the colony's holdings pay for themselves in a lap
			}
			if p.Cash-Board[c.Cell].Price >= reserve && s.lapsLeft(seat) > 0 {
				return c.Action
			}
		case AColonyLoan:
			// Interest-free money to buy plantations further on.
			for cell := p.Cell + 1; cell <= 128; cell++ {
				if Board[cell].Kind == KHolding && s.Owner[cell] < 0 {
					return c.Action
				}
			}
		case ASellGood, ANarcoSell:
			return engine.Action{Type: c.Type, Good: c.Good, Amount: c.Max}
		case ARepay:
			if p.Cash-c.Max >= botReserve {
				return engine.Action{Type: ARepay, Amount: c.Max}
			}
			if p.Cash > 2*botReserve {
				return engine.Action{Type: ARepay, Amount: p.Cash - 2*botReserve}
			}
		case ARepayLoan:
			if p.Cash-c.Max >= 4*botReserve {
				return engine.Action{Type: ARepayLoan, Amount: c.Max}
			}
		case ACredit:
			if p.Cash < botCreditBelow && p.Credit == 0 {
				return engine.Action{Type: ACredit, Amount: min(botCreditTake, c.Max)}
			}
		case ADeposit:
			// The deposit compounds at 10 % a lap and a shortfall draws on
			// it by itself (W-14): keep only the purchase money in hand.
			if p.Credit == 0 && p.Cash > botKeepCash+botReserve {
				return engine.Action{Type: ADeposit, Amount: min(c.Max, p.Cash-botKeepCash)}
			}
		case AWithdraw:
			if p.Cash < botReserve {
				return engine.Action{Type: AWithdraw, Amount: min(c.Max, botReserve)}
			}
		case ATrinkets:
			return c.Action
		case ASpecSell:
			// Sell when the multiple beats keeping the holding.
			if s.shareValue(c.Cell)*int64(Board[p.Cell].Mult)/2 > s.keepWorth(seat, c.Cell) {
				return c.Action
			}
		case AOffer:
			// Buy a rival's share at 1.5× when keeping it pays more.
			price := s.shareValue(c.Cell) * 3 / 2
			if p.Cash-price >= 2*botReserve && s.keepWorth(seat, c.Cell) > price {
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

// cash kept in hand to buy what the bot stops on

// Default is the action a missed deadline plays for seat (P-4): the first
// choice marked Default — no purchase, no optional action.
func (s *State) Default(seat engine.Seat) (engine.Action, bool) {
	var buf [48]engine.Choice
	for _, c := range s.appendLegal(buf[:0], seat) {
		if c.Default {
			return c.Action, true
		}
	}
	return engine.Action{}, false
}
