package western

import "github.com/pbmgames/pbm/engine"

// Standing orders of «Вестерн»: the routine decisions a player may
// delegate. Names beyond the shared ones (engine.Order*) are this game's.
const (
	OrderForkMain     = "fork_main"       // take the main road at a fork (W-4)
	OrderSellGoods    = "sell_goods"      // sell every good and narcotic a market takes (W-15, W-16, W-21)
	OrderSpecPct      = "spec_pct"        // sell at a speculation cell when it pays at least this % of a share's value (W-17)
	OrderBank         = "bank"            // at the bank: repay credit in full within the limits, withdraw up to keep_cash (W-11)
	OrderCreditUpTo   = "credit_upto"     // … and take credit up to this total when below keep_cash
	OrderSurrender    = "surrender_below" // a raid: give up loot below this (and within spend_pct), else prison (W-24)
	OrderOfferAccept  = "offer_accept"    // accept a W-18 offer of at least this price
	OrderOfferDecline = "offer_decline"   // decline a W-18 offer below this price
	OrderBidUpTo      = "bid_upto"        // bid up to this in an auction (W-19), else pass
)

// maxPrice bounds the amounts of price orders: far above any price.
const maxPrice = 10_000_000

var orderSpecs = []engine.OrderSpec{
	{Name: engine.OrderRoll, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: OrderForkMain, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: engine.OrderBuyBelow, Kind: engine.OrderAmount, Min: 0, Max: maxPrice, Sensible: 10_000},
	{Name: engine.OrderKeepCash, Kind: engine.OrderAmount, Min: 0, Max: maxPrice, Sensible: 10_000},
	{Name: engine.OrderSpendPct, Kind: engine.OrderAmount, Min: 0, Max: 100, Sensible: 20},
	{Name: OrderSellGoods, Kind: engine.OrderFlag, Max: 1, Sensible: 1, Sells: true},
	{Name: OrderSpecPct, Kind: engine.OrderAmount, Min: 0, Max: 1000, Sensible: 300, Sells: true},
	{Name: OrderBank, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: OrderCreditUpTo, Kind: engine.OrderAmount, Min: 0, Max: CreditPerLap, Sensible: 0},
	{Name: OrderSurrender, Kind: engine.OrderAmount, Min: 0, Max: maxPrice, Sensible: 5_000},
	{Name: OrderOfferAccept, Kind: engine.OrderAmount, Min: 0, Max: maxPrice},
	{Name: OrderOfferDecline, Kind: engine.OrderAmount, Min: 0, Max: maxPrice},
	{Name: OrderBidUpTo, Kind: engine.OrderAmount, Min: 0, Max: maxPrice, Sensible: 10_000},
	{Name: engine.OrderSkip, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
	{Name: engine.OrderEndTurn, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
}

// OrderSpecs lists the standing orders «Вестерн» takes.
func (s *State) OrderSpecs() []engine.OrderSpec { return orderSpecs }

// PickByOrders is the action seat's standing orders pick among legal
// (engine.ByOrders).
func (s *State) PickByOrders(seat engine.Seat, o engine.Orders, legal []engine.Choice) (engine.Action, bool) {
	p := &s.Players[seat]
	switch s.Phase {
	case PhRoll:
		return engine.Action{Type: ARoll}, o.On(engine.OrderRoll)
	case PhFork:
		if !o.On(OrderForkMain) {
			return engine.Action{}, false
		}
		for _, c := range legal {
			if c.Type == AFork {
				return c.Action, true
			}
		}
	case PhRaid:
		if !o.Has(OrderSurrender) {
			return engine.Action{}, false
		}
		// Giving up the loot costs cash (W-24): never more than the
		// orders may spend at once; prison costs turns, not money.
		if loot := min(p.Loot, p.Cash); p.Loot < o[OrderSurrender] && loot <= engine.SpendCap(o, p.Cash) {
			return engine.Action{Type: ASurrender}, true
		}
		return engine.Action{Type: APrison}, true
	case PhOffer:
		price := s.Offer.Price
		if q := o[OrderOfferAccept]; q > 0 && price >= q {
			return engine.Action{Type: AAccept}, true
		}
		if d := o[OrderOfferDecline]; d > 0 && price < d {
			return engine.Action{Type: ADecline}, true
		}
	case PhAuction:
		if !o.Has(OrderBidUpTo) {
			return engine.Action{}, false
		}
		bid := min(o[OrderBidUpTo], p.Cash-o[engine.OrderKeepCash], engine.SpendCap(o, p.Cash))
		if bid >= s.Auction.Min && bid > 0 {
			return engine.Action{Type: ABid, Cell: s.Auction.Cell, Amount: bid}, true
		}
		return engine.Action{Type: APass}, true
	case PhAct:
		return s.actByOrders(seat, o, legal)
	}
	return engine.Action{}, false
}

// actByOrders plays the first cell action the orders take; when they take
// none and answer every other one (by declining it), it ends the turn.
// Sales to the bank at par (W-7) are never an order's, and never block it.
func (s *State) actByOrders(seat int, o engine.Orders, legal []engine.Choice) (engine.Action, bool) {
	p := &s.Players[seat]
	covered := true
	for _, c := range legal {
		switch c.Type {
		case AEnd, ASell, AResign, AHold:
		case ABuy:
			price := Board[c.Cell].Price
			a, ok, blocks := engine.BuyByOrders(o, legal, c, engine.Action{Type: AHold, Cell: c.Cell}, price, price, p.Cash)
			if ok {
				return a, true
			}
			covered = covered && !blocks
		case ASellGood, ANarcoSell:
			if !o.On(OrderSellGoods) {
				covered = false
				continue
			}
			return engine.Action{Type: c.Type, Good: c.Good, Amount: c.Max}, true
		case ASpecSell:
			if !o.Has(OrderSpecPct) {
				covered = false
				continue
			}
			if int64(Board[p.Cell].Mult)*50 >= o[OrderSpecPct] {
				return c.Action, true
			}
		case ACredit, ADeposit, AWithdraw, ARepay, ARepayLoan:
			if !o.On(OrderBank) {
				covered = false
				continue
			}
			if a, ok := bankByOrders(p, o, c); ok {
				return a, true
			}
		default: // the newspaper, exchange offers, narcotics, bribes, the colony loan, trinkets
			if !o.On(engine.OrderSkip) {
				covered = false
			}
		}
	}
	return engine.Action{Type: AEnd}, covered && o.On(engine.OrderEndTurn)
}

// bankByOrders answers one bank choice: repay the credit in full when
// that fits the spending limit and keeps keep_cash (once: a repayment in
// parts would pass the limit over several steps), withdraw the deposit up
// to keep_cash, then borrow up to credit_upto in all. Each leaves cash at
// keep_cash or the choice used up, so they never undo one another.
func bankByOrders(p *Player, o engine.Orders, c engine.Choice) (engine.Action, bool) {
	keep := o[engine.OrderKeepCash]
	amount := int64(0)
	switch c.Type {
	case ARepay:
		if c.Max == p.Credit && p.Credit <= engine.SpendCap(o, p.Cash) && p.Cash-p.Credit >= keep {
			amount = p.Credit
		}
	case AWithdraw:
		amount = min(c.Max, keep-p.Cash)
	case ACredit:
		amount = min(c.Max, keep-p.Cash, o[OrderCreditUpTo]-p.Credit)
	}
	if amount < max(c.Min, 1) {
		return engine.Action{}, false
	}
	return engine.Action{Type: c.Type, Amount: amount}, true
}
