package dynamostore

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

var (
	_ store.BatchGetter     = (*Store)(nil)
	_ store.BatchSentGetter = (*Store)(nil)
)

// GetGames reads the games with one consistent BatchGetItem, and another
// for whatever DynamoDB left unprocessed (it may, under load), until none
// is left.
func (s *Store) GetGames(ctx context.Context, ids []string) (map[string]store.Game, error) {
	games, _, err := s.getBatch(ctx, ids, store.MaxBatch, false)
	return games, err
}

// GetGamesSent reads the games and their sent markers as GetGames reads
// the games: one BatchGetItem of both items of each game.
func (s *Store) GetGamesSent(ctx context.Context, ids []string) (map[string]store.Game, map[string]store.Sent, error) {
	return s.getBatch(ctx, ids, store.MaxBatch/2, true)
}

// getBatch reads the games of ids, at most most of them, and their
// markers if withSent, with consistent BatchGetItems until none is left
// unprocessed.
func (s *Store) getBatch(ctx context.Context, ids []string, most int, withSent bool) (map[string]store.Game, map[string]store.Sent, error) {
	if len(ids) > most {
		return nil, nil, fmt.Errorf("dynamostore: get %d games at once, at most %d", len(ids), most)
	}
	keys := make([]attrMap, 0, 2*len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			keys = append(keys, key(gamePK(id), gameSK))
			if withSent {
				keys = append(keys, key(gamePK(id), sentSK))
			}
		}
	}
	games := make(map[string]store.Game, len(seen))
	var markers map[string]store.Sent
	if withSent {
		markers = make(map[string]store.Sent, len(seen))
	}
	for len(keys) > 0 {
		out, err := s.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			s.table: {Keys: keys, ConsistentRead: aws.Bool(true)},
		}})
		if err != nil {
			return nil, nil, fmt.Errorf("dynamostore: get %d games: %w", len(seen), err)
		}
		for _, it := range out.Responses[s.table] {
			pk, sk := sAttr(it, AttrPK), sAttr(it, AttrSK)
			id, ok := strings.CutPrefix(pk, gamePrefix)
			if !ok {
				return nil, nil, fmt.Errorf("dynamostore: get games: unexpected item %q", pk)
			}
			a := attrs{item: it}
			switch sk {
			case gameSK:
				games[id] = decodeGame(id, &a)
			case sentSK:
				markers[id] = store.Sent{GameID: id, Version: a.num(AttrVer), Body: a.bin(AttrBody)} // as GetSent reads it
			default:
				return nil, nil, fmt.Errorf("dynamostore: get games: unexpected item %s %s", pk, sk)
			}
			if a.err != nil {
				return nil, nil, fmt.Errorf("dynamostore: get game %s (%s): %w", id, sk, a.err)
			}
		}
		keys = out.UnprocessedKeys[s.table].Keys
	}
	return games, markers, nil
}
