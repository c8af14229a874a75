package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/pbmgames/pbm/infra/store"
)

var (
	_ store.BatchGetter       = (*Store)(nil)
	_ store.BatchSentGetter   = (*Store)(nil)
	_ store.SentPlayersGetter = (*Store)(nil)
)

// GetSentPlayers reads the game's sent marker and the player items of
// emails with one consistent BatchGetItem, and more for whatever
// DynamoDB left unprocessed, as GetGames does.
func (s *Store) GetSentPlayers(ctx context.Context, id string, emails []string) (store.Sent, map[string]store.Player, error) {
	if id == "" {
		return store.Sent{}, nil, errors.New("dynamostore: get sent marker and players with empty game id")
	}
	keys := []attrMap{key(gamePK(id), sentSK)}
	seen := map[string]bool{}
	for _, e := range emails {
		if e = normEmail(e); e != "" && !seen[e] {
			seen[e] = true
			keys = append(keys, playerKey(e))
		}
	}
	if len(keys) > store.MaxBatch {
		return store.Sent{}, nil, fmt.Errorf("dynamostore: get sent marker of %s and %d players, at most %d", id, len(seen), store.MaxBatch-1)
	}
	marker := store.Sent{GameID: id}
	players := make(map[string]store.Player, len(seen))
	err := s.readBatch(ctx, keys, func(it attrMap) error {
		a := attrs{item: it}
		pk := sAttr(it, AttrPK)
		if email, ok := strings.CutPrefix(pk, playerPrefix); ok {
			players[email] = decodePlayer(email, &a)
		} else {
			marker = store.Sent{GameID: id, Version: a.num(AttrVer), Body: a.bin(AttrBody)} // as GetSent reads it
		}
		if a.err != nil {
			return fmt.Errorf("item %s: %w", pk, a.err)
		}
		return nil
	})
	if err != nil {
		return store.Sent{}, nil, fmt.Errorf("dynamostore: get sent marker of %s and %d players: %w", id, len(seen), err)
	}
	return marker, players, nil
}

// GetGames reads the games with one consistent BatchGetItem, and more
// for whatever DynamoDB left unprocessed (it may, under load), after a
// backoff, a bounded number of times (BatchRetry).
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
// unprocessed or the retries run out.
func (s *Store) getBatch(ctx context.Context, ids []string, most int, withSent bool) (map[string]store.Game, map[string]store.Sent, error) {
	return s.getBatchOf(ctx, ids, most, true, withSent)
}

// getBatchOf reads, of the games of ids (at most most of them), the game
// items if withGames and the markers if withSent, as getBatch does.
func (s *Store) getBatchOf(ctx context.Context, ids []string, most int, withGames, withSent bool) (map[string]store.Game, map[string]store.Sent, error) {
	if len(ids) > most {
		return nil, nil, fmt.Errorf("dynamostore: get %d games at once, at most %d", len(ids), most)
	}
	keys := make([]attrMap, 0, 2*len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			if withGames {
				keys = append(keys, key(gamePK(id), gameSK))
			}
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
	if len(keys) == 0 {
		return games, markers, nil
	}
	what := fmt.Sprintf("get %d games", len(seen))
	if !withGames {
		what = fmt.Sprintf("get %d sent markers", len(seen))
	}
	err := s.readBatch(ctx, keys, func(it attrMap) error { return decodeBatchItem(it, games, markers) })
	if err != nil {
		return nil, nil, fmt.Errorf("dynamostore: %s: %w", what, err)
	}
	return games, markers, nil
}

// readBatch reads the items of keys with one consistent BatchGetItem,
// and more for whatever DynamoDB left unprocessed, after a backoff, a
// bounded number of times (BatchRetry), handing each item read to each.
func (s *Store) readBatch(ctx context.Context, keys []attrMap, each func(attrMap) error) error {
	left := len(keys)
	return s.batch.run(ctx, "keys", func() int { return left }, func() error {
		out, err := s.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			s.table: {Keys: keys, ConsistentRead: aws.Bool(true)},
		}})
		if err != nil {
			return err
		}
		for _, it := range out.Responses[s.table] {
			if err := each(it); err != nil {
				return err
			}
		}
		keys = out.UnprocessedKeys[s.table].Keys
		left = len(keys)
		return nil
	})
}

// decodeBatchItem reads a game or a sent marker a batch read returned
// into games or markers.
func decodeBatchItem(it attrMap, games map[string]store.Game, markers map[string]store.Sent) error {
	pk, sk := sAttr(it, AttrPK), sAttr(it, AttrSK)
	id, ok := strings.CutPrefix(pk, gamePrefix)
	if !ok {
		return fmt.Errorf("unexpected item %q", pk)
	}
	a := attrs{item: it}
	switch {
	case sk == gameSK:
		games[id] = decodeGame(id, &a)
	case sk == sentSK && markers != nil:
		markers[id] = store.Sent{GameID: id, Version: a.num(AttrVer), Body: a.bin(AttrBody)} // as GetSent reads it
	default:
		return fmt.Errorf("unexpected item %s %s", pk, sk)
	}
	if a.err != nil {
		return fmt.Errorf("game %s (%s): %w", id, sk, a.err)
	}
	return nil
}

// writeBatch makes every write of puts with BatchWriteItem (its callers
// bound them to what one request takes: store.MaxTickRequests,
// store.MaxTurnMoves), asking again for what DynamoDB leaves unprocessed,
// with batch.run's backoff and bound.
func (s *Store) writeBatch(ctx context.Context, puts []types.WriteRequest) error {
	return s.batch.run(ctx, "writes", func() int { return len(puts) }, func() error {
		out, err := s.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{s.table: puts}})
		if err != nil {
			return err
		}
		puts = out.UnprocessedItems[s.table]
		return nil
	})
}
