package boltstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

// bucketMembers maps (address, 0, game id) to a membership as JSON. It
// is made by the first membership written, so files of older versions
// open as they are.
var bucketMembers = []byte("members")

var _ store.MembershipStore = (*Store)(nil)

// memberRec is a membership's value in bucketMembers.
type memberRec struct {
	Rank    int    `json:"r"`
	Since   int64  `json:"t"`
	Summary []byte `json:"s,omitempty"`
	Version int64  `json:"v"`
}

func memberKey(email, game string) []byte { return []byte(email + "\x00" + game) }

// PutMembership writes the membership in one transaction.
func (s *Store) PutMembership(ctx context.Context, m store.Membership) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	email := normEmail(m.Email)
	if email == "" || m.Game == "" || strings.ContainsRune(email, 0) {
		return fmt.Errorf("boltstore: put membership of %q in game %q: empty address or game", email, m.Game)
	}
	v, err := json.Marshal(memberRec{Rank: m.Rank, Since: m.Since, Summary: m.Summary, Version: m.Version})
	if err != nil {
		return err
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketMembers)
		if err != nil {
			return err
		}
		if old := b.Get(memberKey(email, m.Game)); old != nil {
			var r memberRec
			if err := json.Unmarshal(old, &r); err != nil {
				return err
			}
			if r.Version > m.Version {
				return store.ErrConflict
			}
		}
		return b.Put(memberKey(email, m.Game), v)
	})
	if err != nil {
		return fmt.Errorf("boltstore: put membership of %s in game %s: %w", email, m.Game, err)
	}
	return nil
}

// Memberships reads all the player's memberships and sorts them: the
// local run has few.
func (s *Store) Memberships(ctx context.Context, email, cursor string, limit int) ([]store.Membership, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	email = normEmail(email)
	if cursor != "" {
		if _, ok := store.ParseOrder(cursor); !ok {
			return nil, "", fmt.Errorf("boltstore: memberships of %s: bad cursor %q", email, cursor)
		}
	}
	if email == "" || limit < 1 {
		return nil, "", nil
	}
	var all []store.Membership
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMembers)
		if b == nil {
			return nil
		}
		prefix := memberKey(email, "")
		c := b.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var r memberRec
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("membership %q: %w", k, err)
			}
			all = append(all, store.Membership{Email: email, Game: string(k[len(prefix):]), Rank: r.Rank, Since: r.Since, Summary: r.Summary, Version: r.Version})
		}
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("boltstore: memberships of %s: %w", email, err)
	}
	slices.SortFunc(all, func(x, y store.Membership) int { return strings.Compare(x.Order(), y.Order()) })
	if cursor != "" {
		i, _ := slices.BinarySearchFunc(all, cursor, func(m store.Membership, c string) int { return strings.Compare(m.Order(), c) })
		for i < len(all) && all[i].Order() <= cursor {
			i++
		}
		all = all[i:]
	}
	if len(all) <= limit {
		return all, "", nil
	}
	return all[:limit], all[limit-1].Order(), nil
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
