package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// A player's games are items of their own beside the player item, so
// that it keeps a fixed size however many games they play (issue 16):
// a Membership per game, listed newest first a page at a time, and a Turn
// per game while the player owes a decision in it, listed soonest due
// first, so that "my games" shows what needs them now first. A turn that
// comes or goes is one small write; nothing else of a move touches them.
// A turn expires (Turn.Expires): from then on it is not listed, and the
// store deletes it in its own time, with no write of the service's (in
// DynamoDB the table's TTL, which costs nothing), so that a turn that
// nobody marked gone (one whose deadline passed: the commit that passes
// it leaves it, issue 28) does not stay for ever.

// Membership is one game of a player's.
type Membership struct {
	Email string // lower-case
	Game  string
	// Created is when the game was made (seconds since the epoch): the
	// listing is newest first.
	// The page reads the game itself for what it shows of it: a
	// membership never changes.
	Created int64
}

// Turn is a game in which the player owes a decision.
type Turn struct {
	Email string // lower-case
	Game  string
	Due   int64 // when the decision falls due: soonest first
	// Expires is when the turn stops being listed (seconds since the
	// epoch; 0: never), the store deleting it after that in its own time
	// (DynamoDB: the item's ttl). The service puts a turn to expire a
	// grace after its deadline (service.TurnGrace); a turn gone
	// (MoveTurns) expires at the caller's now.
	Expires int64
}

// maxTime bounds the times in listing keys: ten digits, seconds until
// the year 2286.
const maxTime = 9_999_999_999

// timeKey is t as ten digits, so that keys sort as times do.
func timeKey(t int64) string { return fmt.Sprintf("%010d", min(max(t, 0), maxTime)) }

// Cursor is where a listing of memberships resumes after m.
func (m Membership) Cursor() string { return timeKey(maxTime-m.Created) + "#" + m.Game }

// TurnKey is the key of a turn within the player's turns.
func (t Turn) TurnKey() string { return timeKey(t.Due) + "#" + t.Game }

// ParseCursor checks a listing cursor (Membership.Cursor).
func ParseCursor(cursor string) bool {
	digits, game, ok := strings.Cut(cursor, "#")
	if !ok || len(digits) != 10 || game == "" {
		return false
	}
	_, err := strconv.ParseUint(digits, 10, 64)
	return err == nil
}

// MaxTurnMoves is the most turns MoveTurns is given at once (gone and
// put together): DynamoDB's BatchWriteItem writes at most 25 items.
const MaxTurnMoves = 25

// MembershipStore keeps players' games. Every method is safe for
// concurrent use and costs one request in DynamoDB.
type MembershipStore interface {
	// PutMembership writes m, without a read: writing it again changes
	// nothing.
	PutMembership(ctx context.Context, m Membership) error
	// Memberships lists at most limit of the player's games, newest
	// first, from the one after cursor ("": from the first), and the
	// cursor of the next page ("" when there is none).
	Memberships(ctx context.Context, email, cursor string, limit int) ([]Membership, string, error)
	// PutTurn records that the player owes a decision in t.Game, due at
	// t.Due; DeleteTurn that they no longer owe the one due at due
	// (nothing to delete is no error). Each is one small write.
	PutTurn(ctx context.Context, t Turn) error
	DeleteTurn(ctx context.Context, email, game string, due int64) error
	// MoveTurns is DeleteTurn of each of gone and PutTurn of each of
	// put, in one request where the store can (DynamoDB: one
	// BatchWriteItem of at most MaxTurnMoves): most commits pass the turn
	// from one player to another, and so cost one request of the
	// players' lists, not two (issue 28). A turn both gone and put is
	// put. A turn gone is not listed by a FirstPage at or after its
	// Expires, the caller's now (0: the store's clock); a store that
	// can delete it at once does.
	MoveTurns(ctx context.Context, gone, put []Turn) error
	// FirstPage reads what the first page of "my games" shows: the
	// player item, the player's first turns not expired by now (seconds
	// since the epoch: Turn.Expires) and first memberships, each
	// at most limit, and the cursor after those memberships (Memberships
	// goes on from it; "" when there are no more). In DynamoDB it is one
	// Query of the player's partition, which keeps the three in that
	// order. A player who owes more decisions than that read can hold
	// gets their first turns and no memberships, and Unread says that
	// their games are to be read from the first (Memberships from "").
	FirstPage(ctx context.Context, email string, limit int, now int64) (FirstPage, error)
	// ForgetPlayerGames removes ids from the list of games older versions
	// kept in the player item (Player.Games), once they are memberships.
	ForgetPlayerGames(ctx context.Context, email string, ids []string) error
}

// FirstPageWindow is how many items FirstPage reads at most for a page
// of limit: the player item, room for limit turns and limit memberships,
// and for 200 expired turns that a store keeps until it deletes them (the
// DynamoDB table's TTL deletes them within days of their expiry).
func FirstPageWindow(limit int) int { return 1 + 2*limit + 200 }

// FirstPage is what MembershipStore.FirstPage reads.
type FirstPage struct {
	// Player is the player item; an address with none (Found false) is
	// a player with default preferences.
	Player      Player
	Found       bool
	Turns       []Turn       // soonest due first
	Memberships []Membership // newest first
	Next        string       // the cursor after Memberships; "" for none
	// Unread: the memberships were not read (see FirstPage).
	Unread bool
}
