// Package lengths holds the calendar simulator's estimates of how long a
// game takes (SPEC §1.7): for each game, seat count, length in laps and
// deadline, the turns each player plays and the calendar days a game
// takes when everyone answers within a few hours. The create page and the
// API offer the lengths with these figures.
//
// The figures are data, written by the simulator
// (`go run ./functions/internal/calendar/cmd/calendar -write`) into
// lengths.json; a test in functions/internal/calendar plays a sample again
// and checks them. The service reads them compiled in: `go generate`
// writes lengths.json as Go (lengths_gen.go, Source), so that the first
// page that offers the lengths does not decode 22 KB of JSON first (0.3–
// 0.6 ms of the api's cold start, issue 24); TestGenerated fails when the
// two differ.
package lengths

//go:generate go run gen.go

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/templates"
)

// Point is one simulated setup: the medians of its seeded games.
type Point struct {
	Kind string `json:"kind"`
	// Variant is the game's options other than its length, where they
	// differ from the defaults, as canonical JSON ("" for the defaults).
	Variant string `json:"variant,omitempty"`
	Seats   int    `json:"seats"`
	// Laps is the value of the game's length option (engine.Info.Length:
	// laps for both games today; the name stays the file's and the
	// API's).
	Laps          int     `json:"laps"`
	DeadlineHours int     `json:"deadline_hours"`
	Games         int     `json:"games"`
	TurnsEach     float64 `json:"turns_each"`
	// Days and DaysP90 are the figures shown: the sampled ones made to
	// rise with the length (FitRising).
	Days    float64 `json:"days"`     // median
	DaysP90 float64 `json:"days_p90"` // 90th percentile
	// DaysSampled and DaysP90Sampled are the median and 90th percentile
	// of the games played.
	DaysSampled    float64 `json:"days_sampled"`
	DaysP90Sampled float64 `json:"days_p90_sampled"`
}

// FitRising sets the Days and DaysP90 of points from their sampled
// figures so that, for each game, variant, seat count and deadline, they
// never fall as the laps rise: a longer game of the same seeds plays the
// shorter one's decisions and more, so the true figures rise, and where
// 20 games' sample says otherwise (a few missed mails at long deadlines
// move a 90th percentile by days) the lengths out of order are pooled
// into their mean — the least-squares fit that rises (isotonic
// regression, pool-adjacent-violators; every point is of as many games).
// Sampled figures that already rise are kept as they are.
func FitRising(points []Point) []Point {
	out := slices.Clone(points)
	groups := map[string][]int{} // indices of out, one setup's lengths
	var keys []string
	for i, p := range out {
		k := fmt.Sprint(p.Kind, "|", p.Variant, "|", p.Seats, "|", p.DeadlineHours)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range keys {
		idx := groups[k]
		slices.SortFunc(idx, func(a, b int) int { return out[a].Laps - out[b].Laps })
		days := make([]float64, len(idx))
		p90 := make([]float64, len(idx))
		for j, i := range idx {
			days[j], p90[j] = out[i].DaysSampled, out[i].DaysP90Sampled
		}
		days, p90 = rising(days), rising(p90)
		for j, i := range idx {
			out[i].Days, out[i].DaysP90 = round1(days[j]), round1(max(p90[j], days[j]))
		}
	}
	return out
}

// rising is the non-decreasing sequence nearest to v in least squares,
// all weights equal: pool-adjacent-violators.
func rising(v []float64) []float64 {
	type block struct {
		sum float64
		n   int
	}
	var blocks []block
	for _, x := range v {
		blocks = append(blocks, block{x, 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/float64(a.n) <= b.sum/float64(b.n) {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{a.sum + b.sum, a.n + b.n})
		}
	}
	out := make([]float64, 0, len(v))
	for _, b := range blocks {
		for range b.n {
			out = append(out, b.sum/float64(b.n))
		}
	}
	return out
}

// round1 rounds to a tenth, as the file keeps figures.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// Data is the file the simulator writes.
type Data struct {
	// Model and Command say how the figures were made; Assume holds the
	// model's figures the pages word for players.
	Model   string      `json:"model"`
	Command string      `json:"command"`
	Assume  Assumptions `json:"assume"`
	// Laps are the lengths offered, per game (Info.Length.Offered);
	// Deadlines the deadlines
	// simulated (others are interpolated between them).
	Laps      map[string][]int `json:"laps"`
	Deadlines []int            `json:"deadlines"`
	Points    []Point          `json:"points"`
}

// Assumptions are what the simulated people do: how soon they answer a
// decision mail, when they sleep, how many mails they miss, and what they
// do with their standing orders (the calendar simulator's population).
type Assumptions struct {
	AnswerMedianHours float64 `json:"answer_median_hours"`
	AnswerP90Hours    float64 `json:"answer_p90_hours"`
	WakeHour          int     `json:"wake_hour"`
	SleepHour         int     `json:"sleep_hour"`
	MissPercent       float64 `json:"miss_percent"`
	// People names the population; the service's estimates are made for
	// Untouched people, who change no setting.
	People string `json:"people"`
}

// Untouched is the population the estimates assume: people who keep every
// setting as the service sets it, standing orders included.
const Untouched = "untouched"

// Text words the assumptions in lang for the create page and the API.
func (a Assumptions) Text(lang string) string {
	return templates.Tf(lang, "lengths_assume", hours(a.AnswerMedianHours), hours(a.AnswerP90Hours),
		a.WakeHour, a.SleepHour, a.MissPercent)
}

// hours writes h without a fraction when it has none.
func hours(h float64) string { return strconv.FormatFloat(h, 'f', -1, 64) }

// data is the figures the service was built with: lengths.json as
// lengths_gen.go holds it.
func data() (Data, error) { return generated, nil }

// Current is the data the service was built with.
func Current() (Data, error) { return data() }

// Decode reads a file the simulator wrote (lengths.json), refusing a
// field it does not know.
func Decode(b []byte) (Data, error) {
	var d Data
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return d, fmt.Errorf("lengths.json: %w", err)
	}
	return d, nil
}

// Source writes d as Go: the declaration of the package's variable
// generated (lengths_gen.go, which gen.go writes with it and gofmt's
// layout). The variable is a composite literal of constants, which the
// compiler lays out in the binary: nothing of it runs at start.
func Source(d Data) []byte {
	var b strings.Builder
	b.WriteString("// Code generated by \"go generate ./functions/internal/lengths\" from lengths.json; DO NOT EDIT.\n\n")
	b.WriteString("package lengths\n\n")
	b.WriteString("// generated is lengths.json as Go (Source).\n")
	b.WriteString("var generated = Data{\n")
	fmt.Fprintf(&b, "Model: %s,\nCommand: %s,\n", strconv.Quote(d.Model), strconv.Quote(d.Command))
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	a := d.Assume
	fmt.Fprintf(&b, "Assume: Assumptions{AnswerMedianHours: %s, AnswerP90Hours: %s, WakeHour: %d, SleepHour: %d, MissPercent: %s, People: %s},\n",
		num(a.AnswerMedianHours), num(a.AnswerP90Hours), a.WakeHour, a.SleepHour, num(a.MissPercent), strconv.Quote(a.People))
	b.WriteString("Laps: map[string][]int{\n")
	kinds := make([]string, 0, len(d.Laps))
	for k := range d.Laps {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		fmt.Fprintf(&b, "%s: %s,\n", strconv.Quote(k), ints(d.Laps[k]))
	}
	fmt.Fprintf(&b, "},\nDeadlines: []int%s,\nPoints: []Point{\n", ints(d.Deadlines))
	for _, p := range d.Points {
		fmt.Fprintf(&b, "{Kind: %s, ", strconv.Quote(p.Kind))
		if p.Variant != "" {
			fmt.Fprintf(&b, "Variant: %s, ", strconv.Quote(p.Variant))
		}
		fmt.Fprintf(&b, "Seats: %d, Laps: %d, DeadlineHours: %d, Games: %d, TurnsEach: %s, Days: %s, DaysP90: %s, DaysSampled: %s, DaysP90Sampled: %s},\n",
			p.Seats, p.Laps, p.DeadlineHours, p.Games, num(p.TurnsEach), num(p.Days), num(p.DaysP90), num(p.DaysSampled), num(p.DaysP90Sampled))
	}
	b.WriteString("},\n}\n")
	return []byte(b.String())
}

// ints writes a list of numbers as the elements of a Go literal.
func ints(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// Marshal writes d as lengths.json is kept: indented, one point a line.
func Marshal(d Data) ([]byte, error) {
	var b bytes.Buffer
	head, err := json.MarshalIndent(struct {
		Model     string           `json:"model"`
		Command   string           `json:"command"`
		Assume    Assumptions      `json:"assume"`
		Laps      map[string][]int `json:"laps"`
		Deadlines []int            `json:"deadlines"`
	}{d.Model, d.Command, d.Assume, d.Laps, d.Deadlines}, "", "  ")
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

// Estimate is what the create page and the API say of one length. Laps
// is the value of the game's length option (Point.Laps).
type Estimate struct {
	Laps      int    `json:"laps"`
	TurnsEach int    `json:"turns_each"`
	Days      int    `json:"days"`     // median, rounded up
	DaysP90   int    `json:"days_p90"` // 90th percentile, rounded up
	RU        string `json:"text_ru"`
	EN        string `json:"text_en"`
}

// Text words the estimate in lang (one of For's).
func (e Estimate) Text(lang string) string {
	if lang == "en" {
		return e.EN
	}
	return e.RU
}

// Variant is the options of a game other than its length (its
// Info.Length option: laps) that differ from the game's defaults, as
// canonical JSON: "" for the defaults.
func Variant(reg *games.Registry, kind string, opts json.RawMessage) (string, error) {
	info, ok := reg.Lookup(kind)
	if !ok {
		return "", fmt.Errorf("%w %q", games.ErrUnknownGame, kind)
	}
	if len(opts) == 0 || string(opts) == "null" {
		return "", nil // the defaults themselves
	}
	var def, got map[string]any
	if err := json.Unmarshal(info.Defaults(), &def); err != nil {
		return "", err
	}
	if err := json.Unmarshal(info.Defaults(), &got); err != nil {
		return "", err
	}
	if err := json.Unmarshal(opts, &got); err != nil {
		return "", fmt.Errorf("options of %s: %w", kind, err)
	}
	for k, v := range got {
		d, ok := def[k]
		// An option the defaults leave out is at its zero value.
		same := ok && fmt.Sprint(d) == fmt.Sprint(v) || !ok && (v == nil || v == false || v == 0.0 || v == "")
		if k == info.Length.Option || same {
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
// aside) at seats and a deadline of deadlineHours, shortest first, with
// their words in both languages (Figures, worded): none when the
// simulator has no figures for them.
func For(reg *games.Registry, kind string, opts json.RawMessage, seats, deadlineHours int) ([]Estimate, error) {
	est, err := Figures(reg, kind, opts, seats, deadlineHours)
	for i := range est {
		est[i].RU, est[i].EN = est[i].words("ru"), est[i].words("en")
	}
	return est, err
}

// words says e in lang, as Text does once For has worded it.
func (e Estimate) words(lang string) string {
	return templates.Tf(lang, "length_estimate", templates.Count(lang, "n_turns_about", e.TurnsEach), templates.Count(lang, "n_days_about", e.Days), e.DaysP90)
}

// Figures lists the lengths as For does, without their words (RU and EN
// left empty): the figures are what the create page's table and a
// league's round length read, and wording every length in both
// languages was most of the time For took, on the home page's first
// render the longest step but one (issue 24).
//
// Deadlines between those simulated are interpolated linearly, outside
// them the nearest is taken.
func Figures(reg *games.Registry, kind string, opts json.RawMessage, seats, deadlineHours int) ([]Estimate, error) {
	d, err := data()
	if err != nil {
		return nil, err
	}
	variant, err := Variant(reg, kind, opts)
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
		out = append(out, Estimate{Laps: laps, TurnsEach: int(math.Round(p.TurnsEach)), Days: int(math.Ceil(p.Days)),
			DaysP90: int(math.Ceil(p.DaysP90))})
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
