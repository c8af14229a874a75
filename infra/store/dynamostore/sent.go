package dynamostore

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbmgames/pbm/infra/store"
)

// sentSK is the sort key of a game's sent marker, in the game's partition
// beside the game item: pk "GAME#<id>", sk "SENT", ver (N), body (B). It
// carries no index attribute, so writing it costs one write unit while it
// stays under 1 KB, and the stream's filter (sk "GAME") passes it by.
const sentSK = "SENT"

// GetSent reads a game's sent marker with one strongly consistent GetItem.
func (s *Store) GetSent(ctx context.Context, gameID string) (store.Sent, error) {
	if gameID == "" {
		return store.Sent{}, fmt.Errorf("dynamostore: get sent marker with empty game id: %w", store.ErrNotFound)
	}
	return getDecoded(ctx, s, key(gamePK(gameID), sentSK), "get sent marker of", gameID, func(id string, a *attrs) store.Sent {
		return store.Sent{GameID: id, Version: a.num(AttrVer), Body: a.bin(AttrBody)}
	})
}

// PutSent writes a game's sent marker as version prev+1 with one
// conditional PutItem.
func (s *Store) PutSent(ctx context.Context, m store.Sent, prev int64) (int64, error) {
	if m.GameID == "" {
		return 0, errors.New("dynamostore: put sent marker with empty game id")
	}
	return s.putVersioned(ctx, key(gamePK(m.GameID), sentSK), m.Body, prev, "sent marker of "+m.GameID)
}

// GetSents reads the markers of the games of ids with one consistent
// BatchGetItem, and more for whatever DynamoDB left unprocessed, as
// GetGames reads games.
func (s *Store) GetSents(ctx context.Context, ids []string) (map[string]store.Sent, error) {
	_, markers, err := s.getBatchOf(ctx, ids, store.MaxBatch, false, true)
	return markers, err
}
