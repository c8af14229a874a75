package businessman

import (
	"github.com/pbmgames/pbm/engine"
)

// Event types of «Бизнесмен». Amount is used only for money: it is the
// signed change of Seat's cash (+ in, − out), so the Amounts of a seat's
// events add up to the change of its cash. Other carries counts, prices
// and second seats. Turns, resignations and the end are the shared
// engine.EvTurn, engine.EvResign (Amount: the cash left to the bank) and
// engine.EvGameOver (Other: engine.OverLaps, engine.OverLastOne).
const (
	EvRoll       = "roll"      // Cell: first die, Other: second die
	EvMove       = "move"      // Cell: where the token stopped
	EvStart      = "start"     // B-5: Amount +20,000; Other: laps completed
	EvHome       = "home"      // back from abroad; Other: circuits completed
	EvBuy        = "buy"       // Cell, Amount −price
	EvSurcharge  = "surcharge" // B-22: Amount −5,000
	EvRent       = "rent"      // Cell, Other: the other party; Amount ± for Seat
	EvRentAsked  = "rent_asked"
	EvRentWaived = "rent_waived"
	EvCellMoney  = "cell" // Cell: a cell's payment or charge
	EvGift       = "shares_gained"
	EvSharesSold = "shares_sold" // Good, Other: count, Amount +
	EvSharesBuy  = "shares_bought"
	EvCard       = "card"            // Cell: deck, Other: card index in that deck
	EvPassKept   = "pass_kept"       // Cell: deck
	EvPassUsed   = "pass_used"       // Cell: deck
	EvExchange   = "exchange"        // the exchange opens for Seat (B-12)
	EvXPlayed    = "xcard"           // Cell: card id, Good: colour, Other: ±2 for a «двойка»
	EvPoints     = "points"          // Good: colour, Other: new points
	EvXMoney     = "xmoney"          // money from a card play (B-15…B-18)
	EvXDrawn     = "xcard_drawn"     // private: Cell: the card id
	EvXGiven     = "xcard_given"     // public: Seat drew an exchange card (no id)
	EvXReturned  = "xcards_returned" // Other: count of a leaver's cards back in the piles
	EvBuild      = "build"
	EvSellBuild  = "sell_building"
	EvMortgage   = "mortgage"
	EvRedeem     = "redeem"
	EvForfeit    = "forfeit" // B-27: the bank took a pledged lot
	EvSellBank   = "sell_bank"
	EvOffer      = "offer" // Cell, Other: the offered seat (price in State.Offer)
	EvDeal       = "deal"  // Cell, Other: the other party; Amount ± for Seat
	EvDealNo     = "deal_declined"
	EvHighway    = "highway"
	EvAbroad     = "abroad"
	EvHotel      = "hotel"
	EvSpin       = "spin" // Cell: the roulette cell
	EvDebt       = "debt" // Other: the amount owed, Cell: why
	EvPaid       = "debt_paid"
	EvCreditor   = "creditor_paid" // B-28: the bank pays a leaver's creditor
	EvBankrupt   = "bankrupt"      // Amount: the cash left to the bank
)

// Do applies a legal action (engine.Machine): it checks nothing.
func (s *State) Do(seat int, a engine.Action, ev []engine.Event) []engine.Event {
	s.Actions++
	p := &s.Players[seat]
	switch a.Type {
	case ARoll:
		d1, d2 := s.RNG.Die(), s.RNG.Die()
		s.Dice = [2]int{d1, d2}
		ev = append(ev, engine.Event{Type: EvRoll, Seat: seat, Cell: d1, Other: d2})
		ev = s.move(seat, d1+d2, ev)
		if d1 == 3 && d2 == 3 && s.Players[seat].active() { // B-12: 3:3 opens the exchange
			ev = s.openExchange(seat, ev)
		}
	case AEnd:
		ev = s.nextTurn(ev)
	case ABuy:
		s.Used |= usedBuy
		ev = s.pay(seat, Board[a.Cell].Price, -1, EvBuy, a.Cell, ev)
		if abroad(a.Cell) || abroad(p.Cell) {
			ev = s.pay(seat, AbroadSurcharge, -1, EvSurcharge, a.Cell, ev)
		}
		s.Owner[a.Cell] = int8(seat)
	case ATake:
		k := ColourIndex(a.Good)
		p.Shares[k] += a.Amount
		ev = append(ev, engine.Event{Type: EvGift, Seat: seat, Good: a.Good, Other: int(a.Amount)})
		if s.Gift -= a.Amount; s.Gift <= 0 {
			s.Gift, s.Phase = 0, PhAct
		}
	case AClaim:
		c := s.Claim
		s.Phase = PhAct
		ev = s.charge(c.Payer, c.Amount, c.Owner, EvRent, c.Cell, ev)
	case AWaive:
		ev = append(ev, engine.Event{Type: EvRentWaived, Seat: seat, Cell: s.Claim.Cell, Other: s.Claim.Payer})
		s.Phase = PhAct
	case AAccept:
		ev = s.closeDeal(ev)
	case ADecline:
		ev = append(ev, engine.Event{Type: EvDealNo, Seat: seat, Cell: s.Offer.Cell, Other: s.Offer.From})
		s.Phase = s.Offer.Resume
	case ASpin:
		ev = s.spin(seat, ev)
	case ALeave:
		s.Phase = PhAct
	case ABroker:
		s.Used |= usedCell
		ev = s.pay(seat, BrokerFee, -1, EvCellMoney, p.Cell, ev)
		ev = s.openExchange(seat, ev)
	case AHighway:
		s.Used |= usedCell
		p.Cell = HighwayIn
		s.Spot = HighwayIn
		ev = append(ev, engine.Event{Type: EvHighway, Seat: seat, Cell: HighwayIn})
	case AAbroad:
		ev = s.goAbroad(seat, ev)
	case AHotelAbroad:
		s.Used |= usedCell
		d1, d2 := s.RNG.Die(), s.RNG.Die()
		ev = append(ev, engine.Event{Type: EvRoll, Seat: seat, Cell: d1, Other: d2})
		s.Spot = AbroadFirst - 1 + d1 + d2 // one move on the small perimeter from its start (B-21)
		ev = append(ev, engine.Event{Type: EvHotel, Seat: seat, Cell: s.Spot})
	case AHotelRoulette:
		s.Used |= usedCell
		s.Phase, s.RoulPos, s.RoulLeft = PhRoulette, 0, RoulettePlays
		ev = append(ev, engine.Event{Type: EvHotel, Seat: seat, Cell: RouletteIn})
	case AHotelExchange:
		s.Used |= usedCell
		ev = s.openExchange(seat, ev)
	case AUsePass:
		p.Passes &^= 1 << a.Cell
		if a.Cell == DeckSurprise {
			s.Surprise.put(passCard(SurpriseCards))
		} else {
			s.Notice.put(passCard(NoticeCards))
		}
		ev = append(ev, engine.Event{Type: EvPassUsed, Seat: seat, Cell: a.Cell})
		ev = s.openExchange(seat, ev)
	case APlayCard:
		ev = s.playCard(seat, a.Cell, ColourIndex(a.Good), a.Amount, ev)
	case ABuyShares:
		k := ColourIndex(a.Good)
		s.Bought[k] += a.Amount
		p.Shares[k] += a.Amount
		ev = s.pay(seat, a.Amount*s.sharePrice(k), -1, EvSharesBuy, 0, ev)
		ev[len(ev)-1].Good, ev[len(ev)-1].Other = a.Good, int(a.Amount)
		if abroad(p.Cell) {
			ev = s.pay(seat, AbroadSurcharge, -1, EvSurcharge, p.Cell, ev)
		}
	case ASellShares:
		k := ColourIndex(a.Good)
		p.Shares[k] -= a.Amount
		cell := 0
		if s.Phase == PhCustoms {
			cell = CellCustoms
			if s.Sell -= a.Amount; s.Sell <= 0 {
				s.Sell, s.Phase = 0, PhAct
			}
		}
		ev = s.gain(seat, a.Amount*s.sharePrice(k), EvSharesSold, cell, ev)
		ev[len(ev)-1].Good, ev[len(ev)-1].Other = a.Good, int(a.Amount)
	case ABuild:
		cost := buildCost(a.Cell, s.Level[a.Cell])
		s.Level[a.Cell]++
		ev = s.pay(seat, cost, -1, EvBuild, a.Cell, ev)
		if abroad(p.Cell) {
			ev = s.pay(seat, AbroadSurcharge, -1, EvSurcharge, a.Cell, ev)
		}
	case ASellBuilding:
		v := buildingSale(a.Cell, s.Level[a.Cell])
		s.Level[a.Cell]--
		ev = s.gain(seat, v, EvSellBuild, a.Cell, ev)
	case AMortgage:
		s.Mort[a.Cell] = int16(p.Walked)
		ev = s.gain(seat, mortgageValue(a.Cell), EvMortgage, a.Cell, ev)
	case ARedeem:
		s.Mort[a.Cell] = -1
		ev = s.pay(seat, redeemCost(a.Cell), -1, EvRedeem, a.Cell, ev)
	case ASellBank:
		s.Owner[a.Cell] = -1
		ev = s.gain(seat, bankBuyPrice(a.Cell), EvSellBank, a.Cell, ev)
	case AOfferSell, AOfferBuy, AOfferSwap, AOfferShare:
		s.Offers++
		if s.Rules.OpenDeals { // the other side answers in its own time; the turn goes on
			ev = s.Deals.Propose(seat, a.Target, a, ev)
			break
		}
		s.Offer = Offer{Kind: a.Type, From: seat, To: a.Target, Cell: a.Cell, Price: a.Amount, Resume: s.Phase}
		switch a.Type {
		case AOfferSwap:
			s.Offer.Other, s.Offer.Price = int(a.Amount), 0
		case AOfferShare:
			s.Offer.Other = ColourIndex(a.Good)
		}
		s.Phase = PhOffer
		ev = append(ev, engine.Event{Type: EvOffer, Seat: seat, Cell: a.Cell, Other: a.Target, Good: a.Good})
	case AHold:
		s.Used |= usedBuy
		cost := Board[a.Cell].Price + s.surcharge(seat)
		if abroad(a.Cell) {
			cost = Board[a.Cell].Price + AbroadSurcharge
		}
		ev = s.Deals.Propose(engine.Bank, seat, engine.Action{Type: ABuy, Cell: a.Cell, Amount: cost}, ev)
	case engine.AcceptDeal, engine.DeclineDeal:
		ev = s.answer(seat, a, ev)
	case AResign:
		ev = s.resign(seat, ev)
	}
	return s.settle(ev)
}

// answer is seat's answer to a deal open to it. Accepted, the deal is
// carried out if it still can be — the lots still their owners', unbuilt
// and unpledged (B-26, B-27), the share still the seller's, the payer's
// cash enough, a held lot still free — else it lapses, and the event says
// why.
func (s *State) answer(seat int, a engine.Action, ev []engine.Event) []engine.Event {
	deal, _ := s.Deals.Take(a.Deal)
	if a.Type == engine.DeclineDeal {
		return engine.Declined(deal, ev)
	}
	o, from, to := deal.Offer, deal.From, deal.To
	lot := func(cell, owner int) bool { return int(s.Owner[cell]) == owner && s.tradable(cell) }
	why := 0
	switch o.Type {
	case ABuy: // a purchase kept for later: the bank sells at the price kept
		why = engine.LapseWhy(s.Owner[o.Cell] >= 0, engine.LapseTaken, s.Players[to].Cash, o.Amount)
	case AOfferSell:
		why = engine.LapseWhy(!lot(o.Cell, from), engine.LapseGone, s.Players[to].Cash, o.Amount)
	case AOfferBuy:
		why = engine.LapseWhy(!lot(o.Cell, to), engine.LapseGone, s.Players[from].Cash, o.Amount)
	case AOfferSwap:
		if !lot(o.Cell, from) || !lot(int(o.Amount), to) {
			why = engine.LapseGone
		}
	case AOfferShare:
		k := ColourIndex(o.Good)
		why = engine.LapseWhy(k < 0 || s.Players[from].Shares[k] < 1, engine.LapseGone, s.Players[to].Cash, o.Amount)
	}
	if why != 0 {
		return engine.Lapsed(deal, why, ev)
	}
	ev = engine.Done(deal, ev)
	switch o.Type {
	case ABuy:
		price := Board[o.Cell].Price
		ev = s.pay(to, price, -1, EvBuy, o.Cell, ev)
		ev = s.pay(to, o.Amount-price, -1, EvSurcharge, o.Cell, ev)
		s.Owner[o.Cell] = int8(to)
	case AOfferSell:
		s.Owner[o.Cell] = int8(to)
		ev = s.pay(to, o.Amount, from, EvDeal, o.Cell, ev)
	case AOfferBuy:
		s.Owner[o.Cell] = int8(from)
		ev = s.pay(from, o.Amount, to, EvDeal, o.Cell, ev)
	case AOfferSwap:
		s.Owner[o.Cell], s.Owner[o.Amount] = int8(to), int8(from)
		ev = append(ev, engine.Event{Type: EvDeal, Seat: from, Cell: o.Cell, Other: to})
	case AOfferShare:
		k := ColourIndex(o.Good)
		s.Players[from].Shares[k]--
		s.Players[to].Shares[k]++
		ev = s.pay(to, o.Amount, from, EvDeal, 0, ev)
		ev[len(ev)-1].Good, ev[len(ev)-2].Good = o.Good, o.Good
	}
	return ev
}

func passCard(deck []Card) int {
	for i, c := range deck {
		if c.Effect == EffPass {
			return i
		}
	}
	return 0
}

func (p *Player) active() bool { return !p.Bankrupt }

// gain pays seat amt from the bank.
func (s *State) gain(seat int, amt int64, typ string, cell int, ev []engine.Event) []engine.Event {
	return engine.Gain(&s.Players[seat].Cash, &s.Bank, seat, amt, typ, cell, ev)
}

// pay moves amt, which seat has in cash, to seat to (−1: the bank; a
// leaver's share goes to the bank too).
func (s *State) pay(seat int, amt int64, to int, typ string, cell int, ev []engine.Event) []engine.Event {
	if amt == 0 {
		return ev
	}
	s.Players[seat].Cash -= amt
	ev = append(ev, engine.Event{Type: typ, Seat: seat, Cell: cell, Other: to, Amount: -amt})
	if s.active(to) {
		s.Players[to].Cash += amt
		ev = append(ev, engine.Event{Type: typ, Seat: to, Cell: cell, Other: seat, Amount: amt})
	} else {
		s.Bank -= amt
	}
	return ev
}

// charge makes seat pay amt to seat to (−1: the bank). What cash cannot
// cover now becomes a debt the seat must raise (B-19), or bankruptcy when
// its whole property would not cover it (B-28).
func (s *State) charge(seat int, amt int64, to int, typ string, cell int, ev []engine.Event) []engine.Event {
	if amt <= 0 || !s.active(seat) {
		return ev
	}
	if s.Players[seat].Cash >= amt && !s.inDebt(seat) {
		return s.pay(seat, amt, to, typ, cell, ev)
	}
	s.Debts = append(s.Debts, Debt{Seat: seat, To: to, Amount: amt, Why: typ, Cell: cell})
	return append(ev, engine.Event{Type: EvDebt, Seat: seat, Cell: cell, Other: int(amt)})
}

func (s *State) inDebt(seat int) bool {
	for _, d := range s.Debts {
		if d.Seat == seat {
			return true
		}
	}
	return false
}

// fine tells whether a debt is a fine, to be paid in cash raised from
// property only: «Выплачивать штрафы игрок должен только наличными
// деньгами. Средства, которые он вложил в акции, использовать запрещено»
// (B-19). Every payment to the bank is a fine; a debt to a player (rent,
// the supermarket's share, a card's gift) may be raised from shares too.
func (d *Debt) fine() bool { return d.To < 0 }

// raisable is all the cash the bank would give seat for its property
// (B-19): buildings at half price, then the lots pledged; with shares, its
// shares at the exchange price too.
func (s *State) raisable(seat int, shares bool) int64 {
	var v int64
	if shares {
		for k, n := range s.Players[seat].Shares {
			v += n * s.sharePrice(k)
		}
	}
	for cell := 1; cell < NumCells; cell++ {
		if int(s.Owner[cell]) != seat {
			continue
		}
		for l := s.Level[cell]; l > 0; l-- {
			v += buildingSale(cell, l)
		}
		if s.Mort[cell] < 0 {
			v += max(mortgageValue(cell), bankBuyPrice(cell))
		}
	}
	return v
}

// settle runs after every action: it pays the debts that can be paid,
// bankrupts those who never could, asks the next debtor, passes the turn
// of a player who left, and ends the game (B-0).
func (s *State) settle(ev []engine.Event) []engine.Event {
	for len(s.Debts) > 0 {
		d := s.Debts[0]
		p := &s.Players[d.Seat]
		if p.Bankrupt {
			s.Debts = s.Debts[1:]
			continue
		}
		if p.Cash >= d.Amount {
			s.Debts = s.Debts[1:]
			ev = s.pay(d.Seat, d.Amount, d.To, d.Why, d.Cell, ev)
			continue
		}
		if p.Cash+s.raisable(d.Seat, !d.fine()) < d.Amount {
			ev = s.bankrupt(d.Seat, EvBankrupt, ev)
			continue
		}
		break
	}
	if len(s.Debts) == 0 {
		s.Debts = nil
	}
	if len(s.Debts) > 0 {
		if s.Phase != PhDebt {
			s.Resume, s.Phase = s.Phase, PhDebt
		}
		return ev
	}
	if s.Phase == PhDebt {
		s.Phase = s.Resume
	}
	if s.Phase != PhOver && (s.activeCount() <= 1 || s.Players[s.Turn].Bankrupt) {
		ev = s.nextTurn(ev)
	}
	return ev
}

// bankrupt puts seat out of the game (B-28): the bank pays its creditors
// in full, takes its cash, property and shares; its exchange cards go back
// under the piles, hidden, and its lots are free to buy again.
func (s *State) bankrupt(seat int, typ string, ev []engine.Event) []engine.Event {
	p := &s.Players[seat]
	ev = s.Deals.Involving(seat, ev)
	kept := s.Debts[:0]
	for _, d := range s.Debts {
		if d.Seat != seat {
			kept = append(kept, d)
			continue
		}
		if s.active(d.To) {
			ev = s.gain(d.To, d.Amount, EvCreditor, d.Cell, ev)
		}
	}
	s.Debts = kept
	cash := p.Cash
	p.Cash = 0
	s.Bank -= cash
	ev = append(ev, engine.Event{Type: typ, Seat: seat, Amount: -cash})
	for cell := 1; cell < NumCells; cell++ {
		if int(s.Owner[cell]) == seat {
			s.Owner[cell], s.Level[cell], s.Mort[cell] = -1, 0, -1
		}
	}
	p.Shares = [NumColours]int64{}
	n := p.NHand
	for _, c := range p.hand() {
		if XCards[c].Large() {
			s.Large.put(int(c))
		} else {
			s.Small.put(int(c))
		}
	}
	p.Hand, p.NHand = [MaxHand]uint8{}, 0
	if n > 0 {
		ev = append(ev, engine.Event{Type: EvXReturned, Seat: seat, Other: n})
	}
	if p.Passes&(1<<DeckSurprise) != 0 {
		s.Surprise.put(passCard(SurpriseCards))
	}
	if p.Passes&(1<<DeckNotice) != 0 {
		s.Notice.put(passCard(NoticeCards))
	}
	p.Passes = 0
	p.Bankrupt = true
	return ev
}

// resign is P-4's way out: the seat's money goes to the bank and it leaves
// as if bankrupt. A deal or a claim waiting on it lapses.
func (s *State) resign(seat int, ev []engine.Event) []engine.Event {
	switch s.Phase {
	case PhOffer:
		s.Phase = s.Offer.Resume
	case PhClaim:
		s.Phase = PhAct
	case PhCustoms:
		s.Sell, s.Phase = 0, PhAct
	}
	return s.bankrupt(seat, engine.EvResign, ev)
}

// nextTurn ends the turn: the game ends when a player has completed the
// agreed laps or one player is left (B-0); otherwise the next player still
// in the game rolls.
func (s *State) nextTurn(ev []engine.Event) []engine.Event {
	s.Used, s.Exch, s.Bought, s.Offers, s.Gift, s.Sell = 0, false, [NumColours]int64{}, 0, 0, 0
	s.Claim, s.Offer = Claim{}, Offer{}
	if s.Ending || s.activeCount() <= 1 {
		s.Phase = PhOver
		s.Deals.Open = nil // the open deals end with the game
		why := engine.OverLastOne
		if s.Ending {
			why = engine.OverLaps
		}
		return append(ev, engine.Event{Type: engine.EvGameOver, Seat: -1, Other: why})
	}
	n := len(s.Players)
	for i := 1; i <= n; i++ {
		t := (s.Turn + i) % n
		if !s.Players[t].Bankrupt {
			s.Turn = t
			break
		}
	}
	s.Phase = PhRoll
	s.Spot = s.Players[s.Turn].Cell
	return append(ev, engine.Event{Type: engine.EvTurn, Seat: s.Turn})
}

// closeDeal carries out the accepted deal (B-6, B-9, B-13).
func (s *State) closeDeal(ev []engine.Event) []engine.Event {
	o := s.Offer
	s.Phase = o.Resume
	switch o.Kind {
	case AOfferSell:
		s.Owner[o.Cell] = int8(o.To)
		return s.pay(o.To, o.Price, o.From, EvDeal, o.Cell, ev)
	case AOfferBuy:
		s.Owner[o.Cell] = int8(o.From)
		return s.pay(o.From, o.Price, o.To, EvDeal, o.Cell, ev)
	case AOfferSwap:
		s.Owner[o.Cell], s.Owner[o.Other] = int8(o.To), int8(o.From)
		return append(ev, engine.Event{Type: EvDeal, Seat: o.From, Cell: o.Cell, Other: o.To})
	case AOfferShare:
		s.Players[o.From].Shares[o.Other]--
		s.Players[o.To].Shares[o.Other]++
		ev = s.pay(o.To, o.Price, o.From, EvDeal, 0, ev)
		ev[len(ev)-1].Good, ev[len(ev)-2].Good = Groups[o.Other].Key, Groups[o.Other].Key
		return ev
	}
	return ev
}

// openExchange lets the turn's seat trade on the exchange (B-12).
func (s *State) openExchange(seat int, ev []engine.Event) []engine.Event {
	if s.Exch {
		return ev
	}
	s.Exch = true
	s.Bought = [NumColours]int64{}
	return append(ev, engine.Event{Type: EvExchange, Seat: seat})
}

// playCard plays exchange card id on colour k (B-14…B-18); the card is
// then out of the game, face up.
func (s *State) playCard(seat, id, k int, dir int64, ev []engine.Event) []engine.Event {
	s.Used |= usedCard
	o := s.cardEffect(seat, id, k, dir)
	s.Players[seat].drop(id)
	ev = append(ev, engine.Event{Type: EvXPlayed, Seat: seat, Cell: id, Good: Groups[k].Key, Other: int(dir)})
	for j := range s.Points {
		if o.Points[j] != s.Points[j] {
			ev = append(ev, engine.Event{Type: EvPoints, Seat: seat, Good: Groups[j].Key, Other: o.Points[j]})
		}
	}
	s.Points = o.Points
	for i := range s.Players {
		switch m := o.Money[i]; {
		case m > 0:
			ev = s.gain(i, m, EvXMoney, 0, ev)
		case m < 0:
			ev = s.charge(i, -m, -1, EvXMoney, 0, ev)
		}
	}
	return ev
}

// EndNow ends the game at its organiser's command (engine.End): it is
// scored by net worth as it stands (B-0); an open claim or offer lapses.
func (s *State) EndNow(ev []engine.Event) []engine.Event {
	s.Claim, s.Offer = Claim{}, Offer{}
	ev = s.Deals.LapseAll(engine.LapseOver, ev)
	s.Phase = PhOver
	return append(ev, engine.Event{Type: engine.EvGameOver, Seat: -1, Other: engine.OverEnded})
}
