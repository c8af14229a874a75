package compose

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/templates"
)

// DigestGame is one game of a daily digest: its name, its players, and
// what happened in it.
type DigestGame struct {
	Name, Players string
	Lines         []DigestLine
	Talk          *TalkSection // the game's talk since the last mail (talk.go)
}

// DigestLine is one thing that happened, with the page to see it on.
type DigestLine struct {
	Text, Link, LinkText string
}

// Digest writes a player's daily digest of the queued items, grouped by
// game in the order queued, in lang (the player's; "" for the language
// the player has in the games). Items of games that are gone are left
// out; with none left it is notify.ErrObsolete.
func (c *Composer) Digest(ctx context.Context, email, lang string, items []store.DigestItem) (notify.Message, error) {
	recs := map[string]*service.Record{} // nil: the game is gone
	for _, it := range items {
		if _, ok := recs[it.Game]; ok {
			continue
		}
		rec, _, err := c.svc.Load(ctx, it.Game)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return notify.Message{}, fmt.Errorf("compose digest: %w", err)
		}
		recs[it.Game] = rec
		if rec != nil && lang == "" {
			lang = langOf(rec, email)
		}
	}
	l := templates.Pick(lang, "ru", "en")
	var games []*DigestGame
	byID := map[string]*DigestGame{}
	seen := map[store.DigestItem]bool{}
	for _, it := range items {
		rec := recs[it.Game]
		key := store.DigestItem{Game: it.Game, Kind: it.Kind, Seat: it.Seat}
		if rec == nil || seen[key] {
			continue // gone, or queued twice (a drain retried after queueing)
		}
		seen[key] = true
		g := byID[it.Game]
		if g == nil {
			var names []string
			for _, s := range rec.Seats {
				names = append(names, s.Name)
			}
			g = &DigestGame{Name: c.games.GameName(l, rec.Kind), Players: strings.Join(names, ", ")}
			byID[it.Game] = g
			games = append(games, g)
		}
		line, err := c.digestLine(rec, it, l)
		if err != nil {
			return notify.Message{}, fmt.Errorf("compose digest: %w", err)
		}
		g.Lines = append(g.Lines, line)
		if g.Talk == nil && it.Kind != service.MailAccepted {
			if g.Talk, err = c.foldTalk(ctx, rec, it.Seat, l, func() *time.Location { return zoneOf(c.player(ctx, email)) }); err != nil {
				return notify.Message{}, fmt.Errorf("compose digest: %w", err)
			}
		}
	}
	if len(games) == 0 {
		return notify.Message{}, notify.ErrObsolete
	}

	d := Data{Lang: l, Game: templates.Pick(l, "Игры по почте", "Play by mail"), Greeting: greeting(l, ""),
		Subject: templates.Pick(l, "Ваши игры: новости за день", "Your games: the day's news")}
	for _, g := range games {
		d.Digest = append(d.Digest, *g)
	}
	var err error
	if d.PrefsURL, d.UnsubURL, err = c.personal(ctx, c.player(ctx, email), l); err != nil {
		return notify.Message{}, err
	}
	msg := notify.Message{ID: "digest/" + strconv.FormatInt(items[0].At, 10), To: email, Subject: d.Subject,
		Unsubscribe: d.UnsubURL, Tags: map[string]string{"mail": "digest"}}
	if msg.HTML, msg.Text, err = render("digest", d); err != nil {
		return notify.Message{}, fmt.Errorf("compose digest: %w", err)
	}
	for _, g := range games {
		if err := c.markTalk(ctx, g.Talk); err != nil {
			return notify.Message{}, fmt.Errorf("compose digest: %w", err)
		}
	}
	return msg, nil
}

// digestLine words one item: who accepted (a link to the organiser's
// page), or the end of the game and its winner (a link to the seat's page).
func (c *Composer) digestLine(rec *service.Record, it store.DigestItem, l string) (DigestLine, error) {
	seatName := "—"
	if it.Seat >= 0 && it.Seat < len(rec.Seats) {
		seatName = rec.Seats[it.Seat].Name
	}
	var line DigestLine
	var err error
	switch it.Kind {
	case service.MailAccepted:
		line.Text = acceptedText(l, seatName)
		line.LinkText = templates.T(l, "organiser_page")
		line.Link, err = c.organiserLink(rec.ID, l)
	case service.MailOver:
		line.Text = templates.T(l, "game_over") + "."
		if w := c.winners(rec); w != "" {
			line.Text += templates.Pick(l, " Победитель: ", " Winner: ") + w + "."
		}
		line.LinkText = templates.T(l, "see_results")
		line.Link, err = c.overLink(rec.ID, it.Seat, "", l) // the organiser's below 0
	case service.MailControl: // what was decided is on the game's page
		line.Text = templates.Pick(l, "Решение организатора игры.", "A decision of the game's organiser.")
		if it.Seat >= 0 && it.Seat < len(rec.Seats) && rec.Seats[it.Seat].Out == "" { // a replaced player's links no longer act
			line.LinkText = templates.T(l, "open_game")
			line.Link, err = c.seatLink(rec.ID, it.Seat, 0, l)
		}
	default:
		line.Text = templates.Pick(l, "Новости в игре.", "News in the game.")
		line.LinkText = templates.T(l, "open_game")
		line.Link, err = c.seatLink(rec.ID, it.Seat, 0, l)
	}
	return line, err
}

// winners names the seats in first place, "" if the game cannot say.
func (c *Composer) winners(rec *service.Record) string {
	g, err := c.svc.Engine(rec)
	if err != nil || !g.Over() {
		return ""
	}
	var names []string
	for _, sc := range g.Score() {
		if sc.Place != 1 {
			continue
		}
		for _, s := range rec.Seats {
			if s.Engine == sc.Seat && s.Accepted {
				names = append(names, s.Name)
			}
		}
	}
	return strings.Join(names, ", ")
}

// langOf is the language email has in a game, "" if none.
func langOf(rec *service.Record, email string) string {
	for _, s := range rec.Seats {
		if strings.EqualFold(s.Email, email) && s.Lang != "" {
			return s.Lang
		}
	}
	if strings.EqualFold(rec.Organiser.Email, email) {
		return rec.Organiser.Lang
	}
	return ""
}
