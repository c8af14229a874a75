package compose

import (
	"fmt"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// control fills the mail that tells the table what its organiser did
// (service.MailControl): what, and the seat's page — none for a player
// whose seat went to a substitute, whose links no longer act for it.
func (c *Composer) control(rec *service.Record, m service.Mail, d *Data) error {
	if m.Control < 0 || m.Control >= len(rec.Controls) {
		return fmt.Errorf("control %d of %d", m.Control, len(rec.Controls))
	}
	l := d.Lang
	ctl := rec.Controls[m.Control]
	d.Subject = rec.Title(l, d.Game) + ": " + templates.Pick(l, "решение организатора", "the organiser's decision")
	d.Text = views.ControlTextFor(l, rec, ctl, m.Seat)
	if m.Seat < 0 || m.Seat >= len(rec.Seats) || rec.Seats[m.Seat].Out != "" || rec.Status == service.StatusCancelled {
		return nil
	}
	d.LinkText = templates.T(l, "open_game")
	var err error
	d.Link, err = c.seatLink(rec.ID, m.Seat, 0, l)
	return err
}

// backLink is the link, in every mail to a seat a bot holds, that takes
// the seat back with one click (a page with a button: the POST acts).
func (c *Composer) backLink(rec *service.Record, m service.Mail, l string) (string, error) {
	if rec.Status != service.StatusPlaying || m.Seat < 0 || m.Seat >= len(rec.Seats) || !rec.Seats[m.Seat].Accepted {
		return "", nil
	}
	seat := rec.Seats[m.Seat].Engine
	if seat < 0 || seat >= len(rec.Bots) || !rec.Bots[seat] {
		return "", nil
	}
	return c.link("/g/"+rec.ID+"/back", linksign.PurposeSeat, rec.ID, m.Seat, 0, service.SeatTokenTTL, l)
}
