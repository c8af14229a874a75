package businessman

import "github.com/pbmgames/pbm/engine"

// The previous bot's thresholds.
const (
	v1Reserve    = 40_000
	v1Rich       = 100_000
	v1VeryRich   = 200_000
	v1DamageMin  = 10_000
	v1OfferMark  = 3 // a bot offers up to 3/2 of a lot's price for a missing lot
	v1SellMark   = 7 // and sells a lot for at least 7/5 of its price
	v1BuyMarkMax = 13
)

// botV1 is the bot before issue 11, kept to measure the new one against
// (bottable_test.go); it chooses seat's action: always a legal one, never resign.
func (s *State) botV1(seat engine.Seat) (engine.Action, bool) {
	def, ok := s.Default(seat)
	if !ok {
		return def, false
	}
	if a, ok := s.botV1Pick(seat); ok && (a == def || s.allowed(seat, a)) {
		return a, true
	}
	return def, true
}

func (s *State) botV1Pick(seat int) (engine.Action, bool) {
	p := &s.Players[seat]
	legal := func(a engine.Action) bool { return s.allowed(seat, a) }
	switch s.Phase {
	case PhRoll:
		for cell := 1; cell < NumCells; cell++ {
			if int(s.Owner[cell]) == seat && s.Mort[cell] >= 0 && p.Cash-redeemCost(cell) > v1Rich {
				return engine.Action{Type: ARedeem, Cell: cell}, true
			}
		}
		for g := range Groups {
			if !s.ownsGroup(seat, g) {
				continue
			}
			for _, cell := range Groups[g].Lots {
				if s.canBuild(seat, cell) && p.Cash-buildCost(cell, s.Level[cell]) > v1Rich {
					return engine.Action{Type: ABuild, Cell: cell}, true
				}
			}
		}
		if s.Offers == 0 {
			if a, ok := s.botV1WantLot(seat); ok && legal(a) {
				return a, true
			}
		}
		return engine.Action{Type: ARoll}, true
	case PhAct:
		if s.Used&usedBuy == 0 && isProperty(s.Spot) && s.Owner[s.Spot] < 0 && p.Cash-Board[s.Spot].Price-AbroadSurcharge >= v1Reserve {
			if a := (engine.Action{Type: ABuy, Cell: s.Spot}); legal(a) {
				return a, true
			}
		}
		if s.Exch && s.Used&usedCard == 0 {
			if a, ok := s.botV1Card(seat); ok {
				return a, true
			}
		}
		if s.Exch && p.Cash > v1VeryRich {
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
			if a := (engine.Action{Type: ABroker}); p.Cash > v1Rich && legal(a) {
				return a, true
			}
		}
		if s.Spot == p.Cell && s.Used&usedCell == 0 && Board[p.Cell].Kind >= KHighway && Board[p.Cell].Kind <= KHotel {
			var a engine.Action
			switch Board[p.Cell].Kind {
			case KHighway:
				if p.Cash > v1Rich {
					a.Type = AHighway
				}
			case KCustoms:
				if p.Cash > v1VeryRich {
					a.Type = AAbroad
				}
			case KHotel:
				switch {
				case p.Cash > v1VeryRich:
					a.Type = AHotelAbroad
				case p.NHand > 0 && !s.Exch:
					a.Type = AHotelExchange
				case p.Cash > v1Rich:
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
			ok = o.Price*10 <= Board[o.Cell].Price*v1BuyMarkMax && p.Cash-o.Price > v1Rich
		case AOfferBuy:
			ok = o.Price*5 >= Board[o.Cell].Price*v1SellMark && !s.ownsGroup(seat, Board[o.Cell].Group)
		}
		if ok {
			return engine.Action{Type: AAccept}, true
		}
		return engine.Action{Type: ADecline}, true
	}
	return engine.Action{}, false
}

// botWantLot offers to buy the one lot a bot lacks of a colour.
func (s *State) botV1WantLot(seat int) (engine.Action, bool) {
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
		price := floorStep(Board[missing].Price * v1OfferMark / 2)
		if p.Cash-price > v1Rich {
			return engine.Action{Type: AOfferBuy, Cell: missing, Target: int(s.Owner[missing]), Amount: price}, true
		}
	}
	return engine.Action{}, false
}

// botCard plays the exchange card that costs the rivals most: a play is
// money-neutral for the player itself (B-15), so what counts is the
// change of the others' shares and money.
func (s *State) botV1Card(seat int) (engine.Action, bool) {
	p := &s.Players[seat]
	var best engine.Action
	bestDamage := int64(v1DamageMin)
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
