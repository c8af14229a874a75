package store

import "context"

// MaxBatch is the most games one GetGames request reads (DynamoDB's
// BatchGetItem limit).
const MaxBatch = 100

// BatchGetter is a Store that reads many games in one request: the sweep
// reads the games due a batch at a time instead of one by one. A store
// without it is read game by game.
type BatchGetter interface {
	// GetGames reads the games of ids (at most MaxBatch) with strongly
	// consistent reads, by id; an id with no game is left out.
	GetGames(ctx context.Context, ids []string) (map[string]Game, error)
}
