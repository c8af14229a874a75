package views

import (
	"slices"
	"strings"
	"time"

	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// MyGame is one game on a player's "my games" page.
type MyGame struct {
	Name, Status, URL, Players string
	OrdersURL                  string // the seat's standing orders
	Organiser, YourTurn        bool
	Phase                      string // invited, playing or over
	Due                        *Deadline
}

// Signer signs a link token of purpose for a seat (linksign.NoSeat for
// none) of game, valid for ttl.
type Signer func(p linksign.Purpose, game string, seat int, ttl time.Duration) (string, error)

// MyGames lists the games of the player of email for their "my games"
// page, each with a link signed now: moves owed first, then games in
// play, waiting, over; newest first within each (recs, as the index
// lists them, oldest first). link makes a page's link with a token.
func MyGames(l, email string, recs []*service.Record, now time.Time, sign Signer, link func(path, token string) string) ([]MyGame, error) {
	var out []MyGame
	for _, rec := range recs {
		g, err := myGame(l, email, rec, now, sign, link)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	slices.Reverse(out)
	slices.SortStableFunc(out, func(x, y MyGame) int { return gameRank(x) - gameRank(y) })
	return out, nil
}

// myGame is rec as the player of email sees it in their games.
func myGame(l, email string, rec *service.Record, now time.Time, sign Signer, link func(path, token string) string) (MyGame, error) {
	g := MyGame{Status: templates.T(l, "status_"+rec.Status), Phase: rec.Status}
	var names []string
	for _, s := range rec.Seats {
		names = append(names, s.Name)
	}
	g.Players = strings.Join(names, ", ")
	// A game is named as its organiser named it, else by its kind and
	// players, as in its mails' subjects; not by an id nobody remembers.
	g.Name = rec.Title(l, present.GameName(l, rec.Kind))
	for i, s := range rec.Seats {
		if s.Email != email {
			continue
		}
		if err := g.seat(l, rec, i, now, sign, link); err != nil {
			return MyGame{}, err
		}
	}
	if g.URL == "" && rec.Organiser.Email == email {
		t, err := sign(linksign.PurposeOrganiser, rec.ID, linksign.NoSeat, service.OrganiserTokenTTL)
		if err != nil {
			return MyGame{}, err
		}
		g.URL, g.Organiser = link("/g/"+rec.ID+"/org", t), true
	}
	return g, nil
}

// seat links g to seat i of rec, the player's: its page (the invitation
// while it waits), its orders, and the decision it owes.
func (g *MyGame) seat(l string, rec *service.Record, i int, now time.Time, sign Signer, link func(path, token string) string) error {
	s := rec.Seats[i]
	purpose, path := linksign.PurposeSeat, "/g/"+rec.ID
	if !s.Accepted && rec.Status == service.StatusInvited {
		purpose, path = linksign.PurposeInvite, "/g/"+rec.ID+"/invite"
	}
	t, err := sign(purpose, rec.ID, i, service.SeatTokenTTL)
	if err != nil {
		return err
	}
	g.URL = link(path, t)
	if purpose == linksign.PurposeSeat && rec.Status != service.StatusOver {
		g.OrdersURL = link("/g/"+rec.ID+"/orders", t)
	}
	g.YourTurn = rec.Status == service.StatusPlaying && s.Engine >= 0 && s.Engine < len(rec.Due) && rec.Due[s.Engine] > 0
	if g.YourTurn {
		g.Due = NewDeadline(l, rec.Due[s.Engine], now)
	}
	return nil
}

// gameRank orders a player's games: moves owed first, then games in
// play, waiting, over.
func gameRank(g MyGame) int {
	switch {
	case g.YourTurn:
		return 0
	case g.Phase == service.StatusPlaying:
		return 1
	case g.Phase == service.StatusInvited:
		return 2
	}
	return 3
}
