package businessman

import "github.com/pbmgames/pbm/engine"

// Deals of «Бизнесмен» (rules version 3, engine.Deal): the offers B-4
// lets the seat whose turn it is make — sell one of its lots, buy a
// rival's, swap lot for lot, and on the exchange sell a share (B-6, B-9,
// B-13, B-26) — answered by the other side in its own time, and a
// purchase kept for later (AHold): the lot the seat stopped on, offered
// by the bank at its price until the seat answers, nobody else may buy it
// meanwhile.

// DealAnswer is the answer to deal that its seat's bot gives (bot) or its
// standing orders give, if they cover it (engine.Dealing). Orders answer
// only offers to buy one of the seat's lots, by their thresholds; a
// purchase kept for later was the player's to decide.
func (s *State) DealAnswer(deal engine.Deal, o engine.Orders, bot bool) (engine.Action, bool) {
	if !s.active(deal.To) {
		return engine.Action{}, false
	}
	accept, decline := engine.Action{Type: engine.AcceptDeal, Deal: deal.ID}, engine.DealDefault(deal)
	answer := func(yes bool) (engine.Action, bool) {
		if yes {
			return accept, true
		}
		return decline, true
	}
	if !bot {
		if deal.Offer.Type != AOfferBuy || !isProperty(deal.Offer.Cell) {
			return engine.Action{}, false
		}
		pct := deal.Offer.Amount * 100 / Board[deal.Offer.Cell].Price
		if q := o[OrderOfferAccept]; q > 0 && pct >= q {
			return accept, true
		}
		if d := o[OrderOfferDecline]; d > 0 && pct < d {
			return decline, true
		}
		return engine.Action{}, false
	}
	p := &s.Players[deal.To]
	reserve := s.botReserveFor(deal.To)
	of := deal.Offer
	switch of.Type {
	case ABuy: // as the bot buys a lot it stops on
		return answer(s.Owner[of.Cell] < 0 && p.Cash-of.Amount >= reserve)
	case AOfferSell: // a rival sells us a lot
		return answer(of.Amount*10 <= Board[of.Cell].Price*botBuyMark && p.Cash-of.Amount > reserve)
	case AOfferBuy: // a rival wants our lot: the one that completes its colour only dearly
		g, price := Board[of.Cell].Group, Board[of.Cell].Price
		return answer(of.Amount >= price*botSellMark && !s.completes(deal.From, of.Cell) && s.lotsOf(deal.To, g) == 1 ||
			of.Amount >= price*botSellDear)
	case AOfferSwap: // a lot for a lot: when it completes our colour and not theirs
		mine, theirs := int(of.Amount), of.Cell
		return answer(s.completes(deal.To, theirs) && !s.completes(deal.From, mine))
	case AOfferShare: // a share at most a third dearer than the exchange's price
		k := ColourIndex(of.Good)
		return answer(k >= 0 && of.Amount*3 <= s.sharePrice(k)*4 && p.Cash-of.Amount > reserve)
	}
	return decline, true
}

// Preparable lists the deals of lots seat may prepare now for the start
// of its next turn (engine.Dealing): those it could propose then, as the
// game stands now. With rules version 2, whose deals stall the turn,
// none.
func (s *State) Preparable(seat engine.Seat) []engine.Choice {
	if !s.Rules.OpenDeals || s.Over() || !s.active(seat) {
		return nil
	}
	return s.appendOffers(nil, seat, "")
}

// BotOffer is the offer a careful bot in seat would prepare now
// (engine.Dealing): to buy, at one and a half times its price, a rival's
// lot of the colour it owns most of without owning it whole — the lot
// that completes it first —, keeping its cash reserve, unless it has that
// offer open already.
func (s *State) BotOffer(seat engine.Seat) (engine.Action, bool) {
	if !s.Rules.OpenDeals || s.Over() || !s.active(seat) {
		return engine.Action{}, false
	}
	reserve := s.botReserveFor(seat)
	best, bestMine := engine.Action{}, 0
	for g := range Groups {
		mine, want := 0, -1
		for _, c := range Groups[g].Lots {
			switch o := int(s.Owner[c]); {
			case o == seat:
				mine++
			case o >= 0 && s.tradable(c) && (want < 0 || s.completes(seat, c)):
				want = c
			}
		}
		if mine == 0 || want < 0 || mine <= bestMine {
			continue
		}
		price := floorStep(Board[want].Price * botOfferMark / 2)
		a := engine.Action{Type: AOfferBuy, Cell: want, Target: int(s.Owner[want]), Amount: price}
		if s.Players[seat].Cash-price > reserve && !s.offering(seat, a) {
			best, bestMine = a, mine
		}
	}
	return best, bestMine > 0
}

// offering tells whether seat has a deal open that offers what a offers
// (the same lot, to the same seat).
func (s *State) offering(seat int, a engine.Action) bool {
	return s.Deals.Count(func(d engine.Deal) bool {
		return d.From == seat && d.Offer.Type == a.Type && d.Offer.Cell == a.Cell && d.Offer.Target == a.Target
	}) > 0
}
