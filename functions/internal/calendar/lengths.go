package calendar

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/lengths"
)

// The lengths the create page offers, in laps, and the deadlines they are
// simulated at (lengths.For interpolates the others linearly: a missed
// mail costs the deadline, the rest does not depend on it).
var (
	LengthLaps      = []int{1, 2, 3, 5, 10, 20}
	LengthDeadlines = []int{12, 72, 336}
)

// LengthGames is how many seeded games each length is estimated from. It
// is the same at every length, and the seeds are the same (1…n): a longer
// game of a seed is the shorter one carried on, so its median and 90th
// percentile can only be longer too — with fewer games for the long
// lengths, as before issue 23, sampling noise made 20 laps look shorter
// than 10.
const LengthGames = 20

// LengthSetups lists the setups of one length: every game at its default
// variant, every seat count it takes, every simulated deadline.
func LengthSetups(reg *games.Registry, laps int) []Setup {
	var out []Setup
	for _, info := range reg.List() {
		for seats := info.MinSeats; seats <= info.MaxSeats; seats++ {
			for _, d := range LengthDeadlines {
				out = append(out, Setup{Kind: info.Kind, Seats: seats, DeadlineHours: d,
					Options: json.RawMessage(fmt.Sprintf(`{"laps":%d}`, laps))})
			}
		}
	}
	return out
}

// LengthPoint is the figure of one row for lengths.json.
func LengthPoint(reg *games.Registry, r Row, laps int) (lengths.Point, error) {
	variant, err := lengths.Variant(reg, r.Setup.Kind, r.Setup.Options)
	if err != nil {
		return lengths.Point{}, err
	}
	s := r.Summary()
	if s.Unfinished > 0 {
		return lengths.Point{}, fmt.Errorf("%v: %d games unfinished", r.Setup, s.Unfinished)
	}
	return lengths.Point{Kind: r.Setup.Kind, Variant: variant, Seats: r.Setup.Seats, Laps: laps,
		DeadlineHours: r.Setup.DeadlineHours, Games: s.Games, TurnsEach: round1(s.TurnsEach),
		Days: round1(s.DaysMedian), DaysP90: round1(s.DaysP90),
		DaysSampled: round1(s.DaysMedian), DaysP90Sampled: round1(s.DaysP90)}, nil
}

func round1(x float64) float64 { return float64(int(x*10+0.5)) / 10 }

// Lengths simulates the lengths the create page offers, shortest first —
// only those listed in only, if any, keeping the figures of the others
// from old — and answers the data lengths.json keeps; done, if not nil,
// is given the data so far after each length.
func Lengths(ctx context.Context, cfg Config, workers int, old lengths.Data, only []int, progress func(Setup, Result), done func(lengths.Data) error) (lengths.Data, error) {
	m := cfg.Model
	if len(m.Zones) == 0 {
		m = DefaultModel()
	}
	// The create page and the API show these figures to people about to
	// play: they are for those who change nothing, as most will.
	if cfg.People.Name != "" && cfg.People.Name != Untouching.Name {
		return lengths.Data{}, fmt.Errorf("the lengths' estimates are for people who change no setting, not %q", cfg.People.Name)
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
	for _, info := range reg.List() {
		d.Laps[info.Kind] = LengthLaps
	}
	simulate := func(laps int) error {
		rows, err := Run(ctx, cfg, LengthSetups(reg, laps), LengthGames, workers, progress)
		if err != nil {
			return err
		}
		for _, r := range rows {
			p, err := LengthPoint(reg, r, laps)
			if err != nil {
				return err
			}
			d.Points = append(d.Points, p)
		}
		return nil
	}
	for _, laps := range LengthLaps {
		if len(only) > 0 && !slices.Contains(only, laps) {
			for _, p := range old.Points {
				if p.Laps == laps {
					d.Points = append(d.Points, p)
				}
			}
		} else if err := simulate(laps); err != nil {
			return d, err
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
