package views_test

import (
	"testing"

	"github.com/pbmgames/pbm/functions/internal/grammar"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
)

// TestSaidToTheReader (issue 27): what a page or mail says to a player
// about their own seat speaks to them (grammar.Addressed): their absence
// («Вы в отъезде, пока не вернётесь»), and every control about their
// seat, in both languages, for any name.
func TestSaidToTheReader(t *testing.T) {
	for _, name := range []string{"Анна", "Егор", "Alice"} {
		rec := &service.Record{Seats: []service.SeatInfo{{Person: service.Person{Name: "Org"}}, {Person: service.Person{Name: name}}, {Person: service.Person{Name: "Sub"}}}}
		for _, l := range []string{"ru", "en"} {
			you := map[string]string{"ru": "Вы", "en": "You are"}[l]
			for _, until := range []int64{0, 1_800_000_000} {
				if p := grammar.Addressed(you+" "+views.MyAwayText(l, until)+".", name); len(p) > 0 {
					t.Errorf("%s: %v", views.MyAwayText(l, until), p)
				}
			}
			for _, what := range service.Controls {
				for _, by := range []string{"", service.ByPlayer} {
					c := service.Control{What: what, Seat: 1, By: by, To: 2, Hours: 2, Secs: 7200}
					text := views.ControlTextFor(l, rec, c, 1)
					for _, p := range append(grammar.Addressed(text, name), grammar.Problems(text, true, name)...) {
						t.Errorf("%s to %s (%s): %q: %s", what, name, l, text, p)
					}
				}
			}
		}
	}
}
