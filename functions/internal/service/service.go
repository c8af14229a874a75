// Package service is the application: it creates games, seats players,
// applies their moves with the engine and commits each move as one
// conditional write (SPEC §3). HTTP handlers and Lambda functions call it;
// it knows nothing of HTTP.
//
// Its files by job: service.go wires it and reads and writes a game;
// create.go makes games and seats players (validate.go checks what they
// send, guard.go the limits and the organiser's confirmation); auth.go
// signs and checks links; act.go applies a seat's, a bot's or an order's
// decision, on what precondition.go says the move was chosen on; clock.go
// does what deadlines ask (Tick, the sweep); log.go reads and replays the
// log; mail.go plans the mail a commit leaves, and sent.go keeps what
// the notifier sent in the marker beside the game; controls.go gives the
// organiser's controls and away.go the players' absences.
package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// Limits of what a client may send.
const (
	MaxNameLen = 40
	// MaxGameNameLen is the longest name an organiser may give a game.
	MaxGameNameLen = 60
	MaxEmailLen    = 254
	MinKeyLen      = 8
	MaxKeyLen      = 64
	// The game item holds the newest log entries, ChunkSize of them to
	// fewer than maxLogEntries (logToChunks); one chunk item holds at
	// most maxChunkEntries (an imported game's log is cut into such).
	// What a page or a mail tells of the play since a seat's last move
	// comes from those entries, at most 40 lines, about what 16 entries
	// tell; 32 to 79 of them cost most writes of the game item a write
	// unit more (issue 28).
	ChunkSize       = 16
	maxLogEntries   = 2*ChunkSize + ChunkSize/2
	maxChunkEntries = 512
	// maxDeferredLog is the most log entries a commit that moves the game
	// in both indexes leaves in the game item (logToChunks).
	maxDeferredLog = maxLogEntries + ChunkSize
	// keepKeys idempotency keys are remembered per game: a retry (a
	// double click, a link clicked twice, a client's retry) comes within
	// minutes, and one that comes later than keepKeys other keyed
	// commands finds the seat's decision made (the precondition of its
	// page or link refuses it). Each costs its bytes in every write of the
	// game item: a page's key is 22 characters that do not compress
	// (128 of them were 2 KB of the item; 16 are 0.3 KB, issue 28).
	keepKeys = 16
)

// Token lifetimes.
const (
	SeatTokenTTL      = 90 * 24 * time.Hour
	InviteTokenTTL    = 30 * 24 * time.Hour
	OrganiserTokenTTL = 365 * 24 * time.Hour
)

// Config wires a Service.
type Config struct {
	// Games are the games the service plays (the wiring's catalog):
	// required.
	Games *games.Registry
	Store store.Store
	// Players indexes players' games and keeps their mail preferences;
	// optional (tests of the game alone leave it out).
	Players store.PlayerStore
	// Guard counts games against Limits and remembers confirmed
	// organisers; the Store when nil (both stores implement it).
	Guard store.GuardStore
	// Sent keeps the games' sent markers: when set, the notifier marks
	// the mail it sent there rather than rewriting the game (SettleSent),
	// and Load drops that mail from the outbox. Optional.
	Sent   store.SentStore
	Limits Limits
	Keys   *linksign.Keyring
	// KeysLater, when set, gives the keys instead of Keys, asked at each
	// use: a Lambda's, read from SSM at their first use, not at its init.
	// It keeps the keys once read and reads again after a failure
	// (lambdaenv.Env.Keys).
	KeysLater func() (*linksign.Keyring, error)
	// KeysPending, when set, reports whether KeysLater has still to read
	// the keys (lambdaenv.Env.KeysPending): AuthorizeAndLoad then reads
	// the game while they are read.
	KeysPending func() bool
	Now         func() time.Time // the clock; time.Now when nil
	Rand        io.Reader        // seeds and ids; crypto/rand when nil
	Log         *slog.Logger
	// AfterCommit runs after every committed write that leaves mail in
	// the outbox (the in-process notifier of the local run and tests; nil
	// in Lambda, where the table's stream feeds the notifier).
	AfterCommit func(ctx context.Context, gameID string)
	// Committed, when set, runs instead of AfterCommit with the record
	// and version just written, so that the notifier need not read the
	// game again.
	Committed func(ctx context.Context, rec *Record, version int64)
	// SignIn, when set, is told of each sign-in link asked for and
	// admitted (AskSignIn), known address or not: it mails the link if
	// the address is a player's (notify.Notifier.SendSignIn), after the
	// answer is decided. Nil in Lambda, where the table's stream feeds
	// the notifier.
	SignIn func(ctx context.Context, email, lang string)

	// Talk keeps the games' table talk (talk.go); optional: without it
	// the service keeps none and mails fold none in.
	Talk store.TalkStore
	// TalkPosted, when set, is told of each message posted, after the
	// post's answer is decided: it mails the message to the seats that
	// asked for each one (notify.Notifier.SendTalk; talkmail.go). Nil in
	// Lambda, where the message's item on the table's stream feeds the
	// notifier.
	TalkPosted func(ctx context.Context, game, key string)

	// HandOut, when set, takes the games due off the sweep's hands
	// (TickDue): it writes a request to tick each, which in AWS the
	// table's stream feeds to the notify function (Tick), many at once.
	// Nil where nothing would act on the requests (the local run): the
	// sweep ticks every game due itself.
	HandOut store.TickRequester
}

// Service is safe for concurrent use.
type Service struct {
	games       *games.Registry
	store       store.Store
	players     store.PlayerStore
	guard       store.GuardStore
	sent        store.SentStore
	limits      Limits
	keys        keySource
	keysPending func() bool
	now         func() time.Time
	rand        io.Reader
	log         *slog.Logger
	afterCommit func(ctx context.Context, gameID string)
	committed   func(ctx context.Context, rec *Record, version int64)
	signIn      func(ctx context.Context, email, lang string)
	talk        store.TalkStore
	talkPosted  func(ctx context.Context, game, key string)
	handOut     store.TickRequester
}

// New makes a Service.
func New(c Config) *Service {
	s := &Service{games: c.Games, store: c.Store, players: c.Players, guard: c.Guard, sent: c.Sent, limits: c.Limits.withDefaults(), keys: newKeySource(c.Keys, c.KeysLater), keysPending: c.KeysPending,
		now: c.Now, rand: c.Rand, log: c.Log, afterCommit: c.AfterCommit, committed: c.Committed, signIn: c.SignIn, talk: c.Talk,
		talkPosted: c.TalkPosted, handOut: c.HandOut}
	if s.games == nil {
		panic("service: Config.Games is nil")
	}
	if s.guard == nil {
		g, ok := c.Store.(store.GuardStore)
		if !ok {
			panic("service: Config.Guard is nil and the Store is no GuardStore")
		}
		s.guard = g
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rand == nil {
		s.rand = rand.Reader
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

// Games are the games the service plays.
func (s *Service) Games() *games.Registry { return s.games }

// Load reads a game and its version. Where the service keeps sent
// markers, the mail the game's marker says was sent is dropped from the
// outbox: the marker is read with the game in one request where the
// store reads batches, else a second, small read of a game with mail.
func (s *Service) Load(ctx context.Context, id string) (*Record, int64, error) {
	if _, ok := s.batchSent(); ok {
		// The game and its sent marker in one request (issue 28): most
		// games hold the mail of their last commit until the next one,
		// so Load would read the marker after the game anyway; where
		// the outbox is empty the marker read costs a read unit, not a
		// request.
		read, err := s.readBatch(ctx, []string{id})
		if err != nil {
			return nil, 0, fmt.Errorf("load game %s: %w", id, err)
		}
		return s.loadBatched(ctx, id, read)
	}
	g, err := s.store.GetGame(ctx, id)
	if err != nil {
		return nil, 0, fmt.Errorf("load game %s: %w", id, err)
	}
	return s.loaded(ctx, id, g)
}

// loaded is Load of the game id read as g.
func (s *Service) loaded(ctx context.Context, id string, g store.Game) (*Record, int64, error) {
	rec, err := s.decodeGame(ctx, g)
	if err != nil {
		return nil, 0, err
	}
	if s.sent != nil && len(rec.Outbox) > 0 {
		if err := s.foldSent(ctx, rec); err != nil {
			return nil, 0, fmt.Errorf("load game %s: %w", id, err)
		}
	}
	return rec, g.Version, nil
}

// decodeGame reads a stored game's record.
func (s *Service) decodeGame(ctx context.Context, g store.Game) (*Record, error) {
	var rec Record
	if err := decode(g.Body, &rec); err != nil {
		return nil, fmt.Errorf("load game %s: %w", g.ID, err)
	}
	if rec.Format != RecordFormat {
		return nil, fmt.Errorf("load game %s: record format %d", g.ID, rec.Format)
	}
	rec.upgrade()
	if err := s.settleRules(ctx, &rec); err != nil {
		return nil, fmt.Errorf("load game %s: %w", g.ID, err)
	}
	rec.seen = rec.summaries()
	return &rec, nil
}

// Engine restores the engine game of a started game, under its own rules
// version. A game of a version this engine no longer plays is restored
// to be viewed only (frozen).
func (s *Service) Engine(rec *Record) (engine.Game, error) {
	if rec.State == nil {
		return nil, Fail(CodeWrongStatus, errors.New("game not started"))
	}
	g, err := s.games.Load(rec.Kind, rec.Rules, rec.State)
	if errors.Is(err, games.ErrUnknownRules) {
		if g, err = s.games.Load(rec.Kind, s.games.CurrentRules(rec.Kind), rec.State); err == nil {
			return frozen{Game: g, rules: rec.Rules}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	return g, nil
}

// logToChunks encodes rec for its write, having first moved its recent
// log, once it holds maxLogEntries, to a chunk item but for the newest
// ChunkSize entries, which the pages and mails tell what happened from:
// all of it in one chunk (maxChunkEntries allowing), the many commands a
// commit where standing orders and bots play on included (issue 28:
// before, 32 entries a chunk, up to 13 chunks a commit).
//
// A chunk is written, idempotently, before the game that counts it
// (Record.Chunks, ChunkTag), tagged by a hash of its contents and naming
// the tag of the chunk before it: a commit that loses its race to another
// leaves its chunk behind under a tag of its own, which no game names
// (FullLog passes it over), and the winner's commit, or a later one,
// writes its own beside it.
//
// A commit that moves the game in both of the store's indexes (its wake
// and its mail key: four write units) leaves its log to a later commit's
// chunk unless the log has grown to maxDeferredLog, so that no action
// pays a chunk on top of them (issue 28).
func (s *Service) logToChunks(ctx context.Context, rec *Record, bothIndexes bool) ([]byte, error) {
	bound := maxLogEntries
	if bothIndexes {
		bound = maxDeferredLog
	}
	for n := rec.Log.Len(); n >= bound; n = rec.Log.Len() {
		part, rest := rec.Log.split(min(n-ChunkSize, maxChunkEntries))
		entries, err := part.decode()
		if err != nil {
			return nil, fmt.Errorf("chunk %d of game %s: %w", rec.Chunks, rec.ID, err)
		}
		cb, err := encode(chunkBody{Prev: rec.ChunkTag, Entries: entries})
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(cb)
		tag := hex.EncodeToString(sum[:5])
		if err := s.store.PutChunk(ctx, store.Chunk{GameID: rec.ID, Seq: rec.Chunks, Tag: tag, Body: cb}); err != nil {
			return nil, fmt.Errorf("chunk %d of game %s: %w", rec.Chunks, rec.ID, err)
		}
		rec.Log = append(logLines(nil), rest...)
		rec.Chunks++
		rec.ChunkTag = tag
	}
	return encode(rec)
}

// errUnchanged is ErrUnchanged, as the game commands return it.
var errUnchanged = ErrUnchanged

// update reads, changes and writes a game, retrying on conflict: for
// commands whose effect does not depend on the order (accept, start).
func (s *Service) update(ctx context.Context, id string, change func(*Record) error) error {
	return s.updateAt(ctx, id, func(rec *Record, _ int64) error { return change(rec) })
}

// updateAt is update for a change that needs the version it read (to
// play commands as the version after it).
func (s *Service) updateAt(ctx context.Context, id string, change func(rec *Record, ver int64) error) error {
	return Update(6, func() (*Record, int64, error) { return s.Load(ctx, id) }, change,
		func(rec *Record, ver int64) error {
			_, err := s.commit(ctx, rec, ver)
			return err
		})
}

// commit writes rec as the version after prev: its recent log first goes
// to a chunk (logToChunks) if it would cost the game item a write unit,
// then the one conditional write.
func (s *Service) commit(ctx context.Context, rec *Record, prev int64) (int64, error) {
	s.keepChart(ctx, rec)
	now := s.now()
	rec.Updated = now.Unix()
	oldWake := rec.WakeKey
	rec.WakeKey = rec.wakeKey(now.Unix())
	pending, key := len(rec.Outbox) > 0, ""
	if pending && s.sent != nil {
		rec.OutboxKey = mailKey(rec.OutboxKey, now.Unix())
		key = rec.OutboxKey
	}
	// Both indexes move: the wake key changes from one time to another,
	// and the commit's mail lists the game under a key of its own (mailKey
	// gives each commit a new one).
	bothIndexes := oldWake != 0 && rec.WakeKey != 0 && rec.WakeKey != oldWake && key != ""
	body, err := s.logToChunks(ctx, rec, bothIndexes)
	if err != nil {
		return 0, err
	}
	v, err := s.store.PutGame(ctx, store.Game{ID: rec.ID, Body: body, OutboxPending: pending, OutboxKey: key, UpdatedAt: now.Unix(), WakeAt: rec.WakeKey}, prev)
	if err != nil {
		return 0, err
	}
	rec.folded = nil // the game no longer holds the mail Load dropped
	s.syncMembers(ctx, rec, v)
	switch {
	case len(rec.Outbox) == 0:
	case s.committed != nil:
		s.committed(ctx, rec, v)
	case s.afterCommit != nil:
		s.afterCommit(ctx, rec.ID)
	}
	return v, nil
}
