package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

// Leagues (store.LeagueStore): bucket "leagues" maps (league id, item key)
// to the item's version (8 bytes big-endian), wake time (8 bytes, 0 for
// none) and body; bucket "league_wake" maps the same key of an item whose
// WakeAt is set to it, kept in the same transaction. Both buckets are made
// by the first write, so files of before leagues open unchanged.
var (
	bucketLeagues    = []byte("leagues")
	bucketLeagueWake = []byte("league_wake")
)

const leagueHeaderLen = 16

// leagueKey is the league id's length, the id and the item key, so that
// one league's items are contiguous and in key order.
func leagueKey(league, key string) []byte {
	return append(leaguePrefix(league), key...)
}

func leaguePrefix(league string) []byte {
	k := binary.AppendUvarint(nil, uint64(len(league)))
	return append(k, league...)
}

// splitLeagueKey undoes leagueKey.
func splitLeagueKey(k []byte) (league, key string, err error) {
	n, w := binary.Uvarint(k)
	if w <= 0 || uint64(len(k)-w) < n {
		return "", "", fmt.Errorf("boltstore: corrupt league key %x", k)
	}
	return string(k[w : w+int(n)]), string(k[w+int(n):]), nil
}

func decodeLeagueItem(league, key string, rec []byte) (store.LeagueItem, error) {
	if len(rec) < leagueHeaderLen {
		return store.LeagueItem{}, fmt.Errorf("boltstore: league %s item %s: corrupt record of %d bytes", league, key, len(rec))
	}
	return store.LeagueItem{League: league, Key: key,
		Version: int64(binary.BigEndian.Uint64(rec)),
		WakeAt:  int64(binary.BigEndian.Uint64(rec[8:])),
		Body:    bytes.Clone(rec[leagueHeaderLen:len(rec):len(rec)])}, nil
}

// GetLeagueItem reads one item.
func (s *Store) GetLeagueItem(ctx context.Context, league, key string) (store.LeagueItem, error) {
	var it store.LeagueItem
	err := s.view(ctx, bucketLeagues, func(b *bolt.Bucket) error {
		var rec []byte
		if b != nil { // made by the first write
			rec = b.Get(leagueKey(league, key))
		}
		if rec == nil {
			return fmt.Errorf("boltstore: league %s item %s: %w", league, key, store.ErrNotFound)
		}
		var err error
		it, err = decodeLeagueItem(league, key, rec)
		return err
	})
	return it, err
}

// PutLeagueItem writes it as version prev+1 if the stored version is prev.
func (s *Store) PutLeagueItem(ctx context.Context, it store.LeagueItem, prev int64) (int64, error) {
	id := it.League + " item " + it.Key
	if it.League == "" || it.Key == "" {
		id = ""
	}
	ver := prev + 1
	if err := checkPut(ctx, "league", id, prev, leagueItemSize(it, ver), MaxItemBytes); err != nil {
		return 0, err
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		bs, err := makeBuckets(tx, bucketLeagues, bucketLeagueWake)
		if err != nil {
			return err
		}
		items, wake := bs[0], bs[1]
		k := leagueKey(it.League, it.Key)
		if err := checkVersion("league", id, items.Get(k), leagueHeaderLen, prev); err != nil {
			return err
		}
		out := make([]byte, leagueHeaderLen, leagueHeaderLen+len(it.Body))
		binary.BigEndian.PutUint64(out, uint64(ver))
		binary.BigEndian.PutUint64(out[8:], uint64(max(it.WakeAt, 0)))
		if err := items.Put(k, append(out, it.Body...)); err != nil {
			return err
		}
		return setFlag(wake, k, it.WakeAt > 0, binary.BigEndian.AppendUint64(nil, uint64(it.WakeAt)))
	})
	if err != nil {
		return 0, err
	}
	return ver, nil
}

// LeagueItems lists a league's items whose key begins with prefix.
func (s *Store) LeagueItems(ctx context.Context, league, prefix string) ([]store.LeagueItem, error) {
	var out []store.LeagueItem
	err := s.view(ctx, bucketLeagues, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		p := leagueKey(league, prefix)
		cur := b.Cursor()
		k, v := cur.Seek(p)
		return eachOwned(league, p, k, v, cur.Next, func(key string, v []byte) (bool, error) {
			it, err := decodeLeagueItem(league, key, v)
			if err != nil {
				return false, err
			}
			out = append(out, it)
			return true, nil
		})
	})
	return out, err
}

// LeaguesWaking lists the leagues with an item whose WakeAt is set and at
// most before.
func (s *Store) LeaguesWaking(ctx context.Context, before int64) ([]string, error) {
	var ids []string
	seen := map[string]bool{}
	err := s.view(ctx, bucketLeagueWake, func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			if len(v) != 8 {
				return fmt.Errorf("boltstore: leagues waking: corrupt wake time of %x", k)
			}
			league, _, err := splitLeagueKey(k)
			if err != nil {
				return err
			}
			if int64(binary.BigEndian.Uint64(v)) <= before && !seen[league] {
				seen[league] = true
				ids = append(ids, league)
			}
			return nil
		})
	})
	return ids, err
}

// leagueItemSize is the size of the item the DynamoDB store writes for it
// (see gameItemSize).
func leagueItemSize(it store.LeagueItem, ver int64) int {
	n := len("pk") + len("LEAGUE#") + len(it.League) +
		len("sk") + len(it.Key) +
		len("ver") + numberSize(ver) +
		len("body") + len(it.Body)
	if it.WakeAt > 0 {
		n += len("wpk") + len("L") + len("wake") + numberSize(it.WakeAt)
	}
	return n
}
