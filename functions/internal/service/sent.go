package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/pbmgames/pbm/infra/store"
)

// Sent markers (issue 16): the notifier records the mail it sent in a
// small item beside the game (store.SentStore) instead of rewriting the
// game item, and whoever next loads the game drops that mail from its
// outbox (Load), so that the next commit leaves it out. An action that
// mails then writes the game item once.

// sentMail is one entry of a marker: mail ID of the game was sent, from
// the outbox of game version Ver.
type sentMail struct {
	ID  string `json:"id"`
	Ver int64  `json:"v"`
}

// sentMarker is a marker's body: the mail sent, and the outbox key of
// the newest commit whose mail was all sent (Record.OutboxKey), with its
// version: the sweep reads the markers alone to tell that the stream's
// notifier settled the commits that left mail (MailToCheck). Markers
// written before keys were are a bare list of entries.
type sentMarker struct {
	Key  string     `json:"k,omitempty"`
	Ver  int64      `json:"kv,omitempty"`
	Sent []sentMail `json:"s"`
}

// maxMarkAttempts bounds the retries of a marker write that lost races to
// other notifiers.
const maxMarkAttempts = 5

// foldSent reads the game's marker and drops from rec's outbox the mail
// it says was sent. Called only for a record with mail, so a game whose
// outbox is empty costs no read.
func (s *Service) foldSent(ctx context.Context, rec *Record) error {
	m, err := s.sent.GetSent(ctx, rec.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return foldMarker(rec, m)
}

// foldMarker is foldSent with the game's marker m already read (version
// 0: none).
func foldMarker(rec *Record, m store.Sent) error {
	if m.Version == 0 {
		rec.SentVer, rec.marker = 0, sentMarker{}
		return nil
	}
	mk, err := decodeSent(m)
	if err != nil {
		return err
	}
	entries := mk.Sent
	rec.SentVer, rec.marker = m.Version, mk
	kept := rec.Outbox[:0]
	for _, ml := range rec.Outbox {
		if slices.ContainsFunc(entries, func(e sentMail) bool { return e.ID == ml.ID }) {
			rec.folded = append(rec.folded, ml.ID)
		} else {
			kept = append(kept, ml)
		}
	}
	rec.Outbox = kept
	return nil
}

func decodeSent(m store.Sent) (sentMarker, error) {
	var mk sentMarker
	body := bytes.TrimSpace(m.Body)
	var err error
	switch {
	case len(body) == 0:
	case body[0] == '[':
		err = json.Unmarshal(body, &mk.Sent)
	default:
		err = json.Unmarshal(body, &mk)
	}
	if err != nil {
		return sentMarker{}, fmt.Errorf("sent marker of game %s: %w", m.GameID, err)
	}
	return mk, nil
}

// markSent records in the game's marker that the mail sent of rec's
// outbox, rec being the game as version ver, has gone. The write is
// conditioned on the marker's version rec last saw (SentVer): on the
// common path nothing else wrote it since, and every entry it held has
// been dropped from the game's outbox by the commit that wrote rec, so the
// marker is written afresh without a read. If another notifier wrote it
// meanwhile, it is read and what it says is kept as long as it may still
// be needed.
//
// When the mail sent is all that rec's outbox held, the marker also says
// that the commit of rec's outbox key (Record.OutboxKey) is settled,
// unless it says so of a newer one already.
func (s *Service) markSent(ctx context.Context, rec *Record, ver int64, sent []string) error {
	prev, base := rec.SentVer, rec.marker
	all := !slices.ContainsFunc(rec.Outbox, func(m Mail) bool { return !slices.Contains(sent, m.ID) })
	for attempt := 1; ; attempt++ {
		mk := sentMarker{Key: base.Key, Ver: base.Ver, Sent: mergeSent(base.Sent, rec, ver, sent)}
		if all && rec.OutboxKey != "" && ver >= mk.Ver {
			mk.Key, mk.Ver = rec.OutboxKey, ver
		}
		body, err := json.Marshal(mk)
		if err != nil {
			return fmt.Errorf("sent marker of game %s: %w", rec.ID, err)
		}
		_, err = s.sent.PutSent(ctx, store.Sent{GameID: rec.ID, Body: body}, prev)
		if err == nil || !errors.Is(err, store.ErrConflict) || attempt == maxMarkAttempts {
			return err
		}
		m, err := s.sent.GetSent(ctx, rec.ID)
		switch {
		case errors.Is(err, store.ErrNotFound):
			prev, base = 0, sentMarker{}
		case err != nil:
			return err
		default:
			if base, err = decodeSent(m); err != nil {
				return err
			}
			prev = m.Version
		}
	}
}

// mergeSent is the marker after a drain of rec (version ver) sent the
// mail sent: the entries of base still needed — those of a later version,
// and those of mail the stored game still holds (in rec's outbox, or
// dropped from it by Load but not yet by a write), which a game version at
// least as new may carry — and the new ones. An entry of version at most
// ver whose mail the game no longer holds was dropped from it for good.
func mergeSent(base []sentMail, rec *Record, ver int64, sent []string) []sentMail {
	var out []sentMail
	for _, e := range base {
		if e.Ver > ver || slices.Contains(rec.folded, e.ID) || slices.ContainsFunc(rec.Outbox, func(m Mail) bool { return m.ID == e.ID }) {
			out = append(out, e)
		}
	}
	for _, id := range sent {
		if !slices.ContainsFunc(out, func(e sentMail) bool { return e.ID == id }) {
			out = append(out, sentMail{ID: id, Ver: ver})
		}
	}
	return out
}

// SettleSent records a drain of rec's outbox, rec being the game as
// version ver (what the commit wrote, or the stream's image of it), the
// cheapest way: when the drain only sent or dropped mail and the service
// keeps sent markers, in the marker, without writing the game; otherwise
// on the game, as SettleAt does.
func (s *Service) SettleSent(ctx context.Context, rec *Record, ver int64, d Drained) error {
	if s.sent == nil || len(d.Unreachable) > 0 || len(d.Failed) > 0 {
		return s.SettleAt(ctx, rec, ver, d)
	}
	if d.empty() {
		return nil
	}
	if err := s.markSent(ctx, rec, ver, d.Sent); err != nil {
		return fmt.Errorf("mark sent %s: %w", rec.ID, err)
	}
	return nil
}

// MarkedSent tells whether Load dropped mail from rec's outbox that its
// marker says was sent: the game item still holds it (and its pending
// flag), until the next write of the game (FoldSent).
func (r *Record) MarkedSent() bool { return len(r.folded) > 0 }

// FoldSent writes the game without the mail its marker says was sent, if
// it still holds any: the sweep's tidying of a game left alone, so that
// the outbox index stops listing it.
func (s *Service) FoldSent(ctx context.Context, id string) error {
	return s.update(ctx, id, func(rec *Record) error {
		if len(rec.folded) == 0 {
			return errUnchanged
		}
		return nil
	})
}

// Image reads a game from its item as the table's stream delivers it
// (body and version) without reading the game again: the stream's
// notifier drains the commit's own record. Like Load, it drops the mail
// the game's marker says was sent (a small read), so that a record
// delivered again sends nothing twice. Where ctx has a read cache and
// the store can, the recipients' player items come with the marker, in
// the one request, into the cache.
func (s *Service) Image(ctx context.Context, g store.Game) (*Record, error) {
	rec, err := s.decodeGame(ctx, g)
	if err != nil {
		return nil, err
	}
	if s.sent == nil || len(rec.Outbox) == 0 {
		return rec, nil
	}
	sp, ok := s.sent.(store.SentPlayersGetter)
	if emails := rec.recipients(); ok && cacheOf(ctx) != nil && sameStore(s.sent, s.players) && len(emails) < store.MaxBatch {
		// The drain that follows reads each recipient: they come with
		// the marker, in one request, into its read cache (issue 28).
		m, players, err := sp.GetSentPlayers(ctx, rec.ID, emails)
		if err != nil {
			return nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
		primePlayers(ctx, emails, players)
		if err := foldMarker(rec, m); err != nil {
			return nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
		return rec, nil
	}
	if err := s.foldSent(ctx, rec); err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return rec, nil
}

// recipients are the addresses rec's outbox goes to, each once.
func (rec *Record) recipients() []string {
	var out []string
	for _, m := range rec.Outbox {
		e := rec.Organiser.Email
		if m.Seat >= 0 && m.Seat < len(rec.Seats) {
			e = rec.Seats[m.Seat].Email
		} else if m.Seat >= 0 {
			continue // no such seat: the drain reports it
		}
		if e != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// sameStore tells whether a and b are the one store (the same pointer):
// the players read with the marker must be those the service reads.
func sameStore(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.IsValid() && vb.IsValid() && va.Kind() == reflect.Pointer && va.Type() == vb.Type() && va.Pointer() == vb.Pointer()
}
