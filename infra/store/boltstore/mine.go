package boltstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

// bucketMembers maps (address, 0, "GAME#" cursor) to a membership and
// (address, 0, "TURN#" turn key) to a turn, as JSON, in the order they
// are listed, as the DynamoDB store keeps them. It is made by the first
// write, so files of older versions open as they are. A turn gone is
// deleted; a turn that expires (store.Turn.Expires) is kept, and passed
// over by the listing from its expiry on, as the DynamoDB store's are
// until its TTL deletes them (this store has no sweep of its own: such
// turns are a few dozen bytes a deadline a player missed).
var bucketMembers = []byte("members")

var _ store.MembershipStore = (*Store)(nil)

// mineRec is the value of a membership or turn in bucketMembers.
type mineRec struct {
	Game string `json:"g"`
	Time int64  `json:"t"` // Created of a membership, Due of a turn
	// Expires is a turn's store.Turn.Expires (0: never).
	Expires int64 `json:"x,omitempty"`
}

func mineKey(email, kind, rest string) []byte { return []byte(email + "\x00" + kind + rest) }

// updateMine runs fn on bucketMembers in one transaction.
func (s *Store) updateMine(ctx context.Context, fn func(*bolt.Bucket) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketMembers)
		if err != nil {
			return err
		}
		return fn(b)
	})
}

// listMine reads up to limit records of the player's of kind, after the
// key rest if given, in key order, passing over those expired by now
// (none when now is 0).
func (s *Store) listMine(ctx context.Context, email, kind, after string, limit int, now int64) ([]mineRec, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	var out []mineRec
	more := false
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMembers)
		if b == nil {
			return nil
		}
		prefix := mineKey(email, kind, "")
		c := b.Cursor()
		k, v := c.Seek(prefix)
		if after != "" {
			start := mineKey(email, kind, after)
			for k, v = c.Seek(start); k != nil && bytes.Equal(k, start); k, v = c.Next() {
			}
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if len(out) == limit {
				more = true
				break
			}
			var r mineRec
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("%q: %w", k, err)
			}
			if now != 0 && r.Expires != 0 && r.Expires <= now {
				continue
			}
			out = append(out, r)
		}
		return nil
	})
	return out, more, err
}

// mineEntry is the key and value of a membership (kind "GAME#", rest its
// cursor) or a turn ("TURN#", its turn key) of email in game, which
// expires at expires (0: never); what names it in errors.
func mineEntry(what, email, game, kind, rest string, time, expires int64) (k, v []byte, err error) {
	if email == "" || game == "" || strings.ContainsRune(email, 0) {
		return nil, nil, fmt.Errorf("boltstore: put %s of %q in game %q: empty address or game", what, email, game)
	}
	if v, err = json.Marshal(mineRec{Game: game, Time: time, Expires: expires}); err != nil {
		return nil, nil, err
	}
	return mineKey(email, kind, rest), v, nil
}

// putMine writes one membership or turn (mineEntry).
func (s *Store) putMine(ctx context.Context, what, email, game, kind, rest string, time, expires int64) error {
	k, v, err := mineEntry(what, email, game, kind, rest, time, expires)
	if err != nil {
		return err
	}
	if err := s.updateMine(ctx, func(b *bolt.Bucket) error { return b.Put(k, v) }); err != nil {
		return fmt.Errorf("boltstore: put %s of %s in game %s: %w", what, email, game, err)
	}
	return nil
}

// PutMembership writes the membership.
func (s *Store) PutMembership(ctx context.Context, m store.Membership) error {
	return s.putMine(ctx, "membership", normEmail(m.Email), m.Game, "GAME#", m.Cursor(), m.Created, 0)
}

// Memberships reads one page of the player's memberships.
func (s *Store) Memberships(ctx context.Context, email, cursor string, limit int) ([]store.Membership, string, error) {
	email = normEmail(email)
	if cursor != "" && !store.ParseCursor(cursor) {
		return nil, "", fmt.Errorf("boltstore: memberships of %s: bad cursor %q", email, cursor)
	}
	if email == "" || limit < 1 {
		return nil, "", nil
	}
	recs, more, err := s.listMine(ctx, email, "GAME#", cursor, limit, 0)
	if err != nil {
		return nil, "", fmt.Errorf("boltstore: memberships of %s: %w", email, err)
	}
	ms := make([]store.Membership, len(recs))
	for i, r := range recs {
		ms[i] = store.Membership{Email: email, Game: r.Game, Created: r.Time}
	}
	next := ""
	if more {
		next = ms[len(ms)-1].Cursor()
	}
	return ms, next, nil
}

// PutTurn writes the turn.
func (s *Store) PutTurn(ctx context.Context, t store.Turn) error {
	return s.putMine(ctx, "turn", normEmail(t.Email), t.Game, "TURN#", t.TurnKey(), t.Due, t.Expires)
}

// DeleteTurn deletes the turn.
func (s *Store) DeleteTurn(ctx context.Context, email, game string, due int64) error {
	email = normEmail(email)
	k := mineKey(email, "TURN#", store.Turn{Game: game, Due: due}.TurnKey())
	if err := s.updateMine(ctx, func(b *bolt.Bucket) error { return b.Delete(k) }); err != nil {
		return fmt.Errorf("boltstore: delete turn of %s in game %s: %w", email, game, err)
	}
	return nil
}

// MoveTurns deletes the turns gone (at once, whatever their Expires) and
// writes the turns put in one transaction.
func (s *Store) MoveTurns(ctx context.Context, gone, put []store.Turn) error {
	if len(gone)+len(put) > store.MaxTurnMoves {
		return fmt.Errorf("boltstore: move %d turns at once, at most %d", len(gone)+len(put), store.MaxTurnMoves)
	}
	type w struct {
		k, v []byte // v nil: delete
	}
	var ws []w
	for _, t := range gone {
		ws = append(ws, w{k: mineKey(normEmail(t.Email), "TURN#", t.TurnKey())})
	}
	for _, t := range put {
		k, v, err := mineEntry("turn", normEmail(t.Email), t.Game, "TURN#", t.TurnKey(), t.Due, t.Expires)
		if err != nil {
			return err
		}
		ws = append(ws, w{k: k, v: v})
	}
	err := s.updateMine(ctx, func(b *bolt.Bucket) error {
		for _, x := range ws { // puts after deletes: a turn both gone and put is put
			if x.v == nil {
				if err := b.Delete(x.k); err != nil {
					return err
				}
				continue
			}
			if err := b.Put(x.k, x.v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("boltstore: move %d turns: %w", len(ws), err)
	}
	return nil
}

// turns reads the player's first turns not expired by now.
func (s *Store) turns(ctx context.Context, email string, limit int, now int64) ([]store.Turn, error) {
	email = normEmail(email)
	if email == "" || limit < 1 {
		return nil, nil
	}
	recs, _, err := s.listMine(ctx, email, "TURN#", "", limit, now)
	if err != nil {
		return nil, fmt.Errorf("boltstore: turns of %s: %w", email, err)
	}
	ts := make([]store.Turn, len(recs))
	for i, r := range recs {
		ts[i] = store.Turn{Email: email, Game: r.Game, Due: r.Time, Expires: r.Expires}
	}
	return ts, nil
}

// ForgetPlayerGames removes ids from the player's list of games.
func (s *Store) ForgetPlayerGames(ctx context.Context, email string, ids []string) error {
	email = normEmail(email)
	if email == "" || len(ids) == 0 {
		return nil
	}
	err := s.update(ctx, bucketPlayers, func(b *bolt.Bucket) error {
		var r playerRec
		if found, err := readPlayer(b, email, &r); !found || err != nil {
			return err
		}
		r.Games = slices.DeleteFunc(r.Games, func(g string) bool { return slices.Contains(ids, g) })
		return writePlayer(b, email, &r)
	})
	if err != nil {
		return fmt.Errorf("boltstore: forget games of player %s: %w", email, err)
	}
	return nil
}

// FirstPage reads the player, their first turns and first memberships in
// one read transaction each, as the DynamoDB store's one Query does.
func (s *Store) FirstPage(ctx context.Context, email string, limit int, now int64) (store.FirstPage, error) {
	email = normEmail(email)
	page := store.FirstPage{Player: store.Player{Email: email}}
	p, err := s.GetPlayer(ctx, email)
	switch {
	case err == nil:
		page.Player, page.Found = p, true
	case !errors.Is(err, store.ErrNotFound):
		return page, err
	}
	// The turns that fill DynamoDB's window leave the memberships unread
	// there: the same here.
	window := store.FirstPageWindow(limit)
	if page.Turns, err = s.turns(ctx, email, window, now); err != nil {
		return page, err
	}
	if page.Unread = len(page.Turns) >= window-1; !page.Unread {
		page.Memberships, page.Next, err = s.Memberships(ctx, email, "", limit)
	}
	page.Turns = page.Turns[:min(len(page.Turns), limit)]
	return page, err
}
