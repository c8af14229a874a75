package store

import (
	"context"
	"fmt"
	"strings"
)

// Membership is one game of a player's: an item of its own, so that the
// player item keeps a fixed size however many games they play, and their
// "my games" page reads one page of games in one query.
type Membership struct {
	Email string // lower-case
	Game  string
	// Rank sorts a player's games: RankYourTurn first, then RankPlaying,
	// RankInvited, RankOver.
	Rank int
	// Since is when the game last changed for the player (seconds since
	// the epoch): newest first within a rank.
	Since int64
	// Summary is what the page shows of the game, opaque to the store:
	// the service's encoding, a few hundred bytes.
	Summary []byte
	// Version is the game's version the summary was taken from: a
	// membership is never replaced by one of an older version (two
	// commits' updates racing).
	Version int64
}

// Ranks of a membership (Membership.Rank).
const (
	RankYourTurn = 0 // the player owes a decision
	RankPlaying  = 1
	RankInvited  = 2
	RankOver     = 3
)

// maxSince bounds Since in the order key: seconds until the year 2286.
const maxSince = 9_999_999_999

// Order is the key a player's games are listed by: rank, newest first
// within it, then the game id (unique within the player).
func (m Membership) Order() string {
	since := min(max(m.Since, 0), maxSince)
	return fmt.Sprintf("%d#%010d#%s", min(max(m.Rank, 0), 9), maxSince-since, m.Game)
}

// ParseOrder checks a listing cursor (an Order) and returns the game id
// it ends with.
func ParseOrder(cursor string) (game string, ok bool) {
	parts := strings.SplitN(cursor, "#", 3)
	if len(parts) != 3 || len(parts[0]) != 1 || parts[0][0] < '0' || parts[0][0] > '9' || len(parts[1]) != 10 || parts[2] == "" {
		return "", false
	}
	for _, c := range parts[1] {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return parts[2], true
}

// OrderRank reads the rank and time back from an order key.
func OrderRank(order string) (rank int, since int64, err error) {
	if _, ok := ParseOrder(order); !ok {
		return 0, 0, fmt.Errorf("order key %q", order)
	}
	rank = int(order[0] - '0')
	var inv int64
	for _, c := range order[2:12] {
		inv = inv*10 + int64(c-'0')
	}
	return rank, maxSince - inv, nil
}

// MembershipStore keeps players' memberships. Every method is safe for
// concurrent use.
type MembershipStore interface {
	// PutMembership writes m, replacing the player's earlier membership
	// of the same game, in one write without a read; if that one is of a
	// later Version it stays, and the error is ErrConflict.
	PutMembership(ctx context.Context, m Membership) error
	// Memberships lists at most limit of the player's games in Order,
	// from the one after cursor ("": from the first), and the cursor of
	// the next page ("" when there is none). In DynamoDB it reads a
	// global secondary index, eventually consistent: a membership just
	// written may show its previous rank for a moment.
	Memberships(ctx context.Context, email, cursor string, limit int) ([]Membership, string, error)
	// ForgetPlayerGames removes ids from the list of games older versions
	// kept in the player item (Player.Games), once they are memberships.
	ForgetPlayerGames(ctx context.Context, email string, ids []string) error
}
