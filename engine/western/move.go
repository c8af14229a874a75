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
		ev = append(ev, engine.Event{Type: engine.EvGameOver, Seat: seat, Other: engine.OverLaps})
	}
	return ev
}

// move walks the token steps cells (W-2). At a fork it stops and asks,
// unless the path is already chosen (W-4).
func (s *State) move(seat, steps, chosen int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	for steps > 0 {
		next := Board[p.Cell].Next
		to := next[0]
		if len(next) > 1 {
			if chosen == 0 {
				if n := s.openPaths(seat, p.Cell); n > 1 {
					s.Phase, s.Steps = PhFork, steps
					return append(ev, engine.Event{Type: EvForkAsked, Seat: seat, Cell: p.Cell})
				}
			} else {
				to = chosen
			}
		}
		chosen = 0
		s.leave(seat, p.Cell, to)
		p.Cell = to
		steps--
		if to == 1 {
			ev = s.lap(seat, ev)
			if s.Phase == PhOver || p.Bankrupt {
				return ev
			}
		}
	}
	s.Steps = 0
	ev = append(ev, engine.Event{Type: EvMove, Seat: seat, Cell: p.Cell})
	return s.land(seat, ev)
}

// openPaths counts the paths seat may take from a fork.
func (s *State) openPaths(seat, cell int) int {
	n := 0
	for _, to := range Board[cell].Next {
		if s.pathOpen(seat, cell, to) {
			n++
		}
	}
	return n
}

// leave keeps the per-visit tallies of the slippery path and the colony.
func (s *State) leave(seat, from, to int) {
	p := &s.Players[seat]
	if Board[from].Slippy && !Board[to].Slippy {
		p.Loot = 0 // W-25: out to the red market, the loot is plain money now
	}
	if Board[to].Kind == KIsland {
		p.ColonyLaps = 0 // W-34: the colony is behind; its earnings are still the colony's (W-33)
	}
}
