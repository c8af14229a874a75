package western

import "github.com/pbmgames/pbm/engine"

// land applies the cell the token stopped on, then asks for the cell's
// optional actions or ends the turn.
func (s *State) land(seat int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	c := &Board[p.Cell]
	s.Phase, s.Used = PhAct, 0
	if c.Colony {
		ev = s.charge(seat, ColonyCellFee, EvFee, c.N, ev) // W-31
		if p.Bankrupt {
			return ev // bankrupt has passed the turn on
		}
	}
	switch c.Kind {
	case KAuction:
		return s.openAuction(seat, ev)
	case KClan:
		ev = s.loot(seat, min(p.Cash, ClanCap), c.N, ev) // W-20: cash doubles
	case KCrime:
		ev = s.loot(seat, c.Amount, c.N, ev)
	case KPrison:
		low := c.N == 92 || c.N == 96 || c.N == 101 || c.N == 103
		if p.Protected && low {
			ev = append(ev, engine.Event{Type: EvProtected, Seat: seat, Cell: c.N}) // W-23
		} else {
			ev = s.imprison(seat, c.Turns, ev)
		}
	case KRaid:
		s.Phase = PhRaid // W-24: the player chooses
		return ev
	case KGodfather:
		ev = s.charge(seat, p.Loot/2, EvFee, c.N, ev) // W-24
		p.Loot -= p.Loot / 2
	case KLabour:
		if !s.Opts.Beginners { // W-41: cells with indices do nothing
			p.Labour = max(-LabourMax, min(LabourMax, p.Labour+c.Labour))
			ev = append(ev, engine.Event{Type: EvLabour, Seat: seat, Cell: c.N, Other: p.Labour})
		}
	case KTanker:
		ev = s.raiseGood(seat, Oil, c.Points, ev)
		p.Goods[Oil] += c.Amount
		ev = append(ev, engine.Event{Type: EvGoodGained, Seat: seat, Cell: c.N, Good: Oil.String(), Other: int(c.Amount)})
	case KKlondike:
		ev = s.raiseGood(seat, Gold, c.Points, ev)
		p.Goods[Gold] += c.Amount
		p.ColonyGold += c.Amount
		ev = append(ev, engine.Event{Type: EvGoodGained, Seat: seat, Cell: c.N, Good: Gold.String(), Other: int(c.Amount)})
	case KMutiny:
		ev = s.charge(seat, c.Amount, EvFee, c.N, ev)
	case KPirates:
		ev = s.charge(seat, p.Cash/2, EvFee, c.N, ev)
	case KReefs, KExpropriation:
		ev = s.confiscateColony(seat, ev) // W-33
	}
	if p.Bankrupt || s.Phase != PhAct {
		return ev
	}
	return s.afterAct(ev)
}

// raiseGood moves a commodity rate (W-15).
func (s *State) raiseGood(seat int, g Good, pts int, ev []engine.Event) []engine.Event {
	s.GoodPts[g] = max(MinRate, min(MaxRate, s.GoodPts[g]+pts))
	return append(ev, engine.Event{Type: EvGoodRate, Seat: seat, Good: g.String(), Other: s.GoodPts[g]})
}

// confiscateColony takes everything earned in the colony (W-33): the
// holdings bought there (every colony holding the player owns goes back to
// the bank), the money the colony paid since it last took (the trinkets'
// profit and the colony holdings' dividends), as far as the cash goes, and
// the gold dug.
func (s *State) confiscateColony(seat int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	for cell := 114; cell <= NumCells; cell++ {
		if Board[cell].Colony && int(s.Owner[cell]) == seat {
			s.Owner[cell] = -1
			ev = append(ev, engine.Event{Type: EvConfiscated, Seat: seat, Cell: cell})
		}
	}
	take := min(p.ColonyCash, p.Cash)
	gold := min(p.ColonyGold, p.Goods[Gold])
	p.ColonyCash, p.ColonyGold = 0, 0
	if gold > 0 {
		p.Goods[Gold] -= gold
		ev = append(ev, engine.Event{Type: EvGoodLost, Seat: seat, Cell: p.Cell, Good: Gold.String(), Other: int(gold)})
	}
	if take > 0 {
		ev = s.charge(seat, take, EvFee, p.Cell, ev)
	}
	return ev
}

// imprison costs turns (W-22): double with narcotics on board.
func (s *State) imprison(seat, turns int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	if p.Narco > 0 {
		turns *= 2
	}
	p.Skip += turns
	return append(ev, engine.Event{Type: EvPrison, Seat: seat, Cell: p.Cell, Other: turns})
}

// openAuction draws a free firm and asks every seat for a sealed bid (W-19).
func (s *State) openAuction(seat int, ev []engine.Event) []engine.Event {
	var free [NumCells]int
	n := 0
	for cell := 1; cell <= NumCells; cell++ {
		if Board[cell].Group == GFirm && s.Owner[cell] < 0 {
			free[n] = cell
			n++
		}
	}
	if n == 0 {
		ev = append(ev, engine.Event{Type: EvAuctionNil, Seat: seat})
		return s.endTurn(ev)
	}
	cell := free[s.RNG.IntN(n)] // P-1: the firm is a seeded draw
	s.Auction.reset()
	s.Auction.Cell, s.Auction.Min = cell, Board[cell].Price/2
	s.Phase = PhAuction
	return append(ev, engine.Event{Type: EvAuction, Seat: seat, Cell: cell, Amount: 0, Other: int(s.Auction.Min)})
}

// settleAuction closes the auction once every seat still playing has
// answered: the highest bid wins, ties go to the first in turn order from
// the seat that opened it.
func (s *State) settleAuction(ev []engine.Event) []engine.Event {
	n := len(s.Players)
	for i := 0; i < n; i++ {
		if s.active(i) && s.Auction.Bids[i] < 0 {
			return ev
		}
	}
	best, bid := -1, int64(0)
	for k := 0; k < n; k++ {
		i := (s.Turn + k) % n
		if s.active(i) && s.Auction.Bids[i] > bid {
			best, bid = i, s.Auction.Bids[i]
		}
	}
	cell := s.Auction.Cell
	// The bids were sealed only until the auction closed: now everyone
	// sees them, the winner's first.
	for k := 0; k < n; k++ {
		if i := (max(best, 0) + k) % n; s.active(i) {
			ev = append(ev, engine.Event{Type: EvBidShown, Seat: i, Cell: cell, Other: int(s.Auction.Bids[i])})
		}
	}
	s.Auction.reset()
	s.Phase = PhAct
	if best < 0 {
		ev = append(ev, engine.Event{Type: EvAuctionNil, Seat: s.Turn, Cell: cell})
		return s.endTurn(ev)
	}
	s.Owner[cell] = int8(best)
	ev = s.charge(best, bid, EvAuctionWon, cell, ev)
	return s.endTurn(ev)
}

// lap settles a completed lap (W-3): income, dividends, production,
// deposit interest, credit interest, rates.
func (s *State) lap(seat int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	p.Laps++
	ev = append(ev, engine.Event{Type: EvLap, Seat: seat, Amount: 0, Other: p.Laps})
	ev = s.gain(seat, s.Rules.LapIncome, EvIncome, 1, ev)
	media := 0 // W-10: one point a lap with any newspaper or TV company
	for cell := 1; cell <= NumCells; cell++ {
		if int(s.Owner[cell]) != seat {
			continue
		}
		c := &Board[cell]
		if c.Group == GMedia {
			media = 1
		}
		if cell == cellLeadingCola || cell == cellLeadingCars { // W-8: МММ and ЭМА pay in product; «Бампер» pays its profit
			units := s.shareValue(cell) / ProductionUnit
			if units == 0 {
				continue
			}
			p.Goods[c.Good] += units
			ev = append(ev, engine.Event{Type: EvProduce, Seat: seat, Cell: cell, Good: c.Good.String(), Other: int(units)})
			if h := int(s.Owner[cellHMM]); h >= 0 { // W-10: paid by the bank
				ev = s.gain(h, units*s.goodPrice(c.Good)*HMMSharePct/100, EvHMM, cell, ev)
			}
			continue
		}
		if c.Profit > 0 {
			ev = s.gain(seat, c.Profit, EvDividend, cell, ev)
			if c.Colony { // W-33: earned in the colony
				p.ColonyCash += c.Profit
			}
		}
	}
	if p.Deposit > 0 { // W-13
		in := p.Deposit * DepositRatePct / 100
		p.Deposit += in
		s.Bank += in
		ev = append(ev, engine.Event{Type: EvDepositInt, Seat: seat, Amount: in})
	}
	if p.Credit > 0 { // W-12, W-16
		pct := int64(CreditRatePct * 2)
		switch {
		case s.Opts.Beginners || p.Labour == 0:
		case p.Labour > 0:
			pct /= 2
		default:
			pct *= 2
		}
		ev = s.charge(seat, p.Credit*pct/200, EvInterest, 1, ev)
		if p.Bankrupt {
			return ev
		}
	}
	if !s.Opts.Beginners { // W-10, W-16; W-41 keeps rates still
		delta := media
		if p.Labour > 0 {
			delta++
		} else if p.Labour < 0 {
			delta--
		}
		if delta != 0 {
			for i, cell := range leading {
				if int(s.Owner[cell]) == seat {
					s.Rates[i] = max(MinRate, min(MaxRate, s.Rates[i]+delta))
					ev = append(ev, engine.Event{Type: EvRate, Seat: seat, Cell: cell, Other: s.Rates[i]})
				}
			}
		}
	}
	p.CreditLap, p.Protected = 0, false
	if p.Laps >= s.Opts.Laps { // W-40
		s.finish()
		ev = append(ev, engine.Event{Type: EvEnd, Seat: seat, Other: engine.OverLaps})
	}
	return ev
}

// gain pays seat from the bank.
func (s *State) gain(seat int, amt int64, typ string, cell int, ev []engine.Event) []engine.Event {
	return engine.Gain(&s.Players[seat].Cash, &s.Bank, seat, amt, typ, cell, ev)
}

// loot is a gain on the slippery path: it counts toward what the
// godfather and raids take (W-24).
func (s *State) loot(seat int, amt int64, cell int, ev []engine.Event) []engine.Event {
	s.Players[seat].Loot += amt
	return s.gain(seat, amt, EvGain, cell, ev)
}

// charge makes seat pay the bank. Short of cash, W-14: the deposit is drawn,
// then goods are sold at the exchange price, then holdings at par, cheapest
// first; if that is not enough the seat is bankrupt.
func (s *State) charge(seat int, amt int64, typ string, cell int, ev []engine.Event) []engine.Event {
	if amt <= 0 {
		return ev
	}
	p := &s.Players[seat]
	if p.Cash < amt {
		ev = s.raise(seat, amt, ev)
	}
	if p.Cash < amt {
		paid := p.Cash
		p.Cash = 0
		s.Bank -= paid
		ev = append(ev, engine.Event{Type: typ, Seat: seat, Cell: cell, Amount: -paid})
		return s.bankrupt(seat, ev)
	}
	p.Cash -= amt
	s.Bank -= amt
	return append(ev, engine.Event{Type: typ, Seat: seat, Cell: cell, Amount: -amt})
}

// raise turns the seat's assets into cash until it holds amt (W-14).
func (s *State) raise(seat int, amt int64, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	if d := min(p.Deposit, amt-p.Cash); d > 0 {
		p.Deposit -= d
		p.Cash += d
		ev = append(ev, engine.Event{Type: EvWithdraw, Seat: seat, Other: int(d)})
	}
	for g := Cars; g < numGoods && p.Cash < amt; g++ {
		price := s.goodPrice(g)
		need := (amt - p.Cash + price - 1) / price
		n := min(need, p.Goods[g])
		if n == 0 {
			continue
		}
		p.Goods[g] -= n
		ev = append(ev, engine.Event{Type: EvSellGood, Seat: seat, Good: g.String(), Other: int(n)})
		ev = s.gain(seat, n*price, EvForced, 0, ev)
	}
	for p.Cash < amt {
		cheapest := 0
		for cell := 1; cell <= NumCells; cell++ {
			if int(s.Owner[cell]) == seat && (cheapest == 0 || Board[cell].Price < Board[cheapest].Price) {
				cheapest = cell
			}
		}
		if cheapest == 0 {
			break
		}
		s.Owner[cheapest] = -1
		ev = s.gain(seat, Board[cheapest].Price, EvForced, cheapest, ev)
	}
	return ev
}

// bankrupt takes seat out of the game (W-14): its holdings go back to the
// bank, free; its debts die with it.
func (s *State) bankrupt(seat int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	p.Bankrupt = true
	for cell := 1; cell <= NumCells; cell++ {
		if int(s.Owner[cell]) == seat {
			s.Owner[cell] = -1
		}
	}
	p.Goods = [numGoods]int64{}
	p.Narco, p.Skip = 0, 0
	p.Credit, p.ColonyLoan = 0, 0 // the bank writes the debts off
	ev = append(ev, engine.Event{Type: EvBankrupt, Seat: seat})
	left := 0
	for i := range s.Players {
		if s.active(i) {
			left++
		}
	}
	if left <= 1 { // W-40: the last one standing
		s.finish()
		return append(ev, engine.Event{Type: EvEnd, Seat: seat, Other: engine.OverLastOne})
	}
	if seat == s.Turn && s.Phase != PhOver && s.Phase != PhAuction {
		return s.endTurn(ev) // an open auction closes first (settleAuction)
	}
	return ev
}

// resign takes seat out of the game by its own choice: its money goes to
// the bank and it is out as if bankrupt. A pending offer to it lapses; an
// open auction goes on without its bid.
func (s *State) resign(seat int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	left := p.Cash + p.Deposit
	p.Cash, p.Deposit = 0, 0
	s.Bank -= left
	ev = append(ev, engine.Event{Type: EvResign, Seat: seat, Amount: -left})
	switch s.Phase {
	case PhOffer: // only the offered seat owes now
		s.Offer, s.Phase = Offer{}, PhAct
		if ev = s.bankrupt(seat, ev); s.Phase == PhOver {
			return ev
		}
		return s.afterAct(ev)
	case PhAuction:
		if ev = s.bankrupt(seat, ev); s.Phase == PhOver {
			return ev
		}
		return s.settleAuction(ev)
	}
	return s.bankrupt(seat, ev)
}

// endTurn passes the turn to the next seat still playing, skipping (and
// counting down) those in prison.
func (s *State) endTurn(ev []engine.Event) []engine.Event {
	if s.Phase == PhOver {
		return ev
	}
	s.Used, s.Steps = 0, 0
	n := len(s.Players)
	next := s.Turn
	for {
		next = (next + 1) % n
		p := &s.Players[next]
		if p.Bankrupt {
			continue
		}
		if p.Skip > 0 {
			p.Skip--
			ev = append(ev, engine.Event{Type: EvSkip, Seat: next, Other: p.Skip})
			continue
		}
		break
	}
	s.Turn, s.Phase = next, PhRoll
	return append(ev, engine.Event{Type: EvTurn, Seat: next})
}

// finish ends the game.
func (s *State) finish() {
	s.Phase = PhOver
	s.Steps, s.Used = 0, 0
}
