package httpapi

import (
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/templates"
)

// The pieces of a game the pages share: the players' panels, the story
// of events, deadlines and the board. Everything here is made from one
// reader's view of the game (P-3).

// seatCSS gives each seat's class its board colour: the dots, panels
// and lines of a seat on the pages match its token.
func seatCSS() template.CSS {
	var b strings.Builder
	for i := range western.MaxSeats {
		fmt.Fprintf(&b, ".s%d{--c:%s}", i, boardpic.SeatHex(i))
	}
	return template.CSS(b.String()) // made of fixed hex colours only
}

// seatNames lists the players' names by engine seat.
func seatNames(rec *service.Record, seats int) []string {
	names := make([]string, seats)
	for i := range names {
		names[i] = "—"
	}
	for _, s := range rec.Seats {
		if s.Accepted && s.Engine >= 0 && s.Engine < seats {
			names[s.Engine] = s.Name
		}
	}
	return names
}

// nameFunc names an engine seat, "—" for none.
func nameFunc(names []string) func(int) string {
	return func(s int) string {
		if s >= 0 && s < len(names) {
			return names[s]
		}
		return "—"
	}
}

// seatPanel is what a page shows of one seat: all of it public in
// «Вестерн»; for a game the page knows less of, the score only.
type seatPanel struct {
	Seat                              int
	Name                              string
	Me, Turn, Owes, Bankrupt          bool
	Detailed                          bool // the fields below the score are filled
	Place                             int
	NetWorth                          int64
	Cell                              string
	Laps, LapsOf                      int
	Cash, Deposit, Credit, ColonyLoan int64
	Labour                            int
	Narco                             int64
	Skip                              int
	Protected                         bool
	Goods                             []goodRow
	Holdings                          []holdingRow
	Parts                             []partRow
}

type goodRow struct {
	Name         string
	Units, Price int64 // price of one unit at the exchange now
	Value        int64
}

type holdingRow struct {
	N       int
	Name    string
	Leading bool
}

type partRow struct {
	Label string
	Value int64
}

// partOrder is the order and names of the net-worth parts (W-40).
var partOrder = []struct{ key, text string }{
	{western.PartCash, "cash"}, {western.PartDeposit, "deposit"}, {western.PartShares, "shares"},
	{western.PartGoods, "goods"}, {western.PartCredit, "credit"}, {western.PartLoan, "colony_loan"},
	{western.PartStartLoan, "start_loan"},
}

// breakdown lists a score's parts in a stable order, the unknown ones last.
func breakdown(l string, parts map[string]int64) []partRow {
	var out []partRow
	known := map[string]bool{}
	for _, p := range partOrder {
		known[p.key] = true
		if v, ok := parts[p.key]; ok {
			out = append(out, partRow{templates.T(l, p.text), v})
		}
	}
	var rest []string
	for k := range parts {
		if !known[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		out = append(out, partRow{templates.T(l, k), parts[k]})
	}
	return out
}

// panels makes the panel of every seat from the game as reader sees it.
func panels(l string, g engine.Game, reader int, names []string) []seatPanel {
	scores := g.Score()
	owing := g.Owing()
	out := make([]seatPanel, g.Seats())
	for i := range out {
		p := seatPanel{Seat: i, Name: nameFunc(names)(i), Me: i == reader,
			Turn: !g.Over() && g.Turn() == i, Owes: slices.Contains(owing, i)}
		out[i] = p
	}
	for _, sc := range scores {
		if sc.Seat >= 0 && sc.Seat < len(out) {
			p := &out[sc.Seat]
			p.Place, p.NetWorth, p.Bankrupt, p.Parts = sc.Place, sc.NetWorth, sc.Bankrupt, breakdown(l, sc.Parts)
		}
	}
	if v, ok := g.View(reader).(western.View); ok {
		for i, pl := range v.Players {
			if i < len(out) {
				westernPanel(l, v, i, pl, &out[i])
			}
		}
	}
	return out
}

// westernPanel fills the «Вестерн» fields of seat i's panel.
func westernPanel(l string, v western.View, i int, pl western.Player, p *seatPanel) {
	p.Detailed = true
	p.Cell = present.CellName(l, pl.Cell)
	p.Laps, p.LapsOf = pl.Laps, v.Opts.Laps
	p.Cash, p.Deposit, p.Credit, p.ColonyLoan = pl.Cash, pl.Deposit, pl.Credit, pl.ColonyLoan
	p.Labour, p.Narco, p.Skip, p.Protected = pl.Labour, pl.Narco, pl.Skip, pl.Protected
	for g := western.Cars; int(g) < len(pl.Goods); g++ {
		if n := pl.Goods[g]; n > 0 {
			price := v.Prices[g.String()]
			p.Goods = append(p.Goods, goodRow{Name: present.GoodName(l, g.String()), Units: n, Price: price, Value: n * price})
		}
	}
	for cell, o := range v.Owner {
		if int(o) == i && cell >= 1 && cell <= western.NumCells {
			_, leading := v.Rates[cell]
			p.Holdings = append(p.Holdings, holdingRow{N: cell, Name: present.CellName(l, cell), Leading: leading})
		}
	}
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
	v, ok := g.View(reader).(western.View)
	if !ok {
		return "", nil
	}
	b, err := boardpic.SVG(v, names, l)
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

func eventLineOf(l string, e engine.Event, name func(int) string) eventLine {
	return eventLine{Text: eventText(l, e, name), Seat: e.Seat, Turn: e.Type == western.EvTurn || e.Type == western.EvEnd}
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
		for i >= 0 && log[i].Seat == seat { // the turn being made
			i--
		}
		for ; i >= 0; i-- {
			if log[i].Seat == seat {
				from = i + 1
				break
			}
		}
	}
	more = from == 0 && rec.Moves > len(log)
	for _, e := range log[from:] {
		for _, ev := range e.Events {
			if ev.VisibleTo(seat) {
				lines = append(lines, eventLineOf(l, ev, name))
			}
		}
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
		out = append(out, waiting{Name: nameFunc(names)(s), Seat: s, Due: newDeadline(l, due(rec, s), now)})
	}
	return out
}

// optionsText sums up a game's options: "20 кругов, для начинающих".
func optionsText(l string, rec *service.Record) string {
	var o western.Options
	if rec.Kind != western.Name || decodeJSONBytes(rec.Options, &o) != nil {
		return ""
	}
	if o.Laps == 0 {
		o = western.DefaultOptions()
	}
	s := templates.Tf(l, "n_laps", o.Laps)
	if l != "en" {
		s = fmt.Sprintf("%d %s", o.Laps, pluralRU(o.Laps, "круг", "круга", "кругов"))
	}
	if o.Beginners {
		s += ", " + templates.T(l, "beginners_short")
	}
	return s
}

// pluralRU picks the Russian form for n: 1 круг, 2 круга, 5 кругов.
func pluralRU(n int, one, few, many string) string {
	n %= 100
	switch {
	case n >= 11 && n <= 14:
		return many
	case n%10 == 1:
		return one
	case n%10 >= 2 && n%10 <= 4:
		return few
	}
	return many
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

// cellNameShort is a cell's name without its number.
func cellNameShort(l string, n int) string {
	if n < 1 || n > western.NumCells {
		return fmt.Sprint(n)
	}
	if l == "en" {
		return western.Board[n].EN
	}
	return western.Board[n].RU
}
