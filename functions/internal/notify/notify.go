// Package notify sends the mail a commit decided: it reads a game's
// outbox, sends each mail, then marks them sent (SPEC §3). The same code
// runs in process after each commit (local run, tests) and in the notify
// Lambda fed by the table's stream, and in the scheduled sweep.
package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/pbmgames/pbm/functions/internal/service"
)

// Message is one mail ready to send.
type Message struct {
	ID      string // unique per game and mail: "<game>/<mail id>"
	To      string
	Subject string
	Text    string
	HTML    string
	// Unsubscribe is the one-click unsubscribe URL (RFC 8058), if any:
	// sent as List-Unsubscribe with List-Unsubscribe-Post.
	Unsubscribe string
	// Inline holds the pictures the HTML part shows by "cid:" reference.
	Inline []Inline
	// Tags label the message for SES events (game, kind of mail).
	Tags map[string]string
}

// Inline is a picture carried in the mail and shown in its HTML part.
type Inline struct {
	ContentID   string // referenced as cid:<ContentID> in the HTML
	ContentType string // image/png
	FileName    string
	Data        []byte
}

// Sender delivers a message (SES in AWS, the local mailbox locally).
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Composer turns an outbox entry into a message.
type Composer interface {
	Compose(ctx context.Context, rec *service.Record, version int64, m service.Mail) (Message, error)
}

// Notifier drains outboxes.
type Notifier struct {
	Service  *service.Service
	Composer Composer
	Sender   Sender
	Log      *slog.Logger
}

// Drain sends every pending mail of a game and marks what was sent. A mail
// that fails to send stays in the outbox for the next drain or sweep.
func (n *Notifier) Drain(ctx context.Context, gameID string) error {
	rec, ver, err := n.Service.Load(ctx, gameID)
	if err != nil {
		return fmt.Errorf("drain %s: %w", gameID, err)
	}
	var sent []string
	var errs []error
	for _, m := range rec.Outbox {
		msg, err := n.Composer.Compose(ctx, rec, ver, m)
		if err == nil {
			err = n.Sender.Send(ctx, msg)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("mail %s of game %s: %w", m.ID, gameID, err))
			continue
		}
		sent = append(sent, m.ID)
	}
	if err := n.Service.MarkSent(ctx, gameID, sent); err != nil {
		errs = append(errs, fmt.Errorf("mark sent %s: %w", gameID, err))
	}
	return errors.Join(errs...)
}

// AfterCommit is the in-process hook for service.Config.AfterCommit: the
// move is committed whatever happens here, so failures are logged and the
// sweep retries them.
func (n *Notifier) AfterCommit(ctx context.Context, gameID string) {
	if err := n.Drain(ctx, gameID); err != nil {
		n.Log.ErrorContext(ctx, "notify", "game", gameID, "err", err)
	}
}

// Sweep drains every game that still has pending mail.
func (n *Notifier) Sweep(ctx context.Context, pending func(context.Context) ([]string, error)) error {
	ids, err := pending(ctx)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	var errs []error
	for _, id := range ids {
		if err := n.Drain(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
