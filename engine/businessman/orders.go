package businessman

import "github.com/pbmgames/pbm/engine"

// Standing orders of «Бизнесмен»: the routine decisions a player may
// delegate. Names beyond the shared ones (engine.Order*) are this game's.
const (
	OrderBuild        = "build"             // build where I may, before rolling, keeping keep_cash (B-7)
	OrderClaim        = "claim"             // claim the rent owed me (B-8)
	OrderTakeGift     = "take_gift"         // gift shares: the colour I hold most of (B-10, B-24)
	OrderRoulette     = "roulette"          // spin to the first exit while the worst spin is within spend_pct, then leave (B-23)
	OrderCustoms      = "customs"           // customs sells the shares the rules' default picks (B-22)
	OrderOfferAccept  = "offer_accept_pct"  // accept an offer for my lot of at least this % of its price (B-4)
	OrderOfferDecline = "offer_decline_pct" // decline an offer for my lot below this % of its price
)

// maxPrice bounds the amounts of price orders: far above any price.
const maxPrice = 100_000_000

var orderSpecs = []engine.OrderSpec{
	{Name: engine.OrderRoll, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: OrderBuild, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: engine.OrderBuyBelow, Kind: engine.OrderAmount, Min: 0, Max: maxPrice, Sensible: 60_000},
	{Name: engine.OrderKeepCash, Kind: engine.OrderAmount, Min: 0, Max: maxPrice, Sensible: 40_000},
	{Name: engine.OrderSpendPct, Kind: engine.OrderAmount, Min: 0, Max: 100, Sensible: 20},
	{Name: OrderClaim, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: OrderTakeGift, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: OrderRoulette, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: OrderCustoms, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: OrderOfferAccept, Kind: engine.OrderAmount, Min: 0, Max: 1000},
	{Name: OrderOfferDecline, Kind: engine.OrderAmount, Min: 0, Max: 1000},
	{Name: engine.OrderSkip, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: engine.OrderEndTurn, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
}

// OrderSpecs lists the standing orders «Бизнесмен» takes.
func (s *State) OrderSpecs() []engine.OrderSpec { return orderSpecs }

// PickByOrders is the action seat's standing orders pick among legal
// (engine.ByOrders).
func (s *State) PickByOrders(seat engine.Seat, o engine.Orders, legal []engine.Choice) (engine.Action, bool) {
	p := &s.Players[seat]
	switch s.Phase {
	case PhRoll:
		if o.On(OrderBuild) {
			for _, c := range legal {
				if c.Type == ABuild && s.affordable(seat, o, buildCost(c.Cell, s.Level[c.Cell])+s.surcharge(seat)) {
					return c.Action, true
				}
			}
		}
		return engine.Action{Type: ARoll}, o.On(engine.OrderRoll)
	case PhClaim:
		return engine.Action{Type: AClaim, Cell: s.Claim.Cell, Target: s.Claim.Payer}, o.On(OrderClaim)
	case PhChoose:
		if !o.On(OrderTakeGift) {
			return engine.Action{}, false
		}
		best := 0
		for k := range p.Shares {
			if p.Shares[k] > p.Shares[best] {
				best = k
			}
		}
		return engine.Action{Type: ATake, Good: Groups[best].Key, Amount: s.Gift}, true // the whole gift
	case PhRoulette:
		if !o.On(OrderRoulette) {
			return engine.Action{}, false
		}
		for _, c := range legal {
			if c.Type == ALeave {
				return c.Action, true
			}
		}
		// A spin may land on a loss (B-23): the orders spin only while
		// the worst a spin can take is within what they may spend.
		return engine.Action{Type: ASpin}, worstSpin(s.RoulPos) <= engine.SpendCap(o, p.Cash)
	case PhCustoms:
		return s.customsDefault(seat), o.On(OrderCustoms)
	case PhOffer:
		// Only offers to buy one of my lots: the others are deals a
		// player weighs in person.
		if s.Offer.Kind != AOfferBuy || !isProperty(s.Offer.Cell) {
			return engine.Action{}, false
		}
		pct := s.Offer.Price * 100 / Board[s.Offer.Cell].Price
		if q := o[OrderOfferAccept]; q > 0 && pct >= q {
			return engine.Action{Type: AAccept}, true
		}
		if d := o[OrderOfferDecline]; d > 0 && pct < d {
			return engine.Action{Type: ADecline}, true
		}
	case PhAct:
		return s.actByOrders(seat, o, legal)
	}
	// PhDebt: raising cash is always the player's.
	return engine.Action{}, false
}

// affordable tells whether the orders may spend cost: within spend_pct of
// cash, leaving keep_cash.
func (s *State) affordable(seat int, o engine.Orders, cost int64) bool {
	cash := s.Players[seat].Cash
	return cost <= engine.SpendCap(o, cash) && cash-cost >= o[engine.OrderKeepCash]
}

// actByOrders buys the lot stopped on when the orders say so; when they
// answer everything the cell offers, it ends the turn. What a seat may do
// at any moment of its turn (build, mortgage, deals) never blocks it.
func (s *State) actByOrders(seat int, o engine.Orders, legal []engine.Choice) (engine.Action, bool) {
	cash := s.Players[seat].Cash
	covered := true
	for _, c := range legal {
		switch c.Type {
		case AEnd, AResign, ABuild, ASellBuilding, AMortgage, ARedeem, ASellBank, AOfferSell, AOfferBuy, AOfferSwap, AHold:
		case ABuy:
			price := Board[c.Cell].Price
			cost := price + s.surcharge(seat)
			if abroad(c.Cell) {
				cost = price + AbroadSurcharge
			}
			a, ok, blocks := engine.BuyByOrders(o, legal, c, engine.Action{Type: AHold, Cell: c.Cell}, price, cost, cash)
			if ok {
				return a, true
			}
			covered = covered && !blocks
		default: // the broker, the highway, customs, the hotel, passes, the exchange
			if !o.On(engine.OrderSkip) {
				covered = false
			}
		}
	}
	return engine.Action{Type: AEnd}, covered && o.On(engine.OrderEndTurn)
}

// worstSpin is the most one spin of the roulette can take from a player
// standing at ring position pos: the largest loss two dice can reach.
func worstSpin(pos int) int64 {
	var worst int64
	for sum := 2; sum <= 12; sum++ {
		if c := &Board[RouletteIn+(pos+sum)%RouletteLen]; c.Kind == KRouletteMoney && -c.Amount > worst {
			worst = -c.Amount
		}
	}
	return worst
}
