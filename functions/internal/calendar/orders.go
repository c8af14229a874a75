package calendar

import (
	"context"
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// sensibleOrders is how the simulated people set their standing orders
// once the game has started: as a careful player would, at the values
// each game's specs call sensible. Those never answer another player's
// deal or offer and never risk more than a fifth of the seat's cash
// (engine.OrderSpec), so such decisions still wait for the person.
func sensibleOrders(ctx context.Context, svc *service.Service, gameID string, invite int) error {
	rec, _, err := svc.Load(ctx, gameID)
	if err != nil {
		return err
	}
	specs, err := svc.OrderSpecs(rec)
	if err != nil {
		return fmt.Errorf("order specs of game %s: %w", gameID, err)
	}
	return svc.SetOrders(ctx, gameID, invite, engine.SensibleOrders(specs))
}

// DefaultConfig is the simulation the table and the lengths data are made
// with: the default model, the default cap, sensible standing orders.
// Without orders (the -no-orders flag) it measures the service as it was
// before standing orders, for comparison.
func DefaultConfig() Config {
	return Config{Model: DefaultModel(), MaxDays: DefaultMaxDays, SetOrders: sensibleOrders}
}
