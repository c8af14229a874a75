package calendar

import (
	"context"

	"github.com/pbmgames/pbm/functions/internal/service"
)

// sensibleOrders is how the simulated people set their standing orders,
// once the game has started: as a sensible player would. nil until the
// service takes standing orders; then, for each seat, it is
//
//	g, _ := svc.Engine(rec) // the started game
//	svc.SetOrders(ctx, gameID, invite, engine.SensibleOrders(g.(engine.Standing).OrderSpecs()))
//
// The command, the lengths data and its test all use it through
// DefaultConfig.
var sensibleOrders func(ctx context.Context, svc *service.Service, gameID string, invite int) error

// DefaultConfig is the simulation the table and the lengths data are made
// with: the default model, the default cap, sensible standing orders.
func DefaultConfig() Config {
	return Config{Model: DefaultModel(), MaxDays: DefaultMaxDays, SetOrders: sensibleOrders}
}
