package calendar

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/lengths"
)

// TestLengthsData: lengths.json holds a figure for every length, seat
// count and deadline the create page offers, each from as many games as
// LengthGames says.
func TestLengthsData(t *testing.T) {
	d, err := lengths.Current()
	if err != nil {
		t.Fatal(err)
	}
	m := DefaultModel()
	want := lengths.Assumptions{AnswerMedianHours: m.MedianDelay.Hours(), AnswerP90Hours: m.P90Delay.Hours(),
		WakeHour: m.WakeHour, SleepHour: m.SleepHour, MissPercent: m.MissRate * 100, People: lengths.Untouched}
	if d.Assume != want {
		t.Errorf("lengths.json assumes %+v, the simulator's default model %+v: run %s", d.Assume, want, d.Command)
	}
	have := map[string]lengths.Point{}
	for _, p := range d.Points {
		have[fmt.Sprint(p.Kind, p.Variant, p.Seats, p.Laps, p.DeadlineHours)] = p
	}
	for _, info := range testGames.Engines().List() {
		for _, laps := range info.Length.Offered {
			for _, s := range LengthSetups(info, laps) {
				p, ok := have[fmt.Sprint(s.Kind, "", s.Seats, laps, s.DeadlineHours)]
				if !ok {
					t.Errorf("lengths.json has no figure for %v: run %s", s, d.Command)
					continue
				}
				if p.Games != LengthGames || p.Days <= 0 || p.TurnsEach <= 0 || p.DaysP90 < p.Days {
					t.Errorf("%v: %+v", s, p)
				}
			}
		}
	}
}

// TestLengthsFresh plays a sample of the lengths again with today's code
// (the same seeds, fewer games) and checks the figures lengths.json holds
// — and the interpolation of a deadline that was not simulated — against
// it: after a change that makes games faster or slower, regenerate them
// (make lengths).
func TestLengthsFresh(t *testing.T) {
	const sample = 5
	ctx := context.Background()
	cfg := DefaultConfig(testGames) // people who change nothing, as lengths.json was made
	cfg.Dir = t.TempDir()
	for _, c := range []struct {
		kind            string
		seats, laps, dl int
	}{
		{"western", 2, 1, 72},     // simulated
		{"western", 3, 1, 24},     // interpolated between 12 and 72 hours
		{"businessman", 3, 2, 72}, // simulated
		{"western", 2, 2, 168},    // interpolated between 72 and 336 hours
	} {
		setup := Setup{Kind: c.kind, Seats: c.seats, DeadlineHours: c.dl, Options: json.RawMessage(fmt.Sprintf(`{"laps":%d}`, c.laps))}
		rows, err := Run(ctx, cfg, []Setup{setup}, sample, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		fresh := rows[0].Summary()
		est, err := lengths.For(testGames.Engines(), c.kind, nil, c.seats, c.dl)
		if err != nil {
			t.Fatal(err)
		}
		var e *lengths.Estimate
		for i := range est {
			if est[i].Laps == c.laps {
				e = &est[i]
			}
		}
		if e == nil {
			t.Errorf("%v: no estimate", setup)
			continue
		}
		t.Logf("%v: %d fresh games %.1f days, %.0f turns each; lengths.json %d days, %d turns each", setup, sample, fresh.DaysMedian, fresh.TurnsEach, e.Days, e.TurnsEach)
		if math.Abs(fresh.DaysMedian-float64(e.Days)) > 0.3*float64(e.Days)+1 {
			t.Errorf("%v: %.1f days in a fresh run, lengths.json says %d: regenerate it (make lengths)", setup, fresh.DaysMedian, e.Days)
		}
		if math.Abs(fresh.TurnsEach-float64(e.TurnsEach)) > 0.2*float64(e.TurnsEach)+1 {
			t.Errorf("%v: %.0f turns each in a fresh run, lengths.json says %d: regenerate it (make lengths)", setup, fresh.TurnsEach, e.TurnsEach)
		}
	}
}
