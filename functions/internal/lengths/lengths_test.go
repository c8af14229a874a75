package lengths

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"go/format"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

func TestVariant(t *testing.T) {
	for _, c := range []struct {
		kind, opts, want string
		bad              bool
	}{
		{"western", ``, "", false},
		{"western", `{"laps":3}`, "", false},
		{"western", `{"laps":3,"beginners":false}`, "", false},
		{"western", `{"beginners":true}`, `{"beginners":true}`, false},
		{"businessman", `{"rent_claim":"auto","laps":7}`, "", false},
		{"businessman", `{"rent_claim":"claim"}`, `{"rent_claim":"claim"}`, false},
		{"chess", ``, "", true},
		{"western", `{"laps":`, "", true},
	} {
		got, err := Variant(testGames.Engines(), c.kind, json.RawMessage(c.opts))
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("Variant(%s, %s) = %q, %v; want %q (error %v)", c.kind, c.opts, got, err, c.want, c.bad)
		}
	}
}

// TestInterpolate: deadlines between those simulated are interpolated
// linearly; outside them the nearest is taken.
func TestInterpolate(t *testing.T) {
	at := []Point{{DeadlineHours: 12, Days: 10, DaysP90: 12, TurnsEach: 20}, {DeadlineHours: 72, Days: 16, DaysP90: 24, TurnsEach: 20}, {DeadlineHours: 336, Days: 60, DaysP90: 80, TurnsEach: 21}}
	for _, c := range []struct {
		h    int
		days float64
	}{{1, 10}, {12, 10}, {42, 13}, {72, 16}, {204, 38}, {336, 60}, {720, 60}} {
		if got := interpolate(at, c.h); got.Days != c.days {
			t.Errorf("%d h: %v days, want %v", c.h, got.Days, c.days)
		}
	}
}

// TestFor: the lengths kept are offered shortest first, longer ones take
// more turns, and the words carry the figures in both languages; Figures
// gives the same figures without the words.
func TestFor(t *testing.T) {
	d, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	for kind, laps := range d.Laps {
		est, err := For(testGames.Engines(), kind, nil, 4, 72)
		if err != nil {
			t.Fatal(err)
		}
		if len(est) != len(laps) {
			t.Fatalf("%s at 4 seats: %d lengths, want %d", kind, len(est), len(laps))
		}
		for i, e := range est {
			if e.Laps != laps[i] || e.Days < 1 || e.DaysP90 < e.Days {
				t.Errorf("%s: estimate %d: %+v", kind, i, e)
			}
			if i > 0 && e.TurnsEach <= est[i-1].TurnsEach {
				t.Errorf("%s: %d laps take %d turns each, %d laps %d", kind, e.Laps, e.TurnsEach, est[i-1].Laps, est[i-1].TurnsEach)
			}
			for _, text := range []string{e.RU, e.EN} {
				if !says(text, e.TurnsEach) || !says(text, e.Days) {
					t.Errorf("%s %d laps: %q does not say %d turns and %d days", kind, e.Laps, text, e.TurnsEach, e.Days)
				}
			}
		}
		figures, err := Figures(testGames.Engines(), kind, nil, 4, 72)
		if err != nil {
			t.Fatal(err)
		}
		for i := range est {
			est[i].RU, est[i].EN = "", ""
		}
		if !slices.Equal(figures, est) {
			t.Errorf("%s: Figures %v, For less its words %v", kind, figures, est)
		}
		if est, err := For(testGames.Engines(), kind, json.RawMessage(`{"laps":3,"no_such_option":1}`), 4, 72); err != nil || len(est) != 0 {
			t.Errorf("%s with an unknown variant: %v, %v; want none", kind, est, err)
		}
	}
}

//go:embed lengths.json
var raw []byte

// TestGenerated: the figures compiled in (lengths_gen.go) are
// lengths.json's, written as Source writes them: after a new
// lengths.json (make lengths, a merge), `go generate
// ./functions/internal/lengths` writes them again.
func TestGenerated(t *testing.T) {
	d, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d, generated) {
		t.Errorf("lengths_gen.go does not hold lengths.json's figures: run go generate ./functions/internal/lengths")
	}
	want, err := format.Source(Source(d))
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("lengths_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Errorf("lengths_gen.go is not as Source writes it from lengths.json: run go generate ./functions/internal/lengths")
	}
}

// TestMarshal: the file as the simulator writes it reads back the same.
func TestMarshal(t *testing.T) {
	d, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, raw) {
		t.Errorf("lengths.json is not as Marshal writes it: regenerate it rather than edit it")
	}
}

// says tells whether text holds the number n as a word.
func says(text string, n int) bool {
	return regexp.MustCompile(`\b` + strconv.Itoa(n) + `\b`).MatchString(text)
}

// TestDefaultLengthFitsTwoWeeks (issue 13): the length a game by mail gets
// unless its organiser chooses another fits in two weeks at 4 seats and
// the default deadline, by the simulator's figures: the median within 14
// days, the 90th percentile within 21. (The figures are rounded up.)
func TestDefaultLengthFitsTwoWeeks(t *testing.T) {
	for _, info := range testGames.Engines().List() {
		var def struct{ Laps int }
		if err := json.Unmarshal(info.Defaults(), &def); err != nil {
			t.Fatal(err)
		}
		est, err := For(testGames.Engines(), info.Kind, nil, 4, 72)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(est, func(e Estimate) bool { return e.Laps == def.Laps })
		if i < 0 {
			t.Fatalf("%s: no estimate for its default of %d laps", info.Kind, def.Laps)
		}
		if e := est[i]; e.Days > 14 || e.DaysP90 > 21 {
			t.Errorf("%s, %d laps by default: median %d days, 90th percentile %d: longer than two weeks", info.Kind, def.Laps, e.Days, e.DaysP90)
		}
	}
}

// TestEstimatesRiseWithLength (issue 23): a longer game never shows as
// shorter — for every game, seat count and deadline (simulated or
// interpolated), the median days, the 90th percentile and the turns each
// player plays do not fall as the laps rise. (The simulator plays the same
// seeds at every length, so a longer game is the shorter one carried on.)
func TestEstimatesRiseWithLength(t *testing.T) {
	for _, info := range testGames.Engines().List() {
		for seats := info.MinSeats; seats <= info.MaxSeats; seats++ {
			for _, h := range []int{12, 24, 72, 168, 336} {
				est, err := For(testGames.Engines(), info.Kind, nil, seats, h)
				if err != nil {
					t.Fatal(err)
				}
				for i := 1; i < len(est); i++ {
					a, b := est[i-1], est[i]
					if b.Days < a.Days || b.DaysP90 < a.DaysP90 || b.TurnsEach < a.TurnsEach {
						t.Errorf("%s, %d seats, %d h: %d laps %d days (90%%: %d), %d turns each; %d laps %d days (90%%: %d), %d turns each",
							info.Kind, seats, h, a.Laps, a.Days, a.DaysP90, a.TurnsEach, b.Laps, b.Days, b.DaysP90, b.TurnsEach)
					}
				}
			}
		}
	}
}
