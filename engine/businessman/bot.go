package businessman

import "github.com/pbmgames/pbm/engine"

// Bot thresholds (filled-in): a bot keeps a cash reserve for rents, fines
// and the exchange.
const (
	botReserve    = 40_000
	botRich       = 100_000
	botVeryRich   = 200_000
	botDamageMin  = 10_000
	botOfferMark  = 3 // a bot offers up to 3/2 of a lot's price for a missing lot
	botSellMark   = 7 // and sells a lot for at least 7/5 of its price
	botBuyMarkMax = 13
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
		if a, ok := s.cheapestPlay(seat); ok && s.mustPlay(seat) {
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
func (s *State) Bot(seat engine.Seat) (engine.Action, bool) {
	def, ok := s.Default(seat)
	if !ok {
		return def, false
	}
	if a, ok := s.botPick(seat); ok && (a == def || s.allowed(seat, a)) {
		return a, true
	}
	return def, true
}

func (s *State) botPick(seat int) (engine.Action, bool) {
	p := &s.Players[seat]
	legal := func(a engine.Action) bool { return s.allowed(seat, a) }
	switch s.Phase {
	case PhRoll:
		for cell := 1; cell < NumCells; cell++ {
			if int(s.Owner[cell]) == seat && s.Mort[cell] >= 0 && p.Cash-redeemCost(cell) > botRich {
				return engine.Action{Type: ARedeem, Cell: cell}, true
			}
		}
		for g := range Groups {
			if !s.ownsGroup(seat, g) {
				continue
			}
			for _, cell := range Groups[g].Lots {
				if s.canBuild(seat, cell) && p.Cash-buildCost(cell, s.Level[cell]) > botRich {
					return engine.Action{Type: ABuild, Cell: cell}, true
				}
			}
		}
		if s.Offers == 0 {
			if a, ok := s.botWantLot(seat); ok && legal(a) {
				return a, true
			}
		}
		return engine.Action{Type: ARoll}, true
	case PhAct:
		if s.Used&usedBuy == 0 && isProperty(s.Spot) && s.Owner[s.Spot] < 0 && p.Cash-Board[s.Spot].Price-AbroadSurcharge >= botReserve {
			if a := (engine.Action{Type: ABuy, Cell: s.Spot}); legal(a) {
				return a, true
			}
		}
		if s.Exch && s.Used&usedCard == 0 {
			if a, ok := s.botCard(seat); ok {
				return a, true
			}
		}
		if s.Exch && p.Cash > botVeryRich {
			best := 0
			for k := range p.Shares {
				if s.Points[k] > s.Points[best] {
					best = k
				}
			}
			if a := (engine.Action{Type: ABuyShares, Good: Groups[best].Key, Amount: 1}); legal(a) {
				return a, true
			}
		}
		if !s.Exch && p.NHand > 0 && (p.Passes != 0 || Board[p.Cell].Kind == KBroker) {
			for _, d := range [...]int{DeckSurprise, DeckNotice} {
				if a := (engine.Action{Type: AUsePass, Cell: d}); legal(a) {
					return a, true
				}
			}
			if a := (engine.Action{Type: ABroker}); p.Cash > botRich && legal(a) {
				return a, true
			}
		}
		if s.Spot == p.Cell && s.Used&usedCell == 0 && Board[p.Cell].Kind >= KHighway && Board[p.Cell].Kind <= KHotel {
			var a engine.Action
			switch Board[p.Cell].Kind {
			case KHighway:
				if p.Cash > botRich {
					a.Type = AHighway
				}
			case KCustoms:
				if p.Cash > botVeryRich {
					a.Type = AAbroad
				}
			case KHotel:
				switch {
				case p.Cash > botVeryRich:
					a.Type = AHotelAbroad
				case p.NHand > 0 && !s.Exch:
					a.Type = AHotelExchange
				case p.Cash > botRich:
					a.Type = AHotelRoulette
				}
			}
			if a.Type != "" && legal(a) {
				return a, true
			}
		}
		return engine.Action{Type: AEnd}, true
	case PhChoose:
		best := 0
		for k := 1; k < NumColours; k++ {
			if s.Points[k] > s.Points[best] {
				best = k
			}
		}
		return engine.Action{Type: ATake, Good: Groups[best].Key, Amount: s.Gift}, true
	case PhOffer:
		o := &s.Offer
		ok := false
		switch o.Kind {
		case AOfferSell:
			ok = o.Price*10 <= Board[o.Cell].Price*botBuyMarkMax && p.Cash-o.Price > botRich
		case AOfferBuy:
			ok = o.Price*5 >= Board[o.Cell].Price*botSellMark && !s.ownsGroup(seat, Board[o.Cell].Group)
		}
		if ok {
			return engine.Action{Type: AAccept}, true
		}
		return engine.Action{Type: ADecline}, true
	}
	return engine.Action{}, false
}

// botWantLot offers to buy the one lot a bot lacks of a colour.
func (s *State) botWantLot(seat int) (engine.Action, bool) {
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
		if p.Cash-price > botRich {
			return engine.Action{Type: AOfferBuy, Cell: missing, Target: int(s.Owner[missing]), Amount: price}, true
		}
	}
	return engine.Action{}, false
}

// botCard plays the exchange card that costs the rivals most: a play is
// money-neutral for the player itself (B-15), so what counts is the
// change of the others' shares and money.
func (s *State) botCard(seat int) (engine.Action, bool) {
	p := &s.Players[seat]
	var best engine.Action
	bestDamage := int64(botDamageMin)
	for _, id := range p.hand() {
		dirs, nd := [2]int64{0, 0}, 1
		if XCards[id].Kind == XTwo {
			dirs, nd = [2]int64{2, -2}, 2
		}
		for _, dir := range dirs[:nd] {
			for k := 0; k < NumColours; k++ {
				{
					o := s.cardEffect(seat, int(id), k, dir)
					if p.Cash+o.Money[seat] < 0 {
						continue
					}
					var dmg int64
					for i := range s.Players {
						if i == seat || !s.active(i) {
							continue
						}
						dmg -= o.Money[i]
						for j := range o.Points {
							dmg -= int64(o.Points[j]-s.Points[j]) * PointValue * s.Players[i].Shares[j]
						}
					}
					if dmg > bestDamage {
						bestDamage = dmg
						best = engine.Action{Type: APlayCard, Cell: int(id), Good: Groups[k].Key, Amount: dir}
					}
				}
			}
		}
	}
	return best, best.Type != ""
}
