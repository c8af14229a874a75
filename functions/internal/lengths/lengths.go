// Package lengths holds the calendar simulator's estimates of how long a
// game takes (SPEC §1.7): for each game, seat count, length in laps and
// deadline, the turns each player plays and the calendar days a game
// takes when everyone answers within a few hours. The create page and the
// API offer the lengths with these figures.
//
// The figures are data, written by the simulator
// (`go run ./functions/internal/calendar/cmd/calendar -write`) into
// lengths.json; a test in functions/internal/calendar plays a sample again
// and checks them.
package lengths

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/pbmgames/pbm/engine/games"
	_ "github.com/pbmgames/pbm/functions/internal/catalog" // registers the games
	"github.com/pbmgames/pbm/templates"
)

// Point is one simulated setup: the medians of its seeded games.
type Point struct {
	Kind string `json:"kind"`
	// Variant is the game's options other than the laps, where they
	// differ from the defaults, as canonical JSON ("" for the defaults).
	Variant       string  `json:"variant,omitempty"`
	Seats         int     `json:"seats"`
	Laps          int     `json:"laps"`
	DeadlineHours int     `json:"deadline_hours"`
	Games         int     `json:"games"`
	TurnsEach     float64 `json:"turns_each"`
	Days          float64 `json:"days"`     // median
	DaysP90       float64 `json:"days_p90"` // 90th percentile
}

// Data is the file the simulator writes.
type Data struct {
	// Model and Command say how the figures were made.
	Model   string `json:"model"`
	Command string `json:"command"`
	// Laps are the lengths offered, per game; Deadlines the deadlines
	// simulated (others are interpolated between them).
	Laps      map[string][]int `json:"laps"`
	Deadlines []int            `json:"deadlines"`
	Points    []Point          `json:"points"`
}

//go:embed lengths.json
var raw []byte

var data = sync.OnceValues(func() (Data, error) {
	var d Data
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return d, fmt.Errorf("lengths.json: %w", err)
	}
	return d, nil
})

// Current is the data the service was built with.
func Current() (Data, error) { return data() }

// Marshal writes d as lengths.json is kept: indented, one point a line.
func Marshal(d Data) ([]byte, error) {
	var b bytes.Buffer
	head, err := json.MarshalIndent(struct {
		Model     string           `json:"model"`
		Command   string           `json:"command"`
		Laps      map[string][]int `json:"laps"`
		Deadlines []int            `json:"deadlines"`
	}{d.Model, d.Command, d.Laps, d.Deadlines}, "", "  ")
	if err != nil {
		return nil, err
	}
	b.Write(head[:len(head)-2]) // up to the closing brace
	b.WriteString(",\n  \"points\": [\n")
	for i, p := range d.Points {
		line, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		b.WriteString("    ")
		b.Write(line)
		if i < len(d.Points)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes(), nil
}

// Estimate is what the create page and the API say of one length.
type Estimate struct {
	Laps      int    `json:"laps"`
	TurnsEach int    `json:"turns_each"`
	Days      int    `json:"days"`     // median, rounded up
	DaysP90   int    `json:"days_p90"` // 90th percentile, rounded up
	RU        string `json:"text_ru"`
	EN        string `json:"text_en"`
}

// Text words the estimate in lang.
func (e Estimate) Text(lang string) string {
	if lang == "en" {
		return e.EN
	}
	return e.RU
}

// Variant is the options of a game other than its laps that differ from
// the game's defaults, as canonical JSON: "" for the defaults.
func Variant(kind string, opts json.RawMessage) (string, error) {
	info, ok := games.Lookup(kind)
	if !ok {
		return "", fmt.Errorf("%w %q", games.ErrUnknownGame, kind)
	}
	var def, got map[string]any
	if err := json.Unmarshal(info.Defaults(), &def); err != nil {
		return "", err
	}
	if err := json.Unmarshal(info.Defaults(), &got); err != nil {
		return "", err
	}
	if len(opts) > 0 && string(opts) != "null" {
		if err := json.Unmarshal(opts, &got); err != nil {
			return "", fmt.Errorf("options of %s: %w", kind, err)
		}
	}
	for k, v := range got {
		d, ok := def[k]
		// An option the defaults leave out is at its zero value.
		same := ok && fmt.Sprint(d) == fmt.Sprint(v) || !ok && (v == nil || v == false || v == 0.0 || v == "")
		if k == "laps" || same {
			delete(got, k)
		}
	}
	if len(got) == 0 {
		return "", nil
	}
	b, err := json.Marshal(got) // maps marshal with sorted keys
	return string(b), err
}

// For lists the lengths offered for a game with options opts (its laps
// aside) at seats and a deadline of deadlineHours, shortest first: none
// when the simulator has no figures for them. Deadlines between those
// simulated are interpolated linearly, outside them the nearest is taken.
func For(kind string, opts json.RawMessage, seats, deadlineHours int) ([]Estimate, error) {
	d, err := data()
	if err != nil {
		return nil, err
	}
	variant, err := Variant(kind, opts)
	if err != nil {
		return nil, err
	}
	var out []Estimate
	for _, laps := range d.Laps[kind] {
		var at []Point
		for _, p := range d.Points {
			if p.Kind == kind && p.Variant == variant && p.Seats == seats && p.Laps == laps {
				at = append(at, p)
			}
		}
		if len(at) == 0 {
			continue
		}
		slices.SortFunc(at, func(a, b Point) int { return a.DeadlineHours - b.DeadlineHours })
		p := interpolate(at, deadlineHours)
		e := Estimate{Laps: laps, TurnsEach: int(math.Round(p.TurnsEach)), Days: int(math.Ceil(p.Days)),
			DaysP90: int(math.Ceil(p.DaysP90))}
		for _, l := range []string{"ru", "en"} {
			text := templates.Tf(l, "length_estimate", templates.Count(l, "n_turns_about", e.TurnsEach), templates.Count(l, "n_days_about", e.Days))
			if l == "ru" {
				e.RU = text
			} else {
				e.EN = text
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// interpolate is the point at deadline h between points sorted by
// deadline.
func interpolate(at []Point, h int) Point {
	if h <= at[0].DeadlineHours {
		return at[0]
	}
	for i := 1; i < len(at); i++ {
		a, b := at[i-1], at[i]
		if h > b.DeadlineHours {
			continue
		}
		f := float64(h-a.DeadlineHours) / float64(b.DeadlineHours-a.DeadlineHours)
		mix := func(x, y float64) float64 { return x + (y-x)*f }
		return Point{Kind: a.Kind, Variant: a.Variant, Seats: a.Seats, Laps: a.Laps, DeadlineHours: h,
			TurnsEach: mix(a.TurnsEach, b.TurnsEach), Days: mix(a.Days, b.Days), DaysP90: mix(a.DaysP90, b.DaysP90)}
	}
	return at[len(at)-1]
}
