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
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/mailer"
	"github.com/pbmgames/pbm/infra/store"
)

// Message, Inline and Sender are the mail senders' types (infra/mailer):
// SES in AWS and tests, the local mailbox in the local run.
type (
	Message = mailer.Message
	Inline  = mailer.Inline
	Sender  = mailer.Sender
)

// ErrObsolete is what a Composer answers for a mail that no longer makes
// sense (the seat has already made the move it was to ask for): it is
// dropped, not sent.
var ErrObsolete = errors.New("mail no longer needed")

// Composer turns an outbox entry into a message, and a player's queued
// digest items into their daily digest (ErrObsolete: nothing left to tell).
type Composer interface {
	Compose(ctx context.Context, rec *service.Record, version int64, m service.Mail) (Message, error)
	Digest(ctx context.Context, email, lang string, items []store.DigestItem) (Message, error)
}

// Notifier drains outboxes.
type Notifier struct {
	Service  *service.Service
	Composer Composer
	Sender   Sender
	// Players, when set, holds preferences and suppressions: a suppressed
	// address is never mailed, an unsubscribed one only about its own
	// decisions.
	Players store.PlayerStore
	// Permanent tells a refusal that retrying cannot cure (an invalid or
	// rejected address): such a mail is dropped and its seat shown to the
	// organiser as unreachable, instead of being retried for ever.
	Permanent func(error) bool
	Log       *slog.Logger
	// Now is the clock of the digest queue and of the sweep's idle test;
	// time.Now when nil.
	Now func() time.Time
}

func (n *Notifier) now() time.Time {
	if n.Now != nil {
		return n.Now()
	}
	return time.Now()
}

// Drain sends every pending mail of a game and marks what was sent. A mail
// that fails to send stays in the outbox for the next drain or sweep; one
// that cannot be composed is retried a few times, then parked
// (service.MaxMailFailures) rather than retried for ever.
func (n *Notifier) Drain(ctx context.Context, gameID string) error {
	rec, ver, err := n.Service.Load(ctx, gameID)
	if err != nil {
		return fmt.Errorf("drain %s: %w", gameID, err)
	}
	return n.drain(ctx, rec, ver, n.Service.SettleAt)
}

// DrainRecord drains rec, the game as version ver, as Drain does, without
// reading the game: what was sent is marked in the game's sent marker
// where the service keeps them, otherwise on that version of the game
// (service.SettleSent). rec must be the game's newest version as far as
// the caller knows — the commit's own record — since what its outbox
// holds is sent.
func (n *Notifier) DrainRecord(ctx context.Context, rec *service.Record, ver int64) error {
	return n.drain(ctx, rec, ver, n.Service.SettleSent)
}

// DrainImage drains the game as the table's stream carries it after a
// commit (its new image), as DrainRecord does, without reading the game
// again (service.Image). An image without a body (a stream of keys only),
// or whose body is not the game its key names, is not trusted: the game
// is read and drained as Drain does.
func (n *Notifier) DrainImage(ctx context.Context, g store.Game) error {
	// The drain's read cache, from before the image is read: the
	// recipients are read with the game's marker (service.Image).
	ctx = service.WithReadCache(ctx)
	if g.Body == nil {
		return n.Drain(ctx, g.ID)
	}
	rec, err := n.Service.Image(ctx, g)
	if err != nil {
		return fmt.Errorf("drain %s: %w", g.ID, err)
	}
	if rec.ID != g.ID {
		n.Log.WarnContext(ctx, "stream image of another game: read instead", "game", g.ID, "image", rec.ID)
		return n.Drain(ctx, g.ID)
	}
	return n.DrainRecord(ctx, rec, g.Version)
}

// drain sends rec's outbox and records what it did with settle.
func (n *Notifier) drain(ctx context.Context, rec *service.Record, ver int64, settle func(context.Context, *service.Record, int64, service.Drained) error) error {
	gameID := rec.ID
	// The mails of one drain read each recipient, and the game's talk,
	// once (service.WithReadCache).
	ctx = service.WithReadCache(ctx)
	var sent []string
	var unreachable []int
	failed := map[string]string{}
	var errs []error
	for _, m := range rec.Outbox {
		send, err := n.wanted(ctx, rec, m)
		if err != nil {
			errs = append(errs, fmt.Errorf("mail %s of game %s: %w", m.ID, gameID, err))
			continue
		}
		switch send {
		case skip:
			sent = append(sent, m.ID)
			continue
		case queue:
			if err := n.queue(ctx, rec, m); err != nil {
				errs = append(errs, fmt.Errorf("mail %s of game %s: %w", m.ID, gameID, err))
				continue
			}
			sent = append(sent, m.ID)
			continue
		case suppressed:
			sent = append(sent, m.ID)
			if m.Seat >= 0 {
				unreachable = append(unreachable, m.Seat)
			}
			n.Log.InfoContext(ctx, "mail to a suppressed address dropped", "game", gameID, "mail", m.ID)
			continue
		}
		msg, err := n.Composer.Compose(ctx, rec, ver, m)
		if errors.Is(err, ErrObsolete) {
			sent = append(sent, m.ID)
			continue
		}
		if err != nil {
			failed[m.ID] = err.Error()
			errs = append(errs, fmt.Errorf("mail %s of game %s: %w", m.ID, gameID, err))
			continue
		}
		dropped, err := n.send(ctx, msg, "mail", "game", gameID, "mail", m.ID)
		if dropped {
			sent = append(sent, m.ID)
			if m.Seat >= 0 {
				unreachable = append(unreachable, m.Seat)
			}
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("mail %s of game %s: %w", m.ID, gameID, err))
			continue
		}
		sent = append(sent, m.ID)
	}
	if err := settle(ctx, rec, ver, service.Drained{Sent: sent, Unreachable: unreachable, Failed: failed}); err != nil {
		errs = append(errs, fmt.Errorf("mark sent %s: %w", gameID, err))
	}
	return errors.Join(errs...)
}

// Recipient is the address an outbox entry goes to.
func Recipient(rec *service.Record, m service.Mail) (service.Person, error) {
	if m.Seat < 0 {
		return rec.Organiser, nil
	}
	if m.Seat >= len(rec.Seats) {
		return service.Person{}, fmt.Errorf("no seat %d", m.Seat)
	}
	return rec.Seats[m.Seat].Person, nil
}

// asksToAct tells the mails that cannot be silenced without leaving the
// game: those that ask the player to act.
func asksToAct(kind string) bool {
	return kind == service.MailTurn || kind == service.MailDecision || kind == service.MailReminder || kind == service.MailInvite ||
		kind == service.MailConfirm || kind == service.MailDeal
}

// wanted decides whether a mail goes out, by the recipient's standing.
func (n *Notifier) wanted(ctx context.Context, rec *service.Record, m service.Mail) (verdict, error) {
	if n.Players == nil {
		return deliver, nil
	}
	to, err := Recipient(rec, m)
	if err != nil {
		return deliver, err
	}
	p, err := service.CachedPlayer(ctx, n.Players, to.Email)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return deliver, nil
	case err != nil:
		return deliver, err
	case asksToAct(m.Kind):
		return Route(p, ClassAct), nil
	}
	return Route(p, ClassGame), nil
}

// queue puts a mail into its recipient's daily digest.
func (n *Notifier) queue(ctx context.Context, rec *service.Record, m service.Mail) error {
	to, err := Recipient(rec, m)
	if err != nil {
		return err
	}
	seat := m.Seat
	if m.Kind == service.MailAccepted {
		seat = m.About
	}
	at := n.now().Unix()
	return n.Players.QueueDigest(ctx, to.Email, store.DigestItem{Game: rec.ID, Kind: m.Kind, Seat: seat, At: at}, at)
}

// DigestAge is how long the oldest item of a daily digest waits before the
// digest is sent.
const DigestAge = 24 * time.Hour

// SendDigests sends their digest to the players whose oldest queued item
// is at least DigestAge old at now (DigestsDue, then SendDigestsTo).
func (n *Notifier) SendDigests(ctx context.Context, now time.Time) error {
	emails, err := n.DigestsDue(ctx, now)
	if err != nil {
		return err
	}
	return n.SendDigestsTo(ctx, emails)
}

// DigestsDue lists the players whose oldest queued item is at least
// DigestAge old at now. An item queued later starts a digest that is not
// due yet, so the list can be read before the work that queues items
// (the sweep reads it beside its ticks) and sent after it.
func (n *Notifier) DigestsDue(ctx context.Context, now time.Time) ([]string, error) {
	if n.Players == nil {
		return nil, nil
	}
	emails, err := n.Players.DigestsDue(ctx, now.Add(-DigestAge).Unix())
	if err != nil {
		return nil, fmt.Errorf("digests: %w", err)
	}
	return emails, nil
}

// SendDigestsTo sends their digest to the players of emails, all that is
// queued for each at the time. A digest that fails to send is queued
// again for the next sweep; one refused for good, or for a player who
// has since been suppressed, unsubscribed or chosen turns only, is
// dropped.
func (n *Notifier) SendDigestsTo(ctx context.Context, emails []string) error {
	var errs []error
	for _, email := range emails {
		if err := n.sendDigest(ctx, email); err != nil {
			errs = append(errs, fmt.Errorf("digest of %s: %w", email, err))
		}
	}
	return errors.Join(errs...)
}

func (n *Notifier) sendDigest(ctx context.Context, email string) error {
	p, err := n.Players.GetPlayer(ctx, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	items, err := n.Players.TakeDigest(ctx, email)
	if err != nil || len(items) == 0 {
		return err
	}
	if !Delivers(p, ClassDigest) {
		n.Log.InfoContext(ctx, "digest dropped: the player no longer wants it", "items", len(items))
		return nil
	}
	msg, err := n.Composer.Digest(ctx, email, p.Lang, items)
	if errors.Is(err, ErrObsolete) {
		return nil
	}
	if err == nil {
		_, err = n.send(ctx, msg, "digest")
	}
	if err != nil {
		// Back into the queue, with their times: due again at once.
		errs := []error{err}
		for _, it := range items {
			if qerr := n.Players.QueueDigest(ctx, email, it, it.At); qerr != nil {
				errs = append(errs, fmt.Errorf("queue again: %w", qerr))
			}
		}
		return errors.Join(errs...)
	}
	return nil
}

// AfterCommit is the in-process hook for service.Config.AfterCommit: the
// move is committed whatever happens here, so failures are logged and the
// sweep retries them.
func (n *Notifier) AfterCommit(ctx context.Context, gameID string) {
	if err := n.Drain(ctx, gameID); err != nil {
		n.Log.ErrorContext(ctx, "notify", "game", gameID, "err", err)
	}
}

// Committed is the in-process hook for service.Config.Committed: it
// drains the record the commit just wrote, without reading it again.
// Failures are logged, as AfterCommit's.
func (n *Notifier) Committed(ctx context.Context, rec *service.Record, ver int64) {
	if err := n.DrainRecord(ctx, rec, ver); err != nil {
		n.Log.ErrorContext(ctx, "notify", "game", rec.ID, "err", err)
	}
}

// SweepIdle is how long a game must have been left alone before the sweep
// drains it (service.SweepIdle).
const SweepIdle = service.SweepIdle

// FoldIdle is how long a game whose mail has all been marked sent in its
// marker, but which still holds it and so stays in the outbox index, is
// left alone before the sweep writes it without that mail
// (service.FoldSent). Until then each sweep (every 5 minutes) reads it,
// the game and its marker, about 2 read units; the write costs about 5
// write units, each five times a read unit's price, as much as an hour of
// those reads. Waiting that long before writing (the ski rental's rule)
// never costs more than twice what writing at once would, and a game
// whose next move comes within the hour is never written for its mail at
// all: that move drops the mail. A game that is over makes no next move:
// it is written at SweepIdle.
const FoldIdle = time.Hour

// Sweep drains every game that still has pending mail and has not been
// written for SweepIdle, service.SweepWorkers at a time, and writes once
// without its sent mail a game that is over or left alone for FoldIdle.
// Each game is read once (with its marker), and drained as read.
func (n *Notifier) Sweep(ctx context.Context, pending func(context.Context) ([]string, error)) error {
	ids, err := pending(ctx)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return n.Service.LoadEach(ctx, ids, func(ctx context.Context, id string, rec *service.Record, ver int64, err error) error {
		var idle, fold bool
		if err == nil {
			left := n.now().Sub(time.Unix(rec.Updated, 0))
			idle = left >= SweepIdle
			fold = rec.MarkedSent() && (left >= FoldIdle || idle && rec.Status == service.StatusOver)
		}
		if err == nil && (!idle || len(rec.Outbox) == 0 && !fold) {
			return nil
		}
		switch {
		case err == nil && len(rec.Outbox) == 0:
			err = n.Service.FoldSent(ctx, id)
		case err == nil:
			err = n.drain(ctx, rec, ver, n.Service.SettleAt) // Drain, of the game just read
		default:
			err = fmt.Errorf("sweep %s: %w", id, err)
		}
		return err
	})

}

// SweepMail is the sweep's look at the mail left pending at now: the
// games written before commits keyed their mail (Sweep, with pending
// listing them), then the commits whose key's period the sweep has not
// read yet (service.MailPeriods): of those listed under each, the games
// whose marker does not say their mail was all sent are drained, as
// their newest version has it. A period whose drains failed is read again
// by the next sweep; the periods before it are not.
func (n *Notifier) SweepMail(ctx context.Context, now time.Time, pending func(context.Context) ([]string, error)) error {
	legacy := n.Sweep(ctx, pending)
	c, err := n.Service.MailPeriods(ctx, now)
	if err != nil {
		return errors.Join(legacy, err)
	}
	last := c.From - 1
	var errs []error
	for p := c.From; p <= c.To; p++ {
		key, ids, err := n.Service.UnsettledMail(ctx, p)
		if err == nil && len(ids) > 0 {
			err = n.drainKeyed(ctx, key, ids)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("sweep mail of %s: %w", key, err))
			break
		}
		last = p
	}
	return errors.Join(legacy, errors.Join(errs...), n.Service.MailRead(ctx, c, last))
}

// drainKeyed drains the games of ids that are still listed under key and
// have been left alone for SweepIdle, as each is read now; a game
// written since is another key's.
func (n *Notifier) drainKeyed(ctx context.Context, key string, ids []string) error {
	return n.Service.LoadEach(ctx, ids, func(ctx context.Context, id string, rec *service.Record, ver int64, err error) error {
		switch {
		case errors.Is(err, store.ErrNotFound):
			return nil
		case err != nil:
			return fmt.Errorf("sweep %s: %w", id, err)
		case rec.OutboxKey != key || len(rec.Outbox) == 0 || n.now().Sub(time.Unix(rec.Updated, 0)) < SweepIdle:
			return nil
		}
		n.Log.WarnContext(ctx, "mail the stream's notifier did not send: sent by the sweep", "game", id, "mails", len(rec.Outbox))
		return n.drain(ctx, rec, ver, n.Service.SettleSent)
	})
}
