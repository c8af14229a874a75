package dynamostore

import (
	"context"
	"fmt"
	"strings"

	"github.com/pbmgames/pbm/infra/awsapi/ddb"

	"github.com/pbmgames/pbm/infra/store"
)

var _ store.BatchGetter = (*Store)(nil)

// GetGames reads the games with one consistent BatchGetItem, and another
// for whatever DynamoDB left unprocessed (it may, under load), until none
// is left.
func (s *Store) GetGames(ctx context.Context, ids []string) (map[string]store.Game, error) {
	if len(ids) > store.MaxBatch {
		return nil, fmt.Errorf("dynamostore: get %d games at once, at most %d", len(ids), store.MaxBatch)
	}
	keys := make([]ddb.Item, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			keys = append(keys, key(gamePK(id), gameSK))
		}
	}
	games := make(map[string]store.Game, len(keys))
	for len(keys) > 0 {
		out, err := s.client.BatchGetItem(ctx, &ddb.BatchGetItemInput{RequestItems: map[string]ddb.KeysAndAttributes{
			s.table: {Keys: keys, ConsistentRead: true},
		}})
		if err != nil {
			return nil, fmt.Errorf("dynamostore: get %d games: %w", len(keys), err)
		}
		for _, it := range out.Responses[s.table] {
			pk, ok := it[AttrPK].(ddb.S)
			if !ok || !strings.HasPrefix(string(pk), gamePrefix) {
				return nil, fmt.Errorf("dynamostore: get games: unexpected item %v", it[AttrPK])
			}
			id := strings.TrimPrefix(string(pk), gamePrefix)
			a := attrs{item: it}
			g := decodeGame(id, &a)
			if a.err != nil {
				return nil, fmt.Errorf("dynamostore: get game %s: %w", id, a.err)
			}
			games[id] = g
		}
		keys = out.UnprocessedKeys[s.table].Keys
	}
	return games, nil
}
