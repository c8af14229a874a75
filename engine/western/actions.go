package western

import "github.com/pbmgames/pbm/engine"

// Action types of «Вестерн». Amount-bearing ones are ranged choices.
const (
	ARoll       = "roll"        // W-2
	AFork       = "fork"        // Cell: the path taken (W-4)
	ABuy        = "buy"         // Cell (W-5)
	ASell       = "sell"        // Cell, to the bank at par (W-7)
	ASpecSell   = "spec_sell"   // Cell, to the bank at the speculation multiple (W-17)
	ACredit     = "credit"      // Amount (W-11)
	ADeposit    = "deposit"     // Amount (W-11, W-13)
	AWithdraw   = "withdraw"    // Amount (W-11)
	ARepay      = "repay"       // Amount of credit (W-11, W-12)
	ARepayLoan  = "repay_loan"  // Amount of the colony loan (W-32)
	ASellGood   = "sell_good"   // Good, Amount in units (W-15, W-16)
	ADropGood   = "drop_good"   // Good: the newspaper owner drops its rate (W-15)
	AOffer      = "offer"       // Cell, Target: offer to buy a rival's share at 1.5× (W-18)
	AHold       = "hold"        // Cell: decide the purchase of the holding stopped on later (rules 3: engine.Deal from the Bank)
	AAccept     = "accept"      // the offered seat sells (W-18)
	ADecline    = "decline"     // the offered seat keeps it (W-18, default)
	ABid        = "bid"         // Amount, sealed (W-19)
	APass       = "pass"        // no bid (W-19, default)
	ANarcoBuy   = "narco_buy"   // Amount in tons (W-21)
	ANarcoSell  = "narco_sell"  // Amount in tons (W-21)
	ABribe      = "bribe"       // W-23
	ASurrender  = "surrender"   // give up the loot to the raid (W-24)
	APrison     = "prison"      // go to prison instead (W-24, default)
	AColonyLoan = "colony_loan" // W-32
	ATrinkets   = "trinkets"    // W-32
	AEnd        = "end"         // end the turn
	AResign     = engine.Resign // leave the game: out, as if bankrupt (P-4)
)

// Secret tells whether an action is secret from the other seats (P-3): a
// sealed bid (or pass) is its bidder's alone, its amount for good (W-19).
func Secret(a engine.Action) bool { return a.Type == ABid || a.Type == APass }

// Bits of State.Used: the once-a-stop cell actions already taken.
const (
	usedBuy uint32 = 1 << iota
	usedOffer
	usedNarcoBuy
	usedNarcoSell
	usedBribe
	usedDrop
	usedColonyLoan
	usedTrinkets
	usedSellCars // one sale of each good a market visit (W-16: half of cars and cola)
	usedSellCola
	usedSellOil
	usedSellGold
)

func usedSell(g Good) uint32 { return usedSellCars << (g - Cars) }

// Legal lists seat's legal actions in a stable order (empty if it owes
// nothing). The first choice marked Default is what a missed deadline plays.
func (s *State) Legal(seat engine.Seat) []engine.Choice {
	return s.appendLegal(nil, seat)
}

func (s *State) appendLegal(out []engine.Choice, seat int) []engine.Choice {
	return s.appendChoices(out, seat, true)
}

// appendChoices lists seat's legal actions; without sales it leaves out the
// W-7 sales to the bank, which only a sale needs to be checked against.
func (s *State) appendChoices(out []engine.Choice, seat int, sales bool) []engine.Choice {
	if seat < 0 || seat >= len(s.Players) || !s.owes(seat) {
		return out
	}
	p := &s.Players[seat]
	switch s.Phase {
	case PhRoll:
		out = append(out, choice(engine.Action{Type: ARoll}, true))
		if sales {
			out = s.appendSales(out, seat)
		}
	case PhFork:
		for i, to := range Board[p.Cell].Next {
			if s.pathOpen(seat, p.Cell, to) {
				out = append(out, choice(engine.Action{Type: AFork, Cell: to}, i == 0))
			}
		}
		if sales {
			out = s.appendSales(out, seat)
		}
	case PhRaid:
		out = append(out,
			choice(engine.Action{Type: APrison}, true),
			choice(engine.Action{Type: ASurrender}, false))
	case PhOffer:
		out = append(out,
			choice(engine.Action{Type: ADecline}, true),
			choice(engine.Action{Type: AAccept}, false))
	case PhAuction:
		out = append(out, choice(engine.Action{Type: APass}, true))
		if p.Cash >= s.Auction.Min {
			out = append(out, ranged(engine.Action{Type: ABid, Cell: s.Auction.Cell}, s.Auction.Min, p.Cash))
		}
	case PhAct:
		out = append(out, choice(engine.Action{Type: AEnd}, true))
		out = s.appendCellActions(out, seat)
		if sales {
			out = s.appendSales(out, seat)
		}
	}
	// Whoever owes a decision may instead leave the game: a player who
	// wants no more mail, or one dropped after missed deadlines (P-4).
	return append(out, choice(engine.Action{Type: AResign}, false))
}

func choice(a engine.Action, def bool) engine.Choice { return engine.Choice{Action: a, Default: def} }

func ranged(a engine.Action, lo, hi int64) engine.Choice {
	return engine.Choice{Action: a, Min: lo, Max: hi, Step: 1}
}

// pathOpen tells whether seat may take the path from a fork to next.
func (s *State) pathOpen(seat, from, to int) bool {
	p := &s.Players[seat]
	switch {
	case Board[from].Kind == KTravel && to == Board[from].Next[1]:
		return p.Cash >= Board[from].Price // W-30: the fare to «Порт-Янки»
	case Board[from].Kind == KExpropriation && to == Board[from].Next[1]:
		return p.ColonyLaps+1 < MaxColonyLaps // W-34
	}
	return true
}

// appendSales lists W-7: any holding back to the bank at par, any moment of
// one's own turn.
func (s *State) appendSales(out []engine.Choice, seat int) []engine.Choice {
	for cell := 1; cell <= NumCells; cell++ {
		if int(s.Owner[cell]) == seat {
			out = append(out, choice(engine.Action{Type: ASell, Cell: cell}, false))
		}
	}
	return out
}

// appendCellActions lists what the cell the seat stopped on offers.
func (s *State) appendCellActions(out []engine.Choice, seat int) []engine.Choice {
	p := &s.Players[seat]
	c := &Board[p.Cell]
	switch c.Kind {
	case KHolding:
		if s.Owner[c.N] < 0 && s.Used&usedBuy == 0 && p.Cash >= c.Price && !s.Deals.HeldByOther(seat, c.N) {
			out = append(out, choice(engine.Action{Type: ABuy, Cell: c.N}, false))
			if s.Rules.OpenDeals && !s.Deals.Holding(seat) {
				out = append(out, choice(engine.Action{Type: AHold, Cell: c.N}, false))
			}
		}
		if c.N == cellNewspaper && int(s.Owner[c.N]) == seat && s.Used&usedDrop == 0 {
			for g := Cars; g < numGoods; g++ {
				if s.GoodPts[g] > MinRate {
					out = append(out, choice(engine.Action{Type: ADropGood, Good: g.String()}, false))
				}
			}
		}
	case KBank:
		if room := CreditPerLap - p.CreditLap; room > 0 {
			out = append(out, ranged(engine.Action{Type: ACredit}, 1, room))
		}
		if p.Cash > 0 {
			out = append(out, ranged(engine.Action{Type: ADeposit}, 1, p.Cash))
		}
		if p.Deposit > 0 {
			out = append(out, ranged(engine.Action{Type: AWithdraw}, 1, p.Deposit))
		}
		if n := min(p.Credit, p.Cash); n > 0 {
			out = append(out, ranged(engine.Action{Type: ARepay}, 1, n))
		}
		if n := min(p.ColonyLoan, p.Cash); n > 0 {
			out = append(out, ranged(engine.Action{Type: ARepayLoan}, 1, n))
		}
	case KMarket:
		for g := Cars; g < numGoods; g++ {
			if n := s.sellable(seat, g); n > 0 && s.Used&usedSell(g) == 0 {
				out = append(out, ranged(engine.Action{Type: ASellGood, Good: g.String()}, 1, n))
			}
		}
	case KExchange:
		if s.Used&usedOffer == 0 && s.canPropose(seat) {
			for cell := 1; cell <= NumCells; cell++ {
				o := int(s.Owner[cell])
				if o >= 0 && o != seat && p.Cash >= offerPrice(s.shareValue(cell)) {
					out = append(out, choice(engine.Action{Type: AOffer, Cell: cell, Target: o}, false))
				}
			}
		}
	case KSpeculation:
		for cell := 1; cell <= NumCells; cell++ {
			if int(s.Owner[cell]) == seat {
				out = append(out, choice(engine.Action{Type: ASpecSell, Cell: cell}, false))
			}
		}
	case KNarcoBuy:
		if n := min(p.Cash/c.Amount, MaxNarcoTons); n > 0 && s.Used&usedNarcoBuy == 0 {
			out = append(out, ranged(engine.Action{Type: ANarcoBuy}, 1, n))
		}
	case KNarcoSell:
		if p.Narco > 0 && s.Used&usedNarcoSell == 0 {
			out = append(out, ranged(engine.Action{Type: ANarcoSell}, 1, p.Narco))
		}
	case KBribe:
		if !p.Protected && p.Cash >= c.Price && s.Used&usedBribe == 0 {
			out = append(out, choice(engine.Action{Type: ABribe}, false))
		}
	case KColonyLoan:
		if p.ColonyLoan == 0 && p.Cash > 0 && s.Used&usedColonyLoan == 0 {
			out = append(out, choice(engine.Action{Type: AColonyLoan}, false))
		}
	case KTrinkets:
		if p.Cash >= c.Price && s.Used&usedTrinkets == 0 {
			out = append(out, choice(engine.Action{Type: ATrinkets}, false))
		}
	}
	return out
}

// offerPrice is W-18's price: one and a half times the share's price.
func offerPrice(v int64) int64 { return v * 3 / 2 }

// specPrice is W-17's price at a speculation cell.
func specPrice(v int64, mult int) int64 { return v * int64(mult) / 2 }

// Allows tells whether a is among the legal actions of seat, which owes a
// decision (engine.Machine). Only a sale lists the sales to the bank.
func (s *State) Allows(seat engine.Seat, a engine.Action) bool {
	if engine.IsAnswer(a) {
		return s.Deals.Answerable(seat, a)
	}
	var buf [48]engine.Choice
	return engine.Find(s.appendChoices(buf[:0], seat, a.Type == ASell), a) >= 0
}

// MaxOpenDeals bounds the deals one seat may have open as their proposer
// (filled-in): an offer made while that many wait is not offered.
const MaxOpenDeals = 3

// canPropose tells whether seat may open another deal as its proposer.
func (s *State) canPropose(seat int) bool {
	return !s.Rules.OpenDeals || s.Deals.Count(func(d engine.Deal) bool { return d.From == seat }) < MaxOpenDeals
}
