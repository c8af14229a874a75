package engine

import (
	"fmt"
	"slices"
)

// OrderSpec is one standing order a game proposes: a routine decision a
// player may delegate (roll at once, buy cheap lots, claim rent…).
type OrderSpec struct {
	Name     string `json:"name"` // stable key, e.g. "roll", "buy_below", "keep_cash"
	Kind     string `json:"kind"` // OrderFlag (0/1) or OrderAmount
	Min      int64  `json:"min"`
	Max      int64  `json:"max"`
	Sensible int64  `json:"sensible"` // the value a careful person would set (0 = off)
	// Sells tells an order that sells what the player holds (goods,
	// holdings): people who keep sales for themselves leave it unset.
	Sells bool `json:"sells,omitempty"`
}

// Kinds of OrderSpec.
const (
	OrderFlag   = "flag"
	OrderAmount = "amount"
)

// Orders are one seat's standing orders: name -> value; a missing name is
// "not set", and a seat with no orders is asked every decision.
type Orders map[string]int64

// On tells whether the flag name is set.
func (o Orders) On(name string) bool { return o[name] != 0 }

// Has tells whether name is set at all.
func (o Orders) Has(name string) bool {
	_, ok := o[name]
	return ok
}

// Standing is implemented by games that take standing orders.
type Standing interface {
	OrderSpecs() []OrderSpec
	// ByOrders is the action seat's orders play now, if they cover its
	// current decision; always legal when ok.
	ByOrders(seat Seat, o Orders) (a Action, ok bool)
}

// SensibleOrders returns the Sensible value of every spec (helper for
// careful players and the simulator). An amount of 0 is set, and means
// what 0 says (never borrow, no threshold); games read a 0 flag as off.
func SensibleOrders(specs []OrderSpec) Orders {
	o := Orders{}
	for _, s := range specs {
		o[s.Name] = s.Sensible
	}
	return o
}

// CheckOrders refuses orders the specs do not propose, or values out of
// their range; a flag is 0 or 1.
func CheckOrders(specs []OrderSpec, o Orders) error {
	for name, v := range o {
		i := slices.IndexFunc(specs, func(s OrderSpec) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("%w: no standing order %q", ErrBadOptions, name)
		}
		s := specs[i]
		lo, hi := s.Min, s.Max
		if s.Kind == OrderFlag {
			lo, hi = 0, 1
		}
		if v < lo || v > hi {
			return fmt.Errorf("%w: standing order %s must be %d to %d, got %d", ErrBadOptions, name, lo, hi, v)
		}
	}
	return nil
}

// Picker is a game's state that takes standing orders (ByOrders).
type Picker interface {
	Legal(seat Seat) []Choice
	// PickByOrders is the action o picks among legal, seat's legal
	// actions (never none), if they cover its current decision.
	PickByOrders(seat Seat, o Orders, legal []Choice) (Action, bool)
}

// ByOrders is the action seat's standing orders play now in s, if they
// cover its current decision: s picks among seat's legal actions, and
// only one of them is played, so an order is always legal.
func ByOrders(s Picker, seat Seat, o Orders) (Action, bool) {
	legal := s.Legal(seat)
	if len(legal) == 0 || len(o) == 0 {
		return Action{}, false
	}
	a, ok := s.PickByOrders(seat, o, legal)
	return Checked(legal, a, ok)
}

// Checked returns a and ok only when a is one of legal: ByOrders of every
// game ends with it, so an order never plays a move the engine would refuse.
func Checked(legal []Choice, a Action, ok bool) (Action, bool) {
	if !ok || Find(legal, a) < 0 {
		return Action{}, false
	}
	return a, true
}

// BuyByOrders is what standing orders o make of the purchase c, among
// legal, of a lot at price, cost in all with its surcharges, out of cash:
// played (a, true) when they buy it — within buy_below, spend_pct and
// keep_cash — or when it is too big for orders (no buy_below, or beyond
// spend_pct) and they end the turn: then it is kept for the player to
// decide later (hold, when legal: rules 3) while the turn goes on. Too big
// and not kept, the purchase is the player's: blocks is true, and the
// orders do not end the turn.
func BuyByOrders(o Orders, legal []Choice, c Choice, hold Action, price, cost, cash int64) (a Action, ok, blocks bool) {
	switch {
	case !o.Has(OrderBuyBelow) || cost > SpendCap(o, cash):
		if o.On(OrderEndTurn) && Find(legal, hold) >= 0 {
			return hold, true, false
		}
		return Action{}, false, true
	case price <= o[OrderBuyBelow] && cash-cost >= o[OrderKeepCash]:
		return c.Action, true, false
	}
	return Action{}, false, false
}

// SpendCap is the most the orders may spend in one decision out of cash:
// pct percent of it when the "spend_pct" order is set, all of it when not.
func SpendCap(o Orders, cash int64) int64 {
	pct, ok := o[OrderSpendPct]
	if !ok {
		return cash
	}
	return cash * pct / 100
}

// Names of orders several games share, so that pages and the simulator
// can speak of them alike.
const (
	OrderRoll     = "roll"      // roll at once when the turn starts
	OrderEndTurn  = "end_turn"  // end the turn when nothing else is left that the orders do not answer
	OrderBuyBelow = "buy_below" // buy the lot I stop on when its price is at most this
	OrderKeepCash = "keep_cash" // … and I keep at least this much cash
	OrderSpendPct = "spend_pct" // orders never spend more than this percent of cash at once
	OrderSkip     = "skip_extras"
)
