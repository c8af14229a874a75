package boltstore

import (
	"context"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

// bucketGuard maps a guard key (store.GuardStore) to its expiry and count,
// 8 bytes big-endian each. Expired entries are read as absent; each
// Count also deletes the expired entries it comes across, so the bucket
// stays small without a sweeper.
var bucketGuard = []byte("guard")

func guardValue(expires, n int64) []byte {
	v := make([]byte, 16)
	binary.BigEndian.PutUint64(v[0:], uint64(expires))
	binary.BigEndian.PutUint64(v[8:], uint64(n))
	return v
}

func readGuard(v []byte) (expires, n int64, err error) {
	if len(v) != 16 {
		return 0, 0, fmt.Errorf("guard entry of %d bytes", len(v))
	}
	return int64(binary.BigEndian.Uint64(v[0:])), int64(binary.BigEndian.Uint64(v[8:])), nil
}

// updateGuard runs fn on the guard bucket in one transaction, unless ctx
// is done or the key k is empty; op names the write in the error.
func (s *Store) updateGuard(ctx context.Context, op, k string, fn func(*bolt.Bucket) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if k == "" {
		return fmt.Errorf("boltstore: %s with empty key", op)
	}
	return s.update(ctx, bucketGuard, fn)
}

// Count adds one in one transaction.
func (s *Store) Count(ctx context.Context, k string, limit, expires, now int64) error {
	return s.updateGuard(ctx, "count", k, func(b *bolt.Bucket) error {
		n, exp := int64(0), expires
		if v := b.Get([]byte(k)); v != nil {
			oldExp, oldN, err := readGuard(v)
			if err != nil {
				return fmt.Errorf("boltstore: count %s: %w", k, err)
			}
			if oldExp > now {
				n, exp = oldN, oldExp
			}
		}
		if n >= limit {
			return fmt.Errorf("boltstore: count %s: %w", k, store.ErrLimited)
		}
		if err := pruneGuard(b, now, k); err != nil {
			return err
		}
		return b.Put([]byte(k), guardValue(exp, n+1))
	})
}

// pruneGuard deletes the expired entries but keep.
func pruneGuard(b *bolt.Bucket, now int64, keep string) error {
	var dead [][]byte
	err := b.ForEach(func(k, v []byte) error {
		if exp, _, err := readGuard(v); err == nil && exp <= now && string(k) != keep {
			dead = append(dead, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// Mark writes the mark in one transaction.
func (s *Store) Mark(ctx context.Context, k string, expires int64) error {
	return s.updateGuard(ctx, "mark", k, func(b *bolt.Bucket) error {
		return b.Put([]byte(k), guardValue(expires, 0))
	})
}

// Marked reads the mark.
func (s *Store) Marked(ctx context.Context, k string, now int64) (bool, error) {
	var live bool
	err := s.view(ctx, bucketGuard, func(b *bolt.Bucket) error {
		v := b.Get([]byte(k))
		if v == nil {
			return nil
		}
		exp, _, err := readGuard(v)
		if err != nil {
			return fmt.Errorf("boltstore: marked %s: %w", k, err)
		}
		live = exp > now
		return nil
	})
	return live, err
}
