package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pbmgames/pbm/infra/store"
)

// The mail a commit leaves goes out by the table's stream: the notifier
// drains the commit's own image and records what it sent in the game's
// sent marker. The sweep looks after the mail of a commit the notifier
// did not settle (it failed, or its records were given up on): each
// commit that leaves mail lists the game in the outbox index under a key
// of its own (mailKey), the period of SweepEvery it was made in; the
// sweep reads each period's key once, when the period has ended and
// SweepIdle has passed (a cursor of its own says which it read last),
// and reads the markers of the games it lists: a game whose marker says
// that the commit of that key was settled is left alone, the others are
// drained (issue 28). A game whose mail went is so never read nor
// written by the sweep, however long it waits for its next move: before,
// the sweep read every game with mail in its outbox every 5 minutes, and
// wrote each left alone for an hour to take it off the index.

// mailPeriod is the length of the periods mail keys name.
const mailPeriod = int64(SweepEvery / time.Second)

// mailKeyPrefix begins a mail key: "m", then the period's number.
const mailKeyPrefix = "m"

// mailKey is the outbox key of a commit at now that leaves mail, after a
// commit of the same game with key prev: the key of now's period, or of
// the period after prev's if that is not earlier. Each commit of a game
// has a key of its own, and a later commit a later key: a marker that
// names a key speaks of that commit alone.
func mailKey(prev string, now int64) string {
	p := now / mailPeriod
	if q, ok := mailKeyPeriod(prev); ok && q >= p {
		p = q + 1
	}
	return mailKeyPrefix + strconv.FormatInt(p, 10)
}

// mailKeyPeriod is the period a mail key names.
func mailKeyPeriod(key string) (int64, bool) {
	n, ok := strings.CutPrefix(key, mailKeyPrefix)
	if !ok {
		return 0, false
	}
	p, err := strconv.ParseInt(n, 10, 64)
	return p, err == nil && p >= 0
}

// mailCursorID is the id under which the sweep keeps its cursor, as the
// sent marker of no game (its body: the last period read, in decimal).
const mailCursorID = "~mail"

// maxMailPeriods bounds the periods one sweep reads (a day's): a sweep
// after an outage catches up over the next ones.
const maxMailPeriods = 288

// MailCursor is where the sweep's reading of the mail keys stands.
type MailCursor struct {
	// From and To are the periods to read, To the last that ended
	// SweepIdle ago; none when From > To.
	From, To int64
	ver      int64 // the cursor's marker version
}

// MailPeriods tells which periods' mail keys the sweep at now is to read:
// those after the last one read, up to the last that ended SweepIdle
// before now (at most maxMailPeriods). None where the service keeps no
// sent markers: without them a drain takes the mail off the game itself.
func (s *Service) MailPeriods(ctx context.Context, now time.Time) (MailCursor, error) {
	to := (now.Unix()-int64(SweepIdle/time.Second))/mailPeriod - 1
	if s.sent == nil {
		return MailCursor{From: to + 1, To: to}, nil
	}
	m, err := s.sent.GetSent(ctx, mailCursorID)
	if errors.Is(err, store.ErrNotFound) {
		return MailCursor{From: to, To: to}, nil // the first: from the last period
	}
	if err != nil {
		return MailCursor{}, fmt.Errorf("mail cursor: %w", err)
	}
	last, err := strconv.ParseInt(string(m.Body), 10, 64)
	if err != nil {
		return MailCursor{}, fmt.Errorf("mail cursor %q: %w", m.Body, err)
	}
	return MailCursor{From: last + 1, To: min(to, last+maxMailPeriods), ver: m.Version}, nil
}

// MailRead records that the sweep read the mail keys up to period last
// (of c). A sweep that lost the race to another records nothing: the
// other read them too.
func (s *Service) MailRead(ctx context.Context, c MailCursor, last int64) error {
	if s.sent == nil || last < c.From {
		return nil
	}
	_, err := s.sent.PutSent(ctx, store.Sent{GameID: mailCursorID, Body: strconv.AppendInt(nil, last, 10)}, c.ver)
	if errors.Is(err, store.ErrConflict) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mail cursor: %w", err)
	}
	return nil
}

// UnsettledMail lists the games listed under period p's mail key whose
// markers do not say the commit of that key was settled: one query of
// the index, and one read of the markers a hundred games.
func (s *Service) UnsettledMail(ctx context.Context, p int64) (key string, ids []string, err error) {
	key = mailKeyPrefix + strconv.FormatInt(p, 10)
	listed, err := s.store.PendingMail(ctx, key)
	if err != nil || len(listed) == 0 {
		return key, nil, err
	}
	slices.Sort(listed)
	listed = slices.Compact(listed)
	for batch := range slices.Chunk(listed, store.MaxBatch) {
		markers, err := s.sent.GetSents(ctx, batch)
		if err != nil {
			return key, nil, fmt.Errorf("mail of %s: %w", key, err)
		}
		for _, id := range batch {
			m, ok := markers[id]
			if ok {
				if mk, err := decodeSent(m); err == nil && mk.Key == key {
					continue // settled
				}
			}
			ids = append(ids, id)
		}
	}
	return key, ids, nil
}

// MailKeys are the outbox keys of the periods from from to to (both
// included): where games whose commits then left mail are listed, for
// tools and tests that look for them (store.Store.PendingMail). A game's
// commit may take the key of a period after its own (mailKey), so a
// caller looks a few periods past the commits it made.
func MailKeys(from, to time.Time) []string {
	var keys []string
	for p := from.Unix() / mailPeriod; p <= to.Unix()/mailPeriod; p++ {
		keys = append(keys, mailKeyPrefix+strconv.FormatInt(p, 10))
	}
	return keys
}
