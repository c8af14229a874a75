package store

import "context"

// MaxBatch is the most items one batch read reads (DynamoDB's
// BatchGetItem limit): MaxBatch games with GetGames, half as many with
// their sent markers with GetGamesSent.
const MaxBatch = 100

// BatchGetter is a Store that reads many games in one request: the sweep
// reads the games due a batch at a time instead of one by one. A store
// without it is read game by game.
type BatchGetter interface {
	// GetGames reads the games of ids (at most MaxBatch) with strongly
	// consistent reads, by id; an id with no game is left out.
	GetGames(ctx context.Context, ids []string) (map[string]Game, error)
}

// BatchSentGetter is a Store that reads many games and their sent
// markers (SentStore) in one request: the sweep's tick of a game with
// mail in its outbox needs both, and would otherwise read the marker
// alone, a request a game.
type BatchSentGetter interface {
	// GetGamesSent reads the games of ids (at most MaxBatch/2) and their
	// sent markers with strongly consistent reads, by id; an id with no
	// game, or no marker, is left out of that map.
	GetGamesSent(ctx context.Context, ids []string) (map[string]Game, map[string]Sent, error)
}

// SentPlayersGetter reads a game's sent marker and the player items of
// the addresses its mail goes to in one request: the notifier's drain of
// a commit needs both, and would otherwise read the marker and then each
// recipient, a request each (issue 28).
type SentPlayersGetter interface {
	// GetSentPlayers reads the marker of the game id (Version 0 if it
	// has none) and the players of emails (at most MaxBatch-1; an
	// address without a player item is left out of the map, keyed by
	// the lower-case address) with strongly consistent reads.
	GetSentPlayers(ctx context.Context, id string, emails []string) (Sent, map[string]Player, error)
}

// Due is a game the wake index lists, and the wake time it lists it by.
type Due struct {
	ID string
	At int64 // the game's WakeAt
}

// MaxTickRequests is the most requests one RequestTicks writes
// (DynamoDB's BatchWriteItem limit).
const MaxTickRequests = 25

// TickRequester is a Store that hands the games due to other workers
// instead of the sweep ticking each one: it writes a request to tick a
// game, which something else turns into the tick (in AWS the table's
// stream feeds each new request to the notify function).
type TickRequester interface {
	// WakingDue is Waking with the wake time of each game.
	WakingDue(ctx context.Context, before int64) ([]Due, error)
	// RequestTicks writes a request for each game of due (at most
	// MaxTickRequests) to be ticked for its wake, in one request where
	// it can. The request of a game and wake is one item: writing it
	// again, as a second sweep at once does, changes nothing.
	RequestTicks(ctx context.Context, due []Due) error
}
