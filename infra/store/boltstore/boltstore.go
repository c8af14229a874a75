// Package boltstore is the embedded store of the local run: one bbolt file
// with the same semantics as the DynamoDB store (versions checked on every
// write, idempotent chunks, the pending-outbox and waking listings and
// DynamoDB's item size limit), so games survive a restart and behave as
// they will in AWS.
//
// Layout: bucket "games" maps a game id to its record (version, update
// time, flags, wake time if set, body); bucket "sent" maps a game id to
// its sent marker (sent.go); bucket "chunks" maps (game id, seq)
// to a chunk's body; bucket "outbox" holds the ids of the games whose flag
// is set and bucket "wake" maps the id of a game whose WakeAt is set to it
// (8 bytes big-endian), both kept in the same transaction as the game;
// bucket "players" maps a lower-case address to its player as JSON, each
// change in one transaction; bucket "guard" holds the abuse counters and
// marks (guard.go).
package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/pbmgames/pbm/infra/store"
)

// MaxItemBytes is DynamoDB's item size limit, applied to the item the
// DynamoDB store would write for the same game or chunk.
const MaxItemBytes = 400 * 1024

var (
	bucketGames   = []byte("games")
	bucketChunks  = []byte("chunks")
	bucketOutbox  = []byte("outbox")
	bucketWake    = []byte("wake")
	bucketPlayers = []byte("players")
)

// Store is a store.Store in one bbolt file. It is safe for concurrent use.
type Store struct {
	db *bolt.DB
}

var _ interface {
	store.Store
	store.LinkStore
	store.GuardStore
	store.SentStore
	store.LeagueStore
} = (*Store)(nil)

// ErrInUse is Open's error when another process holds the file: bbolt
// takes an exclusive lock, so a second local runner on the same data
// folder waits lockWait and gives up.
var ErrInUse = errors.New("the file is held by another process")

// lockWait is how long Open waits for another process to let the file go.
var lockWait = 5 * time.Second

// Open opens (creating it if need be) the store in the file at path. Only
// one process may have it open; another waits a few seconds and fails.
func Open(path string) (*Store, error) {
	return open(path, &bolt.Options{Timeout: lockWait})
}

// OpenScratch opens a store that does not sync each commit to disk: for
// throw-away files many commits are written to (the calendar simulator),
// where a crash may lose what was written.
func OpenScratch(path string) (*Store, error) {
	return open(path, &bolt.Options{Timeout: lockWait, NoSync: true, NoFreelistSync: true})
}

func open(path string, o *bolt.Options) (*Store, error) {
	db, err := bolt.Open(path, 0o600, o)
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("boltstore: open %s: %w", path, ErrInUse)
	}
	if err != nil {
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := makeBuckets(tx, bucketGames, bucketChunks, bucketOutbox, bucketWake, bucketPlayers, bucketGuard)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("boltstore: open %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// view runs fn on bucket name in one read-only transaction, unless ctx
// is done.
func (s *Store) view(ctx context.Context, name []byte, fn func(*bolt.Bucket) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(func(tx *bolt.Tx) error { return fn(tx.Bucket(name)) })
}

// update runs fn on bucket name in one read-write transaction, unless
// ctx is done.
func (s *Store) update(ctx context.Context, name []byte, fn func(*bolt.Bucket) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error { return fn(tx.Bucket(name)) })
}

// keys lists the keys of bucket name whose entries match, in key order.
func (s *Store) keys(ctx context.Context, name []byte, match func(k, v []byte) (bool, error)) ([]string, error) {
	var keys []string
	err := s.view(ctx, name, func(b *bolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			ok, err := match(k, v)
			if ok {
				keys = append(keys, string(k))
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return keys, nil
}

// A game record is a fixed header, the wake time (8 bytes) if flagWake is
// set, the outbox key (a byte of its length, then it) if flagOutboxKey is,
// and the body. Records written before WakeAt or outbox keys existed have
// neither flag and read as they did.
const (
	offVersion = 0
	offUpdated = 8
	offFlags   = 16
	headerLen  = 17
	wakeLen    = 8

	flagOutbox    = 1
	flagWake      = 2
	flagOutboxKey = 4
)

func encodeGame(version int64, g store.Game) []byte {
	head := headerLen
	if g.WakeAt > 0 {
		head += wakeLen
	}
	keyed := g.OutboxPending && g.OutboxKey != ""
	if keyed {
		head += 1 + len(g.OutboxKey)
	}
	rec := make([]byte, head+len(g.Body))
	binary.BigEndian.PutUint64(rec[offVersion:], uint64(version))
	binary.BigEndian.PutUint64(rec[offUpdated:], uint64(g.UpdatedAt))
	if g.OutboxPending {
		rec[offFlags] |= flagOutbox
	}
	at := headerLen
	if g.WakeAt > 0 {
		rec[offFlags] |= flagWake
		binary.BigEndian.PutUint64(rec[at:], uint64(g.WakeAt))
		at += wakeLen
	}
	if keyed {
		rec[offFlags] |= flagOutboxKey
		rec[at] = byte(len(g.OutboxKey))
		copy(rec[at+1:], g.OutboxKey)
	}
	copy(rec[head:], g.Body)
	return rec
}

// decodeGame copies what it needs out of rec, which bbolt owns.
func decodeGame(id string, rec []byte) (store.Game, error) {
	if len(rec) < headerLen {
		return store.Game{}, fmt.Errorf("boltstore: game %s: corrupt record of %d bytes", id, len(rec))
	}
	g := store.Game{
		ID:            id,
		Version:       int64(binary.BigEndian.Uint64(rec[offVersion:])),
		UpdatedAt:     int64(binary.BigEndian.Uint64(rec[offUpdated:])),
		OutboxPending: rec[offFlags]&flagOutbox != 0,
	}
	head := headerLen
	if rec[offFlags]&flagWake != 0 {
		head += wakeLen
		if len(rec) < head {
			return store.Game{}, fmt.Errorf("boltstore: game %s: corrupt record of %d bytes", id, len(rec))
		}
		g.WakeAt = int64(binary.BigEndian.Uint64(rec[headerLen:]))
	}
	if rec[offFlags]&flagOutboxKey != 0 {
		if len(rec) <= head || len(rec) < head+1+int(rec[head]) {
			return store.Game{}, fmt.Errorf("boltstore: game %s: corrupt record of %d bytes", id, len(rec))
		}
		g.OutboxKey = string(rec[head+1 : head+1+int(rec[head])])
		head += 1 + int(rec[head])
	}
	g.Body = bytes.Clone(rec[head:len(rec):len(rec)])
	return g, nil
}

// chunkKey is the game id's length, the id, and the seq big-endian, so
// that one game's chunks are contiguous and in Seq order.
// chunkKey is a chunk's key: its game's prefix, its Seq (8 bytes, big
// endian) and its Tag, so that keys sort by Seq, then Tag.
func chunkKey(id string, seq int, tag string) []byte {
	k := chunkPrefix(id)
	return append(binary.BigEndian.AppendUint64(k, uint64(seq)), tag...)
}

func chunkPrefix(id string) []byte {
	k := binary.AppendUvarint(nil, uint64(len(id)))
	return append(k, id...)
}

// GetGame reads a game.
func (s *Store) GetGame(ctx context.Context, id string) (store.Game, error) {
	if err := ctx.Err(); err != nil {
		return store.Game{}, err
	}
	if id == "" {
		return store.Game{}, fmt.Errorf("boltstore: get game with empty id: %w", store.ErrNotFound)
	}
	var g store.Game
	err := s.view(ctx, bucketGames, func(games *bolt.Bucket) error {
		rec := games.Get([]byte(id))
		if rec == nil {
			return fmt.Errorf("boltstore: get game %s: %w", id, store.ErrNotFound)
		}
		var err error
		g, err = decodeGame(id, rec)
		return err
	})
	if err != nil {
		return store.Game{}, err
	}
	return g, nil
}

// PutGame writes g as version prev+1 if the stored version is prev.
func (s *Store) PutGame(ctx context.Context, g store.Game, prev int64) (int64, error) {
	ver := prev + 1
	if g.OutboxPending && g.OutboxKey != "" && (g.OutboxKey == "1" || !store.ValidChunkTag(g.OutboxKey)) {
		return 0, fmt.Errorf("boltstore: put game %s: outbox key %q", g.ID, g.OutboxKey)
	}
	if err := checkPut(ctx, "game", g.ID, prev, gameItemSize(g, ver), MaxItemBytes); err != nil {
		return 0, err
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		games := tx.Bucket(bucketGames)
		key := []byte(g.ID)
		if err := checkVersion("game", g.ID, games.Get(key), headerLen, prev); err != nil {
			return err
		}
		if err := games.Put(key, encodeGame(ver, g)); err != nil {
			return err
		}
		if err := setFlag(tx.Bucket(bucketOutbox), key, g.OutboxPending, []byte(g.OutboxKey)); err != nil {
			return err
		}
		return setFlag(tx.Bucket(bucketWake), key, g.WakeAt > 0, binary.BigEndian.AppendUint64(nil, uint64(g.WakeAt)))
	})
	if err != nil {
		return 0, err
	}
	return ver, nil
}

// PutChunk writes a chunk once; the same body again succeeds, another is
// ErrConflict.
func (s *Store) PutChunk(ctx context.Context, c store.Chunk) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c.GameID == "" {
		return errors.New("boltstore: put chunk with empty game id")
	}
	if c.Seq < 0 || c.Seq > 99_999_999 {
		return fmt.Errorf("boltstore: put chunk %s/%d: seq out of range [0, 99999999]", c.GameID, c.Seq)
	}
	if !store.ValidChunkTag(c.Tag) {
		return fmt.Errorf("boltstore: put chunk %s/%d: tag %q", c.GameID, c.Seq, c.Tag)
	}
	if n := chunkItemSize(c); n > MaxItemBytes {
		return fmt.Errorf("boltstore: put chunk %s/%d: %d bytes over %d: %w", c.GameID, c.Seq, n, MaxItemBytes, store.ErrTooLarge)
	}
	return s.update(ctx, bucketChunks, func(chunks *bolt.Bucket) error {
		key := chunkKey(c.GameID, c.Seq, c.Tag)
		if old := chunks.Get(key); old != nil {
			if !bytes.Equal(old, c.Body) {
				return fmt.Errorf("boltstore: put chunk %s/%d: another body is stored: %w", c.GameID, c.Seq, store.ErrConflict)
			}
			return nil
		}
		// bbolt stores a nil value as nil, which Get could not tell from
		// absent: store an empty body as an empty, non-nil slice.
		body := c.Body
		if body == nil {
			body = []byte{}
		}
		return chunks.Put(key, body)
	})
}

// Chunks lists a game's chunks in Seq order.
func (s *Store) Chunks(ctx context.Context, gameID string) ([]store.Chunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if gameID == "" {
		return nil, nil
	}
	prefix := chunkPrefix(gameID)
	var out []store.Chunk
	err := s.view(ctx, bucketChunks, func(chunks *bolt.Bucket) error {
		cur := chunks.Cursor()
		for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
			if len(k) < len(prefix)+8 || !store.ValidChunkTag(string(k[len(prefix)+8:])) {
				return fmt.Errorf("boltstore: chunks of %s: corrupt key %x", gameID, k)
			}
			seq := int(binary.BigEndian.Uint64(k[len(prefix):]))
			out = append(out, store.Chunk{GameID: gameID, Seq: seq, Tag: string(k[len(prefix)+8:]), Body: bytes.Clone(v)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PendingOutbox lists the games whose outbox flag is set without a key.
func (s *Store) PendingOutbox(ctx context.Context) ([]string, error) {
	return s.PendingMail(ctx, "")
}

// PendingMail lists the games whose outbox flag is set under key (a scan
// of the outbox bucket: the local run's games are few).
func (s *Store) PendingMail(ctx context.Context, key string) ([]string, error) {
	return s.keys(ctx, bucketOutbox, func(_, v []byte) (bool, error) { return string(v) == key, nil })
}

// Waking lists the games whose WakeAt is set and at most before.
func (s *Store) Waking(ctx context.Context, before int64) ([]string, error) {
	return s.keys(ctx, bucketWake, func(k, v []byte) (bool, error) {
		if len(v) != wakeLen {
			return false, fmt.Errorf("boltstore: waking: corrupt wake time of %s", k)
		}
		return int64(binary.BigEndian.Uint64(v)) <= before, nil
	})
}

// Item sizes as DynamoDB counts them (and dynalite, which enforces the
// limit in tests): each attribute's name plus its value, strings and
// binaries by length and numbers as below, for the very items the DynamoDB
// store writes. A game of the same size is so accepted or refused by both.

func gameItemSize(g store.Game, ver int64) int {
	n := len("pk") + len("GAME#") + len(g.ID) +
		len("sk") + len("GAME") +
		len("ver") + numberSize(ver) +
		len("upd") + numberSize(g.UpdatedAt) +
		len("body") + len(g.Body)
	switch {
	case g.OutboxPending && g.OutboxKey != "":
		n += len("outbox") + len(g.OutboxKey)
	case g.OutboxPending:
		n += len("outbox") + len("1")
	}
	if g.WakeAt > 0 {
		n += len("wpk") + len("W") + len("wake") + numberSize(g.WakeAt)
	}
	return n
}

func chunkItemSize(c store.Chunk) int {
	n := len("pk") + len("GAME#") + len(c.GameID) +
		len("sk") + len("LOG#00000000") +
		len("body") + len(c.Body)
	if c.Tag != "" {
		n += len("#") + len(c.Tag)
	}
	return n
}

// numberSize is the size of a number in DynamoDB: its significant digits
// (leading and trailing zeros dropped) packed two to a byte, aligned on the
// decimal point, plus a byte, plus one for a minus sign.
func numberSize(v int64) int {
	if v == 0 {
		return 1
	}
	digits := strconv.FormatInt(v, 10)
	size := 1
	if digits[0] == '-' {
		digits = digits[1:]
		size++
	}
	exp := len(digits) - 1 // of the leading digit
	sig := len(strings.TrimRight(digits, "0"))
	size += (sig + 1) / 2
	if sig%2 == 0 && exp%2 == 0 {
		size++ // the digits straddle one more byte
	}
	return size
}

// Versioned records (games, league items, access items, sent markers)
// begin with their version, 8 bytes big-endian, and are written as
// version prev+1 only over version prev (no record for prev 0).

// checkPut refuses, before any transaction, a write of version prev+1 of
// the item kind id: ctx done, an empty id, a negative previous version,
// or size bytes over limit.
func checkPut(ctx context.Context, kind, id string, prev int64, size, limit int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if id == "" {
		return fmt.Errorf("boltstore: put %s with empty id", kind)
	}
	if prev < 0 {
		return fmt.Errorf("boltstore: put %s %s: negative previous version %d", kind, id, prev)
	}
	if size > limit {
		return fmt.Errorf("boltstore: put %s %s version %d: %d bytes over %d: %w", kind, id, prev+1, size, limit, store.ErrTooLarge)
	}
	return nil
}

// checkVersion is nil if rec, the stored record of the item kind id (nil:
// none), is version prev; a record shorter than headLen is corrupt.
func checkVersion(kind, id string, rec []byte, headLen int, prev int64) error {
	stored := int64(0)
	if rec != nil {
		if len(rec) < headLen {
			return fmt.Errorf("boltstore: %s %s: corrupt record of %d bytes", kind, id, len(rec))
		}
		stored = int64(binary.BigEndian.Uint64(rec))
	}
	if stored != prev {
		return fmt.Errorf("boltstore: put %s %s version %d: stored version is %d: %w", kind, id, prev+1, stored, store.ErrConflict)
	}
	return nil
}

// getBlob reads the record at id in bucket (made by the first write) and
// makes of its version and the body after it what it holds.
func getBlob[T any](ctx context.Context, s *Store, bucket []byte, kind, id string, make func(ver int64, body []byte) T) (T, error) {
	var v T
	err := s.view(ctx, bucket, func(b *bolt.Bucket) error {
		var rec []byte
		if b != nil && id != "" {
			rec = b.Get([]byte(id))
		}
		if rec == nil {
			return fmt.Errorf("boltstore: get %s %s: %w", kind, id, store.ErrNotFound)
		}
		if len(rec) < 8 {
			return fmt.Errorf("boltstore: %s %s: corrupt record of %d bytes", kind, id, len(rec))
		}
		v = make(int64(binary.BigEndian.Uint64(rec)), bytes.Clone(rec[8:len(rec):len(rec)]))
		return nil
	})
	return v, err
}

// putBlob writes body at id in bucket, making the bucket if need be, as
// version prev+1 if the stored version is prev; size is the item's for
// the limit.
func (s *Store) putBlob(ctx context.Context, bucket []byte, kind, id string, body []byte, prev int64, size, limit int) (int64, error) {
	if err := checkPut(ctx, kind, id, prev, size, limit); err != nil {
		return 0, err
	}
	ver := prev + 1
	err := s.db.Update(func(tx *bolt.Tx) error {
		bs, err := makeBuckets(tx, bucket)
		if err != nil {
			return err
		}
		b := bs[0]
		if err := checkVersion(kind, id, b.Get([]byte(id)), 8, prev); err != nil {
			return err
		}
		return b.Put([]byte(id), append(binary.BigEndian.AppendUint64(nil, uint64(ver)), body...))
	})
	if err != nil {
		return 0, err
	}
	return ver, nil
}

// setFlag keeps key in bucket b (an index: the outbox, a wake bucket)
// with value v while on holds, and deletes it otherwise.
func setFlag(b *bolt.Bucket, key []byte, on bool, v []byte) error {
	if on {
		return b.Put(key, v)
	}
	return b.Delete(key)
}

// makeBuckets returns the buckets of names in tx, making the ones not
// there yet.
func makeBuckets(tx *bolt.Tx, names ...[]byte) ([]*bolt.Bucket, error) {
	bs := make([]*bolt.Bucket, len(names))
	for i, name := range names {
		b, err := tx.CreateBucketIfNotExists(name)
		if err != nil {
			return nil, err
		}
		bs[i] = b
	}
	return bs, nil
}
