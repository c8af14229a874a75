package western

import "github.com/pbmgames/pbm/engine"

// Deals of «Вестерн» (rules version 3, engine.Deal): W-18's offer to buy
// a rival's share at one and a half times its price, made at an exchange
// and answered by the rival in its own time, and a purchase kept for
// later (AHold) — the holding the seat stopped on, offered by the bank
// at its price until the seat answers, nobody else may buy it meanwhile.

// DealAnswer is the answer to deal that its seat's bot gives (bot) or its
// standing orders give, if they cover it (engine.Dealing). A bot sells a
// share when the price beats keeping it, and buys a kept holding as it
// buys one it stops on; orders answer W-18 offers by their thresholds,
// never a purchase kept for later: that one was the player's to decide.
func (s *State) DealAnswer(deal engine.Deal, o engine.Orders, bot bool) (engine.Action, bool) {
	accept, decline := engine.Action{Type: engine.AcceptDeal, Deal: deal.ID}, engine.DealDefault(deal)
	if deal.To < 0 || deal.To >= len(s.Players) {
		return engine.Action{}, false
	}
	p := &s.Players[deal.To]
	cell, price := deal.Offer.Cell, deal.Offer.Amount
	if deal.From == engine.Bank {
		if !bot {
			return engine.Action{}, false
		}
		if p.Cash-price >= botReserve && s.lapsLeft(deal.To) > 0 && s.Owner[cell] < 0 {
			return accept, true
		}
		return decline, true
	}
	if bot {
		if price > s.keepWorth(deal.To, cell) {
			return accept, true
		}
		return decline, true
	}
	if q := o[OrderOfferAccept]; q > 0 && price >= q {
		return accept, true
	}
	if d := o[OrderOfferDecline]; d > 0 && price < d {
		return decline, true
	}
	return engine.Action{}, false
}

// Preparable lists the W-18 offers seat may prepare for its next stop at
// an exchange (engine.Dealing): a rival's share it could pay for now.
// With rules version 2, whose offers stall the turn, none.
func (s *State) Preparable(seat engine.Seat) []engine.Choice {
	if !s.Rules.OpenDeals || s.Over() || seat < 0 || seat >= len(s.Players) || !s.active(seat) {
		return nil
	}
	var out []engine.Choice
	for cell := 1; cell <= NumCells; cell++ {
		o := int(s.Owner[cell])
		if o >= 0 && o != seat && s.Players[seat].Cash >= offerPrice(s.shareValue(cell)) {
			out = append(out, choice(engine.Action{Type: AOffer, Cell: cell, Target: o}, false))
		}
	}
	return out
}

// BotOffer is the offer a careful bot in seat would prepare now
// (engine.Dealing): the rival's share whose keeping pays it the most
// over its W-18 price, within its cash.
func (s *State) BotOffer(seat engine.Seat) (engine.Action, bool) {
	best, gain := engine.Action{}, int64(0)
	for _, c := range s.Preparable(seat) {
		price := offerPrice(s.shareValue(c.Cell))
		if g := s.keepWorth(seat, c.Cell) - price; g > gain && s.Players[seat].Cash-price >= 2*botReserve {
			best, gain = c.Action, g
		}
	}
	return best, gain > 0
}
