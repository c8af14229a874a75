package httpapi

import (
	"errors"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/templates"
)

// The pieces of a game the pages share: the players' panels, the story
// of events, deadlines and the board. Everything here is made from one
// reader's view of the game (P-3).

// seatCSS gives each seat's class its board colour: the dots, panels
// and lines of a seat on the pages match its token.
func seatCSS() template.CSS {
	var b strings.Builder
	for i := range maxSeats() {
		fmt.Fprintf(&b, ".s%d{--c:%s}", i, boardpic.SeatHex(i))
	}
	return template.CSS(b.String()) // made of fixed hex colours only
}

// seatPanel is what a page shows of one seat: what the game's presenter
// makes of the reader's view (P-3), and the score.
type seatPanel struct {
	Seat                     int
	Name                     string
	Me, Turn, Owes, Bankrupt bool
	Detailed                 bool // Pos is filled
	Place                    int
	NetWorth                 int64
	Worth                    string // NetWorth in the game's money
	Pos                      present.Seat
	Parts                    []partRow
}

type partRow struct {
	Label, Value string
	Zero         bool
}

// breakdown lists a score's parts in the game's order.
func breakdown(l string, p present.Game, parts map[string]int64) []partRow {
	var out []partRow
	for _, x := range p.Parts(l, parts) {
		out = append(out, partRow{Label: x.Label, Value: p.Money(l, x.Value), Zero: x.Value == 0})
	}
	return out
}

// panels makes the panel of every seat from the game as reader sees it.
func panels(l string, kind string, g engine.Game, reader int, names []string) []seatPanel {
	p := present.For(kind)
	scores := g.Score()
	owing := g.Owing()
	out := make([]seatPanel, g.Seats())
	for i := range out {
		out[i] = seatPanel{Seat: i, Name: views.NameFunc(names)(i), Me: i == reader,
			Turn: !g.Over() && g.Turn() == i, Owes: slices.Contains(owing, i)}
	}
	for _, sc := range scores {
		if sc.Seat >= 0 && sc.Seat < len(out) {
			s := &out[sc.Seat]
			s.Place, s.NetWorth, s.Bankrupt, s.Parts = sc.Place, sc.NetWorth, sc.Bankrupt, breakdown(l, p, sc.Parts)
			s.Worth = p.Money(l, sc.NetWorth)
		}
	}
	for i, pos := range p.Seats(l, g.View(reader)) {
		if i < len(out) {
			out[i].Pos, out[i].Detailed = pos, true
		}
	}
	return out
}

// byPlace orders panels by their place, best first.
func byPlace(ps []seatPanel) []seatPanel {
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b seatPanel) int { return a.Place - b.Place })
	return out
}

// boardSVG draws the board as the reader sees it; nil for a game that
// has no picture.
func boardSVG(l string, g engine.Game, reader int, names []string) (template.HTML, error) {
	b, err := boardpic.SVG(g.View(reader), names, l)
	if errors.Is(err, boardpic.ErrNoPicture) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return template.HTML(b), nil // boardpic escapes every text it writes
}

// eventLine is one line of a game's story.
type eventLine struct {
	Text string
	Seat int  // whom it concerns, −1 for nobody in particular
	Turn bool // a new turn begins
}

// eventLines tells the events reader may see (P-3), leaving out those
// the presenter does not word.
func eventLines(l string, p present.Game, evs []engine.Event, reader int, name func(int) string) []eventLine {
	var out []eventLine
	for _, e := range evs {
		if !e.VisibleTo(reader) {
			continue
		}
		if t := p.EventText(l, e, name); t != "" {
			out = append(out, eventLine{Text: t, Seat: e.Seat, Turn: p.TurnEvent(e)})
		}
	}
	return out
}

// storySince tells what seat may see of what happened since its own
// previous turn, among the entries still in the game item: the others'
// moves, then its own in the turn it is making (for a reader with no
// seat, or one that has not moved yet: the last lines). It keeps at most
// max lines, the newest; more tells that older lines were left out.
func storySince(rec *service.Record, seat int, l string, name func(int) string, max int) (lines []eventLine, more bool) {
	log, err := rec.Recent()
	if err != nil {
		return nil, false // the page shows the state without the story
	}
	from := 0
	if seat >= 0 {
		i := len(log) - 1
		for i >= 0 && log[i].Seat == seat && !log[i].Delegated() { // the turn being made
			i--
		}
		// What its orders or a missed deadline played is not the
		// player's own move: it stays in the story.
		for ; i >= 0; i-- {
			if log[i].Seat == seat && !log[i].Delegated() {
				from = i + 1
				break
			}
		}
	}
	more = from == 0 && rec.Moves > len(log)
	p := present.For(rec.Kind)
	for _, e := range log[from:] {
		if e.Seat == seat {
			if t := present.PlayedFor(l, p, e.Action, e.By, name); t != "" {
				lines = append(lines, eventLine{Text: t, Seat: seat})
			}
		}
		lines = append(lines, eventLines(l, p, e.Events, seat, name)...)
	}
	if len(lines) > max {
		lines, more = lines[len(lines)-max:], true
	}
	return lines, more
}

// deadline is when a decision falls due, for people.
type deadline struct {
	ISO  string // for <time datetime>
	Text string // the date and time, UTC
	In   string // how long is left
	Soon bool   // under six hours
	Past bool
}

func newDeadline(l string, due int64, now time.Time) *deadline {
	if due <= 0 {
		return nil
	}
	t := time.Unix(due, 0).UTC()
	d := &deadline{ISO: t.Format(time.RFC3339), Text: dateTime(l, t) + " UTC"}
	left := t.Sub(now)
	switch {
	case left <= 0:
		d.Past = true
		d.In = templates.T(l, "due_now")
	default:
		d.Soon = left < 6*time.Hour
		d.In = templates.Tf(l, "due_in", duration(l, left))
	}
	return d
}

var monthsRU = [...]string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}

// dateTime writes a moment as "12 мая 18:00" or "12 May 18:00".
func dateTime(l string, t time.Time) string {
	if l == "en" {
		return t.Format("2 Jan 15:04")
	}
	return strconv.Itoa(t.Day()) + " " + monthsRU[t.Month()-1] + " " + t.Format("15:04")
}

// duration writes a time left coarsely: "2 д 4 ч", "3 h 20 min".
func duration(l string, d time.Duration) string {
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

// due is the deadline of engine seat's decision.
func due(rec *service.Record, seat int) int64 {
	if seat >= 0 && seat < len(rec.Due) {
		return rec.Due[seat]
	}
	return 0
}

// waiting is a seat the game waits for.
type waiting struct {
	Name string
	Seat int
	Due  *deadline
}

func waitingFor(l string, rec *service.Record, g engine.Game, names []string, now time.Time) []waiting {
	var out []waiting
	for _, s := range g.Owing() {
		out = append(out, waiting{Name: views.NameFunc(names)(s), Seat: s, Due: newDeadline(l, due(rec, s), now)})
	}
	return out
}

// optionsText sums up a game's options: "20 кругов, для начинающих".
func optionsText(l string, rec *service.Record) string {
	return present.For(rec.Kind).Options(l, rec.Options)
}

// deadlineHours is the time a decision gets.
func deadlineHours(rec *service.Record) int {
	if rec.DeadlineHours > 0 {
		return rec.DeadlineHours
	}
	return service.DefaultDeadlineHours
}

// deadlineText says the time a decision gets.
func deadlineText(l string, rec *service.Record) string {
	return templates.Tf(l, "deadline_hours", duration(l, timeHours(deadlineHours(rec))))
}
