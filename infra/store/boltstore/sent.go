package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

// bucketSent maps a game id to its sent marker: the version (8 bytes
// big-endian), then the body.
var bucketSent = []byte("sent")

var _ store.SentStore = (*Store)(nil)

// maxSentBytes bounds a marker: it is meant to stay small (a few mail
// ids), and DynamoDB bills it a write unit a started KB.
const maxSentBytes = 64 * 1024

// GetSent reads a game's sent marker.
func (s *Store) GetSent(ctx context.Context, gameID string) (store.Sent, error) {
	m := store.Sent{GameID: gameID}
	err := s.db.View(func(tx *bolt.Tx) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := tx.Bucket(bucketSent)
		var rec []byte
		if b != nil {
			rec = b.Get([]byte(gameID))
		}
		if len(rec) < 8 {
			return fmt.Errorf("boltstore: get sent marker of %s: %w", gameID, store.ErrNotFound)
		}
		m.Version = int64(binary.BigEndian.Uint64(rec))
		m.Body = bytes.Clone(rec[8:])
		return nil
	})
	if err != nil {
		return store.Sent{}, err
	}
	return m, nil
}

// PutSent writes a game's sent marker as version prev+1 if the stored one
// is version prev (none for 0).
func (s *Store) PutSent(ctx context.Context, m store.Sent, prev int64) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if m.GameID == "" {
		return 0, errors.New("boltstore: put sent marker with empty game id")
	}
	if prev < 0 {
		return 0, fmt.Errorf("boltstore: put sent marker of %s: negative previous version %d", m.GameID, prev)
	}
	if len(m.Body) > maxSentBytes {
		return 0, fmt.Errorf("boltstore: put sent marker of %s: %d bytes over %d: %w", m.GameID, len(m.Body), maxSentBytes, store.ErrTooLarge)
	}
	ver := prev + 1
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketSent)
		if err != nil {
			return err
		}
		key := []byte(m.GameID)
		var stored int64
		if rec := b.Get(key); len(rec) >= 8 {
			stored = int64(binary.BigEndian.Uint64(rec))
		}
		if stored != prev {
			return fmt.Errorf("boltstore: put sent marker of %s version %d: stored version is %d: %w", m.GameID, ver, stored, store.ErrConflict)
		}
		return b.Put(key, append(binary.BigEndian.AppendUint64(nil, uint64(ver)), m.Body...))
	})
	if err != nil {
		return 0, err
	}
	return ver, nil
}
