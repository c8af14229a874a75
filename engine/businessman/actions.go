package businessman

import "github.com/pbmgames/pbm/engine"

// Action types of «Бизнесмен». Field use: Cell a cell (or a card id for
// play_card, a deck id for use_pass), Target another seat, Good a share
// colour's key, Amount a price or a count (ranged), or ±2 on play_card for
// a «двойка»: +2 doubles, −2 halves.
const (
	ARoll          = "roll"
	AEnd           = "end"
	ABuy           = "buy"            // Cell: the lot or supermarket where the seat stopped (B-6, B-25)
	ATake          = "take"           // Good: the colour of gift shares (B-10, B-24)
	AClaim         = "claim"          // B-8
	AWaive         = "waive"          // B-8
	AAccept        = "accept"         // a deal (B-9)
	ADecline       = "decline"        // a deal (B-9)
	ASpin          = "spin"           // roulette (B-23)
	ALeave         = "leave"          // roulette exit (B-23)
	ABroker        = "broker"         // B-12
	AHighway       = "highway"        // B-24
	AAbroad        = "abroad"         // B-22
	AHotelAbroad   = "hotel_abroad"   // B-21
	AHotelRoulette = "hotel_roulette" // B-21
	AHotelExchange = "hotel_exchange" // B-21
	AUsePass       = "use_pass"       // Cell: the deck the kept card came from (B-11)
	APlayCard      = "play_card"      // Cell: the card, Good: colour, Amount: ±2 for a «двойка» (B-14)
	ABuyShares     = "buy_shares"     // Good, Amount: count (B-13)
	ASellShares    = "sell_shares"    // Good, Amount: count, to the bank (B-20)
	AOfferShare    = "offer_share"    // Good, Target, Amount: price of one share (B-13)
	ABuild         = "build"          // Cell (B-7)
	ASellBuilding  = "sell_building"  // Cell: to the bank at half price (B-26)
	AMortgage      = "mortgage"       // Cell (B-27)
	ARedeem        = "redeem"         // Cell (B-27)
	ASellBank      = "sell_bank"      // Cell: an unbuilt lot to the bank (B-19)
	AOfferSell     = "offer_sell"     // Cell, Target, Amount: price (B-6, B-26)
	AOfferBuy      = "offer_buy"      // Cell, Target, Amount: price (B-4)
	AOfferSwap     = "offer_swap"     // Cell: mine, Target, Amount: their lot's cell (B-9)
	AHold          = "hold"           // Cell: decide the purchase of the lot stopped on later (rules 3: engine.Deal from the Bank)
	AResign        = engine.Resign
)

// Secret tells whether an action is secret from the other seats (P-3): no
// action of «Бизнесмен» is. A card is named when it is played, face up;
// the draws are private events, not secret actions.
func Secret(engine.Action) bool { return false }

const priceStep = 1_000

// wants tells whether a listing restricted to type only includes type t.
func wants(only, t string) bool { return only == "" || only == t }

func choice(a engine.Action, def bool) engine.Choice { return engine.Choice{Action: a, Default: def} }

func ranged(a engine.Action, lo, hi, step int64) engine.Choice {
	return engine.Choice{Action: a, Min: lo, Max: hi, Step: step}
}

// Legal lists seat's legal actions in a stable order (empty if it owes
// nothing). Exactly one is marked Default (P-4); resign comes last. When
// the marked choice is ranged its Action carries the amount the deadline
// plays, so a client can take the marked choice as it is.
func (s *State) Legal(seat engine.Seat) []engine.Choice {
	out := s.appendChoices(nil, seat, "")
	for i := range out {
		if out[i].Default && out[i].Ranged() {
			if d, ok := s.Default(seat); ok && out[i].Admits(d) {
				out[i].Amount = d.Amount
			}
		}
	}
	return out
}

// appendChoices lists seat's legal actions of type only ("" for all).
func (s *State) appendChoices(out []engine.Choice, seat int, only string) []engine.Choice {
	if s.Phase == PhOver || seat < 0 || seat >= len(s.Players) || s.owing() != seat {
		return out
	}
	switch s.Phase {
	case PhRoll:
		if wants(only, ARoll) {
			out = append(out, choice(engine.Action{Type: ARoll}, true))
		}
		out = s.appendOwnTurn(out, seat, only)
	case PhAct:
		if wants(only, AEnd) && !s.mustPlay(seat) {
			out = append(out, choice(engine.Action{Type: AEnd}, true))
		}
		out = s.appendCell(out, seat, only)
		if s.Exch {
			out = s.appendExchange(out, seat, only)
		}
		out = s.appendOwnTurn(out, seat, only)
	case PhChoose:
		// B-10: «3 акции любого цвета» — each of them: any split of the
		// gift between colours, one take at a time.
		if wants(only, ATake) {
			for k := 0; k < NumColours; k++ {
				c := ranged(engine.Action{Type: ATake, Good: Groups[k].Key}, 1, s.Gift, 1)
				c.Default = k == 0
				out = append(out, c)
			}
		}
	case PhCustoms:
		// B-22: the player picks which of their shares customs sells.
		if wants(only, ASellShares) {
			def := s.customsDefault(seat)
			p := &s.Players[seat]
			for k := 0; k < NumColours; k++ {
				if p.Shares[k] >= 1 {
					c := ranged(engine.Action{Type: ASellShares, Good: Groups[k].Key}, 1, min(p.Shares[k], s.Sell), 1)
					c.Default = only == "" && Groups[k].Key == def.Good
					out = append(out, c)
				}
			}
		}
	case PhClaim:
		if wants(only, AClaim) {
			out = append(out, choice(engine.Action{Type: AClaim, Cell: s.Claim.Cell, Target: s.Claim.Payer}, true))
		}
		if wants(only, AWaive) {
			out = append(out, choice(engine.Action{Type: AWaive, Cell: s.Claim.Cell, Target: s.Claim.Payer}, false))
		}
	case PhOffer:
		if wants(only, ADecline) {
			out = append(out, choice(engine.Action{Type: ADecline}, true))
		}
		if wants(only, AAccept) && s.offerPayable() {
			out = append(out, choice(engine.Action{Type: AAccept}, false))
		}
	case PhDebt:
		// B-19: short of cash, mortgage or sell to the bank; shares may not
		// be used. The first listed is the default.
		n := len(out)
		out = s.appendRaise(out, seat, only)
		if wants(only, ASellShares) && !s.Debts[0].fine() {
			// Rent and other debts to players may be raised from shares
			// too: B-19 bars the shares for fines only.
			p := &s.Players[seat]
			for k := 0; k < NumColours; k++ {
				if p.Shares[k] >= 1 {
					out = append(out, ranged(engine.Action{Type: ASellShares, Good: Groups[k].Key}, 1, p.Shares[k], 1))
				}
			}
		}
		if len(out) > n && only == "" {
			out[n].Default = true
		}
	case PhRoulette:
		exit := Board[RouletteIn+s.RoulPos].Kind == KRouletteExit
		if wants(only, ASpin) {
			out = append(out, choice(engine.Action{Type: ASpin}, !exit))
		}
		if wants(only, ALeave) && exit {
			out = append(out, choice(engine.Action{Type: ALeave}, true))
		}
	}
	// Whoever owes a decision may leave the game instead (P-4): listed
	// last, never the default.
	if wants(only, AResign) {
		out = append(out, choice(engine.Action{Type: AResign}, false))
	}
	return out
}

// offerPayable tells whether the buyer of the pending deal has the cash.
func (s *State) offerPayable() bool {
	o := &s.Offer
	switch o.Kind {
	case AOfferSell, AOfferShare:
		return s.Players[o.To].Cash >= o.Price
	case AOfferBuy:
		return s.Players[o.From].Cash >= o.Price
	}
	return true
}

// appendCell lists what the cell the seat stopped on offers.
func (s *State) appendCell(out []engine.Choice, seat int, only string) []engine.Choice {
	p := &s.Players[seat]
	c := &Board[p.Cell]
	if (wants(only, ABuy) || wants(only, AHold)) && s.Used&usedBuy == 0 && isProperty(s.Spot) && s.Owner[s.Spot] < 0 {
		extra := s.surcharge(seat)
		if abroad(s.Spot) {
			extra = AbroadSurcharge
		}
		if p.Cash >= Board[s.Spot].Price+extra && !s.Deals.HeldByOther(seat, s.Spot) {
			if wants(only, ABuy) {
				out = append(out, choice(engine.Action{Type: ABuy, Cell: s.Spot}, false))
			}
			if wants(only, AHold) && s.Rules.OpenDeals && !s.Deals.Holding(seat) {
				out = append(out, choice(engine.Action{Type: AHold, Cell: s.Spot}, false))
			}
		}
	}
	if s.Used&usedCell == 0 && s.Spot == p.Cell {
		switch c.Kind {
		case KBroker:
			if wants(only, ABroker) && !s.Exch && p.Cash >= BrokerFee {
				out = append(out, choice(engine.Action{Type: ABroker}, false))
			}
		case KHighway:
			if wants(only, AHighway) {
				out = append(out, choice(engine.Action{Type: AHighway}, false))
			}
		case KCustoms:
			if wants(only, AAbroad) && p.Cash >= CustomsFee {
				out = append(out, choice(engine.Action{Type: AAbroad}, false))
			}
		case KHotel:
			if wants(only, AHotelAbroad) {
				out = append(out, choice(engine.Action{Type: AHotelAbroad}, false))
			}
			if wants(only, AHotelRoulette) {
				out = append(out, choice(engine.Action{Type: AHotelRoulette}, false))
			}
			if wants(only, AHotelExchange) && !s.Exch {
				out = append(out, choice(engine.Action{Type: AHotelExchange}, false))
			}
		}
	}
	if wants(only, AUsePass) && !s.Exch {
		for _, d := range [...]int{DeckSurprise, DeckNotice} {
			if p.Passes&(1<<d) != 0 {
				out = append(out, choice(engine.Action{Type: AUsePass, Cell: d}, false))
			}
		}
	}
	return out
}

// mustPlay tells whether the turn cannot end yet: «Игрок должен
// предъявить любую из имеющихся у него карточек» (B-14) — on an open
// exchange a player with a card they can afford to play must play one.
func (s *State) mustPlay(seat int) bool {
	if !s.Exch || s.Used&usedCard != 0 || s.Players[seat].NHand == 0 {
		return false
	}
	for _, id := range s.Players[seat].hand() {
		for k := 0; k < NumColours; k++ {
			if s.cardAffordable(seat, int(id), k, 0) || (XCards[id].Kind == XTwo && s.cardAffordable(seat, int(id), k, -2)) {
				return true
			}
		}
	}
	return false
}

// affordablePlays calls play for every card play seat can pay for, in
// hand, direction and colour order, with what the play would do (B-15).
// The default and the bot choose among them by their own measures.
func (s *State) affordablePlays(seat int, play func(a engine.Action, o cardOutcome)) {
	for _, id := range s.Players[seat].hand() {
		dirs, nd := [2]int64{0, 0}, 1
		if XCards[id].Kind == XTwo {
			dirs, nd = [2]int64{2, -2}, 2
		}
		for _, dir := range dirs[:nd] {
			for k := 0; k < NumColours; k++ {
				o := s.cardEffect(seat, int(id), k, dir)
				if s.Players[seat].Cash+o.Money[seat] < 0 {
					continue
				}
				play(engine.Action{Type: APlayCard, Cell: int(id), Good: Groups[k].Key, Amount: dir}, o)
			}
		}
	}
}

// cheapestPlay is the card play that leaves seat the most cash (the first
// such in hand and colour order): the default when a card must be played.
func (s *State) cheapestPlay(seat int) (engine.Action, bool) {
	var best engine.Action
	bestMoney, found := int64(0), false
	s.affordablePlays(seat, func(a engine.Action, o cardOutcome) {
		if !found || o.Money[seat] > bestMoney {
			best, bestMoney, found = a, o.Money[seat], true
		}
	})
	return best, found
}

// appendExchange lists the exchange's actions (B-13, B-14, B-20).
func (s *State) appendExchange(out []engine.Choice, seat int, only string) []engine.Choice {
	p := &s.Players[seat]
	if wants(only, APlayCard) && s.Used&usedCard == 0 {
		var def engine.Action
		if only == "" {
			def, _ = s.cheapestPlay(seat)
		}
		for _, id := range p.hand() {
			card := &XCards[id]
			for k := 0; k < NumColours; k++ {
				if card.Kind == XTwo {
					for _, d := range [...]int64{2, -2} {
						if s.cardAffordable(seat, int(id), k, d) {
							a := engine.Action{Type: APlayCard, Cell: int(id), Good: Groups[k].Key, Amount: d}
							out = append(out, choice(a, a == def))
						}
					}
				} else if s.cardAffordable(seat, int(id), k, 0) {
					a := engine.Action{Type: APlayCard, Cell: int(id), Good: Groups[k].Key}
					out = append(out, choice(a, a == def))
				}
			}
		}
	}
	if wants(only, ABuyShares) {
		extra := s.surcharge(seat)
		for k := 0; k < NumColours; k++ {
			n := min(BuyPerVisit-s.Bought[k], (p.Cash-extra)/s.sharePrice(k))
			if n >= 1 {
				out = append(out, ranged(engine.Action{Type: ABuyShares, Good: Groups[k].Key}, 1, n, 1))
			}
		}
	}
	if wants(only, ASellShares) {
		for k := 0; k < NumColours; k++ {
			if p.Shares[k] >= 1 {
				out = append(out, ranged(engine.Action{Type: ASellShares, Good: Groups[k].Key}, 1, p.Shares[k], 1))
			}
		}
	}
	if wants(only, AOfferShare) && s.Offers < MaxOffersPerTurn && s.canPropose(seat) {
		for k := 0; k < NumColours; k++ {
			if p.Shares[k] < 1 {
				continue
			}
			for t := range s.Players {
				if t != seat && s.active(t) && s.Players[t].Cash >= priceStep {
					out = append(out, ranged(engine.Action{Type: AOfferShare, Good: Groups[k].Key, Target: t}, priceStep, floorStep(s.Players[t].Cash), priceStep))
				}
			}
		}
	}
	return out
}

func floorStep(v int64) int64 { return v / priceStep * priceStep }

// tradable tells whether a property may change hands: owned, not pledged
// (B-27), with no buildings (B-26).
func (s *State) tradable(cell int) bool {
	return isProperty(cell) && s.Owner[cell] >= 0 && s.Mort[cell] < 0 && s.Level[cell] == 0
}

// canBuild tells whether seat may put the next building on cell (B-7).
func (s *State) canBuild(seat, cell int) bool {
	c := &Board[cell]
	if c.Kind != KLot || int(s.Owner[cell]) != seat || s.Level[cell] >= 2 || !s.ownsGroup(seat, c.Group) {
		return false
	}
	for _, l := range Groups[c.Group].Lots {
		if s.Mort[l] >= 0 {
			return false
		}
	}
	b, e := s.piecesUsed()
	if (s.Level[cell] == 0 && b >= Pieces.Branches) || (s.Level[cell] == 1 && e >= Pieces.Enterprises) {
		return false
	}
	return s.Players[seat].Cash >= buildCost(cell, s.Level[cell])+s.surcharge(seat)
}

// appendRaise lists the ways to raise cash from the bank (B-19, B-26, B-27).
func (s *State) appendRaise(out []engine.Choice, seat int, only string) []engine.Choice {
	if wants(only, AMortgage) {
		for cell := 1; cell < NumCells; cell++ {
			if int(s.Owner[cell]) == seat && s.tradable(cell) {
				out = append(out, choice(engine.Action{Type: AMortgage, Cell: cell}, false))
			}
		}
	}
	if wants(only, ASellBuilding) {
		for cell := 1; cell < NumCells; cell++ {
			if int(s.Owner[cell]) == seat && s.Level[cell] > 0 {
				out = append(out, choice(engine.Action{Type: ASellBuilding, Cell: cell}, false))
			}
		}
	}
	if wants(only, ASellBank) {
		for cell := 1; cell < NumCells; cell++ {
			if int(s.Owner[cell]) == seat && s.tradable(cell) {
				out = append(out, choice(engine.Action{Type: ASellBank, Cell: cell}, false))
			}
		}
	}
	return out
}

// appendOwnTurn lists what the seat whose turn it is may do at any moment
// of it: build, sell buildings, mortgage, redeem, sell to the bank, and
// propose deals (B-4, B-7, B-9, B-26, B-27).
func (s *State) appendOwnTurn(out []engine.Choice, seat int, only string) []engine.Choice {
	p := &s.Players[seat]
	if wants(only, ABuild) {
		for cell := 1; cell < NumCells; cell++ {
			if s.canBuild(seat, cell) {
				out = append(out, choice(engine.Action{Type: ABuild, Cell: cell}, false))
			}
		}
	}
	out = s.appendRaise(out, seat, only)
	if wants(only, ARedeem) {
		for cell := 1; cell < NumCells; cell++ {
			if int(s.Owner[cell]) == seat && s.Mort[cell] >= 0 && p.Cash >= redeemCost(cell) {
				out = append(out, choice(engine.Action{Type: ARedeem, Cell: cell}, false))
			}
		}
	}
	if s.Offers >= MaxOffersPerTurn || !s.canPropose(seat) {
		return out
	}
	return s.appendOffers(out, seat, only)
}

// appendOffers lists the deals seat may propose of lots (B-4, B-6, B-9,
// B-26): sell one of its own, buy a rival's, swap one for one.
func (s *State) appendOffers(out []engine.Choice, seat int, only string) []engine.Choice {
	p := &s.Players[seat]
	if wants(only, AOfferSell) {
		for cell := 1; cell < NumCells; cell++ {
			if int(s.Owner[cell]) != seat || !s.tradable(cell) {
				continue
			}
			for t := range s.Players {
				if t != seat && s.active(t) && s.Players[t].Cash >= priceStep {
					out = append(out, ranged(engine.Action{Type: AOfferSell, Cell: cell, Target: t}, priceStep, floorStep(s.Players[t].Cash), priceStep))
				}
			}
		}
	}
	if wants(only, AOfferBuy) && p.Cash >= priceStep {
		for cell := 1; cell < NumCells; cell++ {
			o := int(s.Owner[cell])
			if o >= 0 && o != seat && s.tradable(cell) {
				out = append(out, ranged(engine.Action{Type: AOfferBuy, Cell: cell, Target: o}, priceStep, floorStep(p.Cash), priceStep))
			}
		}
	}
	if wants(only, AOfferSwap) {
		for mine := 1; mine < NumCells; mine++ {
			if int(s.Owner[mine]) != seat || !s.tradable(mine) {
				continue
			}
			for theirs := 1; theirs < NumCells; theirs++ {
				o := int(s.Owner[theirs])
				if o >= 0 && o != seat && s.tradable(theirs) {
					out = append(out, choice(engine.Action{Type: AOfferSwap, Cell: mine, Target: o, Amount: int64(theirs)}, false))
				}
			}
		}
	}
	return out
}

func mortgageValue(cell int) int64 { return Board[cell].Price * MortgagePct / 100 }
func redeemCost(cell int) int64    { return Board[cell].Price * RedeemPct / 100 }
func bankBuyPrice(cell int) int64  { return Board[cell].Price * BankBuyPct / 100 }
func buildingSale(cell int, level uint8) int64 {
	return buildCost(cell, level-1) * BuildingSalePct / 100
}

// check says why seat may not take a now, or nil.
func (s *State) check(seat engine.Seat, a engine.Action) error { return engine.Check(s, seat, a) }

// Allows is allowed for engine.Machine.
func (s *State) Allows(seat engine.Seat, a engine.Action) bool { return s.allowed(seat, a) }

// allowed tells whether the seat that owes a decision may take a: whether
// a choice of Legal admits it. Only the choices of a's type are listed.
func (s *State) allowed(seat engine.Seat, a engine.Action) bool {
	if engine.IsAnswer(a) {
		return s.Phase != PhOver && s.Deals.Answerable(seat, a)
	}
	if a.Type == "" || s.Phase == PhOver || s.owing() != seat {
		return false
	}
	switch a.Type { // the commonest, without listing (TestCheckAgreesWithLegal)
	case APlayCard:
		return s.cardAllowed(seat, a)
	case ARoll:
		return s.Phase == PhRoll && a == engine.Action{Type: ARoll}
	case AEnd:
		return s.Phase == PhAct && a == engine.Action{Type: AEnd} && !s.mustPlay(seat)
	}
	var buf [48]engine.Choice // lists of one type are short; a longer one spills to the heap
	return engine.Find(s.appendChoices(buf[:0], seat, a.Type), a) >= 0
}

// cardAllowed is allowed for play_card without listing the hand's every
// colour: the same conditions as appendExchange (TestCheckAgreesWithLegal).
func (s *State) cardAllowed(seat int, a engine.Action) bool {
	if s.Phase != PhAct || !s.Exch || s.Used&usedCard != 0 || a.Target != 0 ||
		a.Cell < 0 || a.Cell >= len(XCards) || !s.Players[seat].holds(a.Cell) {
		return false
	}
	k := ColourIndex(a.Good)
	if k < 0 {
		return false
	}
	if XCards[a.Cell].Kind == XTwo {
		if a.Amount != 2 && a.Amount != -2 {
			return false
		}
	} else if a.Amount != 0 {
		return false
	}
	return s.cardAffordable(seat, a.Cell, k, a.Amount)
}

// MaxOpenDeals bounds the deals one seat may have open as their proposer
// (filled-in): past it, it proposes nothing until one is answered.
const MaxOpenDeals = 3

// canPropose tells whether seat may open another deal as its proposer.
func (s *State) canPropose(seat int) bool {
	return !s.Rules.OpenDeals || s.Deals.Count(func(d engine.Deal) bool { return d.From == seat }) < MaxOpenDeals
}
