package compose

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/templates"
)

var _ notify.TalkComposer = (*Composer)(nil)

// TalkMail writes the mail of its own that a seat which asked for each
// message of the table talk gets (service/talkmail.go): the talk since
// its last mail, as a turn mail would fold it in, and a link to the talk
// page, where one button stops such mails. False when there is nothing
// new to tell (a mail since told it). Its talk counts as mailed.
func (c *Composer) TalkMail(ctx context.Context, rec *service.Record, seat int) (notify.Message, bool, error) {
	m := service.Mail{Kind: service.MailControl, Seat: seat}
	to, err := notify.Recipient(rec, m)
	if err != nil {
		return notify.Message{}, false, err
	}
	l := to.Lang
	p := c.player(ctx, to.Email)
	d := Data{Words: c.games.For(rec.Kind).Words(l), Lang: l, Game: c.games.GameName(l, rec.Kind), Greeting: greeting(l, to.Name), zone: zoneOf(p)}
	if d.Talk, err = c.foldTalk(ctx, rec, seat, l, func() *time.Location { return d.zone }); err != nil || d.Talk == nil {
		return notify.Message{}, false, err
	}
	if d.PrefsURL, d.UnsubURL, err = c.personal(ctx, p, l); err != nil {
		return notify.Message{}, false, err
	}
	d.Subject = rec.Title(l, d.Game) + ": " + templates.Pick(l, "новое за столом", "new at the table")
	d.Text = templates.Pick(l,
		"Вы просили присылать каждое сообщение за столом этой игры. Не нужно? На странице разговора одна кнопка вернёт их в письма о ходах.",
		"You asked to be mailed each message at this game's table. Had enough? On the talk page one button puts them back into your turn mails.")
	d.LinkText, d.Link = templates.Pick(l, "Ответить или отключить эти письма", "Reply, or stop these mails"), d.Talk.Link+"#mail-each"
	msg := notify.Message{ID: rec.ID + "/talk/" + strconv.Itoa(seat) + "/" + d.Talk.upTo, To: to.Email, Subject: d.Subject,
		Unsubscribe: d.UnsubURL, Tags: map[string]string{"game": rec.ID, "mail": "talk"}}
	if msg.HTML, msg.Text, err = render(service.MailControl, d); err != nil {
		return notify.Message{}, false, fmt.Errorf("compose talk of %s for seat %d: %w", rec.ID, seat, err)
	}
	if err := c.markTalk(ctx, d.Talk); err != nil {
		return notify.Message{}, false, fmt.Errorf("compose talk of %s for seat %d: %w", rec.ID, seat, err)
	}
	return msg, true, nil
}
