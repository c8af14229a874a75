package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/pbmgames/pbm/infra/store"
)

// League items (store.LeagueStore), in the same table:
//
//	league item: pk "LEAGUE#<id>", sk the item's key ("league",
//	             "season/0001", …)  ver (N), body (B), and wpk (S, "L")
//	             and wake (N) only while WakeAt is set
//
// The wake index (WakeIndex) so lists the leagues due as it lists the
// games, in a partition of its own ("L"), which the games' Waking never
// reads: no new index, no change to the table. Writes are one conditional
// PutItem on ver, as a game's.
const (
	leaguePrefix = "LEAGUE#"
	leagueWakePK = "L"
)

func leaguePK(id string) string { return leaguePrefix + id }

// GetLeagueItem reads one item with a strongly consistent GetItem.
func (s *Store) GetLeagueItem(ctx context.Context, league, k string) (store.LeagueItem, error) {
	if league == "" || k == "" {
		return store.LeagueItem{}, fmt.Errorf("dynamostore: get league item with empty league or key: %w", store.ErrNotFound)
	}
	return getDecoded(ctx, s, key(leaguePK(league), k), "get league", league+" item "+k,
		func(_ string, a *attrs) store.LeagueItem { return decodeLeagueItem(league, k, a) })
}

func decodeLeagueItem(league, k string, a *attrs) store.LeagueItem {
	return store.LeagueItem{League: league, Key: k, Version: a.num(AttrVer), Body: a.bin(AttrBody), WakeAt: a.optNum(AttrWake)}
}

// PutLeagueItem writes it as version prev+1 with one conditional PutItem.
func (s *Store) PutLeagueItem(ctx context.Context, it store.LeagueItem, prev int64) (int64, error) {
	if it.League == "" || it.Key == "" {
		return 0, errors.New("dynamostore: put league item with empty league or key")
	}
	item := key(leaguePK(it.League), it.Key)
	if it.WakeAt > 0 {
		item[AttrWakePK], item[AttrWake] = str(leagueWakePK), num(it.WakeAt)
	}
	return s.putVersioned(ctx, item, it.Body, prev, "league "+it.League+" item "+it.Key)
}

// LeagueItems lists a league's items whose key begins with prefix with a
// consistent, paginated Query.
func (s *Store) LeagueItems(ctx context.Context, league, prefix string) ([]store.LeagueItem, error) {
	if league == "" {
		return nil, nil
	}
	q := keyQuery{cond: "#pk = :pk", names: map[string]string{"#pk": AttrPK}, values: attrMap{":pk": str(leaguePK(league))}}
	if prefix != "" { // an empty prefix is no valid key condition
		q.cond += " AND begins_with(#sk, :prefix)"
		q.names["#sk"], q.values[":prefix"] = AttrSK, str(prefix)
	}
	var out []store.LeagueItem
	err := s.query(ctx, q, "items of league "+league, func(item attrMap) error {
		sk := sAttr(item, AttrSK)
		if sk == "" {
			return errors.New("item without sort key")
		}
		a := attrs{item: item}
		out = append(out, decodeLeagueItem(league, sk, &a))
		return a.err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// LeaguesWaking lists the leagues in the wake index's partition "L" whose
// wake is at most before, each once.
func (s *Store) LeaguesWaking(ctx context.Context, before int64) ([]string, error) {
	if before <= 0 {
		return nil, nil
	}
	q := keyQuery{index: WakeIndex, cond: "#wpk = :l AND #wake <= :before",
		names:  map[string]string{"#wpk": AttrWakePK, "#wake": AttrWake},
		values: attrMap{":l": str(leagueWakePK), ":before": num(before)}}
	ids, err := s.queryIDs(ctx, q, leaguePrefix, fmt.Sprintf("leagues waking by %d", before))
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
