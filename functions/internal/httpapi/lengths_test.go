package httpapi_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
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
	for _, info := range testGames.Engines().List() {
		for seats := info.MinSeats; seats <= info.MaxSeats; seats++ {
			est, err := lengths.For(testGames.Engines(), info.Kind, nil, seats, hours)
			if err != nil || len(est) == 0 {
				t.Fatalf("%s at %d seats: no estimates (%v)", info.Kind, seats, err)
			}
			for _, e := range est {
				cell := "<td>" + templates.Tf(l, "length_cell", e.Days, e.DaysP90, e.TurnsEach) + "</td>"
				if !strings.Contains(page, cell) {
					t.Errorf("%s, %d h: the create page does not offer %s %d laps at %d seats as %s", l, hours, info.Kind, e.Laps, seats, cell)
				}
			}
		}
	}
	// The page says what the figures assume of the players.
	d, err := lengths.Current()
	if err != nil {
		t.Fatal(err)
	}
	if assume := html.EscapeString(d.Assume.Text(l)); !strings.Contains(page, assume) {
		t.Errorf("%s, %d h: the create page does not say what its estimates assume (%s)", l, hours, assume)
	}
	if n := strings.Count(page, `<table class="lengths">`); n != len(testGames.Engines().List()) {
		t.Errorf("%s, %d h: %d tables of lengths, want one a game", l, hours, n)
	}
}

// TestLengthsAPIMedianAndTail: GET /api/lengths gives each length's
// median days and 90th percentile, words both in each language, and says
// what they assume of the players.
func TestLengthsAPIMedianAndTail(t *testing.T) {
	c, _ := newContract(t, openStore(t))
	var got httpapi.Lengths
	c.want(call{method: "GET", path: "/api/lengths?kind=businessman&seats=4"}, http.StatusOK, "", &got)
	if len(got.Lengths) == 0 {
		t.Fatalf("no lengths: %+v", got)
	}
	for _, e := range got.Lengths {
		if e.Days < 1 || e.DaysP90 < e.Days {
			t.Errorf("%d laps: median %d days, 90th percentile %d", e.Laps, e.Days, e.DaysP90)
		}
		for _, text := range []string{e.RU, e.EN} {
			if !strings.Contains(text, fmt.Sprint(e.Days)) || !strings.Contains(text, fmt.Sprint(e.DaysP90)) {
				t.Errorf("%d laps: %q does not give %d and %d days", e.Laps, text, e.Days, e.DaysP90)
			}
		}
	}
	d, err := lengths.Current()
	if err != nil {
		t.Fatal(err)
	}
	if got.AssumesRU != d.Assume.Text("ru") || got.AssumesEN != d.Assume.Text("en") || !strings.Contains(got.AssumesEN, "standing orders stay as suggested") {
		t.Errorf("assumes %q / %q", got.AssumesRU, got.AssumesEN)
	}
}
