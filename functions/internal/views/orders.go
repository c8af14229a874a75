package views

import (
	"fmt"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// OrdersSummary says in a line what a seat's standing orders play for it
// (SPEC §1.7: said in the invitation, the accept answer, the first turn
// mail and near the top of the seat page), in the order the game lists
// them, with their amounts in the game's money; or, with none, that every
// decision is mailed. An order whose amount is 0 plays nothing (credit
// up to 0, accept offers from 0 %) and is left out.
func OrdersSummary(l string, pr present.Game, specs []engine.OrderSpec, o engine.Orders) string {
	if len(o) == 0 {
		return templates.T(l, "orders_none")
	}
	var parts []string
	for _, s := range specs {
		v, set := o[s.Name]
		if !set || v == 0 {
			continue
		}
		phrase := pr.Text(l, "order_short_"+s.Name)
		switch {
		case s.Kind == engine.OrderFlag:
			parts = append(parts, phrase)
		case strings.HasSuffix(s.Name, "_pct"):
			parts = append(parts, fmt.Sprintf(phrase, v))
		default:
			parts = append(parts, fmt.Sprintf(phrase, pr.Money(l, v)))
		}
	}
	if len(parts) == 0 {
		return templates.T(l, "orders_none")
	}
	// What is left to the player is the game's to say (its texts'
	// orders_rest: «чужие предложения и крупные траты»).
	rest := pr.Text(l, "orders_rest")
	if rest == "orders_rest" {
		rest = templates.T(l, "orders_rest_any")
	}
	return fmt.Sprintf(templates.T(l, "orders_summary"), strings.Join(parts, ", ")) + " " + rest
}
