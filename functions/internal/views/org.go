package views

import (
	"slices"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// OrgPlayer is one invited player on the organiser's page.
type OrgPlayer struct {
	Index               int
	Seat                int // in the engine, −1 if not playing
	Name, Email         string
	Accepted            bool
	Unreachable         bool   // their mail bounced or complained
	Unsent              bool   // a mail to them was parked (service.ParkedMail)
	Bot                 bool   // a bot plays the seat (missed deadlines)
	Replaced            bool   // their seat went to a substitute
	Owes, Out           bool   // owes a decision now; bankrupt or left
	NetWorth            int64  // in a started game
	Worth               string // NetWorth in the game's money
	InviteURL, InviteID string // while the game waits for them
	Due                 *Deadline
}

// OrgPage is the organiser's page: who accepted and who cannot be
// mailed, the invitation links, the start, and later who is to move.
type OrgPage struct {
	// Words are what the game calls its score and cash (present.Words).
	Words                               present.Words `json:"-"`
	ID, Status, Error                   string
	Options, Deadline                   string
	Unconfirmed, Invited, Playing, Over bool
	OrgEmail                            string
	Players                             []OrgPlayer
	Accepted, MinSeats                  int
	CanStart                            bool
	UnsentToYou                         bool // a mail to the organiser was parked
	GameURL, LogURL, SpectatorURL       string
	Controls                            OrgControls
	ControlsURL                         string // the page of the controls
}

// OrgRequest is what the organiser's page is made from.
type OrgRequest struct {
	Games *present.Games
	Lang  string
	Rec   *service.Record
	Game  engine.Game // nil before the game starts
	Error string      // why the organiser's last command was refused
	Now   time.Time
	Sign  Signer
	// Link makes a link to another page of the game for the organiser;
	// Share makes a link with token, in language lang, to hand to others.
	Link  func(path string) string
	Share func(path, token, lang string) string
}

// Organiser makes the organiser's page.
func Organiser(q OrgRequest) (OrgPage, error) {
	l, rec := q.Lang, q.Rec
	info, _ := q.Games.Engines().Lookup(rec.Kind)
	d := OrgPage{Words: q.Games.For(rec.Kind).Words(l), ID: rec.ID, Status: rec.Status, Error: q.Error, Options: OptionsText(l, q.Games.For(rec.Kind), rec), Deadline: DeadlineText(l, rec),
		MinSeats: info.MinSeats, Unconfirmed: rec.Status == service.StatusUnconfirmed, OrgEmail: rec.Organiser.Email,
		Invited: rec.Status == service.StatusInvited, Playing: rec.Status == service.StatusPlaying, Over: rec.Status == service.StatusOver}
	spect, err := q.Sign(linksign.PurposeSpectator, rec.ID, linksign.NoSeat, service.OrganiserTokenTTL)
	if err != nil {
		return OrgPage{}, err
	}
	d.SpectatorURL = q.Share("/g/"+rec.ID, spect, l)
	d.GameURL, d.LogURL = q.Link("/g/"+rec.ID), q.Link("/g/"+rec.ID+"/log")
	for i, s := range rec.Seats {
		p := OrgPlayer{Index: i, Seat: s.Engine, Name: s.Name, Email: s.Email, Accepted: s.Accepted,
			Unreachable: slices.Contains(rec.Unreachable, i),
			Unsent:      slices.ContainsFunc(rec.Parked, func(m service.ParkedMail) bool { return m.Seat == i })}
		if s.Accepted {
			d.Accepted++
		}
		p.Replaced = s.Out != ""
		if d.Invited && !s.Accepted || rec.Substituting(i) {
			t, err := q.Sign(linksign.PurposeInvite, rec.ID, i, service.InviteTokenTTL)
			if err != nil {
				return OrgPage{}, err
			}
			p.InviteURL = q.Share("/g/"+rec.ID+"/invite", t, s.Lang)
		}
		d.Players = append(d.Players, p)
	}
	d.CanStart = d.Invited && d.Accepted >= d.MinSeats
	d.UnsentToYou = slices.ContainsFunc(rec.Parked, func(m service.ParkedMail) bool { return m.Seat < 0 })
	if q.Game != nil {
		d.standings(q)
	}
	d.Controls, d.ControlsURL = Controls(q), q.Link("/g/"+rec.ID+"/controls")
	return d, nil
}

// standings tells, of each seated player, whether a bot plays for them,
// whether and until when they owe a decision, and their net worth.
func (d *OrgPage) standings(q OrgRequest) {
	l, rec, g := q.Lang, q.Rec, q.Game
	scores, owing := g.Score(), g.Owing()
	for i := range d.Players {
		p := &d.Players[i]
		if p.Seat < 0 || !p.Accepted {
			continue
		}
		p.Bot = p.Seat < len(rec.Bots) && rec.Bots[p.Seat]
		p.Owes = slices.Contains(owing, p.Seat)
		if p.Owes {
			p.Due = NewDeadline(l, Due(rec, p.Seat), q.Now)
		}
		for _, sc := range scores {
			if sc.Seat == p.Seat {
				p.NetWorth, p.Out = sc.NetWorth, sc.Bankrupt
				p.Worth = q.Games.For(rec.Kind).Money(l, sc.NetWorth)
			}
		}
	}
}
