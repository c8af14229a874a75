package views_test

import (
	"testing"

	"github.com/pbmgames/pbm/functions/internal/grammar"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
)

// TestControlTextAgrees: what the table is told of each control keeps the
// players' names in the nominative and agrees with none of them, in
// Russian; both languages say something of each.
func TestControlTextAgrees(t *testing.T) {
	names := []string{"Вера", "Борис"}
	rec := &service.Record{Seats: []service.SeatInfo{{Person: service.Person{Name: names[0]}}, {Person: service.Person{Name: names[1]}}}}
	for _, what := range append(service.Controls, service.ControlBack) {
		for _, by := range []string{"", service.ByPlayer} {
			c := service.Control{What: what, Seat: 0, To: 1, Hours: 3, By: by}
			ru, en := views.ControlText("ru", rec, c), views.ControlText("en", rec, c)
			if ru == "" || en == "" || ru == en {
				t.Errorf("%s: %q / %q", what, ru, en)
			}
			for _, pr := range grammar.Problems(ru, true, names...) {
				t.Errorf("%s %q: %s", what, ru, pr)
			}
		}
	}
}
