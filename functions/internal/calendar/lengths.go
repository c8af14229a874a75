package calendar

import (
	"context"
	"fmt"
	"slices"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/lengths"
)

// The deadlines the lengths are simulated at (lengths.For interpolates
// the others linearly: a missed mail costs the deadline, the rest does
// not depend on it). The lengths are each game's own
// (engine.Info.Length.Offered).
var LengthDeadlines = []int{12, 72, 336}

// LengthGames is how many seeded games each length is estimated from. It
// is the same at every length, and the seeds are the same (1…n): a longer
// game of a seed is the shorter one carried on, so its median and 90th
// percentile can only be longer too — with fewer games for the long
// lengths, as before issue 23, sampling noise made 20 laps look shorter
// than 10.
const LengthGames = 20

// LengthSetups lists the setups of one length of the game info: its
// default variant at that length, every seat count it takes, every
// simulated deadline.
func LengthSetups(info games.Info, n int) []Setup {
	var out []Setup
	for seats := info.MinSeats; seats <= info.MaxSeats; seats++ {
		for _, d := range LengthDeadlines {
			out = append(out, Setup{Kind: info.Kind, Seats: seats, DeadlineHours: d, Options: info.Length.Options(n)})
		}
	}
	return out
}

// LengthPoint is the figure of one row for lengths.json.
func LengthPoint(reg *games.Registry, r Row, n int) (lengths.Point, error) {
	variant, err := lengths.Variant(reg, r.Setup.Kind, r.Setup.Options)
	if err != nil {
		return lengths.Point{}, err
	}
	s := r.Summary()
	if s.Unfinished > 0 {
		return lengths.Point{}, fmt.Errorf("%v: %d games unfinished", r.Setup, s.Unfinished)
	}
	return lengths.Point{Kind: r.Setup.Kind, Variant: variant, Seats: r.Setup.Seats, Laps: n,
		DeadlineHours: r.Setup.DeadlineHours, Games: s.Games, TurnsEach: round1(s.TurnsEach),
		Days: round1(s.DaysMedian), DaysP90: round1(s.DaysP90),
		DaysSampled: round1(s.DaysMedian), DaysP90Sampled: round1(s.DaysP90)}, nil
}

func round1(x float64) float64 { return float64(int(x*10+0.5)) / 10 }

// Only picks what Lengths simulates again: the lengths listed (none: all)
// of the games listed (none: all). The figures of the rest are kept from
// the old data.
type Only struct {
	Lengths []int
	Kinds   []string
}

func (o Only) picks(kind string, n int) bool {
	return (len(o.Lengths) == 0 || slices.Contains(o.Lengths, n)) && (len(o.Kinds) == 0 || slices.Contains(o.Kinds, kind))
}

// Lengths simulates the lengths each game offers (Info.Length.Offered;
// a game with none offers none), shortest first — only those only
// picks, keeping the figures of the others from old — and answers the
// data lengths.json keeps; done, if not nil, is given the data so far
// after each length.
func Lengths(ctx context.Context, cfg Config, workers int, old lengths.Data, only Only, progress func(Setup, Result), done func(lengths.Data) error) (lengths.Data, error) {
	m := cfg.Model
	if len(m.Zones) == 0 {
		m = DefaultModel()
	}
	// The create page and the API show these figures to people about to
	// play: they are for those who change nothing, as most will.
	if cfg.People.Name != "" && cfg.People.Name != Untouching.Name {
		return lengths.Data{}, fmt.Errorf("the lengths' estimates are for people who change no setting, not %q", cfg.People.Name)
	}
	for _, k := range only.Kinds {
		if _, ok := cfg.Games.Engines().Lookup(k); !ok {
			return lengths.Data{}, fmt.Errorf("%w %q", games.ErrUnknownGame, k)
		}
	}
	d := lengths.Data{
		Model: fmt.Sprintf("people answer a decision mail after a log-normal delay (median %s, 90th percentile %s) counted in their waking hours (%02d:00–%02d:00, three time zones), miss %.0f %% of them; %s",
			m.MedianDelay, m.P90Delay, m.WakeHour, m.SleepHour, m.MissRate*100, Untouching.Name),
		Command: "go run ./functions/internal/calendar/cmd/calendar -write",
		Assume: lengths.Assumptions{AnswerMedianHours: m.MedianDelay.Hours(), AnswerP90Hours: m.P90Delay.Hours(),
			WakeHour: m.WakeHour, SleepHour: m.SleepHour, MissPercent: m.MissRate * 100, People: lengths.Untouched},
		Laps:      map[string][]int{},
		Deadlines: LengthDeadlines,
	}
	reg := cfg.Games.Engines()
	var all []int // every length any game offers, shortest first
	for _, info := range reg.List() {
		if len(info.Length.Offered) > 0 {
			d.Laps[info.Kind] = slices.Clone(info.Length.Offered)
			all = append(all, info.Length.Offered...)
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	for _, n := range all {
		var setups []Setup
		for _, info := range reg.List() {
			if !slices.Contains(info.Length.Offered, n) {
				continue
			}
			if !only.picks(info.Kind, n) {
				for _, p := range old.Points {
					if p.Kind == info.Kind && p.Laps == n {
						d.Points = append(d.Points, p)
					}
				}
				continue
			}
			setups = append(setups, LengthSetups(info, n)...)
		}
		if len(setups) > 0 {
			rows, err := Run(ctx, cfg, setups, LengthGames, workers, progress)
			if err != nil {
				return d, err
			}
			for _, r := range rows {
				p, err := LengthPoint(reg, r, n)
				if err != nil {
					return d, err
				}
				d.Points = append(d.Points, p)
			}
		}
		d.Points = lengths.FitRising(d.Points)
		if done != nil {
			if err := done(d); err != nil {
				return d, err
			}
		}
	}
	return d, nil
}
