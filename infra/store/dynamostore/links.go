package dynamostore

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/infra/store"
)

// GetAccess reads an access item with one strongly consistent GetItem.
func (s *Store) GetAccess(ctx context.Context, id string) (store.Access, error) {
	if id == "" {
		return store.Access{}, fmt.Errorf("dynamostore: get access with empty id: %w", store.ErrNotFound)
	}
	return getDecoded(ctx, s, accessKey(id), "get access", id, func(id string, a *attrs) store.Access {
		return store.Access{ID: id, Version: a.num(AttrVer), Body: a.bin(AttrBody)}
	})
}

// PutAccess writes a as version prev+1 with one conditional PutItem.
func (s *Store) PutAccess(ctx context.Context, a store.Access, prev int64) (int64, error) {
	if a.ID == "" {
		return 0, errors.New("dynamostore: put access with empty id")
	}
	return s.putVersioned(ctx, accessKey(a.ID), a.Body, prev, "access "+a.ID)
}

// SetPlayerLinkID is one UpdateItem: SET lid = if_not_exists(lid, :id),
// returning the stored id.
func (s *Store) SetPlayerLinkID(ctx context.Context, email, id string, at int64) (string, error) {
	email = normEmail(email)
	if email == "" || id == "" {
		return "", errors.New("dynamostore: set link id with empty address or id")
	}
	attrs, err := s.updateNew(ctx, playerKey(email), "SET #lid = if_not_exists(#lid, :id), #upd = :upd",
		map[string]string{"#lid": AttrLinkID, "#upd": AttrUpd}, attrMap{":id": str(id), ":upd": num(at)})
	if err != nil {
		return "", fmt.Errorf("dynamostore: set link id of %s: %w", email, err)
	}
	got, err := optString(attrs, AttrLinkID)
	if err != nil || got == "" {
		return "", fmt.Errorf("dynamostore: set link id of %s: no id returned (%v)", email, err)
	}
	return got, nil
}

// BumpLinkGen is one UpdateItem: ADD lgen 1, returning the new value.
func (s *Store) BumpLinkGen(ctx context.Context, email string, at int64) (int64, error) {
	email = normEmail(email)
	if email == "" {
		return 0, errors.New("dynamostore: bump link generation with empty address")
	}
	attrs, err := s.updateNew(ctx, playerKey(email), "SET #upd = :upd ADD #gen :one",
		map[string]string{"#gen": AttrLinkGen, "#upd": AttrUpd}, attrMap{":one": num(1), ":upd": num(at)})
	if err != nil {
		return 0, fmt.Errorf("dynamostore: bump link generation of %s: %w", email, err)
	}
	gen, err := numAttr(attrs, AttrLinkGen)
	if err != nil {
		return 0, fmt.Errorf("dynamostore: bump link generation of %s: %w", email, err)
	}
	return gen, nil
}
