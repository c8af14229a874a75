// Package compose writes the service's mails: HTML and text parts in the
// player's language, the board as an inline picture, signed links, and the
// one-click unsubscribe link.
package compose

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// Config wires a Composer.
type Config struct {
	Service *service.Service
	// BaseURL is the public origin the links point to.
	BaseURL string
	// NoPicture leaves the board picture out (for tests of the text).
	NoPicture bool
}

// Composer implements notify.Composer.
type Composer struct {
	svc       *service.Service
	base      string
	noPicture bool
}

var _ notify.Composer = (*Composer)(nil)

// New makes a Composer.
func New(c Config) *Composer {
	return &Composer{svc: c.Service, base: strings.TrimRight(c.BaseURL, "/"), noPicture: c.NoPicture}
}

// Data is what the mail templates read.
type Data struct {
	Lang, Subject, Game, Greeting string
	Text                          string
	Link, LinkText                string
	Others                        string
	Events                        []string
	Me                            *Position
	Players                       []Position
	Standings                     []Standing
	Deadline, Default             string
	Board                         bool
	PrefsURL, UnsubURL            string
}

// Position is a player's standing in a running game.
type Position struct {
	Name, Cell, Goods, Holdings     string
	Cash, Deposit, Credit, NetWorth int64
	Bankrupt                        bool
}

// Standing is a line of the final table.
type Standing struct {
	Place    int
	Name     string
	NetWorth int64
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
	d := Data{Lang: l, Game: present.GameName(l, rec.Kind), Greeting: greeting(l, to.Name)}
	if d.PrefsURL, err = c.link("/me", linksign.PurposeMyGames, to.Email, linksign.NoSeat, 0, service.OrganiserTokenTTL, l); err != nil {
		return notify.Message{}, err
	}
	if d.UnsubURL, err = c.link("/unsubscribe", linksign.PurposeUnsubscribe, to.Email, linksign.NoSeat, 0, service.OrganiserTokenTTL, l); err != nil {
		return notify.Message{}, err
	}
	msg := notify.Message{ID: rec.ID + "/" + m.ID, To: to.Email, Unsubscribe: d.UnsubURL,
		Tags: map[string]string{"game": rec.ID, "mail": m.Kind}}

	switch m.Kind {
	case service.MailInvite:
		d.Subject = pick(l, "Приглашение в игру «"+d.Game+"»", "Invitation to a game of "+d.Game)
		d.LinkText = templates.T(l, "accept_invite")
		d.Link, err = c.link("/g/"+rec.ID+"/invite", linksign.PurposeInvite, rec.ID, m.Seat, 0, service.InviteTokenTTL, l)
		var names []string
		for _, s := range rec.Seats {
			names = append(names, s.Name)
		}
		d.Others = strings.Join(names, ", ")
	case service.MailAccepted:
		who := "—"
		if m.About >= 0 && m.About < len(rec.Seats) {
			who = rec.Seats[m.About].Name
		}
		d.Subject = pick(l, "«"+d.Game+"»: "+who+" принял приглашение", d.Game+": "+who+" accepted")
		d.Text = pick(l, who+" принял приглашение.", who+" has accepted the invitation.")
		d.LinkText = templates.T(l, "organiser_page")
		d.Link, err = c.link("/g/"+rec.ID+"/org", linksign.PurposeOrganiser, rec.ID, linksign.NoSeat, 0, service.OrganiserTokenTTL, l)
	case service.MailTurn, service.MailDecision, service.MailReminder, service.MailOver:
		err = c.game(rec, version, m, &d, &msg)
	default:
		err = fmt.Errorf("unknown kind of mail %q", m.Kind)
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
	if err := templates.MailHTML.ExecuteTemplate(&html, tmpl, d); err != nil {
		return notify.Message{}, fmt.Errorf("compose %s html: %w", m.ID, err)
	}
	if err := templates.MailText.ExecuteTemplate(&text, tmpl, d); err != nil {
		return notify.Message{}, fmt.Errorf("compose %s text: %w", m.ID, err)
	}
	msg.HTML, msg.Text = html.String(), text.String()
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
	view, _ := g.View(seat).(western.View)
	scores := g.Score()
	for i, p := range view.Players {
		pos := position(l, view, i, name(i), scores[i].NetWorth)
		if i == seat {
			me := pos
			me.Bankrupt = p.Bankrupt
			d.Me = &me
		}
		d.Players = append(d.Players, pos)
	}

	if m.Kind == service.MailOver {
		d.Subject = pick(l, "«"+d.Game+"»: игра окончена", d.Game+": the game is over")
		d.LinkText = templates.T(l, "see_results")
		for place := 1; place <= len(scores); place++ {
			for _, sc := range scores {
				if sc.Place == place {
					d.Standings = append(d.Standings, Standing{Place: place, Name: name(sc.Seat), NetWorth: sc.NetWorth,
						Bankrupt: sc.Bankrupt, Parts: parts(l, sc.Parts)})
				}
			}
		}
		d.Link, err = c.link("/g/"+rec.ID, linksign.PurposeSeat, rec.ID, m.Seat, 0, service.SeatTokenTTL, l)
	} else {
		// A mail asking for a decision the seat no longer owes is not
		// sent: the player has already acted.
		if !owes(g, seat) {
			return notify.ErrObsolete
		}
		d.Subject = pick(l, "«"+d.Game+"»: ваш ход", d.Game+": your move")
		d.Text = pick(l, "Ваш ход.", "It is your move.")
		if m.Kind == service.MailDecision || view.Phase == western.PhAuction || view.Turn != seat {
			d.Subject = pick(l, "«"+d.Game+"»: нужно ваше решение", d.Game+": a decision is asked of you")
			d.Text = decisionText(l, view, name)
		}
		if m.Kind == service.MailReminder {
			d.Subject = pick(l, "Напоминание — ", "Reminder — ") + d.Subject
		}
		if m.Due > 0 {
			d.Deadline = time.Unix(m.Due, 0).UTC().Format("2006-01-02 15:04 UTC")
		}
		if a, ok := g.Default(seat); ok {
			d.Default = present.ActionLabel(l, a)
		}
		d.LinkText = templates.T(l, "open_game")
		d.Events = sinceLastMove(rec, seat, l, name)
		d.Link, err = c.link("/g/"+rec.ID, linksign.PurposeSeat, rec.ID, m.Seat, rec.SeatPosition(seat), service.SeatTokenTTL, l)
	}
	if err != nil {
		return err
	}
	if !c.noPicture {
		png, err := boardpic.PNG(view, names, l)
		if err != nil {
			return fmt.Errorf("board picture: %w", err)
		}
		msg.Inline = append(msg.Inline, notify.Inline{ContentID: "board", ContentType: "image/png", FileName: "board.png", Data: png})
		d.Board = true
	}
	return nil
}

func owes(g engine.Game, seat int) bool {
	for _, s := range g.Owing() {
		if s == seat {
			return true
		}
	}
	return false
}

// decisionText says what is asked of a seat out of turn (P-2).
func decisionText(l string, v western.View, name func(int) string) string {
	switch {
	case v.Offer != nil:
		return pick(l,
			fmt.Sprintf("%s предлагает купить вашу акцию %s за %s $. Согласны?", name(v.Offer.From), present.CellName(l, v.Offer.Cell), templates.Money(v.Offer.Price)),
			fmt.Sprintf("%s offers to buy your share of %s for $%s. Do you accept?", name(v.Offer.From), present.CellName(l, v.Offer.Cell), templates.Money(v.Offer.Price)))
	case v.Auction != nil:
		return pick(l,
			fmt.Sprintf("Торги: банк продаёт %s. Ваша закрытая ставка — от %s $; видна только вам до конца торгов.", present.CellName(l, v.Auction.Cell), templates.Money(v.Auction.Min)),
			fmt.Sprintf("Auction: the bank sells %s. Your sealed bid starts at $%s; nobody sees it until the auction closes.", present.CellName(l, v.Auction.Cell), templates.Money(v.Auction.Min)))
	}
	return pick(l, "От вас ждут решения.", "A decision is asked of you.")
}

// sinceLastMove tells what the seat may see of what happened after its
// own last command still in the game item (at most 40 lines, the newest).
func sinceLastMove(rec *service.Record, seat int, l string, name func(int) string) []string {
	log, err := rec.Recent()
	if err != nil {
		return nil
	}
	from := 0
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Seat == seat {
			from = i + 1
			break
		}
	}
	var out []string
	for _, e := range log[from:] {
		for _, ev := range e.Events {
			if ev.VisibleTo(seat) {
				out = append(out, present.EventText(l, ev, name))
			}
		}
	}
	if len(out) > 40 {
		out = append([]string{"…"}, out[len(out)-40:]...)
	}
	return out
}

func position(l string, v western.View, i int, name string, nw int64) Position {
	p := v.Players[i]
	var hold, goods []string
	for cell, o := range v.Owner {
		if int(o) == i {
			hold = append(hold, present.CellName(l, cell))
		}
	}
	for g, n := range p.Goods {
		if n > 0 {
			goods = append(goods, fmt.Sprintf("%s %d", present.GoodName(l, western.Good(g).String()), n))
		}
	}
	none := pick(l, "нет", "none")
	join := func(s []string) string {
		if len(s) == 0 {
			return none
		}
		return strings.Join(s, ", ")
	}
	return Position{Name: name, Cell: present.CellName(l, p.Cell), Cash: p.Cash, Deposit: p.Deposit, Credit: p.Credit,
		NetWorth: nw, Goods: join(goods), Holdings: join(hold), Bankrupt: p.Bankrupt}
}

// parts writes a net-worth breakdown (W-40).
func parts(l string, p map[string]int64) string {
	order := []struct{ key, ru, en string }{
		{western.PartCash, "наличные", "cash"}, {western.PartDeposit, "вклад", "deposit"},
		{western.PartShares, "акции", "shares"}, {western.PartGoods, "товары", "goods"},
		{western.PartCredit, "кредит", "credit"}, {western.PartLoan, "заём колонии", "colony loan"},
		{western.PartStartLoan, "ссуда", "start loan"},
	}
	var out []string
	for _, o := range order {
		if v, ok := p[o.key]; ok && v != 0 {
			out = append(out, pick(l, o.ru, o.en)+" "+templates.Money(v))
		}
	}
	return strings.Join(out, ", ")
}

// link signs a token and builds a page URL.
func (c *Composer) link(path string, p linksign.Purpose, game string, seat int, version int64, ttl time.Duration, l string) (string, error) {
	tok, err := c.svc.Token(p, game, seat, version, ttl)
	if err != nil {
		return "", err
	}
	return c.base + path + "?" + url.Values{"t": {tok}, "lang": {l}}.Encode(), nil
}

func greeting(l, name string) string {
	if name == "" || name == "—" {
		return pick(l, "Здравствуйте!", "Hello,")
	}
	return pick(l, "Здравствуйте, "+name+"!", "Hello "+name+",")
}

func pick(l, ru, en string) string {
	if l == "en" {
		return en
	}
	return ru
}
