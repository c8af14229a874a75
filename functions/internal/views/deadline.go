package views

import (
	"strconv"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/templates"
)

// Deadline is when a decision falls due, for people.
type Deadline struct {
	ISO  string // for <time datetime>
	Text string // the date and time, UTC
	In   string // how long is left
	Soon bool   // under six hours
	Past bool
}

// NewDeadline says when due (a Unix time; 0: none) falls, seen at now.
func NewDeadline(l string, due int64, now time.Time) *Deadline {
	if due <= 0 {
		return nil
	}
	t := time.Unix(due, 0).UTC()
	d := &Deadline{ISO: t.Format(time.RFC3339), Text: DateTime(l, t) + " UTC"}
	left := t.Sub(now)
	switch {
	case left <= 0:
		d.Past = true
		d.In = templates.T(l, "due_now")
	default:
		d.Soon = left < 6*time.Hour
		d.In = templates.Tf(l, "due_in", Duration(l, left))
	}
	return d
}

var monthsRU = [...]string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}

// DateTime writes a moment as "12 мая 18:00" or "12 May 18:00".
func DateTime(l string, t time.Time) string {
	if l == "en" {
		return t.Format("2 Jan 15:04")
	}
	return strconv.Itoa(t.Day()) + " " + monthsRU[t.Month()-1] + " " + t.Format("15:04")
}

// Duration writes a time left coarsely: "2 д 4 ч", "3 h 20 min".
func Duration(l string, d time.Duration) string {
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	u := func(key string, n int) string { return templates.Tf(l, key, n) }
	switch {
	case days > 0 && hours > 0:
		return u("n_days", days) + " " + u("n_hours", hours)
	case days > 0:
		return u("n_days", days)
	case hours > 0 && mins > 0:
		return u("n_hours", hours) + " " + u("n_mins", mins)
	case hours > 0:
		return u("n_hours", hours)
	}
	return u("n_mins", max(mins, 1))
}

// Due is the deadline of engine seat's decision.
func Due(rec *service.Record, seat int) int64 {
	if seat >= 0 && seat < len(rec.Due) {
		return rec.Due[seat]
	}
	return 0
}

// Waiting is a seat the game waits for.
type Waiting struct {
	Name string
	Seat int
	Due  *Deadline
}

// WaitingFor lists the seats the game waits for, with their deadlines.
func WaitingFor(l string, rec *service.Record, g engine.Game, names []string, now time.Time) []Waiting {
	var out []Waiting
	for _, s := range g.Owing() {
		out = append(out, Waiting{Name: NameFunc(names)(s), Seat: s, Due: NewDeadline(l, Due(rec, s), now)})
	}
	return out
}

// OptionsText sums up a game's options: "20 кругов, для начинающих".
func OptionsText(l string, pr present.Game, rec *service.Record) string {
	return pr.Options(l, rec.Options)
}

// DeadlineHours is the time a decision gets.
func DeadlineHours(rec *service.Record) int {
	if rec.DeadlineHours > 0 {
		return rec.DeadlineHours
	}
	return service.DefaultDeadlineHours
}

// DeadlineText says the time a decision gets.
func DeadlineText(l string, rec *service.Record) string {
	return templates.Tf(l, "deadline_hours", Duration(l, hours(DeadlineHours(rec))))
}

// hours is h hours as a duration.
func hours(h int) time.Duration { return time.Duration(h) * time.Hour }
