package boltstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

var _ store.PlayerStore = (*Store)(nil)

// playerRec is a player's JSON value in bucket "players", keyed by the
// lower-case address.
type playerRec struct {
	Lang       string   `json:"lang,omitempty"`
	Mail       string   `json:"mail,omitempty"`
	TZ         string   `json:"tz,omitempty"`
	Unsub      *bool    `json:"unsub,omitempty"` // nil until prefs are set
	Supp       bool     `json:"supp,omitempty"`
	SuppReason string   `json:"supp_reason,omitempty"`
	SuppAt     int64    `json:"supp_at,omitempty"`
	Games      []string `json:"games,omitempty"` // sorted, no duplicates
	Upd        int64    `json:"upd"`
	// The daily digest: queued items, and when the first was queued.
	Digest   []store.DigestItem `json:"dq,omitempty"`
	DigestAt int64              `json:"dig,omitempty"`
	// Personal links (links.go).
	LinkID  string `json:"lid,omitempty"`
	LinkGen int64  `json:"lgen,omitempty"`
}

func normEmail(email string) string { return strings.ToLower(email) }

// GetPlayer reads a player.
func (s *Store) GetPlayer(ctx context.Context, email string) (store.Player, error) {
	if err := ctx.Err(); err != nil {
		return store.Player{}, err
	}
	email = normEmail(email)
	if email == "" {
		return store.Player{}, fmt.Errorf("boltstore: get player with empty address: %w", store.ErrNotFound)
	}
	var r playerRec
	err := s.view(ctx, bucketPlayers, func(b *bolt.Bucket) error {
		found, err := readPlayer(b, email, &r)
		if err == nil && !found {
			err = store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return store.Player{}, fmt.Errorf("boltstore: get player %s: %w", email, err)
	}
	return store.Player{
		Email:            email,
		Lang:             r.Lang,
		Mail:             r.Mail,
		TimeZone:         r.TZ,
		Unsubscribed:     r.Unsub != nil && *r.Unsub,
		Suppressed:       r.Supp,
		SuppressedReason: r.SuppReason,
		SuppressedAt:     r.SuppAt,
		Games:            r.Games,
		UpdatedAt:        r.Upd,
		LinkID:           r.LinkID,
		LinkGen:          r.LinkGen,
	}, nil
}

// readPlayer reads the record of the player at email in b into r, and
// says whether there is one.
func readPlayer(b *bolt.Bucket, email string, r *playerRec) (found bool, err error) {
	v := b.Get([]byte(email))
	if v == nil {
		return false, nil
	}
	return true, json.Unmarshal(v, r)
}

func writePlayer(b *bolt.Bucket, email string, r *playerRec) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return b.Put([]byte(email), v)
}

// updatePlayer applies change to the player's record, a zero one if there
// is none, in one transaction.
func (s *Store) updatePlayer(ctx context.Context, email string, change func(*playerRec)) error {
	return s.update(ctx, bucketPlayers, func(b *bolt.Bucket) error {
		var r playerRec
		if _, err := readPlayer(b, email, &r); err != nil {
			return err
		}
		change(&r)
		if n := playerItemSize(email, &r); n > MaxItemBytes {
			return fmt.Errorf("%d bytes over %d: %w", n, MaxItemBytes, store.ErrTooLarge)
		}
		return writePlayer(b, email, &r)
	})
}

// AddPlayerGame adds gameID to the player's games.
func (s *Store) AddPlayerGame(ctx context.Context, email, gameID string, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("boltstore: add player game with empty address")
	}
	if gameID == "" {
		return fmt.Errorf("boltstore: add game to player %s: empty game id", email)
	}
	err := s.updatePlayer(ctx, email, func(r *playerRec) {
		if i, found := slices.BinarySearch(r.Games, gameID); !found {
			r.Games = slices.Insert(r.Games, i, gameID)
		}
		r.Upd = at
	})
	if err != nil {
		return fmt.Errorf("boltstore: add game %s to player %s: %w", gameID, email, err)
	}
	return nil
}

// SetPlayerPrefs sets the player's preferences.
func (s *Store) SetPlayerPrefs(ctx context.Context, email, lang, mail, tz string, unsubscribed bool, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("boltstore: set player prefs with empty address")
	}
	err := s.updatePlayer(ctx, email, func(r *playerRec) {
		r.Lang, r.Mail, r.TZ, r.Unsub, r.Upd = lang, mail, tz, &unsubscribed, at
	})
	if err != nil {
		return fmt.Errorf("boltstore: set prefs of player %s: %w", email, err)
	}
	return nil
}

// Suppress marks the address, leaving preferences and games as they are.
func (s *Store) Suppress(ctx context.Context, email, reason string, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("boltstore: suppress empty address")
	}
	err := s.updatePlayer(ctx, email, func(r *playerRec) {
		r.Supp, r.SuppReason, r.SuppAt, r.Upd = true, reason, at, at
	})
	if err != nil {
		return fmt.Errorf("boltstore: suppress player %s: %w", email, err)
	}
	return nil
}

// playerItemSize is the size of the item the DynamoDB store keeps for the
// same player (see gameItemSize).
func playerItemSize(email string, r *playerRec) int {
	n := len("pk") + len("PLAYER#") + len(email) +
		len("sk") + len("PLAYER") +
		len("upd") + numberSize(r.Upd)
	str := func(name, v string) {
		if v != "" {
			n += len(name) + len(v)
		}
	}
	str("lang", r.Lang)
	str("mail", r.Mail)
	str("tz", r.TZ)
	str("supp_reason", r.SuppReason)
	if r.Unsub != nil {
		n += len("unsub") + 1
	}
	if r.Supp {
		n += len("supp") + 1 + len("supp_at") + numberSize(r.SuppAt)
	}
	if len(r.Games) > 0 {
		n += len("games")
		for _, g := range r.Games {
			n += len(g)
		}
	}
	if len(r.Digest) > 0 {
		n += len("dq") + 3 + len("dpk") + 1 + len("dig") + numberSize(r.DigestAt)
		for _, it := range r.Digest {
			// A map: each element's name and value, and 3 bytes of overhead
			// per element and for the map itself.
			n += 3 + len("g") + len(it.Game) + len("k") + len(it.Kind) + len("s") + numberSize(int64(it.Seat)) +
				len("at") + numberSize(it.At) + 4*3
		}
	}
	return n
}

// QueueDigest appends the item to the player's digest; the first item
// sets the digest's time.
func (s *Store) QueueDigest(ctx context.Context, email string, item store.DigestItem, at int64) error {
	email = normEmail(email)
	if email == "" {
		return errors.New("boltstore: queue digest for empty address")
	}
	err := s.updatePlayer(ctx, email, func(r *playerRec) {
		r.Digest = append(r.Digest, item)
		if r.DigestAt == 0 {
			r.DigestAt = at
		}
	})
	if err != nil {
		return fmt.Errorf("boltstore: queue digest for %s: %w", email, err)
	}
	return nil
}

// TakeDigest returns and clears the player's digest in one transaction.
func (s *Store) TakeDigest(ctx context.Context, email string) ([]store.DigestItem, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // not wrapped, as every other method's
	}
	email = normEmail(email)
	var items []store.DigestItem
	err := s.update(ctx, bucketPlayers, func(b *bolt.Bucket) error {
		var r playerRec
		if found, err := readPlayer(b, email, &r); !found || err != nil {
			return err
		}
		if len(r.Digest) == 0 {
			return nil
		}
		items, r.Digest, r.DigestAt = r.Digest, nil, 0
		return writePlayer(b, email, &r)
	})
	if err != nil {
		return nil, fmt.Errorf("boltstore: take digest of %s: %w", email, err)
	}
	return items, nil
}

// DigestsDue reads every player: the local run has few.
func (s *Store) DigestsDue(ctx context.Context, before int64) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	emails, err := s.keys(ctx, bucketPlayers, func(k, v []byte) (bool, error) {
		var r playerRec
		if err := json.Unmarshal(v, &r); err != nil {
			return false, fmt.Errorf("player %s: %w", k, err)
		}
		return len(r.Digest) > 0 && r.DigestAt <= before, nil
	})
	if err != nil {
		return nil, fmt.Errorf("boltstore: digests due by %d: %w", before, err)
	}
	return emails, nil
}
