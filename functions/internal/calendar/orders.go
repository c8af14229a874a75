package calendar

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// Habit is what a simulated person does with their seat's standing orders
// when they accept their invitation.
type Habit int

const (
	// Untouched: they never open a setting; the service's default holds.
	Untouched Habit = iota
	// OrdersOff: they turn standing orders off; every decision is mailed.
	OrdersOff
	// Suggested: they set their game's suggested orders (the orders
	// page's "fill in sensible orders").
	Suggested
	// Careful: the suggested orders, but sales are theirs to make and the
	// orders spend at most carefulSpendPct of the cash at once.
	Careful
)

// carefulSpendPct is the most of their cash careful people let the orders
// spend at once.
const carefulSpendPct = 15

var habitNames = [...]string{"untouched", "off", "suggested", "careful"}

func (h Habit) String() string { return habitNames[h] }

// apply does what the habit does with the orders of the seat of
// invitation invite of game id.
func (h Habit) apply(ctx context.Context, svc *service.Service, id string, invite int) error {
	switch h {
	case OrdersOff:
		return svc.SetOrders(ctx, id, invite, engine.Orders{})
	case Suggested:
		return SetSuggestedOrders(ctx, svc, id, invite)
	case Careful:
		specs, err := specsOf(ctx, svc, id)
		if err != nil {
			return err
		}
		o := engine.SensibleOrders(specs)
		for _, spec := range specs {
			if spec.Sells {
				delete(o, spec.Name)
			}
		}
		o[engine.OrderSpendPct] = min(o[engine.OrderSpendPct], carefulSpendPct)
		return svc.SetOrders(ctx, id, invite, o)
	}
	return nil
}

// SetSuggestedOrders sets the suggested standing orders of the game of id
// (each spec's Sensible value) for the seat of invitation invite, as a
// player pressing "fill in sensible orders" does. The league simulation's
// members set theirs the same way.
func SetSuggestedOrders(ctx context.Context, svc *service.Service, id string, invite int) error {
	specs, err := specsOf(ctx, svc, id)
	if err != nil {
		return err
	}
	return svc.SetOrders(ctx, id, invite, engine.SensibleOrders(specs))
}

func specsOf(ctx context.Context, svc *service.Service, id string) ([]engine.OrderSpec, error) {
	rec, _, err := svc.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	specs, err := svc.OrderSpecs(rec)
	if err != nil {
		return nil, fmt.Errorf("order specs of game %s: %w", id, err)
	}
	return specs, nil
}

// Population is the habits of a table's people: person i has
// Habits[i % len(Habits)]; none, everyone is Untouched.
type Population struct {
	Name   string
	Habits []Habit
}

func (p Population) habit(person int) Habit {
	if len(p.Habits) == 0 {
		return Untouched
	}
	return p.Habits[person%len(p.Habits)]
}

// The populations the table compares.
var (
	// Untouching people never open a setting: what the service does by
	// default is what they get.
	Untouching = Population{Name: "nobody touches a setting"}
	// OneOff: one person of four turns standing orders off.
	OneOff = Population{Name: "one of four turns orders off", Habits: []Habit{OrdersOff, Untouched, Untouched, Untouched}}
	// CarefulPeople keep sales and large buys for themselves.
	CarefulPeople = Population{Name: "careful people", Habits: []Habit{Careful}}
	// NoOrders: everyone turns standing orders off.
	NoOrders = Population{Name: "nobody uses orders", Habits: []Habit{OrdersOff}}
	// AllSuggested: everyone sets the suggested orders by hand.
	AllSuggested = Population{Name: "everyone sets the suggested orders", Habits: []Habit{Suggested}}
	// OneUntouched: three set the suggested orders, one never opens a setting.
	OneUntouched = Population{Name: "three set the suggested orders, one touches nothing", Habits: []Habit{Untouched, Suggested, Suggested, Suggested}}
)

// Populations lists the named populations, by the name the command's
// -people flag takes.
var Populations = map[string]Population{
	"untouched":     Untouching,
	"one-off":       OneOff,
	"careful":       CarefulPeople,
	"no-orders":     NoOrders,
	"suggested":     AllSuggested,
	"one-untouched": OneUntouched,
}

// PopulationNames lists the -people flag's names.
func PopulationNames() string {
	var out []string
	for n := range Populations {
		out = append(out, n)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// DefaultConfig is the simulation the table and the lengths data are made
// with: the default model, the default cap, people who never touch a
// setting, playing the games gs.
func DefaultConfig(gs *present.Games) Config {
	return Config{Games: gs, Model: DefaultModel(), MaxDays: DefaultMaxDays, People: Untouching}
}
