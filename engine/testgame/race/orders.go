package race

import "github.com/pbmgames/pbm/engine"

// Standing orders of «Гонка»: one, the shared "roll at once".
var orderSpecs = []engine.OrderSpec{
	{Name: engine.OrderRoll, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
}

// OrderSpecs lists the standing orders «Гонка» takes.
func (s *State) OrderSpecs() []engine.OrderSpec { return orderSpecs }

// ByOrders is the action seat's standing orders play now (engine.ByOrders):
// a roll, when the order roll is set.
func (s *State) ByOrders(seat engine.Seat, o engine.Orders) (engine.Action, bool) {
	return engine.ByOrders(s.Legal(seat), o, func([]engine.Choice) (engine.Action, bool) {
		return engine.Action{Type: ARoll}, o.On(engine.OrderRoll)
	})
}
