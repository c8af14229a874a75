// Package store defines how games are kept: one item per game under
// optimistic locking, plus immutable chunks of older log entries. The
// DynamoDB store (package dynamostore) and the embedded store for the
// local run (package boltstore) both implement Store, and one conformance
// suite (package storetest) proves they behave alike.
package store

import (
	"context"
	"errors"
)

// ErrNotFound: no such game or chunk.
var ErrNotFound = errors.New("not found")

// ErrConflict: the game's stored version is not the one the write expected.
var ErrConflict = errors.New("version conflict")

// ErrTooLarge: the item would exceed the store's size limit.
var ErrTooLarge = errors.New("item too large")

// Game is the one item a move reads and writes. Body is opaque to the
// store: the service's encoding of state, recent log and outbox.
type Game struct {
	ID      string
	Version int64 // 1 after the first write; each write adds 1
	Body    []byte
	// OutboxPending marks a game whose outbox holds mail, so the sweep
	// can find unsent mail without a scan (a sparse index in DynamoDB).
	// The game's sent marker (SentStore) may say some of it went since.
	OutboxPending bool
	// OutboxKey, with OutboxPending, is the key the game is listed under
	// (PendingMail): the service gives each commit that leaves mail a key
	// of its own. "" lists it under the one key of games written before
	// keys were (PendingOutbox). At most 32 of [0-9a-z].
	OutboxKey string
	// UpdatedAt is seconds since the Unix epoch, set by the caller.
	UpdatedAt int64
	// WakeAt is when the game next needs the clock (a reminder or a
	// deadline falls due), seconds since the epoch; 0 for never. Waking
	// finds such games without a scan (a sparse index in DynamoDB).
	WakeAt int64
}

// Chunk is an immutable run of older log entries of a game.
type Chunk struct {
	GameID string
	Seq    int // 0, 1, 2, …
	// Tag tells apart chunks of the same Seq that commits racing from
	// one version wrote (the loser's is left behind, unused): the game
	// says which one is its own. "" for a chunk of a store that wrote one
	// a Seq; else 1 to 32 of [0-9a-z].
	Tag  string
	Body []byte
}

// ValidChunkTag tells whether tag may be a Chunk's Tag.
func ValidChunkTag(tag string) bool {
	if len(tag) > 32 {
		return false
	}
	for _, c := range tag {
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// Store keeps games. Every method is safe for concurrent use.
type Store interface {
	// GetGame reads a game with a strongly consistent read.
	GetGame(ctx context.Context, id string) (Game, error)
	// PutGame writes g as version prev+1 in one conditional write: it
	// succeeds only if the stored version is prev (prev 0: the game must not
	// exist yet), and fails with ErrConflict otherwise. It returns the
	// written version.
	PutGame(ctx context.Context, g Game, prev int64) (int64, error)
	// PutChunk writes a chunk once. Writing the same chunk (Seq and Tag)
	// again with the same body succeeds (idempotent); with another body it
	// is ErrConflict.
	PutChunk(ctx context.Context, c Chunk) error
	// Chunks lists a game's chunks in Seq order (those of one Seq in Tag
	// order).
	Chunks(ctx context.Context, gameID string) ([]Chunk, error)
	// PendingOutbox lists the ids of games whose OutboxPending is set, in
	// no particular order. In DynamoDB it reads a global secondary index,
	// which is eventually consistent: a game flagged or cleared a moment ago
	// may be missed or still listed, so a caller reads the game (GetGame)
	// before acting on it.
	PendingOutbox(ctx context.Context) ([]string, error)
	// PendingMail lists the ids of games whose OutboxPending is set with
	// OutboxKey key, in no particular order; eventually consistent in
	// DynamoDB, as PendingOutbox.
	PendingMail(ctx context.Context, key string) ([]string, error)
	// Waking lists the ids of games whose WakeAt is set (non-zero) and at
	// most before, in no particular order. In DynamoDB it reads a global
	// secondary index, eventually consistent like PendingOutbox's: a caller
	// reads the game (GetGame) before acting on it.
	Waking(ctx context.Context, before int64) ([]string, error)
}

// Mail preferences of a player (SPEC §1.6).
const (
	MailAll    = "all"    // every mail
	MailTurns  = "turns"  // only the mails that ask them to act
	MailDigest = "digest" // their own turns at once, the rest in a daily digest
)

// Player is what the service keeps about an email address across games.
type Player struct {
	Email string // lower-case; the key
	Lang  string // "ru" or "en"; "" until the player chooses
	Mail  string // MailAll, MailTurns or MailDigest; "" means MailAll
	// TimeZone is the IANA zone mails write times in ("Europe/Moscow");
	// "" until the player chooses: UTC.
	TimeZone string
	// Unsubscribed players get only the mails of their own turns and
	// decisions, which cannot be silenced without leaving the game.
	Unsubscribed bool
	// Suppressed addresses bounced or complained: never mailed again.
	Suppressed       bool
	SuppressedReason string // "bounce" or "complaint", with SES's detail
	SuppressedAt     int64  // seconds since the Unix epoch
	// Games lists, sorted, the games older versions recorded in the
	// player item; newer ones are memberships (MembershipStore), which
	// keep the player item a fixed size.
	Games     []string
	UpdatedAt int64
	// LinkID is the opaque id the player's personal links carry instead
	// of their address ("" until the first is made); LinkGen the
	// generation those links are issued under ("sign out everywhere"
	// adds one). See LinkStore.
	LinkID  string
	LinkGen int64
}

// PlayerStore keeps players. Every method is safe for concurrent use and
// race-free without a read first (DynamoDB UpdateItem).
type PlayerStore interface {
	// A player's games are memberships, apart from the player item
	// (issue 16); Player.Games is the list older versions kept.
	MembershipStore
	// GetPlayer reads a player; ErrNotFound if the address is unknown.
	GetPlayer(ctx context.Context, email string) (Player, error)
	// AddPlayerGame records that email plays gameID in Player.Games,
	// creating the player if needed. Adding the same game twice changes
	// nothing. The service no longer calls it (memberships instead); it
	// stays for the stores' suite and older data.
	AddPlayerGame(ctx context.Context, email, gameID string, at int64) error
	// SetPlayerPrefs sets language, mail preference and unsubscription,
	// creating the player if needed.
	SetPlayerPrefs(ctx context.Context, email, lang, mail, tz string, unsubscribed bool, at int64) error
	// Suppress marks an address that must not be mailed (bounce,
	// complaint), creating the player if needed.
	Suppress(ctx context.Context, email, reason string, at int64) error
	// QueueDigest appends item to the player's daily digest in one write,
	// creating the player if needed; concurrent calls lose no item. The
	// first item queued after a TakeDigest sets the digest's time to at,
	// which DigestsDue reads.
	QueueDigest(ctx context.Context, email string, item DigestItem, at int64) error
	// TakeDigest returns the queued items in the order they were queued
	// and clears them, atomically (one write): an item queued meanwhile is
	// either returned or kept for the next digest. None queued: nil.
	TakeDigest(ctx context.Context, email string) ([]DigestItem, error)
	// DigestsDue lists, in no particular order, the addresses whose digest
	// holds items and whose time is at most before. In DynamoDB it reads a
	// sparse global secondary index, eventually consistent: a digest just
	// taken may still be listed (its TakeDigest then returns nil).
	DigestsDue(ctx context.Context, before int64) ([]string, error)
}

// DigestItem is a mail a player who chose MailDigest gets in the daily
// digest instead of at once.
type DigestItem struct {
	Game string `json:"g"`
	Kind string `json:"k"` // the mail's kind (service.MailAccepted, MailOver…)
	// Seat is the invitation index the item is about: the seat that
	// accepted for an "accepted" mail, the recipient's own seat otherwise.
	Seat int   `json:"s"`
	At   int64 `json:"at"` // when it was queued, seconds since the epoch
}

// ErrLimited: a counter already holds its limit.
var ErrLimited = errors.New("limit reached")

// GuardStore keeps what protects the service from abuse: counters that
// expire by themselves (requests per client or address per window) and
// marks that do (an address its owner has confirmed). Every method is
// safe for concurrent use and costs one request in DynamoDB, where the
// table's TTL attribute deletes what has expired; both stores also check
// the expiry on every read, since DynamoDB deletes expired items late.
type GuardStore interface {
	// Count adds one to the counter key in one atomic write, unless it
	// already holds limit: then it fails with ErrLimited and changes
	// nothing. A counter that does not exist, or expired at or before now
	// (seconds since the Unix epoch), starts from zero and expires at
	// expires; a live one keeps its expiry.
	Count(ctx context.Context, key string, limit, expires, now int64) error
	// Mark records key until expires (seconds since the epoch), replacing
	// any earlier mark of key.
	Mark(ctx context.Context, key string, expires int64) error
	// Marked tells whether key is marked and its mark expires after now.
	Marked(ctx context.Context, key string, now int64) (bool, error)
}

// Sent is a game's sent marker: a small item beside the game's that says
// which of its mail the notifier has sent, so that marking mail sent does
// not rewrite the game item (issue 16). Body is opaque to the store: the
// service's encoding of the mail sent.
type Sent struct {
	GameID  string
	Version int64 // 1 after the first write; each write adds 1
	Body    []byte
}

// SentStore keeps games' sent markers. Every method is safe for
// concurrent use and costs one request in DynamoDB.
type SentStore interface {
	// GetSent reads a game's marker with a strongly consistent read;
	// ErrNotFound if none was written.
	GetSent(ctx context.Context, gameID string) (Sent, error)
	// PutSent writes m as version prev+1 in one conditional write, as
	// PutGame does: it fails with ErrConflict unless the stored marker's
	// version is prev (prev 0: there must be none).
	PutSent(ctx context.Context, m Sent, prev int64) (int64, error)
	// GetSents reads the markers of the games of ids (at most MaxBatch),
	// by id, with strongly consistent reads, in one request in DynamoDB;
	// an id without a marker is left out.
	GetSents(ctx context.Context, ids []string) (map[string]Sent, error)
}
