package boltstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/infra/store"
)

// Personal links (store.LinkStore): bucket "access" maps an access id to
// its version (8 bytes big-endian) and body; the player's link id and
// generation are fields of the player record. The bucket is made by the
// first write, so files of before open unchanged.
var bucketAccess = []byte("access")

// GetAccess reads one access item.
func (s *Store) GetAccess(ctx context.Context, id string) (store.Access, error) {
	return getBlob(ctx, s, bucketAccess, "access", id, func(ver int64, body []byte) store.Access {
		return store.Access{ID: id, Version: ver, Body: body}
	})
}

// PutAccess writes a as version prev+1 if the stored version is prev.
func (s *Store) PutAccess(ctx context.Context, a store.Access, prev int64) (int64, error) {
	size := len(a.ID) + len(a.Body) + 2*numberSize(prev+1)
	return s.putBlob(ctx, bucketAccess, "access", a.ID, a.Body, prev, size, MaxItemBytes)
}

// SetPlayerLinkID sets the player's link id if it has none.
func (s *Store) SetPlayerLinkID(ctx context.Context, email, id string, at int64) (string, error) {
	if id == "" {
		return "", errors.New("boltstore: set link id with empty id")
	}
	var got string
	err := s.updateLinks(ctx, "set link id", email, func(r *playerRec) {
		if r.LinkID == "" {
			r.LinkID, r.Upd = id, at
		}
		got = r.LinkID
	})
	return got, err
}

// BumpLinkGen adds one to the player's link generation.
func (s *Store) BumpLinkGen(ctx context.Context, email string, at int64) (int64, error) {
	var gen int64
	err := s.updateLinks(ctx, "bump link generation", email, func(r *playerRec) {
		r.LinkGen++
		r.Upd = at
		gen = r.LinkGen
	})
	return gen, err
}

// updateLinks changes the link fields of the player at email in one
// transaction; op names the change in errors.
func (s *Store) updateLinks(ctx context.Context, op, email string, change func(*playerRec)) error {
	email = normEmail(email)
	if email == "" {
		return fmt.Errorf("boltstore: %s with empty address", op)
	}
	if err := s.updatePlayer(ctx, email, change); err != nil {
		return fmt.Errorf("boltstore: %s of %s: %w", op, email, err)
	}
	return nil
}
