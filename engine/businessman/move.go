package businessman

import "github.com/pbmgames/pbm/engine"

// move walks seat's token steps cells along its track (B-3), paying the
// Start bonus on the way (B-5), bringing it home from abroad after 56, and
// stopping it at the highway's crossroads (B-24); then it lands.
func (s *State) move(seat, steps int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	c := p.Cell
	for i := 0; i < steps && c != CellCross; i++ {
		from := c
		c = next(c)
		p.Walked++
		switch {
		case c == CellStart:
			ev = s.passStart(seat, ev)
		case from == AbroadLast:
			p.Circuits++
			ev = append(ev, engine.Event{Type: EvHome, Seat: seat, Cell: c, Other: p.Circuits})
		}
	}
	ev = s.forfeit(seat, ev)
	p.Cell = c
	ev = append(ev, engine.Event{Type: EvMove, Seat: seat, Cell: c})
	if c == CellCross {
		// B-24: reaching the crossroads, back to the big perimeter for the toll.
		ev = s.charge(seat, CrossToll, -1, EvCellMoney, CellCross, ev)
		p.Cell = CellExit
		ev = append(ev, engine.Event{Type: EvMove, Seat: seat, Cell: CellExit})
	}
	return s.land(seat, ev)
}

// passStart is B-5: the start bonus (20,000) from the bank and a lap (B-0, B-27).
func (s *State) passStart(seat int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	p.Laps++
	p.Circuits++
	ev = s.gain(seat, s.Rules.StartBonus, EvStart, CellStart, ev)
	ev[len(ev)-1].Other = p.Laps
	if p.Laps >= s.Opts.Laps {
		s.Ending = true // B-0: the game ends with this turn
	}
	return ev
}

// PledgeWalk is how far an owner walks before the bank takes a lot left
// pledged: «пройдя полных два круга» (B-27), two laps of the big
// perimeter's length counted from the pledge, wherever it was made, on any
// track the token walks (the small perimeter and the highway too).
const PledgeWalk = MortgageLaps * BigLast

// forfeit is B-27: a lot still pledged two full laps after it was pledged
// goes to the bank.
func (s *State) forfeit(seat int, ev []engine.Event) []engine.Event {
	walked := s.Players[seat].Walked
	for cell := 1; cell < NumCells; cell++ {
		if int(s.Owner[cell]) == seat && s.Mort[cell] >= 0 && walked-int(s.Mort[cell]) >= PledgeWalk {
			s.Owner[cell], s.Mort[cell], s.Level[cell] = -1, -1, 0
			ev = append(ev, engine.Event{Type: EvForfeit, Seat: seat, Cell: cell})
		}
	}
	return ev
}

// land does what the cell under seat's token does.
func (s *State) land(seat int, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	cell := p.Cell
	c := &Board[cell]
	s.Phase, s.Spot = PhAct, cell
	switch c.Kind {
	case KLot:
		o := int(s.Owner[cell])
		if o < 0 || o == seat {
			break
		}
		if r := s.rent(cell); r > 0 {
			if s.Opts.RentClaim == RentClaim {
				s.Claim = Claim{Owner: o, Payer: seat, Cell: cell, Amount: r}
				s.Phase = PhClaim
				ev = append(ev, engine.Event{Type: EvRentAsked, Seat: o, Cell: cell, Other: seat})
			} else {
				ev = s.charge(seat, r, o, EvRent, cell, ev)
			}
		}
	case KSuper:
		// B-25: 20,000; an owner gets 75% of it from a rival.
		switch o := int(s.Owner[cell]); {
		case o == seat:
		case o >= 0:
			part := int64(SuperFee * SuperOwnerPct / 100)
			ev = s.charge(seat, part, o, EvRent, cell, ev)
			ev = s.charge(seat, SuperFee-part, -1, EvCellMoney, cell, ev)
		default:
			ev = s.charge(seat, SuperFee, -1, EvCellMoney, cell, ev)
		}
	case KFine, KHospital:
		ev = s.charge(seat, -c.Amount, -1, EvCellMoney, cell, ev)
	case KWin, KProfit:
		ev = s.gain(seat, c.Amount, EvCellMoney, cell, ev)
	case KGift:
		s.Gift, s.Phase = c.Amount, PhChoose
	case KHwShares:
		s.Gift, s.Phase = c.Amount, PhChoose
		ev = s.openExchange(seat, ev)
	case KHwHalf:
		ev = s.pay(seat, p.Cash/2, -1, EvCellMoney, cell, ev)
	case KExchange:
		ev = s.openExchange(seat, ev)
	case KSurprise:
		ev = s.drawCard(seat, DeckSurprise, ev)
	case KNotice:
		ev = s.drawCard(seat, DeckNotice, ev)
	}
	return ev
}

// drawCard is B-11: the top card of the deck, done at once, then put under
// it; «Сыграть на бирже» is kept until used.
func (s *State) drawCard(seat, deck int, ev []engine.Event) []engine.Event {
	d, cards := &s.Surprise, SurpriseCards
	if deck == DeckNotice {
		d, cards = &s.Notice, NoticeCards
	}
	if d.N == 0 {
		return ev
	}
	card := &cards[d.Cards[0]]
	id := d.draw(card.Effect == EffPass)
	ev = append(ev, engine.Event{Type: EvCard, Seat: seat, Cell: deck, Other: id})
	p := &s.Players[seat]
	switch card.Effect {
	case EffMoney:
		ev = s.cellMoney(seat, card.Amount, EvCard, deck, ev)
	case EffGoto:
		if card.Cell == CellStart || (p.Cell <= BigLast && card.Cell < p.Cell) {
			ev = s.passStart(seat, ev)
		}
		p.Cell = card.Cell
		ev = append(ev, engine.Event{Type: EvMove, Seat: seat, Cell: card.Cell})
		ev = s.land(seat, ev)
	case EffPass:
		p.Passes |= 1 << deck
		ev = append(ev, engine.Event{Type: EvPassKept, Seat: seat, Cell: deck})
	case EffEach:
		for i := range s.Players {
			if i == seat || !s.active(i) {
				continue
			}
			if card.Amount > 0 {
				ev = s.charge(i, card.Amount, seat, EvCard, deck, ev)
			} else {
				ev = s.charge(seat, -card.Amount, i, EvCard, deck, ev)
			}
		}
	case EffBuildings:
		var due int64
		for c := 1; c < NumCells; c++ {
			if int(s.Owner[c]) == seat {
				switch s.Level[c] {
				case 1:
					due += card.Amount
				case 2:
					due += card.Amount + card.Amount2
				}
			}
		}
		ev = s.charge(seat, due, -1, EvCard, deck, ev)
	case EffDividend:
		var n int64
		for _, k := range p.Shares {
			n += k
		}
		ev = s.gain(seat, n*card.Amount, EvCard, deck, ev)
	case EffExCard:
		if c := s.Small.draw(); c >= 0 {
			if p.take(c) {
				ev = append(ev,
					engine.Event{Type: EvXDrawn, Seat: seat, Cell: c, Private: true},
					engine.Event{Type: EvXGiven, Seat: seat})
			} else {
				s.Small.put(c)
			}
		}
	}
	return ev
}

// spin is one play of the roulette (B-23), from the hotel (B-21).
func (s *State) spin(seat int, ev []engine.Event) []engine.Event {
	s.RoulLeft--
	d1, d2 := s.RNG.Die(), s.RNG.Die()
	s.RoulPos = (s.RoulPos + d1 + d2) % RouletteLen
	cell := RouletteIn + s.RoulPos
	ev = append(ev,
		engine.Event{Type: EvRoll, Seat: seat, Cell: d1, Other: d2},
		engine.Event{Type: EvSpin, Seat: seat, Cell: cell})
	switch c := &Board[cell]; c.Kind {
	case KRouletteMoney:
		ev = s.cellMoney(seat, c.Amount, EvSpin, cell, ev)
	case KRouletteBank:
		ev = s.gain(seat, c.Amount, EvSpin, cell, ev)
		s.RoulLeft = 0
	}
	if s.RoulLeft <= 0 {
		s.Phase = PhAct
	}
	return ev
}

// goAbroad is B-22: 10,000, and «продать в банк половину своих акций»:
// half of all the player's shares, rounded down, sold to the bank at their
// price; the player picks which (PhCustoms). The token crosses to the small
// perimeter.
func (s *State) goAbroad(seat int, ev []engine.Event) []engine.Event {
	s.Used |= usedCell
	p := &s.Players[seat]
	ev = s.pay(seat, CustomsFee, -1, EvCellMoney, CellCustoms, ev)
	var total int64
	for _, n := range p.Shares {
		total += n
	}
	p.Cell, s.Spot = AbroadFirst, AbroadFirst
	ev = append(ev, engine.Event{Type: EvAbroad, Seat: seat, Cell: AbroadFirst})
	if s.Sell = total / 2; s.Sell > 0 {
		s.Phase = PhCustoms
	}
	return ev
}

// customsDefault is the colour customs sells when the player does not
// choose: the one they hold most of (the first on a tie), as many as are
// due from it.
func (s *State) customsDefault(seat int) engine.Action {
	p := &s.Players[seat]
	best := 0
	for k := 1; k < NumColours; k++ {
		if p.Shares[k] > p.Shares[best] {
			best = k
		}
	}
	return engine.Action{Type: ASellShares, Good: Groups[best].Key, Amount: min(p.Shares[best], s.Sell)}
}

// cellMoney is a card's or a cell's money: the bank pays seat a positive
// amount, and charges it a negative one.
func (s *State) cellMoney(seat int, amt int64, typ string, cell int, ev []engine.Event) []engine.Event {
	if amt > 0 {
		return s.gain(seat, amt, typ, cell, ev)
	}
	return s.charge(seat, -amt, -1, typ, cell, ev)
}
