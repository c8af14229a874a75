package notify

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TextComposer writes plain bilingual mails with signed links.
type TextComposer struct {
	Service *service.Service
	BaseURL string
}

// Compose implements Composer.
func (c TextComposer) Compose(ctx context.Context, rec *service.Record, version int64, m service.Mail) (Message, error) {
	to, lang, name := rec.Organiser.Email, rec.Organiser.Lang, rec.Organiser.Name
	if m.Seat >= 0 {
		if m.Seat >= len(rec.Seats) {
			return Message{}, fmt.Errorf("mail %s: no seat %d", m.ID, m.Seat)
		}
		s := rec.Seats[m.Seat]
		to, lang, name = s.Email, s.Lang, s.Name
	}
	var (
		purpose  linksign.Purpose
		path     string
		ttl      = service.SeatTokenTTL
		ver      int64
		subj, tx [2]string
	)
	game := gameTitle(rec.Kind)
	switch m.Kind {
	case service.MailInvite:
		purpose, path, ttl = linksign.PurposeInvite, "/g/"+rec.ID+"/invite", service.InviteTokenTTL
		subj = [2]string{"Приглашение в игру «" + game[0] + "»", "Invitation to a game of " + game[1]}
		tx = [2]string{"Вас приглашают сыграть по почте. Принять приглашение:", "You are invited to a play-by-mail game. Accept here:"}
	case service.MailTurn:
		purpose, path, ver = linksign.PurposeSeat, "/g/"+rec.ID, version
		subj = [2]string{"«" + game[0] + "»: ваш ход", game[1] + ": your move"}
		tx = [2]string{"Ваш ход. Открыть игру:", "It is your move. Open the game:"}
	case service.MailOver:
		purpose, path = linksign.PurposeSeat, "/g/"+rec.ID
		subj = [2]string{"«" + game[0] + "»: игра окончена", game[1] + ": the game is over"}
		tx = [2]string{"Игра окончена. Итоги:", "The game is over. The results:"}
	case service.MailAccepted:
		purpose, path, ttl = linksign.PurposeOrganiser, "/g/"+rec.ID+"/org", service.OrganiserTokenTTL
		subj = [2]string{"«" + game[0] + "»: игрок принял приглашение", game[1] + ": a player accepted"}
		tx = [2]string{"Игрок принял приглашение. Страница организатора:", "A player accepted. The organiser's page:"}
	default:
		return Message{}, fmt.Errorf("mail %s: unknown kind %q", m.ID, m.Kind)
	}
	seat := m.Seat
	if m.Seat < 0 {
		seat = linksign.NoSeat
	}
	tok, err := c.Service.Token(purpose, rec.ID, seat, ver, ttl)
	if err != nil {
		return Message{}, err
	}
	link := strings.TrimRight(c.BaseURL, "/") + path + "?" + url.Values{"t": {tok}, "lang": {lang}}.Encode()
	i := 0
	if lang == "en" {
		i = 1
	}
	return Message{
		ID:      rec.ID + "/" + m.ID,
		To:      to,
		Subject: subj[i],
		Text:    fmt.Sprintf("%s,\n\n%s\n%s\n", name, tx[i], link),
	}, nil
}

func gameTitle(kind string) [2]string {
	switch kind {
	case "western":
		return [2]string{"Вестерн", "Western"}
	case "businessman":
		return [2]string{"Бизнесмен", "Businessman"}
	}
	return [2]string{kind, kind}
}
