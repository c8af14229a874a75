package httpapi_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/lengths"
	"github.com/pbmgames/pbm/templates"
)

// TestCreatePageLengths: the create page offers every game's lengths with
// the simulator's estimate at each seat count, for the deadline chosen,
// in the reader's language.
func TestCreatePageLengths(t *testing.T) {
	c, _ := newContract(t, openStore(t))
	b := newBrowser(t, c.srv.URL)
	for _, l := range []string{"ru", "en"} {
		for _, hours := range []int{72, 24} {
			path := fmt.Sprintf("/?lang=%s", l)
			if hours != 72 {
				// The form shown again after an error keeps the deadline.
				code, page, _ := b.post("/games"+path[1:], url.Values{"kind": {"western"}, "deadline": {fmt.Sprint(hours)}})
				checkLengths(t, l, hours, code, 400, page)
				continue
			}
			code, page := b.get(path)
			checkLengths(t, l, hours, code, 200, page)
		}
	}
}

func checkLengths(t *testing.T, l string, hours, code, want int, page string) {
	t.Helper()
	if code != want {
		t.Fatalf("%s, %d h: status %d, want %d", l, hours, code, want)
	}
	for _, info := range games.List() {
		for seats := info.MinSeats; seats <= info.MaxSeats; seats++ {
			est, err := lengths.For(info.Kind, nil, seats, hours)
			if err != nil || len(est) == 0 {
				t.Fatalf("%s at %d seats: no estimates (%v)", info.Kind, seats, err)
			}
			for _, e := range est {
				cell := "<td>" + templates.Tf(l, "length_cell", e.Days, e.TurnsEach) + "</td>"
				if !strings.Contains(page, cell) {
					t.Errorf("%s, %d h: the create page does not offer %s %d laps at %d seats as %s", l, hours, info.Kind, e.Laps, seats, cell)
				}
			}
		}
	}
	if n := strings.Count(page, `<table class="lengths">`); n != len(games.List()) {
		t.Errorf("%s, %d h: %d tables of lengths, want one a game", l, hours, n)
	}
}
