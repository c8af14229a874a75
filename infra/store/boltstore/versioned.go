package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

// Versioned records (games, league items, access items, sent markers)
// begin with their version, 8 bytes big-endian, and are written as
// version prev+1 only over version prev (no record for prev 0).

// checkPut refuses, before any transaction, a write of version prev+1 of
// the item kind id: ctx done, an empty id, a negative previous version,
// or size bytes over limit.
func checkPut(ctx context.Context, kind, id string, prev int64, size, limit int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if id == "" {
		return fmt.Errorf("boltstore: put %s with empty id", kind)
	}
	if prev < 0 {
		return fmt.Errorf("boltstore: put %s %s: negative previous version %d", kind, id, prev)
	}
	if size > limit {
		return fmt.Errorf("boltstore: put %s %s version %d: %d bytes over %d: %w", kind, id, prev+1, size, limit, store.ErrTooLarge)
	}
	return nil
}

// checkVersion is nil if rec, the stored record of the item kind id (nil:
// none), is version prev; a record shorter than headLen is corrupt.
func checkVersion(kind, id string, rec []byte, headLen int, prev int64) error {
	stored := int64(0)
	if rec != nil {
		if len(rec) < headLen {
			return fmt.Errorf("boltstore: %s %s: corrupt record of %d bytes", kind, id, len(rec))
		}
		stored = int64(binary.BigEndian.Uint64(rec))
	}
	if stored != prev {
		return fmt.Errorf("boltstore: put %s %s version %d: stored version is %d: %w", kind, id, prev+1, stored, store.ErrConflict)
	}
	return nil
}

// getBlob reads the record at id in bucket (made by the first write) and
// makes of its version and the body after it what it holds.
func getBlob[T any](ctx context.Context, s *Store, bucket []byte, kind, id string, make func(ver int64, body []byte) T) (T, error) {
	var v T
	err := s.view(ctx, bucket, func(b *bolt.Bucket) error {
		var rec []byte
		if b != nil && id != "" {
			rec = b.Get([]byte(id))
		}
		if rec == nil {
			return fmt.Errorf("boltstore: get %s %s: %w", kind, id, store.ErrNotFound)
		}
		if len(rec) < 8 {
			return fmt.Errorf("boltstore: %s %s: corrupt record of %d bytes", kind, id, len(rec))
		}
		v = make(int64(binary.BigEndian.Uint64(rec)), bytes.Clone(rec[8:len(rec):len(rec)]))
		return nil
	})
	return v, err
}

// putBlob writes body at id in bucket, making the bucket if need be, as
// version prev+1 if the stored version is prev; size is the item's for
// the limit.
func (s *Store) putBlob(ctx context.Context, bucket []byte, kind, id string, body []byte, prev int64, size, limit int) (int64, error) {
	if err := checkPut(ctx, kind, id, prev, size, limit); err != nil {
		return 0, err
	}
	ver := prev + 1
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		if err := checkVersion(kind, id, b.Get([]byte(id)), 8, prev); err != nil {
			return err
		}
		return b.Put([]byte(id), append(binary.BigEndian.AppendUint64(nil, uint64(ver)), body...))
	})
	if err != nil {
		return 0, err
	}
	return ver, nil
}

// setFlag keeps key in bucket b (an index: the outbox, a wake bucket)
// with value v while on holds, and deletes it otherwise.
func setFlag(b *bolt.Bucket, key []byte, on bool, v []byte) error {
	if on {
		return b.Put(key, v)
	}
	return b.Delete(key)
}
