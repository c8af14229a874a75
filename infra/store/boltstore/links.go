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

// Personal links (store.LinkStore): bucket "access" maps an access id to
// its version (8 bytes big-endian) and body; the player's link id and
// generation are fields of the player record. The bucket is made by the
// first write, so files of before open unchanged.
var bucketAccess = []byte("access")

var _ store.LinkStore = (*Store)(nil)

// GetAccess reads one access item.
func (s *Store) GetAccess(ctx context.Context, id string) (store.Access, error) {
	var a store.Access
	err := s.view(ctx, bucketAccess, func(b *bolt.Bucket) error {
		var rec []byte
		if b != nil && id != "" {
			rec = b.Get([]byte(id))
		}
		if rec == nil {
			return fmt.Errorf("boltstore: access %s: %w", id, store.ErrNotFound)
		}
		if len(rec) < 8 {
			return fmt.Errorf("boltstore: access %s: corrupt record of %d bytes", id, len(rec))
		}
		a = store.Access{ID: id, Version: int64(binary.BigEndian.Uint64(rec)), Body: bytes.Clone(rec[8:len(rec):len(rec)])}
		return nil
	})
	return a, err
}

// PutAccess writes a as version prev+1 if the stored version is prev.
func (s *Store) PutAccess(ctx context.Context, a store.Access, prev int64) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if a.ID == "" {
		return 0, errors.New("boltstore: put access with empty id")
	}
	if prev < 0 {
		return 0, fmt.Errorf("boltstore: put access %s: negative previous version %d", a.ID, prev)
	}
	ver := prev + 1
	if n := len(a.ID) + len(a.Body) + 2*numberSize(ver); n > MaxItemBytes {
		return 0, fmt.Errorf("boltstore: put access %s: %d bytes over %d: %w", a.ID, n, MaxItemBytes, store.ErrTooLarge)
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketAccess)
		if err != nil {
			return err
		}
		rec := b.Get([]byte(a.ID))
		stored := int64(0)
		if rec != nil {
			if len(rec) < 8 {
				return fmt.Errorf("boltstore: access %s: corrupt record", a.ID)
			}
			stored = int64(binary.BigEndian.Uint64(rec))
		}
		if stored != prev {
			return fmt.Errorf("boltstore: put access %s version %d: stored version is %d: %w", a.ID, ver, stored, store.ErrConflict)
		}
		return b.Put([]byte(a.ID), append(binary.BigEndian.AppendUint64(nil, uint64(ver)), a.Body...))
	})
	if err != nil {
		return 0, err
	}
	return ver, nil
}

// SetPlayerLinkID sets the player's link id if it has none.
func (s *Store) SetPlayerLinkID(ctx context.Context, email, id string, at int64) (string, error) {
	email = normEmail(email)
	if email == "" || id == "" {
		return "", errors.New("boltstore: set link id with empty address or id")
	}
	var got string
	err := s.updatePlayer(ctx, email, func(r *playerRec) {
		if r.LinkID == "" {
			r.LinkID, r.Upd = id, at
		}
		got = r.LinkID
	})
	if err != nil {
		return "", fmt.Errorf("boltstore: set link id of %s: %w", email, err)
	}
	return got, nil
}

// BumpLinkGen adds one to the player's link generation.
func (s *Store) BumpLinkGen(ctx context.Context, email string, at int64) (int64, error) {
	email = normEmail(email)
	if email == "" {
		return 0, errors.New("boltstore: bump link generation with empty address")
	}
	var gen int64
	err := s.updatePlayer(ctx, email, func(r *playerRec) {
		r.LinkGen++
		r.Upd = at
		gen = r.LinkGen
	})
	if err != nil {
		return 0, fmt.Errorf("boltstore: bump link generation of %s: %w", email, err)
	}
	return gen, nil
}
