package views

import (
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
	DealsURL                   string // the seat's deals: offers to answer, offers to prepare
	Organiser, YourTurn        bool
	Phase                      string // invited, playing or over
	Due                        *Deadline
}

// Signer signs a link token of purpose for a seat (linksign.NoSeat for
// none) of game, valid for ttl.
type Signer func(p linksign.Purpose, game string, seat int, ttl time.Duration) (string, error)

// MyGames is a page of a player's games for their "my
// games" page, in the order given (needs you now first, then newest:
// service.MyGames), each with a link signed now. link makes a page's link
// with a token.
func MyGames(l string, games []service.GameSummary, now time.Time, sign Signer, link func(path, token string) string) ([]MyGame, error) {
	out := make([]MyGame, 0, len(games))
	for _, sum := range games {
		g, err := myGame(l, sum, now, sign, link)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// myGame is the game of sum as its player sees it in their games.
func myGame(l string, sum service.GameSummary, now time.Time, sign Signer, link func(path, token string) string) (MyGame, error) {
	g := MyGame{Status: templates.T(l, "status_"+sum.Status), Phase: sum.Status, Players: strings.Join(sum.Players, ", ")}
	// A game is named as its organiser named it, else by its kind and
	// players, as in its mails' subjects; not by an id nobody remembers.
	g.Name = sum.Title(l, present.GameName(l, sum.Kind))
	if sum.Seat >= 0 {
		if err := g.seat(l, sum, now, sign, link); err != nil {
			return MyGame{}, err
		}
	}
	if g.URL == "" && sum.Organiser {
		t, err := sign(linksign.PurposeOrganiser, sum.ID, linksign.NoSeat, service.OrganiserTokenTTL)
		if err != nil {
			return MyGame{}, err
		}
		g.URL, g.Organiser = link("/g/"+sum.ID+"/org", t), true
	}
	return g, nil
}

// seat links g to the player's seat of the game of sum: its page (the
// invitation while it waits), its orders, and the decision it owes.
func (g *MyGame) seat(l string, sum service.GameSummary, now time.Time, sign Signer, link func(path, token string) string) error {
	purpose, path := linksign.PurposeSeat, "/g/"+sum.ID
	if !sum.Accepted && sum.Status == service.StatusInvited {
		purpose, path = linksign.PurposeInvite, "/g/"+sum.ID+"/invite"
	}
	t, err := sign(purpose, sum.ID, sum.Seat, service.SeatTokenTTL)
	if err != nil {
		return err
	}
	g.URL = link(path, t)
	if purpose == linksign.PurposeSeat && sum.Status != service.StatusOver {
		g.OrdersURL = link("/g/"+sum.ID+"/orders", t)
	}
	if purpose == linksign.PurposeSeat && sum.Status == service.StatusPlaying {
		g.DealsURL = link("/g/"+sum.ID+"/deals", t)
	}
	g.YourTurn = sum.Status == service.StatusPlaying && sum.YourTurn()
	if g.YourTurn {
		g.Due = NewDeadline(l, sum.Due, now)
	}
	return nil
}
