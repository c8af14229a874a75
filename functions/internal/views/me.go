package views

import (
	"cmp"
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
	DealsURL                   string // the seat's deals: offers to answer, offers to prepare
	Organiser, YourTurn        bool
	Phase                      string // invited, playing or over
	Due                        *Deadline
	// Owe says what the player owes now ("" when nothing), Waiting whom
	// else the game waits on (issue 27).
	Owe, Waiting string
	// urgency orders the page: decisions owed first, soonest due first.
	urgency [2]int64
}

// Signer signs a link token of purpose for a seat (linksign.NoSeat for
// none) of game, valid for ttl.
type Signer func(p linksign.Purpose, game string, seat int, ttl time.Duration) (string, error)

// MyGames is a page of a player's games for their "my
// games" page, in the order given (needs you now first, then newest:
// service.MyGames), each with a link signed now. link makes a page's link
// with a token.
func MyGames(gs *present.Games, l string, games []service.GameSummary, now time.Time, sign Signer, link func(path, token string) string) ([]MyGame, error) {
	out := make([]MyGame, 0, len(games))
	for _, sum := range games {
		g, err := myGame(gs, l, sum, now, sign, link)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	// Most urgent first: decisions owed, soonest due first; then the
	// invitations to accept; the games in play; those not started; the
	// games over. The store's order stands within each.
	slices.SortStableFunc(out, func(a, b MyGame) int {
		if c := cmp.Compare(a.urgency[0], b.urgency[0]); c != 0 {
			return c
		}
		return cmp.Compare(a.urgency[1], b.urgency[1])
	})
	return out, nil
}

// myGame is the game of sum as its player sees it in their games.
func myGame(gs *present.Games, l string, sum service.GameSummary, now time.Time, sign Signer, link func(path, token string) string) (MyGame, error) {
	g := MyGame{Status: templates.T(l, "status_"+sum.Status), Phase: sum.Status, Players: strings.Join(sum.Players, ", ")}
	// A game is named as its organiser named it, else by its kind and
	// players, as in its mails' subjects; not by an id nobody remembers.
	g.Name = sum.Title(l, gs.GameName(l, sum.Kind))
	if sum.Seat >= 0 {
		if err := g.seat(gs, l, sum, now, sign, link); err != nil {
			return MyGame{}, err
		}
	}
	switch {
	case sum.YourTurn() && sum.Status == service.StatusPlaying:
		g.urgency = [2]int64{0, sum.Due}
	case sum.Seat >= 0 && !sum.Accepted && sum.Status == service.StatusInvited:
		g.urgency = [2]int64{1, 0}
	case sum.Status == service.StatusPlaying:
		g.urgency = [2]int64{2, 0}
	case sum.Status == service.StatusInvited || sum.Status == service.StatusUnconfirmed:
		g.urgency = [2]int64{3, 0}
	default:
		g.urgency = [2]int64{4, 0}
	}
	if sum.Status == service.StatusPlaying && len(sum.Waiting) > 0 {
		g.Waiting = templates.Tf(l, "my_waiting_for", strings.Join(sum.Waiting, ", "))
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
func (g *MyGame) seat(gs *present.Games, l string, sum service.GameSummary, now time.Time, sign Signer, link func(path, token string) string) error {
	pr := gs.For(sum.Kind)
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
	if purpose == linksign.PurposeSeat && sum.Status == service.StatusPlaying && deals(gs, sum.Kind) {
		g.DealsURL = link("/g/"+sum.ID+"/deals", t)
	}
	g.YourTurn = sum.Status == service.StatusPlaying && sum.YourTurn()
	if g.YourTurn {
		g.Due = NewDeadline(l, sum.Due, now)
		names := func(s int) string {
			if s >= 0 && s < len(sum.Names) && sum.Names[s] != "" {
				return sum.Names[s]
			}
			return "—"
		}
		what := ""
		if sum.View != nil {
			what = pr.Prompt(l, sum.View, sum.Me, true, names)
		}
		key := "owe_decision"
		if sum.MyTurn {
			key = "owe_turn"
		}
		g.Owe = templates.Tf(l, key, what)
		if what == "" {
			g.Owe = strings.TrimRight(strings.TrimSpace(g.Owe), ":")
		}
	}
	return nil
}
