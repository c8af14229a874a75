package race

import "github.com/pbmgames/pbm/engine"

// «Гонка» has no deals between seats; engine.State asks every game for
// them (engine.Dealing), so these say "none".

// OpenDeals lists the open deals: none.
func (s *State) OpenDeals() []engine.Deal { return nil }

// DealAnswer answers no deal: there are none.
func (s *State) DealAnswer(engine.Deal, engine.Orders, bool) (engine.Action, bool) {
	return engine.Action{}, false
}

// Preparable lists the offers seat may prepare: none.
func (s *State) Preparable(engine.Seat) []engine.Choice { return nil }

// BotOffer is the offer a bot would prepare: none.
func (s *State) BotOffer(engine.Seat) (engine.Action, bool) { return engine.Action{}, false }
