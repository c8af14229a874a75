package race

import "github.com/pbmgames/pbm/engine"

// Standing orders of «Гонка»: one, the shared "roll at once".
var orderSpecs = []engine.OrderSpec{
	{Name: engine.OrderRoll, Kind: engine.OrderFlag, Max: 1, Sensible: 1},
}

// OrderSpecs lists the standing orders «Гонка» takes.
func (s *State) OrderSpecs() []engine.OrderSpec { return orderSpecs }

// PickByOrders is the action seat's standing orders pick (engine.ByOrders):
// a roll, when the order roll is set.
func (s *State) PickByOrders(_ engine.Seat, o engine.Orders, _ []engine.Choice) (engine.Action, bool) {
	return engine.Action{Type: ARoll}, o.On(engine.OrderRoll)
}
