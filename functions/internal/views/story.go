package views

import (
	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// EventLine is one line of a game's story.
type EventLine struct {
	Text string
	Seat int  // whom it concerns, −1 for nobody in particular
	Turn bool // a new turn begins
}

// EventLines tells the events reader may see (P-3), leaving out those
// the presenter does not word.
func EventLines(l string, p present.Game, evs []engine.Event, reader int, name func(int) string) []EventLine {
	var out []EventLine
	for _, e := range evs {
		if !e.VisibleTo(reader) {
			continue
		}
		if t := present.EventText(l, p, e, reader, name); t != "" {
			out = append(out, EventLine{Text: t, Seat: e.Seat, Turn: p.TurnEvent(e)})
		}
	}
	return out
}

// StorySince tells what seat may see of what happened since its own
// previous turn, among the entries still in the game item: the others'
// moves, then its own in the turn it is making (for a reader with no
// seat, or one that has not moved yet: the last lines). It keeps at most
// max lines, the newest; more tells that older lines were left out.
func StorySince(p present.Game, rec *service.Record, seat int, l string, name func(int) string, max int) (lines []EventLine, more bool) {
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
	for _, e := range log[from:] {
		if e.Seat == seat {
			if t := present.PlayedFor(l, p, e.Action, e.By, name); t != "" {
				lines = append(lines, EventLine{Text: t, Seat: seat})
			}
		}
		lines = append(lines, EventLines(l, p, e.Events, seat, name)...)
	}
	if len(lines) > max {
		lines, more = lines[len(lines)-max:], true
	}
	return lines, more
}
