package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

// Table talk (store.TalkStore): bucket "talk" maps (game id, message key)
// to the message as JSON; bucket "talk_seen" maps (game id, seat) to the
// key of the newest message the seat was mailed. Both are made by the
// first write, so files of before table talk open unchanged. Keys are
// leagueKey's: the game id's length, the id, then the message key, so
// one game's messages are contiguous and in key order.
var (
	bucketTalk     = []byte("talk")
	bucketTalkSeen = []byte("talk_seen")
)

var _ store.TalkStore = (*Store)(nil)

// talkRecord is a message as stored; the game and key are the bolt key.
type talkRecord struct {
	At     int64  `json:"at"`
	From   int    `json:"from"`
	To     int    `json:"to"`
	Text   string `json:"text"`
	Hidden bool   `json:"hid,omitempty"`
}

func decodeTalk(game, key string, v []byte) (store.TalkMessage, error) {
	var r talkRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return store.TalkMessage{}, fmt.Errorf("boltstore: talk of %s, message %s: %w", game, key, err)
	}
	return store.TalkMessage{Game: game, Key: key, At: r.At, From: r.From, To: r.To, Text: r.Text, Hidden: r.Hidden}, nil
}

// PostTalk writes the message unless its key is taken.
func (s *Store) PostTalk(ctx context.Context, m store.TalkMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if m.Game == "" || m.Key == "" {
		return errors.New("boltstore: post talk with empty game or key")
	}
	v, err := json.Marshal(talkRecord{At: m.At, From: m.From, To: m.To, Text: m.Text, Hidden: m.Hidden})
	if err != nil {
		return fmt.Errorf("boltstore: post talk to %s: %w", m.Game, err)
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketTalk)
		if err != nil {
			return err
		}
		k := leagueKey(m.Game, m.Key)
		if b.Get(k) != nil {
			return fmt.Errorf("boltstore: post talk to %s, message %s: %w", m.Game, m.Key, store.ErrConflict)
		}
		return b.Put(k, v)
	})
}

// TalkBefore lists the messages below before, newest first.
func (s *Store) TalkBefore(ctx context.Context, game, before string, limit int) ([]store.TalkMessage, error) {
	return s.talkRange(ctx, game, limit, func(cur *bolt.Cursor, p []byte) ([]byte, []byte, func() ([]byte, []byte)) {
		var k, v []byte
		if before == "" {
			// The first key past the game's: the game id's length and id
			// followed by 0xff sort after all its keys, which are text.
			k, v = cur.Seek(append(bytes.Clone(p), 0xff))
		} else {
			k, v = cur.Seek(leagueKey(game, before))
		}
		if k == nil {
			k, v = cur.Last()
		} else {
			k, v = cur.Prev()
		}
		return k, v, cur.Prev
	})
}

// TalkAfter lists the messages above after, oldest first.
func (s *Store) TalkAfter(ctx context.Context, game, after string, limit int) ([]store.TalkMessage, error) {
	return s.talkRange(ctx, game, limit, func(cur *bolt.Cursor, p []byte) ([]byte, []byte, func() ([]byte, []byte)) {
		k, v := cur.Seek(leagueKey(game, after))
		if k != nil && after != "" && bytes.Equal(k, leagueKey(game, after)) {
			k, v = cur.Next()
		}
		return k, v, cur.Next
	})
}

// talkRange walks game's messages from where start puts the cursor, in
// the direction of the step it returns, up to limit of them.
func (s *Store) talkRange(ctx context.Context, game string, limit int,
	start func(cur *bolt.Cursor, prefix []byte) (k, v []byte, step func() ([]byte, []byte))) ([]store.TalkMessage, error) {
	var out []store.TalkMessage
	if game == "" || limit <= 0 {
		return nil, nil
	}
	err := s.view(ctx, bucketTalk, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		p := leaguePrefix(game)
		cur := b.Cursor()
		k, v, step := start(cur, p)
		return eachOwned(game, p, k, v, step, func(key string, v []byte) (bool, error) {
			m, err := decodeTalk(game, key, v)
			if err != nil {
				return false, err
			}
			out = append(out, m)
			return len(out) < limit, nil
		})
	})
	return out, err
}

// SetTalkHidden rewrites the message if it is there.
func (s *Store) SetTalkHidden(ctx context.Context, m store.TalkMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	v, err := json.Marshal(talkRecord{At: m.At, From: m.From, To: m.To, Text: m.Text, Hidden: m.Hidden})
	if err != nil {
		return fmt.Errorf("boltstore: hide talk of %s, message %s: %w", m.Game, m.Key, err)
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketTalk)
		k := leagueKey(m.Game, m.Key)
		if b == nil || b.Get(k) == nil {
			return fmt.Errorf("boltstore: hide talk of %s, message %s: %w", m.Game, m.Key, store.ErrNotFound)
		}
		return b.Put(k, v)
	})
}

func talkSeenKey(game string, seat int) []byte {
	return binary.BigEndian.AppendUint32(leaguePrefix(game), uint32(seat))
}

// TalkSeen reads a seat's mark.
func (s *Store) TalkSeen(ctx context.Context, game string, seat int) (string, error) {
	key, err := s.seatValue(ctx, bucketTalkSeen, game, seat)
	return string(key), err
}

// SetTalkSeen moves the mark forward in one transaction.
func (s *Store) SetTalkSeen(ctx context.Context, game string, seat int, key string) error {
	return s.setSeatValue(ctx, bucketTalkSeen, "seen", game, seat, func(b *bolt.Bucket, k []byte) error {
		if string(b.Get(k)) >= key {
			return nil
		}
		return b.Put(k, []byte(key))
	})
}

// bucketTalkMail maps (game id, seat) to "1" for a seat that asked to be
// mailed each message; made by the first write, like the others.
var bucketTalkMail = []byte("talk_mail")

// TalkMail reads the seat's choice.
func (s *Store) TalkMail(ctx context.Context, game string, seat int) (bool, error) {
	v, err := s.seatValue(ctx, bucketTalkMail, game, seat)
	return v != nil, err
}

// SetTalkMail writes the seat's choice.
func (s *Store) SetTalkMail(ctx context.Context, game string, seat int, on bool) error {
	return s.setSeatValue(ctx, bucketTalkMail, "mail", game, seat, func(b *bolt.Bucket, k []byte) error {
		if !on {
			return b.Delete(k)
		}
		return b.Put(k, []byte("1"))
	})
}

// seatValue reads what bucket keeps for a seat of a game (nil for
// nothing).
func (s *Store) seatValue(ctx context.Context, bucket []byte, game string, seat int) ([]byte, error) {
	var v []byte
	err := s.view(ctx, bucket, func(b *bolt.Bucket) error {
		if b != nil {
			v = bytes.Clone(b.Get(talkSeenKey(game, seat)))
		}
		return nil
	})
	return v, err
}

// setSeatValue runs set on bucket, made if need be, and the key of a
// seat of a game, in one transaction.
func (s *Store) setSeatValue(ctx context.Context, bucket []byte, what, game string, seat int, set func(b *bolt.Bucket, k []byte) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if game == "" || seat < 0 {
		return fmt.Errorf("boltstore: set talk %s of game %q seat %d", what, game, seat)
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		return set(b, talkSeenKey(game, seat))
	})
}
