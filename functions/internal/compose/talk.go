package compose

import (
	"context"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TalkSection is the table talk a mail folds in (issue 17): the messages
// since the recipient's last mail with talk, never a mail of its own.
type TalkSection struct {
	Lang  string
	Lines []TalkMailLine
	More  bool   // older unmailed messages are on the board only
	Link  string // the talk page, for the seat
	game  string
	seat  int
	upTo  string // the newest message read: what the mail marks as told
}

// TalkMailLine is one message as the mail tells it. Text is the
// author's, which the HTML template escapes like any other value.
type TalkMailLine struct {
	Who, When, Text string
	Hidden          bool // hidden by the organiser: its text is not told
	Private         bool // to the recipient alone
}

// foldTalk is the talk a mail to seat of rec folds in, nil if there is
// none new; zone gives the recipient's time zone, asked only then.
func (c *Composer) foldTalk(ctx context.Context, rec *service.Record, seat int, l string, zone func() *time.Location) (*TalkSection, error) {
	tm, err := c.svc.TalkUnmailed(ctx, rec, seat)
	if err != nil || len(tm.Lines) == 0 {
		return nil, err
	}
	t := &TalkSection{Lang: l, More: tm.More, game: rec.ID, seat: seat, upTo: tm.UpTo}
	z := zone()
	for _, ln := range tm.Lines {
		who := "—"
		if ln.From >= 0 && ln.From < len(rec.Seats) {
			who = rec.Seats[ln.From].Name
		}
		t.Lines = append(t.Lines, TalkMailLine{Who: who, When: time.Unix(ln.At, 0).In(z).Format("2006-01-02 15:04"),
			Text: ln.Text, Hidden: ln.Hidden, Private: ln.Private})
	}
	if t.Link, err = c.link("/g/"+rec.ID+"/talk", linksign.PurposeSeat, rec.ID, seat, 0, service.SeatTokenTTL, l); err != nil {
		return nil, err
	}
	return t, nil
}

// markTalk records that the mail made told t, so the next mail tells
// only what comes after. A mail whose sending then fails has used its
// talk up: the board still holds it.
func (c *Composer) markTalk(ctx context.Context, t *TalkSection) error {
	if t == nil {
		return nil
	}
	return c.svc.MarkTalkMailed(ctx, t.game, t.seat, t.upTo)
}
