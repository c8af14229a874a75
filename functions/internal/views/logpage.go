package views

import (
	"strconv"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
)

// logPageSize is how many commands one page of the log lists.
const logPageSize = 50

// LogRow is one command of the log as its reader may see it (P-3).
type LogRow struct {
	N      int // 1-based
	Seat   int
	Name   string
	Action string
	At     string
	Events []EventLine
	Step   string // the replay after it
}

// LogPage is the log page: a page of commands, or the replay at a step.
type LogPage struct {
	// Words are what the game calls its score and cash (present.Words).
	Words present.Words `json:"-"`
	Total int
	// The list.
	Entries               []LogRow
	From, To              int // 1-based, inclusive
	Earlier, Later        string
	First, Last, StartURL string
	// The replay.
	Replay                                            bool
	Step                                              int
	Entry                                             *LogRow
	Squares                                           []present.Square // the board in words
	Panels                                            []Panel
	Back, Back10, Fwd, Fwd10, ToStart, ToEnd, ListURL string
	// At is the game replayed to Step, Seat the reader's engine seat and
	// Names the players' names: what the board is drawn for.
	At    engine.Game
	Seat  int
	Names []string
}

// LogRequest is what a log page is made from.
type LogRequest struct {
	Games   *present.Games
	Lang    string
	Rec     *service.Record
	History *History
	Reader  Reader
	// Replay asks for the game after its first Step commands, else the
	// list from command From (1-based; 0: the last page, the newest).
	Replay bool
	Step   int
	From   int
	// Link makes a link to another page of the game for the same reader,
	// in the same language: its path, then query names and values.
	Link func(path string, query ...string) string
}

// Log makes the log page of q's reader: the game's commands with what
// the reader may see of them, a page at a time, or the board and the
// players as they were after a command, replayed from the seed.
func Log(q LogRequest) (LogPage, error) {
	d := LogPage{Words: q.Games.For(q.Rec.Kind).Words(q.Lang), Total: len(q.History.Entries), Seat: q.Reader.Seat(q.Rec), Names: SeatNames(q.Rec, q.History.Seats)}
	d.StartURL, d.ListURL = q.link("step", 0), q.Link("/g/"+q.Rec.ID+"/log")
	if q.Replay {
		return d, d.replay(q)
	}
	from := (max(d.Total-1, 0))/logPageSize*logPageSize + 1
	if q.From > 0 {
		from = min(q.From, max(d.Total, 1))
	}
	d.From, d.To = from, min(from+logPageSize-1, d.Total)
	for i := d.From - 1; i < d.To; i++ {
		d.Entries = append(d.Entries, d.row(q, i))
	}
	if d.From > 1 {
		d.Earlier, d.First = q.link("from", max(d.From-logPageSize, 1)), q.link("from", 1)
	}
	if d.To < d.Total {
		d.Later, d.Last = q.link("from", d.To+1), q.Link("/g/"+q.Rec.ID+"/log")
	}
	return d, nil
}

// replay fills in the game after its first q.Step commands.
func (d *LogPage) replay(q LogRequest) error {
	step := min(max(q.Step, 0), d.Total)
	g, err := q.History.At(step)
	if err != nil {
		return err
	}
	d.Replay, d.Step, d.At = true, step, g
	if step > 0 {
		e := d.row(q, step-1)
		d.Entry = &e
		d.ListURL = q.link("from", (step-1)/logPageSize*logPageSize+1)
	}
	d.Panels = Panels(q.Lang, q.Games.For(q.Rec.Kind), g, d.Seat, d.Names)
	d.Squares = q.Games.For(q.Rec.Kind).Squares(q.Lang, g.View(d.Seat), NameFunc(d.Names))
	d.ToStart, d.ToEnd = q.link("step", 0), q.link("step", d.Total)
	if step > 0 {
		d.Back, d.Back10 = q.link("step", step-1), q.link("step", max(step-10, 0))
	}
	if step < d.Total {
		d.Fwd, d.Fwd10 = q.link("step", step+1), q.link("step", min(step+10, d.Total))
	}
	return nil
}

// row is command i of the log as the reader may see it.
func (d *LogPage) row(q LogRequest, i int) LogRow {
	l, pr, name := q.Lang, q.Games.For(q.Rec.Kind), NameFunc(d.Names)
	e := q.History.Entries[i]
	le := LogRow{N: i + 1, Seat: e.Seat, Name: name(e.Seat), Action: pr.Command(l, e.Action, name),
		At: DateTime(l, time.Unix(e.At, 0).UTC()), Step: q.link("step", i+1)}
	if Hidden(q.Games, q.Rec.Kind, e, d.Seat) {
		le.Action = pr.SecretText(l) // its details stay secret (P-3)
	}
	if e.Seat == d.Seat {
		// Only the seat itself is told its orders played it.
		if t := present.PlayedFor(l, pr, e.Action, e.By, name); t != "" {
			le.Action = t
		}
	}
	le.Events = EventLines(l, pr, e.Events, d.Seat, name)
	return le
}

// link is a link to the log page with one query value.
func (q LogRequest) link(k string, v int) string {
	return q.Link("/g/"+q.Rec.ID+"/log", k, strconv.Itoa(v))
}

// Hidden tells whether the command's details are secret from seat: a
// secret action (a sealed bid) of another seat, as its game says.
func Hidden(gs *present.Games, kind string, e service.Entry, seat int) bool {
	return e.Seat != seat && gs.Engines().Secret(kind, e.Action)
}
