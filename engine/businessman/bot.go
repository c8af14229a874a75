package businessman

import "github.com/pbmgames/pbm/engine"

// Bot thresholds (filled-in): a bot keeps a cash reserve for rents, fines
// and the exchange.
const (
	botReserve   = 30_000 // a fine (B-10) and change
	botRich      = 100_000
	botVeryRich  = 250_000
	botRiskPts   = 12 // shares at this many points or fewer are sold when the exchange is open
	botOfferMark = 3  // a bot offers up to 3/2 of a lot's price for a missing lot
	botSellMark  = 2  // and sells a lot for at least twice its price, never the last of a colour
	botSellDear  = 3  // … but any lot, at least three times its price (rules 3's deals)
	botBuyMark   = 13
)

// Default is the action played for seat when its deadline passes (P-4):
// no purchase, no optional action; claims are claimed, deals declined.
func (s *State) Default(seat engine.Seat) (engine.Action, bool) {
	if s.owing() != seat || seat < 0 {
		return engine.Action{}, false
	}
	switch s.Phase {
	case PhRoll:
		return engine.Action{Type: ARoll}, true
	case PhAct:
		if s.mustPlay(seat) {
			a, _ := s.cheapestPlay(seat)
			return a, true
		}
		return engine.Action{Type: AEnd}, true
	case PhChoose:
		return engine.Action{Type: ATake, Good: Groups[0].Key, Amount: s.Gift}, true
	case PhCustoms:
		return s.customsDefault(seat), true
	case PhClaim:
		return engine.Action{Type: AClaim, Cell: s.Claim.Cell, Target: s.Claim.Payer}, true
	case PhOffer:
		return engine.Action{Type: ADecline}, true
	case PhDebt:
		var buf [64]engine.Choice
		l := s.appendChoices(buf[:0], seat, "")
		if len(l) > 0 && l[0].Default {
			a := l[0].Action
			if a.Type == ASellShares { // as many as the debt needs
				price := s.sharePrice(ColourIndex(a.Good))
				need := s.Debts[0].Amount - s.Players[seat].Cash
				a.Amount = min(l[0].Max, max(1, (need+price-1)/price))
			}
			return a, true
		}
	case PhRoulette:
		if Board[RouletteIn+s.RoulPos].Kind == KRouletteExit {
			return engine.Action{Type: ALeave}, true
		}
		return engine.Action{Type: ASpin}, true
	}
	return engine.Action{}, false
}

// Bot chooses seat's action: always a legal one, never resign.
//
// It plays like a careful person: it keeps a reserve for rents and fines
// (more when it holds shares a rival card could halve at one point,
// B-18), sells shares that have fallen low before they cost it money,
// never sells a rival the lot that completes a colour, builds where the
// rent pays, redeems pledges before the bank takes them, raises a debt
// from what it needs least, and plays the exchange card that leaves it
// best off against its rivals.
func (s *State) Bot(seat engine.Seat) (engine.Action, bool) {
	if s.owing() != seat || seat < 0 {
		return engine.Action{}, false
	}
	if a, ok := s.botPick(seat); ok && s.allowed(seat, a) {
		return a, true
	}
	return s.Default(seat)
}

// botReserveFor is the cash seat keeps: the base reserve, and 50,000 for
// each share of a colour at one or two points, which a «двойка» could turn
// into a fine of 50,000 a share (B-18).
func (s *State) botReserveFor(seat int) int64 {
	r := int64(botReserve)
	for k, n := range s.Players[seat].Shares {
		if s.Points[k] <= 2 {
			r += n * HalvedAtOneFine
		}
	}
	return min(r, 200_000)
}

// lapsLeft is how many laps the leader still has to go.
func (s *State) lapsLeft() int {
	lead := 0
	for i := range s.Players {
		lead = max(lead, s.Players[i].Laps)
	}
	return max(0, s.Opts.Laps-lead)
}

func (s *State) botPick(seat int) (engine.Action, bool) {
	p := &s.Players[seat]
	legal := func(a engine.Action) bool { return s.allowed(seat, a) }
	reserve := s.botReserveFor(seat)
	switch s.Phase {
	case PhRoll:
		for cell := 1; cell < NumCells; cell++ {
			if int(s.Owner[cell]) == seat && s.Mort[cell] >= 0 && p.Cash-redeemCost(cell) > reserve {
				return engine.Action{Type: ARedeem, Cell: cell}, true
			}
		}
		for g := range Groups {
			if !s.ownsGroup(seat, g) {
				continue
			}
			for _, cell := range Groups[g].Lots {
				if s.canBuild(seat, cell) && p.Cash-buildCost(cell, s.Level[cell]) > reserve+botRich/2 {
					return engine.Action{Type: ABuild, Cell: cell}, true
				}
			}
		}
		if s.Offers == 0 {
			if a, ok := s.botWantLot(seat, reserve); ok && legal(a) && !s.offering(seat, a) {
				return a, true
			}
		}
		return engine.Action{Type: ARoll}, true
	case PhAct:
		if s.Exch {
			// Shares low on the board risk a halving at one point: sell
			// them while they are worth something.
			for k, n := range p.Shares {
				if n > 0 && s.Points[k] <= botRiskPts {
					if a := (engine.Action{Type: ASellShares, Good: Groups[k].Key, Amount: n}); legal(a) {
						return a, true
					}
				}
			}
		}
		if s.Used&usedBuy == 0 && isProperty(s.Spot) && s.Owner[s.Spot] < 0 && p.Cash-Board[s.Spot].Price-AbroadSurcharge >= reserve {
			if a := (engine.Action{Type: ABuy, Cell: s.Spot}); legal(a) {
				return a, true
			}
		}
		if s.Exch && s.Used&usedCard == 0 {
			if a, ok := s.botCard(seat); ok {
				return a, true
			}
		}
		if !s.Exch && p.Passes != 0 && s.botStrongHand(seat) {
			if a, ok := s.botCard(seat); ok && s.botGain(seat, a) >= botGoodPlay {
				for _, d := range [...]int{DeckSurprise, DeckNotice} {
					if a := (engine.Action{Type: AUsePass, Cell: d}); legal(a) {
						return a, true
					}
				}
			}
		}
		if s.Spot == p.Cell && s.Used&usedCell == 0 {
			var a engine.Action
			switch Board[p.Cell].Kind {
			case KCustoms:
				if p.Cash > botVeryRich && s.lapsLeft() > 3 {
					a.Type = AAbroad
				}
			case KHotel:
				switch {
				case p.Cash > botVeryRich:
					a.Type = AHotelAbroad
				case p.Cash > reserve+botRich:
					a.Type = AHotelRoulette
				}
			}
			if a.Type != "" && legal(a) {
				return a, true
			}
		}
		return engine.Action{Type: AEnd}, true
	case PhChoose:
		// The gift in the dearest colour that is not at risk.
		best := 0
		for k := 1; k < NumColours; k++ {
			if s.Points[k] > s.Points[best] {
				best = k
			}
		}
		return engine.Action{Type: ATake, Good: Groups[best].Key, Amount: s.Gift}, true
	case PhCustoms:
		// Customs takes the cheapest shares first: the ones at risk.
		low := -1
		for k, n := range p.Shares {
			if n > 0 && (low < 0 || s.Points[k] < s.Points[low]) {
				low = k
			}
		}
		if low >= 0 {
			return engine.Action{Type: ASellShares, Good: Groups[low].Key, Amount: min(p.Shares[low], s.Sell)}, true
		}
	case PhDebt:
		return s.botRaise(seat)
	case PhOffer:
		o := &s.Offer
		ok := false
		switch o.Kind {
		case AOfferSell: // a rival sells us a lot
			ok = o.Price*10 <= Board[o.Cell].Price*botBuyMark && p.Cash-o.Price > reserve
		case AOfferBuy: // a rival wants our lot: never the one that completes its colour
			g := Board[o.Cell].Group
			ok = o.Price >= Board[o.Cell].Price*botSellMark && !s.completes(o.From, o.Cell) && s.lotsOf(seat, g) == 1
		}
		if ok {
			return engine.Action{Type: AAccept}, true
		}
		return engine.Action{Type: ADecline}, true
	}
	return engine.Action{}, false
}

// completes tells whether cell would give seat the whole of its colour.
func (s *State) completes(seat, cell int) bool {
	g := Board[cell].Group
	if g < 0 {
		return false
	}
	for _, c := range Groups[g].Lots {
		if c != cell && int(s.Owner[c]) != seat {
			return false
		}
	}
	return true
}

// lotsOf counts seat's lots of group g.
func (s *State) lotsOf(seat, g int) int {
	if g < 0 {
		return 0
	}
	n := 0
	for _, c := range Groups[g].Lots {
		if int(s.Owner[c]) == seat {
			n++
		}
	}
	return n
}

// botRaise raises a debt from what the bot needs least: shares at risk,
// then other shares (not for a fine), then a pledge of a lot outside its
// whole colours, then a building, then any pledge, then a sale.
func (s *State) botRaise(seat int) (engine.Action, bool) {
	p := &s.Players[seat]
	d := s.Debts[0]
	need := d.Amount - p.Cash
	if !d.fine() {
		best := -1
		for k, n := range p.Shares {
			if n > 0 && (best < 0 || s.Points[k] < s.Points[best]) {
				best = k
			}
		}
		if best >= 0 {
			price := s.sharePrice(best)
			return engine.Action{Type: ASellShares, Good: Groups[best].Key, Amount: min(p.Shares[best], max(1, (need+price-1)/price))}, true
		}
	}
	pick, whole := -1, false
	for cell := 1; cell < NumCells; cell++ {
		if int(s.Owner[cell]) != seat || !s.tradable(cell) {
			continue
		}
		w := Board[cell].Kind == KLot && s.ownsGroup(seat, Board[cell].Group)
		if pick < 0 || (whole && !w) || (whole == w && Board[cell].Price < Board[pick].Price) {
			pick, whole = cell, w
		}
	}
	if pick >= 0 && !whole {
		return engine.Action{Type: AMortgage, Cell: pick}, true
	}
	for cell := 1; cell < NumCells; cell++ {
		if int(s.Owner[cell]) == seat && s.Level[cell] > 0 {
			return engine.Action{Type: ASellBuilding, Cell: cell}, true
		}
	}
	if pick >= 0 {
		return engine.Action{Type: AMortgage, Cell: pick}, true
	}
	return engine.Action{}, false
}

// botWantLot offers to buy the one lot a bot lacks of a colour.
func (s *State) botWantLot(seat int, reserve int64) (engine.Action, bool) {
	p := &s.Players[seat]
	for g := range Groups {
		missing, mine := -1, 0
		for _, c := range Groups[g].Lots {
			switch o := int(s.Owner[c]); {
			case o == seat:
				mine++
			case o >= 0 && s.tradable(c):
				missing = c
			}
		}
		if missing < 0 || mine != len(Groups[g].Lots)-1 {
			continue
		}
		price := floorStep(Board[missing].Price * botOfferMark / 2)
		if p.Cash-price > reserve+botRich/2 {
			return engine.Action{Type: AOfferBuy, Cell: missing, Target: int(s.Owner[missing]), Amount: price}, true
		}
	}
	return engine.Action{}, false
}

// botStrongHand tells whether seat holds a large card or a «двойка»: only
// then is a kept «Сыграть на бирже» worth weighing now.
func (s *State) botStrongHand(seat int) bool {
	for _, id := range s.Players[seat].hand() {
		if XCards[id].Large() {
			return true
		}
	}
	return false
}

// botGoodPlay is the gain against the rivals that makes a kept «Сыграть на
// бирже» card worth using now.
const botGoodPlay = 20_000

// botGain is what a card play gains seat against its rivals: its own
// change of money and share value, less the rivals' average change.
func (s *State) botGain(seat int, a engine.Action) int64 {
	o := s.cardEffect(seat, a.Cell, ColourIndex(a.Good), a.Amount)
	return s.outcomeGain(seat, &o)
}

// outcomeGain is botGain of a computed play.
func (s *State) outcomeGain(seat int, o *cardOutcome) int64 {
	worth := func(i int) int64 {
		v := o.Money[i]
		for j := range o.Points {
			v += int64(o.Points[j]-s.Points[j]) * PointValue * s.Players[i].Shares[j]
		}
		return v
	}
	var rivals, n int64
	for i := range s.Players {
		if i != seat && s.active(i) {
			rivals += worth(i)
			n++
		}
	}
	if n == 0 {
		return worth(seat)
	}
	return worth(seat) - rivals/n
}

// botCard picks the card play that gains most against the rivals (B-15:
// a play is money-neutral for the player, so what counts is mostly what it
// does to the others), among those the bot can pay for.
func (s *State) botCard(seat int) (engine.Action, bool) {
	var best engine.Action
	var bestGain int64
	s.affordablePlays(seat, func(a engine.Action, o cardOutcome) {
		if g := s.outcomeGain(seat, &o); best.Type == "" || g > bestGain {
			best, bestGain = a, g
		}
	})
	return best, best.Type != ""
}
