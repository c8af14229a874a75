package calendar

import (
	"math"
	"math/rand/v2"
	"time"
	_ "time/tzdata" // the people's time zones, whatever the machine has
)

// Model is how the simulated people answer their mail.
type Model struct {
	// A person answers a mail that asks for a decision after a delay
	// drawn from a log-normal with this median and 90th percentile. The
	// delay runs only while they are awake.
	MedianDelay, P90Delay time.Duration
	// WakeHour and SleepHour bound a person's day in their own zone: they
	// never act from SleepHour to WakeHour.
	WakeHour, SleepHour int
	// MissRate is the share of decision mails a person never answers
	// (their deadline then plays the default).
	MissRate float64
	// Zones are the people's time zones, given to seats in turn.
	Zones []*time.Location
}

// z90 is the standard normal's 90th percentile.
const z90 = 1.2815515655446004

// DefaultModel is the model of issue 13 and SPEC §6: median 2 h, 90th
// percentile 10 h, asleep 23:00–08:00, 5 % of mails missed, three zones.
func DefaultModel() Model {
	return Model{
		MedianDelay: 2 * time.Hour, P90Delay: 10 * time.Hour,
		WakeHour: 8, SleepHour: 23, MissRate: 0.05,
		Zones: []*time.Location{mustZone("Europe/Moscow"), mustZone("Europe/Berlin"), mustZone("Asia/Yekaterinburg")},
	}
}

func mustZone(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // time/tzdata is linked in: cannot happen
	}
	return l
}

// sigma is the log-normal's shape: ln(P90/median) / z90.
func (m Model) sigma() float64 {
	return math.Log(float64(m.P90Delay)/float64(m.MedianDelay)) / z90
}

// Delay draws how long a person takes to answer, in waking time: one
// uniform draw made normal by the inverse of its distribution, so every
// delay takes one number from r (NormFloat64 takes a varying count), and
// a person's streams stay aligned mail for mail.
func (m Model) Delay(r *rand.Rand) time.Duration {
	z := math.Sqrt2 * math.Erfinv(2*r.Float64()-1)
	return time.Duration(float64(m.MedianDelay) * math.Exp(m.sigma()*z))
}

// Answer is when a person in zone loc, mailed at t, acts: after the delay
// d counted in their waking hours only, so a mail that arrives late in
// the evening is answered the next morning.
func (m Model) Answer(t time.Time, d time.Duration, loc *time.Location) time.Time {
	for {
		t = m.awake(t, loc)
		local := t.In(loc)
		sleep := time.Date(local.Year(), local.Month(), local.Day(), m.SleepHour, 0, 0, 0, loc)
		if left := sleep.Sub(t); d < left {
			return t.Add(d)
		} else {
			d -= left
		}
		t = sleep
	}
}

// awake is t if the person is awake then, or the next morning's WakeHour.
func (m Model) awake(t time.Time, loc *time.Location) time.Time {
	local := t.In(loc)
	h := local.Hour()
	if h >= m.WakeHour && h < m.SleepHour {
		return t
	}
	day := local
	if h >= m.SleepHour {
		day = local.AddDate(0, 0, 1)
	}
	return time.Date(day.Year(), day.Month(), day.Day(), m.WakeHour, 0, 0, 0, loc)
}
