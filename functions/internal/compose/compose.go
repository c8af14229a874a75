// Package compose writes the service's mails: HTML and text parts in the
// player's language, the board as an inline picture, signed links, and the
// one-click unsubscribe link.
package compose

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/templates"
	// The games the mails show: their presenters register here.
)

// Config wires a Composer.
type Config struct {
	// Games are the games the mails word (the wiring's catalog):
	// required.
	Games   *present.Games
	Service *service.Service
	// BaseURL is the public origin the links point to.
	BaseURL string
	// NoPicture leaves the board picture out (for tests of the text).
	NoPicture bool
}

// Composer implements notify.Composer.
type Composer struct {
	games     *present.Games
	svc       *service.Service
	base      string
	noPicture bool
}

var _ notify.Composer = (*Composer)(nil)

// New makes a Composer.
func New(c Config) *Composer {
	if c.Games == nil {
		panic("compose: Config.Games is nil")
	}
	return &Composer{games: c.Games, svc: c.Service, base: strings.TrimRight(c.BaseURL, "/"), noPicture: c.NoPicture}
}

// Data is what the mail templates read.
type Data struct {
	// Words are what the game calls its score and cash (present.Words).
	Words                         present.Words
	Lang, Subject, Game, Greeting string
	Text, Prompt                  string
	Link, LinkText                string
	Others                        string
	Events                        []string
	Me                            *Position
	Players                       []Position
	Standings                     []Standing
	Deadline, Default             string
	Board                         bool
	PrefsURL, UnsubURL            string
	// BackURL, in a mail to a seat a bot holds, takes the seat back.
	BackURL  string
	RulesURL string       // the game's rules page
	Digest   []DigestGame // the daily digest's games
	// Seed and SeedSHA256: the game-over mail reveals the seed the
	// players were shown the commitment to.
	Seed, SeedSHA256 string
	// Talk is the table talk since the recipient's last mail (talk.go).
	Talk *TalkSection
	// League is what a league's own mail adds (league.go).
	League *LeagueMail
	// Orders says what the seat's standing orders play for it, and
	// OrdersURL changes or turns them off (the invitation and the first
	// decision mail of a seat).
	Orders, OrdersURL string
	// DealsURL is the seat's deals page: offers to answer, offers to
	// prepare for its next turn (a decision mail of a game with deals).
	DealsURL string
	// RecordURL downloads a finished game's record (the end's mail).
	RecordURL string

	zone *time.Location // the recipient's, for the times a mail gives
}

// Position is a player's standing in a running game, as the game's
// presenter words it from the recipient's view (P-3).
type Position struct {
	Name, Cell, Laps string
	Cash, NetWorth   string
	Facts            []present.Fact
	Lists            []Line
	Bankrupt         bool
}

// Line is a titled list of what a player holds, in one line.
type Line struct{ Title, Text string }

// Standing is a line of the final table.
type Standing struct {
	Place    int
	Name     string
	NetWorth string
	Bankrupt bool
	Parts    string
}

// Compose writes the mail an outbox entry stands for.
func (c *Composer) Compose(ctx context.Context, rec *service.Record, version int64, m service.Mail) (notify.Message, error) {
	to, err := notify.Recipient(rec, m)
	if err != nil {
		return notify.Message{}, err
	}
	l := to.Lang
	p := c.player(ctx, to.Email)
	d := Data{Words: c.games.For(rec.Kind).Words(l), Lang: l, Game: c.games.GameName(l, rec.Kind), Greeting: greeting(l, to.Name), zone: zoneOf(p)}
	if d.PrefsURL, d.UnsubURL, err = c.personal(ctx, p, l); err != nil {
		return notify.Message{}, err
	}
	msg := notify.Message{ID: rec.ID + "/" + m.ID, To: to.Email, Unsubscribe: d.UnsubURL,
		Tags: map[string]string{"game": rec.ID, "mail": m.Kind}}

	switch m.Kind {
	case service.MailConfirm:
		// Made by anyone for any address: nothing the creator wrote, not
		// even the organiser's name, and the other language too, since
		// the recipient chose neither.
		d.Greeting = greeting(l, "")
		other := templates.Pick(l, "en", "ru")
		d.Subject = templates.Pick(l, "Подтвердите адрес для игры «"+d.Game+"»", "Confirm your address for a game of "+d.Game)
		d.Text = fmt.Sprintf(templates.T(l, "mail_confirm"), d.Game, len(rec.Seats))
		d.Prompt = templates.T(l, "mail_confirm_not_me")
		d.Others = fmt.Sprintf(templates.T(other, "mail_confirm"), c.games.GameName(other, rec.Kind), len(rec.Seats)) + " " +
			templates.T(other, "mail_confirm_not_me")
		d.LinkText = templates.T(l, "confirm_btn")
		d.Link, err = c.link("/g/"+rec.ID+"/confirm", linksign.PurposeConfirm, rec.ID, linksign.NoSeat, 0, service.ConfirmTokenTTL, l)
	case service.MailInvite:
		d.Subject = templates.Pick(l, "Приглашение в игру «"+d.Game+"»", "Invitation to a game of "+d.Game)
		if org := rec.Organiser.Name; org != "" && org != "—" { // who invites tells one invitation from another
			d.Subject = templates.Pick(l, org+" приглашает вас в игру «"+d.Game+"»", org+" invites you to a game of "+d.Game)
		}
		if rec.Name != "" { // and the name the organiser gave it, as every later subject has (issue 27)
			d.Subject = rec.Name + ": " + d.Subject
		}
		d.LinkText = templates.T(l, "accept_invite")
		d.Link, err = c.link("/g/"+rec.ID+"/invite", linksign.PurposeInvite, rec.ID, m.Seat, 0, service.InviteTokenTTL, l)
		if specs, serr := service.OrderSpecsOf(c.games.Engines(), rec); serr == nil {
			o := rec.SeatOrders(m.Seat)
			if d.Orders = views.OrdersSummary(l, c.games.For(rec.Kind), specs, o); len(o) > 0 {
				d.Orders += " " + templates.T(l, "orders_after_accept")
			}
		}
		var names []string
		for _, s := range rec.Seats {
			if s.Out == "" { // not whom a substitute replaces
				names = append(names, s.Name)
			}
		}
		d.Others = strings.Join(names, ", ")
		d.RulesURL = c.base + "/rules/" + rec.Kind + "?lang=" + l
	case service.MailAccepted:
		who := "—"
		if m.About >= 0 && m.About < len(rec.Seats) {
			who = rec.Seats[m.About].Name
		}
		d.Subject = rec.Title(l, d.Game) + ": " + templates.Pick(l, who+" — приглашение принято", who+" accepted")
		d.Text = acceptedText(l, who)
		d.LinkText = templates.T(l, "organiser_page")
		d.Link, err = c.organiserLink(rec.ID, l)
	case service.MailTurn, service.MailDecision, service.MailReminder, service.MailOver:
		err = c.game(rec, version, m, &d, &msg)
		if err == nil {
			d.Talk, err = c.foldTalk(ctx, rec, m.Seat, l, func() *time.Location { return d.zone })
		}
	case service.MailDeal:
		err = c.deal(rec, m, &d)
		if err == nil {
			d.Talk, err = c.foldTalk(ctx, rec, m.Seat, l, func() *time.Location { return d.zone })
		}
	case service.MailControl:
		err = c.control(rec, m, &d)
		if err == nil && d.Link != "" { // a mail to a seat still at the table
			d.Talk, err = c.foldTalk(ctx, rec, m.Seat, l, func() *time.Location { return d.zone })
		}
	default:
		err = fmt.Errorf("unknown kind of mail %q", m.Kind)
	}
	if err == nil {
		d.BackURL, err = c.backLink(rec, m, l)
	}
	if err != nil {
		return notify.Message{}, fmt.Errorf("compose %s: %w", m.ID, err)
	}
	msg.Subject = d.Subject
	var html, text bytes.Buffer
	tmpl := m.Kind
	if tmpl == service.MailReminder {
		tmpl = service.MailTurn
	}
	if err := templates.MailHTML().ExecuteTemplate(&html, tmpl, d); err != nil {
		return notify.Message{}, fmt.Errorf("compose %s html: %w", m.ID, err)
	}
	if err := templates.MailText().ExecuteTemplate(&text, tmpl, d); err != nil {
		return notify.Message{}, fmt.Errorf("compose %s text: %w", m.ID, err)
	}
	msg.HTML, msg.Text = html.String(), text.String()
	if err := c.markTalk(ctx, d.Talk); err != nil {
		return notify.Message{}, fmt.Errorf("compose %s: %w", m.ID, err)
	}
	return msg, nil
}

// game fills the parts of the mails about a game in play or over.
func (c *Composer) game(rec *service.Record, version int64, m service.Mail, d *Data, msg *notify.Message) error {
	g, err := c.svc.Engine(rec)
	if err != nil {
		return err
	}
	l := d.Lang
	seat := engine.Spectator
	if m.Seat >= 0 && m.Seat < len(rec.Seats) {
		seat = rec.Seats[m.Seat].Engine
	}
	names := make([]string, g.Seats())
	for _, s := range rec.Seats {
		if s.Engine >= 0 && s.Accepted {
			names[s.Engine] = s.Name
		}
	}
	name := func(s int) string {
		if s >= 0 && s < len(names) {
			return names[s]
		}
		return "—"
	}
	pr := c.games.For(rec.Kind)
	view := g.View(seat)
	scores := g.Score()
	for i, p := range pr.Seats(l, view) {
		pos := position(l, pr, p, name(i), scores[i].NetWorth)
		if i == seat {
			me := pos
			d.Me = &me
		}
		d.Players = append(d.Players, pos)
	}

	if m.Kind == service.MailOver {
		d.Subject = rec.Title(l, d.Game) + ": " + templates.Pick(l, "игра окончена", "the game is over")
		d.LinkText = templates.T(l, "see_results")
		d.Seed, d.SeedSHA256 = rec.RevealedSeed(), rec.SeedCommitment()
		d.Text = overText(rec, pr, l, name)
		for place := 1; place <= len(scores); place++ {
			for _, sc := range scores {
				if sc.Place == place {
					d.Standings = append(d.Standings, Standing{Place: place, Name: name(sc.Seat), NetWorth: pr.Money(l, sc.NetWorth),
						Bankrupt: sc.Bankrupt, Parts: parts(l, pr, sc.Parts)})
				}
			}
		}
		d.Link, err = c.overLink(rec.ID, m.Seat, "", l)
		if err == nil {
			d.RecordURL, err = c.overLink(rec.ID, m.Seat, "/record", l)
		}
	} else {
		// A mail asking for a decision the seat no longer owes is not
		// sent: the player has already acted.
		if !owes(g, seat) {
			return notify.ErrObsolete
		}
		d.Subject = rec.Title(l, d.Game) + ": " + templates.Pick(l, "ваш ход", "your move")
		d.Text = templates.Pick(l, "Ваш ход.", "It is your move.")
		d.Prompt = pr.Prompt(l, view, seat, true, name)
		if m.Kind == service.MailDecision || g.Turn() != seat {
			d.Subject = rec.Title(l, d.Game) + ": " + templates.Pick(l, "нужно ваше решение", "a decision is asked of you")
			d.Text, d.Prompt = d.Prompt, ""
			if d.Text == "" {
				d.Text = templates.Pick(l, "От вас ждут решения.", "A decision is asked of you.")
			}
		}
		if m.Kind == service.MailReminder {
			d.Subject = templates.Pick(l, "Напоминание — ", "Reminder — ") + d.Subject
		}
		if m.Due > 0 {
			d.Deadline = time.Unix(m.Due, 0).In(d.zone).Format("2006-01-02 15:04") + " " + d.zone.String()
		}
		if a, ok := g.Default(seat); ok {
			d.Default = pr.ActionLabel(l, a, name)
		}
		d.LinkText = templates.T(l, "open_game")
		d.Events = sinceLastMove(rec, pr, seat, l, name)
		d.Link, err = c.seatLink(rec.ID, m.Seat, rec.SeatPosition(seat), l)
		if err == nil && m.Orders {
			err = c.ordersLine(rec, m.Seat, d)
		}
		if info, _ := c.games.Engines().Lookup(rec.Kind); info.Deals && err == nil {
			d.DealsURL, err = c.link("/g/"+rec.ID+"/deals", linksign.PurposeSeat, rec.ID, m.Seat, 0, service.SeatTokenTTL, l)
		}
	}
	if err != nil {
		return err
	}
	if !c.noPicture {
		png, err := present.Board(pr).PNG(view, names, l)
		if errors.Is(err, boardpic.ErrNoPicture) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("board picture: %w", err)
		}
		msg.Inline = append(msg.Inline, notify.Inline{ContentID: "board", ContentType: "image/png", FileName: "board.png", Data: png})
		d.Board = true
	}
	return nil
}

// deal fills the mail asking a seat to answer a deal (an offer made to
// it, or the purchase it kept for later): what it is, by when, what its
// deadline plays, and the link to its deals page, where it answers,
// declines or counters. A deal closed meanwhile needs no mail.
func (c *Composer) deal(rec *service.Record, m service.Mail, d *Data) error {
	g, err := c.svc.Engine(rec)
	if err != nil {
		return err
	}
	seat := rec.Seats[m.Seat].Engine
	var deal *engine.Deal
	if dl, ok := g.(engine.Dealing); ok {
		for _, x := range dl.Deals() {
			if x.ID == m.Deal && x.To == seat {
				deal = &x
			}
		}
	}
	if deal == nil {
		return notify.ErrObsolete
	}
	l := d.Lang
	names := views.SeatNames(rec, g.Seats())
	name := views.NameFunc(names)
	pr := c.games.For(rec.Kind)
	d.Text = present.DealText(l, pr, *deal, seat, name)
	if deal.From == engine.Bank {
		d.Subject = rec.Title(l, d.Game) + ": " + templates.Pick(l, "отложенная покупка", "a purchase kept for later")
	} else {
		d.Subject = rec.Title(l, d.Game) + ": " + templates.Pick(l, "предложение — ", "an offer from ") + name(deal.From)
	}
	d.Prompt = templates.T(l, "deal_answer_any_time")
	if deal.From == engine.Bank {
		d.Prompt = templates.T(l, "deal_hold_prompt")
	}
	if m.Due > 0 {
		d.Deadline = time.Unix(m.Due, 0).In(d.zone).Format("2006-01-02 15:04") + " " + d.zone.String()
	}
	d.Default = templates.T(l, "deal_decline")
	d.LinkText = templates.T(l, "deal_open_page")
	d.Link, err = c.link("/g/"+rec.ID+"/deals", linksign.PurposeSeat, rec.ID, m.Seat, 0, service.SeatTokenTTL, l)
	return err
}

// ordersLine says in d what the standing orders of invitation inv play
// for it, with the link that changes or turns them off.
func (c *Composer) ordersLine(rec *service.Record, inv int, d *Data) error {
	specs, err := service.OrderSpecsOf(c.games.Engines(), rec)
	if err != nil {
		return err
	}
	d.Orders = views.OrdersSummary(d.Lang, c.games.For(rec.Kind), specs, rec.SeatOrders(inv))
	d.OrdersURL, err = c.link("/g/"+rec.ID+"/orders", linksign.PurposeSeat, rec.ID, inv, 0, service.SeatTokenTTL, d.Lang)
	return err
}

func owes(g engine.Game, seat int) bool {
	for _, s := range g.Owing() {
		if s == seat {
			return true
		}
	}
	return false
}

// sinceLastMove tells what the seat may see of what happened after its
// player's own last command still in the game item (at most 40 lines, the
// newest): the others' moves, and what its standing orders and missed
// deadlines played for it, each said as such, so nothing is hidden.
func sinceLastMove(rec *service.Record, pr present.Game, seat int, l string, name func(int) string) []string {
	log, err := rec.Recent()
	if err != nil {
		return nil
	}
	from := 0
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Seat == seat && !log[i].Delegated() {
			from = i + 1
			break
		}
	}
	var out []string
	for _, e := range log[from:] {
		if e.Seat == seat {
			if t := present.PlayedFor(l, pr, e.Action, e.By, name); t != "" {
				out = append(out, t)
			}
		}
		for _, ev := range e.Events {
			if !ev.VisibleTo(seat) {
				continue
			}
			if t := present.EventText(l, pr, ev, seat, name); t != "" {
				out = append(out, t)
			}
		}
	}
	if len(out) > 40 {
		out = append([]string{"…"}, out[len(out)-40:]...)
	}
	return out
}

// overText says why the game ended, from the newest entries of its log.
func overText(rec *service.Record, pr present.Game, l string, name func(int) string) string {
	log, err := rec.Recent()
	if err != nil || len(log) == 0 {
		return ""
	}
	return present.OverText(pr, l, log[len(log)-1].Events, name)
}

// position words what the recipient's view shows of one seat.
func position(l string, pr present.Game, p present.Seat, name string, nw int64) Position {
	pos := Position{Name: name, Cell: p.Cell, Cash: pr.Money(l, p.Cash), NetWorth: pr.Money(l, nw), Facts: p.Facts, Bankrupt: p.Bankrupt}
	if p.LapsOf > 0 {
		pos.Laps = templates.Tf(l, "lap_of", p.Laps, p.LapsOf)
	}
	for _, ls := range p.Lists {
		var items []string
		for _, it := range ls.Items {
			items = append(items, it.Text)
		}
		pos.Lists = append(pos.Lists, Line{Title: ls.Title, Text: strings.Join(items, "; ")})
	}
	return pos
}

// parts writes a net-worth breakdown in the game's order.
func parts(l string, pr present.Game, p map[string]int64) string {
	var out []string
	for _, x := range pr.Parts(l, p) {
		if x.Value != 0 {
			out = append(out, strings.ToLower(x.Label)+" "+pr.Money(l, x.Value))
		}
	}
	return strings.Join(out, ", ")
}

// zoneOf is the time zone the player chose on "my games" (their
// browser's guess, saved), UTC when none is known.
func zoneOf(p store.Player) *time.Location {
	z, err := service.ZoneOf(p.TimeZone)
	if err != nil {
		return time.UTC
	}
	return z
}

// link signs a token and builds a page URL.
func (c *Composer) link(path string, p linksign.Purpose, game string, seat int, version int64, ttl time.Duration, l string) (string, error) {
	tok, err := c.svc.Token(p, game, seat, version, ttl)
	if err != nil {
		return "", err
	}
	return c.base + path + "?" + url.Values{"t": {tok}, "lang": {l}}.Encode(), nil
}

// seatLink is the link to a game's page for seat, with the seat's
// position (SeatPosition) for a decision's link, 0 otherwise.
func (c *Composer) seatLink(game string, seat int, position int64, l string) (string, error) {
	return c.link("/g/"+game, linksign.PurposeSeat, game, seat, position, service.SeatTokenTTL, l)
}

// overLink is the link to a finished game's page (path "") or one of its
// pages, for invitation seat or, below 0, the organiser.
func (c *Composer) overLink(game string, seat int, path, l string) (string, error) {
	if seat < 0 {
		return c.link("/g/"+game+path, linksign.PurposeOrganiser, game, linksign.NoSeat, 0, service.OrganiserTokenTTL, l)
	}
	return c.link("/g/"+game+path, linksign.PurposeSeat, game, seat, 0, service.SeatTokenTTL, l)
}

// organiserLink is the link to a game's organiser page.
func (c *Composer) organiserLink(game, l string) (string, error) {
	return c.link("/g/"+game+"/org", linksign.PurposeOrganiser, game, linksign.NoSeat, 0, service.OrganiserTokenTTL, l)
}

// acceptedText tells that a player accepted, in words that agree with
// any name: Russian past tense would need the player's gender.
func acceptedText(l, name string) string {
	return templates.Pick(l, name+" — приглашение принято.", name+" has accepted the invitation.")
}

func greeting(l, name string) string {
	if name == "" || name == "—" {
		return templates.Pick(l, "Здравствуйте!", "Hello,")
	}
	return templates.Pick(l, "Здравствуйте, "+name+"!", "Hello "+name+",")
}
