package notify

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/store"
)

// TalkComposer writes the mail of its own a seat that asked for each
// message of the table talk gets (issue 17); the package compose's
// Composer is one. False: nothing new to tell.
type TalkComposer interface {
	TalkMail(ctx context.Context, rec *service.Record, seat int) (Message, bool, error)
}

// SendTalk mails the message of key in game to each seat that asked for
// every message and may read it (service.TalkMailSeats), unless the
// seat's player is suppressed or unsubscribed. It runs apart from the
// post (service.Config.TalkPosted; the table's stream in AWS). A mail
// that fails is not retried: its talk is on the board, and in the
// seat's next mail.
func (n *Notifier) SendTalk(ctx context.Context, game, key string) error {
	tc, ok := n.Composer.(TalkComposer)
	if !ok {
		return errors.New("talk mail: the composer writes no talk mail")
	}
	rec, _, err := n.Service.Load(ctx, game)
	if err != nil {
		return fmt.Errorf("talk mail: %w", err)
	}
	seats, err := n.Service.TalkMailSeats(ctx, rec, key)
	if err != nil {
		return fmt.Errorf("talk mail: %w", err)
	}
	var errs []error
	for _, seat := range seats {
		if err := n.sendTalk(ctx, tc, rec, seat); err != nil {
			errs = append(errs, fmt.Errorf("talk mail of game %s to seat %d: %w", game, seat, err))
		}
	}
	return errors.Join(errs...)
}

func (n *Notifier) sendTalk(ctx context.Context, tc TalkComposer, rec *service.Record, seat int) error {
	if n.Players != nil {
		p, err := n.Players.GetPlayer(ctx, rec.Seats[seat].Email)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if !Delivers(p, ClassTalk) {
			n.Log.InfoContext(ctx, "talk mail skipped: the player gets none", "game", rec.ID, "seat", seat)
			return nil
		}
	}
	msg, ok, err := tc.TalkMail(ctx, rec, seat)
	if err != nil || !ok {
		return err
	}
	dropped, err := n.send(ctx, msg, "talk mail", "game", rec.ID, "seat", seat)
	if err == nil && !dropped {
		n.Log.InfoContext(ctx, "talk mail sent", "game", rec.ID, "seat", seat)
	}
	return err
}
