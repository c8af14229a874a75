package western

import (
	"github.com/pbmgames/pbm/engine"
)

// Event types of «Вестерн». Amount is signed money for the seat (+ in,
// − out) on every event that moves money; Sum of those equals the change
// of the seat's cash + deposit. Turns, resignations and the end are the
// shared engine.EvTurn, engine.EvResign (Amount: the money left to the
// bank) and engine.EvGameOver (Other: engine.OverLaps, engine.OverLastOne).
const (
	EvRoll        = "roll"        // Other: the die
	EvMove        = "move"        // Cell: where the token stopped
	EvForkAsked   = "fork_asked"  // Cell: the fork reached mid-move
	EvLap         = "lap"         // Other: laps completed
	EvIncome      = "income"      // W-3 lap income
	EvDividend    = "dividend"    // Cell: the holding
	EvProduce     = "produce"     // Cell, Good, Other: units
	EvHMM         = "hmm_share"   // W-10
	EvInterest    = "interest"    // W-12: credit interest (negative)
	EvDepositInt  = "deposit_int" // W-13 (into the deposit)
	EvRate        = "rate"        // Cell: leading company, Other: new points
	EvGoodRate    = "good_rate"   // Good, Other: new points
	EvBuy         = "buy"
	EvSell        = "sell"
	EvSpecSell    = "spec_sell"
	EvCredit      = "credit"
	EvDeposit     = "deposit" // cash into the deposit: Amount 0 money change, Other: dollars
	EvWithdraw    = "withdraw"
	EvRepay       = "repay"
	EvRepayLoan   = "repay_loan"
	EvSellGood    = "sell_good"   // Good, Other: units
	EvGoodGained  = "good_gained" // Good, Other: units
	EvGoodLost    = "good_lost"   // Good, Other: units
	EvConfiscated = "confiscated" // W-33: Cell, a colony holding back to the bank
	EvFee         = "fee"         // Cell: a cell's charge
	EvGain        = "gain"        // Cell: a cell's payout
	EvOffer       = "offer"       // Cell, Other: the offered seat (the price is in State.Offer)
	EvOfferDone   = "offer_done"  // Cell, Other: the seller; Amount: money for Seat
	EvOfferNo     = "offer_declined"
	EvAuction     = "auction"     // Cell, Other: the minimum bid
	EvBid         = "bid"         // private to the bidder: Other, the bid
	EvBidPlaced   = "bid_placed"  // public: Seat answered
	EvBidShown    = "bid_shown"   // public, once the auction closes: Seat's bid in Other (0: a pass)
	EvAuctionWon  = "auction_won" // Cell, Amount: −price
	EvAuctionNil  = "auction_unsold"
	EvNarco       = "narco" // Other: tons bought (−) or sold (+)
	EvBribe       = "bribe"
	EvPrison      = "prison" // Other: turns
	EvProtected   = "protected"
	EvSkip        = "skip"
	EvSurrender   = "surrender"
	EvLabour      = "labour" // Other: new marker
	EvForced      = "forced_sale"
	EvBankrupt    = "bankrupt"
)

// Do applies a legal action (engine.Machine): it checks nothing.
func (s *State) Do(seat int, a engine.Action, ev []engine.Event) []engine.Event {
	s.Actions++
	p := &s.Players[seat]
	switch a.Type {
	case ARoll:
		s.Die = s.RNG.Die()
		ev = append(ev, engine.Event{Type: EvRoll, Seat: seat, Other: s.Die})
		return s.move(seat, s.Die, 0, ev)
	case AFork:
		if Board[p.Cell].Kind == KTravel && a.Cell == Board[p.Cell].Next[1] {
			ev = s.charge(seat, Board[p.Cell].Price, EvFee, p.Cell, ev)
		}
		if Board[p.Cell].Kind == KExpropriation && a.Cell == Board[p.Cell].Next[1] {
			p.ColonyLaps++
		}
		return s.move(seat, s.Steps, a.Cell, ev)
	case ASell:
		ev = s.gain(seat, Board[a.Cell].Price, EvSell, a.Cell, ev)
		s.Owner[a.Cell] = -1
		return ev
	case ASpecSell:
		ev = s.gain(seat, specPrice(s.shareValue(a.Cell), Board[p.Cell].Mult), EvSpecSell, a.Cell, ev)
		s.Owner[a.Cell] = -1
		return s.afterAct(ev)
	case ABuy:
		s.Used |= usedBuy
		ev = s.charge(seat, Board[a.Cell].Price, EvBuy, a.Cell, ev)
		s.Owner[a.Cell] = int8(seat)
		return s.afterAct(ev)
	case ACredit:
		p.Credit += a.Amount
		p.CreditLap += a.Amount
		return s.afterAct(s.gain(seat, a.Amount, EvCredit, p.Cell, ev))
	case ADeposit:
		p.Cash -= a.Amount
		p.Deposit += a.Amount
		return s.afterAct(append(ev, engine.Event{Type: EvDeposit, Seat: seat, Cell: p.Cell, Other: int(a.Amount)}))
	case AWithdraw:
		p.Deposit -= a.Amount
		p.Cash += a.Amount
		return s.afterAct(append(ev, engine.Event{Type: EvWithdraw, Seat: seat, Cell: p.Cell, Other: int(a.Amount)}))
	case ARepay:
		p.Credit -= a.Amount
		return s.afterAct(s.charge(seat, a.Amount, EvRepay, p.Cell, ev))
	case ARepayLoan:
		p.ColonyLoan -= a.Amount
		return s.afterAct(s.charge(seat, a.Amount, EvRepayLoan, p.Cell, ev))
	case ASellGood:
		g := GoodByName(a.Good)
		s.Used |= usedSell(g)
		p.Goods[g] -= a.Amount
		ev = append(ev, engine.Event{Type: EvSellGood, Seat: seat, Good: a.Good, Other: int(a.Amount), Cell: p.Cell})
		return s.afterAct(s.gain(seat, a.Amount*s.goodPrice(g), EvGain, p.Cell, ev))
	case ADropGood:
		s.Used |= usedDrop
		g := GoodByName(a.Good)
		s.GoodPts[g] = max(MinRate, s.GoodPts[g]-NewspaperDrop)
		return s.afterAct(append(ev, engine.Event{Type: EvGoodRate, Seat: seat, Good: a.Good, Other: s.GoodPts[g]}))
	case AOffer:
		s.Used |= usedOffer
		price := offerPrice(s.shareValue(a.Cell))
		if s.Rules.OpenDeals { // the rival answers in its own time; the turn goes on
			ev = s.Deals.Propose(seat, a.Target, engine.Action{Type: AOffer, Cell: a.Cell, Target: a.Target, Amount: price}, ev)
			return s.afterAct(ev)
		}
		s.Offer = Offer{Cell: a.Cell, From: seat, To: a.Target, Price: price}
		s.Phase = PhOffer
		return append(ev, engine.Event{Type: EvOffer, Seat: seat, Cell: a.Cell, Other: a.Target, Amount: 0})
	case AHold:
		s.Used |= usedBuy
		ev = s.Deals.Propose(engine.Bank, seat, engine.Action{Type: ABuy, Cell: a.Cell, Amount: Board[a.Cell].Price}, ev)
		return s.afterAct(ev)
	case engine.AcceptDeal, engine.DeclineDeal:
		return s.answer(seat, a, ev)
	case AAccept:
		o := s.Offer
		s.Offer = Offer{}
		s.Players[o.From].Cash -= o.Price
		s.Players[o.To].Cash += o.Price
		s.Owner[o.Cell] = int8(o.From)
		ev = append(ev,
			engine.Event{Type: EvOfferDone, Seat: o.From, Cell: o.Cell, Other: o.To, Amount: -o.Price},
			engine.Event{Type: EvOfferDone, Seat: o.To, Cell: o.Cell, Other: o.From, Amount: o.Price})
		s.Phase = PhAct
		return s.afterAct(ev)
	case ADecline:
		o := s.Offer
		s.Offer = Offer{}
		s.Phase = PhAct
		ev = append(ev, engine.Event{Type: EvOfferNo, Seat: o.To, Cell: o.Cell, Other: o.From})
		return s.afterAct(ev)
	case ABid, APass:
		s.Auction.Bids[seat] = a.Amount // a pass is 0
		ev = append(ev,
			engine.Event{Type: EvBid, Seat: seat, Cell: s.Auction.Cell, Other: int(a.Amount), Private: true},
			engine.Event{Type: EvBidPlaced, Seat: seat, Cell: s.Auction.Cell})
		return s.settleAuction(ev)
	case ANarcoBuy:
		s.Used |= usedNarcoBuy
		p.Narco += a.Amount
		ev = append(ev, engine.Event{Type: EvNarco, Seat: seat, Cell: p.Cell, Other: int(a.Amount)})
		return s.afterAct(s.charge(seat, a.Amount*Board[p.Cell].Amount, EvFee, p.Cell, ev))
	case ANarcoSell:
		s.Used |= usedNarcoSell
		p.Narco -= a.Amount
		ev = append(ev, engine.Event{Type: EvNarco, Seat: seat, Cell: p.Cell, Other: -int(a.Amount)})
		return s.afterAct(s.loot(seat, a.Amount*Board[p.Cell].Amount, p.Cell, ev))
	case ABribe:
		s.Used |= usedBribe
		p.Protected = true
		ev = append(ev, engine.Event{Type: EvProtected, Seat: seat, Cell: p.Cell})
		return s.afterAct(s.charge(seat, Board[p.Cell].Price, EvBribe, p.Cell, ev))
	case AColonyLoan:
		s.Used |= usedColonyLoan
		loan := 2 * p.Cash
		p.ColonyLoan += loan
		return s.afterAct(s.gain(seat, loan, EvCredit, p.Cell, ev))
	case ATrinkets:
		s.Used |= usedTrinkets
		c := &Board[p.Cell]
		p.ColonyCash += c.Amount - c.Price
		ev = s.charge(seat, c.Price, EvFee, c.N, ev)
		return s.afterAct(s.gain(seat, c.Amount, EvGain, c.N, ev))
	case ASurrender:
		take := min(p.Loot, p.Cash)
		p.Loot = 0
		ev = append(ev, engine.Event{Type: EvSurrender, Seat: seat, Cell: p.Cell})
		ev = s.charge(seat, take, EvFee, p.Cell, ev)
		return s.endTurn(ev)
	case APrison:
		ev = s.imprison(seat, Board[p.Cell].Turns, ev)
		return s.endTurn(ev)
	case AEnd:
		return s.endTurn(ev)
	case AResign:
		return s.resign(seat, ev)
	}
	panic("western: unhandled legal action " + a.Type) // appendLegal and do disagree: a bug
}

// afterAct ends the turn when the stop offers nothing more to do, so a
// player is never asked only to press "end".
func (s *State) afterAct(ev []engine.Event) []engine.Event {
	if s.Phase != PhAct {
		return ev
	}
	var buf [16]engine.Choice // longer lists (speculation with many holdings) spill to the heap
	if len(s.appendCellActions(buf[:0], s.Turn)) == 0 {
		return s.endTurn(ev)
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
	ev = s.Deals.Involving(seat, ev)
	left := 0
	for i := range s.Players {
		if s.active(i) {
			left++
		}
	}
	if left <= 1 { // W-40: the last one standing
		s.finish()
		return append(ev, engine.Event{Type: engine.EvGameOver, Seat: seat, Other: engine.OverLastOne})
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
	ev = append(ev, engine.Event{Type: engine.EvResign, Seat: seat, Amount: -left})
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
	return append(ev, engine.Event{Type: engine.EvTurn, Seat: next})
}

// finish ends the game: its open deals lapse with it.
func (s *State) finish() {
	s.Phase = PhOver
	s.Steps, s.Used = 0, 0
	s.Deals.Open = nil
}

// answer is seat's answer to a deal open to it. Accepted, the deal is
// carried out if it still can be — a held holding still free and its
// price in cash; a W-18 share still the answering seat's and its price
// in the buyer's cash — else it lapses, and the event says why.
func (s *State) answer(seat int, a engine.Action, ev []engine.Event) []engine.Event {
	deal, _ := s.Deals.Take(a.Deal)
	if a.Type == engine.DeclineDeal {
		return engine.Declined(deal, ev)
	}
	cell, price := deal.Offer.Cell, deal.Offer.Amount
	if deal.From == engine.Bank { // a purchase kept for later
		if why := engine.LapseWhy(s.Owner[cell] >= 0, engine.LapseTaken, s.Players[seat].Cash, price); why != 0 {
			return engine.Lapsed(deal, why, ev)
		}
		ev = engine.Done(deal, ev)
		ev = s.charge(seat, price, EvBuy, cell, ev)
		s.Owner[cell] = int8(seat)
		return ev
	}
	buyer := deal.From // W-18: the proposer buys the answering seat's share
	if why := engine.LapseWhy(int(s.Owner[cell]) != seat, engine.LapseGone, s.Players[buyer].Cash, price); why != 0 {
		return engine.Lapsed(deal, why, ev)
	}
	s.Players[buyer].Cash -= price
	s.Players[seat].Cash += price
	s.Owner[cell] = int8(buyer)
	ev = engine.Done(deal, ev)
	return append(ev,
		engine.Event{Type: EvOfferDone, Seat: buyer, Cell: cell, Other: seat, Amount: -price},
		engine.Event{Type: EvOfferDone, Seat: seat, Cell: cell, Other: buyer, Amount: price})
}

// EndNow ends the game at its organiser's command (engine.End): it is
// scored by net worth as it stands (W-40); an open auction or offer lapses.
func (s *State) EndNow(ev []engine.Event) []engine.Event {
	s.Offer = Offer{}
	ev = s.Deals.LapseAll(engine.LapseOver, ev)
	s.Auction.reset()
	s.finish()
	return append(ev, engine.Event{Type: engine.EvGameOver, Seat: -1, Other: engine.OverEnded})
}
