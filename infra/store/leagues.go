package store

import "context"

// LeagueItem is one item of a league (issue 14): the league itself, or one
// of its seasons. Body is opaque to the store (the leagues package's JSON);
// each item has its own version, so that a season's rounds are started and
// closed under optimistic locking without touching the league's other
// items.
type LeagueItem struct {
	League  string // the league's id
	Key     string // the item within the league: "league", "season/0001", …
	Version int64  // 1 after the first write; each write adds 1
	Body    []byte
	// WakeAt is when the item next needs the clock (a round to start or
	// to close), seconds since the Unix epoch; 0 for never. LeaguesWaking
	// finds such leagues without a scan.
	WakeAt int64
}

// LeagueStore keeps leagues. Every method is safe for concurrent use. It
// lives here, beside Store, so that both stores and their conformance
// suite (storetest.RunLeagues) can name it: the leagues package that uses
// it is internal to functions/.
type LeagueStore interface {
	// GetLeagueItem reads one item with a strongly consistent read;
	// ErrNotFound if there is none.
	GetLeagueItem(ctx context.Context, league, key string) (LeagueItem, error)
	// PutLeagueItem writes it as version prev+1 in one conditional write:
	// it succeeds only if the stored version is prev (prev 0: the item must
	// not exist yet), and fails with ErrConflict otherwise, changing
	// nothing. It returns the written version.
	PutLeagueItem(ctx context.Context, it LeagueItem, prev int64) (int64, error)
	// LeagueItems lists a league's items whose key begins with prefix, in
	// key order, with a strongly consistent read.
	LeagueItems(ctx context.Context, league, prefix string) ([]LeagueItem, error)
	// LeaguesWaking lists, once each and in no particular order, the
	// leagues with an item whose WakeAt is set and at most before. In
	// DynamoDB it reads a global secondary index, eventually consistent: a
	// caller reads the items before acting on them.
	LeaguesWaking(ctx context.Context, before int64) ([]string, error)
}
