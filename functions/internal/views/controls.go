package views

import (
	"fmt"
	"slices"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/templates"
)

// ControlText tells what the organiser did (a control of rec), in words
// that agree with any name.
func ControlText(l string, rec *service.Record, c service.Control) string {
	return ControlTextFor(l, rec, c, -1)
}

// ControlTextFor is ControlText for the player of invitation reader
// (−1: anyone else): a control about their own seat is said to them
// ("your seat", issue 27).
func ControlTextFor(l string, rec *service.Record, c service.Control, reader int) string {
	who := "—"
	if c.Seat >= 0 && c.Seat < len(rec.Seats) {
		who = rec.Seats[c.Seat].Name
	}
	if reader >= 0 && reader == c.Seat {
		switch c.What {
		case service.ControlBot:
			return templates.Pick(l, "По решению организатора за ваше место теперь играет бот.", "The organiser has handed your seat to a bot.")
		case service.ControlUnbot:
			if c.By == service.ByPlayer {
				return templates.Pick(l, "Место снова ваше: бот больше не играет.", "You have taken your seat back from the bot.")
			}
			return templates.Pick(l, "По решению организатора бот больше не играет за ваше место.", "The organiser has given your seat back from the bot.")
		case service.ControlReplace:
			sub := "—"
			if c.To >= 0 && c.To < len(rec.Seats) {
				sub = rec.Seats[c.To].Name
			}
			return templates.Pickf(l, "По решению организатора ваше место со всей историей переходит к замене (%s); ваши ссылки на эту игру больше не действуют.",
				"The organiser has given your seat, with its history, to a substitute (%s); your links to this game no longer act.", sub)
		case service.ControlRemove:
			return templates.Pick(l, "По решению организатора вы выходите из игры — при своём следующем решении.",
				"The organiser has removed you from the game: you leave at your next decision.")
		}
	}
	switch c.What {
	case service.ControlPause:
		return templates.Pick(l, "Игра на паузе по решению организатора: сроки ходов стоят, ходы не принимаются, пока игра не продолжится.",
			"The organiser has paused the game: the deadlines stand still and no move is taken until it resumes.")
	case service.ControlResume:
		paused := time.Duration(c.Secs) * time.Second
		if c.Secs == 0 {
			paused = time.Duration(c.Hours) * time.Hour // a control kept before the seconds were
		}
		long := templates.Pick(l, "меньше минуты", "less than a minute")
		if paused >= time.Minute {
			long = Duration(l, paused)
		}
		return templates.Pickf(l, "Игра продолжается по решению организатора; сроки ходов сдвинуты на время паузы (%s).",
			"The organiser has resumed the game; the deadlines moved on by the pause (%s).", long)
	case service.ControlExtend:
		return templates.Pickf(l, "По решению организатора текущий срок хода продлён на %d ч.", "The organiser has extended the current deadline by %d h.", c.Hours)
	case service.ControlBot:
		return templates.Pickf(l, "По решению организатора за место теперь играет бот: %s.", "The organiser has handed %s's seat to a bot.", who)
	case service.ControlUnbot:
		if c.By == service.ByPlayer {
			return templates.Pickf(l, "%s: место снова за игроком, бот больше не играет.", "%s has taken the seat back from the bot.", who)
		}
		return templates.Pickf(l, "По решению организатора бот больше не играет за место: %s.", "The organiser has given %s's seat back from the bot.", who)
	case service.ControlReplace:
		sub := "—"
		if c.To >= 0 && c.To < len(rec.Seats) {
			sub = rec.Seats[c.To].Name
		}
		return templates.Pickf(l, "По решению организатора место со всей историей переходит к замене: %s → %s. Пока замена не примет приглашение, за место играет бот.",
			"The organiser has given %s's seat, with its history, to %s. Until they accept, a bot plays it.", who, sub)
	case service.ControlRemove:
		return templates.Pickf(l, "По решению организатора из игры выходит: %s — при своём следующем решении.",
			"The organiser has removed %s, who leaves the game at their next decision.", who)
	case service.ControlEnd:
		return templates.Pick(l, "Игра окончена по решению организатора: места — по капиталу на этот момент.", "The organiser has ended the game: places by net worth as it stood.")
	case service.ControlCancel:
		return templates.Pick(l, "Игра отменена по решению организатора: она не начнётся, приглашения больше не действуют.",
			"The organiser has cancelled the game: it will not start, and the invitations no longer work.")
	}
	return templates.Pick(l, "Игра изменена по решению организатора.", "The organiser has changed the game.")
}

// AwayText is "away until …" for the pages (until 0: until they are
// back).
func AwayText(l string, until int64) string {
	if until == 0 {
		return templates.Pick(l, "в отъезде, пока не вернётся", "away until back")
	}
	return templates.Pick(l, "в отъезде до ", "away until ") + stamp(until)
}

// MyAwayText is AwayText said to the one away, after «Вы» / "You are".
func MyAwayText(l string, until int64) string {
	if until == 0 {
		return templates.Pick(l, "в отъезде, пока не вернётесь", "away until you are back")
	}
	return AwayText(l, until)
}

// stamp is a time the pages give in UTC.
func stamp(t int64) string { return time.Unix(t, 0).UTC().Format("2006-01-02 15:04 UTC") }

// ControlLine is one control on the organiser's page.
type ControlLine struct{ At, Text string }

// ControlLog words the game's controls, oldest first.
func ControlLog(l string, rec *service.Record) []ControlLine {
	out := make([]ControlLine, 0, len(rec.Controls))
	for _, c := range rec.Controls {
		out = append(out, ControlLine{At: stamp(c.At), Text: ControlText(l, rec, c)})
	}
	return out
}

// TableNotes is what the game page tells of the table beyond the game:
// a pause, who is away until when, and to a seat's player their own
// absence and their seat's bot, with the forms to change them.
type TableNotes struct {
	Paused bool
	Away   []string // "Name — away until …", of every seat away now
	// The reader's own seat: whether they may declare an absence, are
	// away (MyAway says until when), a bot holds their seat, and the
	// allowance they have left.
	CanAway, Bot bool
	MyAway       string
	AwayLeft     string
	Today        string // the date forms start from (YYYY-MM-DD, UTC)
	// AwayURL and BackURL are the reader's pages to declare an absence
	// and to take the seat back from its bot: their forms are there, so
	// the game page's first form stays the default decision.
	AwayURL, BackURL string
}

// Table makes the TableNotes of q's reader.
func Table(q SeatRequest) TableNotes {
	l, rec, now := q.Lang, q.Rec, q.Now.Unix()
	n := TableNotes{Paused: rec.IsPaused(), Today: q.Now.UTC().Format("2006-01-02")}
	absent := rec.Absent(now)
	if rec.Status != service.StatusPlaying && rec.Status != service.StatusInvited {
		absent = nil // a game over has nobody away
	}
	for inv, until := range absent {
		if inv == q.Reader.Invite {
			n.MyAway = MyAwayText(l, until)
			continue
		}
		n.Away = append(n.Away, rec.Seats[inv].Name+" — "+AwayText(l, until))
	}
	slices.Sort(n.Away)
	inv := q.Reader.Invite
	if inv < 0 || inv >= len(rec.Seats) || rec.Seats[inv].Out != "" {
		return n
	}
	switch rec.Status {
	case service.StatusInvited, service.StatusPlaying:
		n.CanAway = true
	}
	if seat := rec.Seats[inv].Engine; rec.Status == service.StatusPlaying && seat >= 0 && seat < len(rec.Bots) {
		n.Bot = rec.Bots[seat]
	}
	if n.CanAway || n.MyAway != "" {
		n.AwayURL = q.Link("/g/" + rec.ID + "/away")
	}
	if n.Bot {
		n.BackURL = q.Link("/g/" + rec.ID + "/back")
	}
	n.AwayLeft = templates.Pickf(l, "Осталось отпуска в этой игре: %s.", "Vacation allowance left in this game: %s.", Duration(l, time.Duration(rec.AwayLeft(inv))*time.Second))
	return n
}

// OrgControls is the organiser's controls on their page: what each seat
// allows, the log of what was done, and the key each form carries (a
// form sent twice acts once).
type OrgControls struct {
	Playing, Paused, CanCancel bool
	Seats                      []OrgSeat
	Log                        []ControlLine
	Key                        string
	MaxHours                   int
}

// OrgSeat is a seat still in the game, as the controls offer it.
type OrgSeat struct {
	Index        int
	Name         string
	Bot, Leaving bool
	Away         string
}

// Controls makes the organiser's controls.
func Controls(q OrgRequest) OrgControls {
	l, rec := q.Lang, q.Rec
	c := OrgControls{Playing: rec.Status == service.StatusPlaying, Paused: rec.IsPaused(), Log: ControlLog(l, rec),
		CanCancel: rec.Status == service.StatusInvited || rec.Status == service.StatusUnconfirmed,
		Key:       fmt.Sprintf("org-%d-%d", len(rec.Controls), rec.Moves), MaxHours: service.MaxDeadlineHours}
	if !c.Playing || q.Game == nil {
		return c
	}
	scores := q.Game.Score()
	away := rec.Absent(q.Now.Unix())
	for i, st := range rec.Seats {
		if st.Engine < 0 || st.Out != "" || scores[st.Engine].Bankrupt {
			continue
		}
		s := OrgSeat{Index: i, Name: st.Name, Bot: st.Engine < len(rec.Bots) && rec.Bots[st.Engine],
			Leaving: st.Engine < len(rec.Leaving) && rec.Leaving[st.Engine]}
		if until, ok := away[i]; ok {
			s.Away = AwayText(l, until)
		}
		c.Seats = append(c.Seats, s)
	}
	return c
}

// AddTable adds to a game's JSON view what the table is told beyond the
// game at now: a pause, the organiser's controls, who a bot plays for,
// who is away and until when, whose seat went to a substitute.
func AddTable(v *GameView, rec *service.Record, now time.Time) {
	v.Paused = rec.IsPaused()
	for _, c := range rec.Controls {
		v.Controls = append(v.Controls, ControlView{What: c.What, At: c.At, Seat: c.Seat, By: c.By, Hours: c.Hours, To: c.To})
	}
	absent := rec.Absent(now.Unix())
	for i := range v.Players {
		p := &v.Players[i]
		st := rec.Seats[p.Index]
		p.Out = st.Out
		p.Bot = st.Engine >= 0 && st.Engine < len(rec.Bots) && rec.Bots[st.Engine]
		p.AwayUntil, p.Away = absent[p.Index]
	}
}
