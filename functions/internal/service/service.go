// Package service is the application: it creates games, seats players,
// applies their moves with the engine and commits each move as one
// conditional write (SPEC §3). HTTP handlers and Lambda functions call it;
// it knows nothing of HTTP.
package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

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
	// ChunkSize entries move from the game item to a chunk item once the
	// item holds twice as many, in a commit that leaves no mail; in any
	// commit once it holds maxLogEntries.
	ChunkSize     = 32
	maxLogEntries = 2*ChunkSize + ChunkSize/2
	// keepKeys idempotency keys are remembered per game.
	keepKeys = 128
)

// Token lifetimes.
const (
	SeatTokenTTL      = 90 * 24 * time.Hour
	InviteTokenTTL    = 30 * 24 * time.Hour
	OrganiserTokenTTL = 365 * 24 * time.Hour
)

// Config wires a Service.
type Config struct {
	Store store.Store
	// Players indexes players' games and keeps their mail preferences;
	// optional (tests of the game alone leave it out).
	Players store.PlayerStore
	// Guard counts games against Limits and remembers confirmed
	// organisers; the Store when nil (both stores implement it).
	Guard  store.GuardStore
	Limits Limits
	Keys   *linksign.Keyring
	Now    func() time.Time // the clock; time.Now when nil
	Rand   io.Reader        // seeds and ids; crypto/rand when nil
	Log    *slog.Logger
	// AfterCommit runs after every committed write that leaves mail in
	// the outbox (the in-process notifier of the local run and tests; nil
	// in Lambda, where the table's stream feeds the notifier).
	AfterCommit func(ctx context.Context, gameID string)
	// Committed, when set, runs instead of AfterCommit with the record
	// and version just written, so that the notifier need not read the
	// game again.
	Committed func(ctx context.Context, rec *Record, version int64)
}

// Service is safe for concurrent use.
type Service struct {
	store       store.Store
	players     store.PlayerStore
	guard       store.GuardStore
	limits      Limits
	keys        *linksign.Keyring
	now         func() time.Time
	rand        io.Reader
	log         *slog.Logger
	afterCommit func(ctx context.Context, gameID string)
	committed   func(ctx context.Context, rec *Record, version int64)
}

// New makes a Service.
func New(c Config) *Service {
	s := &Service{store: c.Store, players: c.Players, guard: c.Guard, limits: c.Limits.withDefaults(), keys: c.Keys,
		now: c.Now, rand: c.Rand, log: c.Log, afterCommit: c.AfterCommit, committed: c.Committed}
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

// CreateRequest is what an organiser sends to create a game.
type CreateRequest struct {
	Kind string `json:"kind"`
	// Name is what the organiser calls the game (optional): subjects,
	// pages and "my games" use it; without it a game is named by its
	// kind and players.
	Name      string          `json:"name,omitempty"`
	Options   json.RawMessage `json:"options,omitempty"`
	Organiser Person          `json:"organiser"`
	Seats     []Person        `json:"seats"`
	// DeadlineHours is the time each decision gets (P-4); 72 when 0.
	DeadlineHours int `json:"deadline_hours,omitempty"`
	// MissesToBot deadlines missed in a row hand a seat to a bot, or drop
	// the player (OnMisses: "bot", the default, or "drop"); 2 when 0.
	MissesToBot int    `json:"misses_to_bot,omitempty"`
	OnMisses    string `json:"on_misses,omitempty"`
	// Key makes the creation idempotent: the same key from the same
	// organiser with the same request answers the game the first made
	// (a form sent again, a retried call); with another request it is
	// refused.
	Key string `json:"key,omitempty"`
	// Client is the caller's address, which the limits count; set by the
	// HTTP layer, never read from the body.
	Client string `json:"-"`
}

// Created answers a CreateRequest: the game and the organiser's links.
type Created struct {
	ID             string   `json:"id"`
	OrganiserToken string   `json:"organiser_token"`
	SpectatorToken string   `json:"spectator_token"`
	InviteTokens   []string `json:"invite_tokens"`
	// Unconfirmed: the invitations wait until the organiser confirms
	// their address from the mail just sent to it.
	Unconfirmed bool `json:"unconfirmed,omitempty"`
	// Replayed: the key was seen before; this is the game it made.
	Replayed bool `json:"replayed,omitempty"`
}

// Create validates a request and stores a new game waiting for its seats.
// Its invitations go out at once if the organiser's address is confirmed,
// and once the organiser confirms it otherwise (a mail asks them to).
// Every creation counts against the limits of the client and of the
// organiser's address (CodeTooMany beyond them); one with a key seen
// before answers the game that key made and counts nothing.
func (s *Service) Create(ctx context.Context, req CreateRequest) (Created, error) {
	info, ok := games.Lookup(req.Kind)
	if !ok {
		return Created{}, invalid("Неизвестная игра.", "Unknown game.")
	}
	if n := len(req.Seats); n < info.MinSeats || n > info.MaxSeats {
		return Created{}, invalid(
			fmt.Sprintf("В игре должно быть от %d до %d игроков.", info.MinSeats, info.MaxSeats),
			fmt.Sprintf("A game needs %d to %d players.", info.MinSeats, info.MaxSeats))
	}
	org, err := cleanPerson(req.Organiser, true)
	if err != nil {
		return Created{}, err
	}
	req.Name = strings.TrimSpace(req.Name)
	if err := checkGameName(req.Name); err != nil {
		return Created{}, err
	}
	if req.DeadlineHours < 0 || req.DeadlineHours > MaxDeadlineHours {
		return Created{}, invalid(fmt.Sprintf("Срок хода: от 1 до %d часов.", MaxDeadlineHours), fmt.Sprintf("The move deadline must be 1 to %d hours.", MaxDeadlineHours))
	}
	if req.MissesToBot < 0 || req.MissesToBot > 100 {
		return Created{}, invalid("Пропусков до передачи хода боту: от 1 до 100.", "Misses before a bot takes the seat must be 1 to 100.")
	}
	switch req.OnMisses {
	case "", OnMissesBot, OnMissesDrop:
	default:
		return Created{}, invalid("on_misses: bot или drop.", "on_misses must be bot or drop.")
	}
	var keyed string
	if req.Key != "" {
		if err := checkKey(req.Key); err != nil {
			return Created{}, err
		}
		keyed = keyedID(org.Email, req.Key)
		if out, err := s.replayCreate(ctx, keyed, req); !errors.Is(err, store.ErrNotFound) {
			return out, err
		}
	}
	rec := &Record{Format: RecordFormat, Kind: req.Kind, Name: req.Name, Status: StatusInvited, Organiser: org,
		DeadlineHours: req.DeadlineHours, MissesToBot: req.MissesToBot, OnMisses: req.OnMisses}
	seen := map[string]bool{}
	for _, p := range req.Seats {
		p, err := cleanPerson(p, false)
		if err != nil {
			return Created{}, err
		}
		if seen[p.Email] {
			return Created{}, invalid("Один адрес почты указан дважды: "+p.Email, "The same email is given twice: "+p.Email)
		}
		seen[p.Email] = true
		rec.Seats = append(rec.Seats, SeatInfo{Person: p, Engine: -1})
	}
	rec.Seed = make([]byte, 32)
	if _, err := io.ReadFull(s.rand, rec.Seed); err != nil {
		return Created{}, fmt.Errorf("create game: seed: %w", err)
	}
	// The options are written out whole (the game's length by mail where
	// none is given) and checked by making the game now; it is made again,
	// with the seats that accept, when it starts.
	rec.Rules = games.CurrentRules(req.Kind)
	opts, err := games.Complete(req.Kind, req.Options)
	if err != nil {
		return Created{}, err
	}
	if _, err := games.New(req.Kind, rec.Rules, opts, len(req.Seats), [32]byte(rec.Seed)); err != nil {
		return Created{}, err
	}
	rec.Options = opts
	if keyed != "" {
		rec.ID, rec.Request = keyed, fingerprint(req)
	} else if rec.ID, err = s.newID(); err != nil {
		return Created{}, err
	}
	if err := s.admit(ctx, org.Email, req.Client); err != nil {
		return Created{}, err
	}
	confirmed, err := s.Confirmed(ctx, org.Email)
	if err != nil {
		return Created{}, err
	}
	now := s.now()
	rec.Created = now.Unix()
	if confirmed {
		rec.Outbox = inviteMails(rec)
	} else {
		rec.Status = StatusUnconfirmed
		rec.Outbox = []Mail{{ID: "confirm", Kind: MailConfirm, Seat: -1}}
	}
	// The players' index first: a game that then fails to commit is only
	// a dangling id in it, which "my games" skips; the reverse would hide
	// a real game from its players.
	// The players join the index once their invitations can leave.
	if err := s.indexPlayers(ctx, rec, confirmed); err != nil {
		return Created{}, fmt.Errorf("create game %s: %w", rec.ID, err)
	}
	if _, err := s.commit(ctx, rec, 0); err != nil {
		if keyed != "" && errors.Is(err, store.ErrConflict) {
			// The same key raced in: the game it made is the answer.
			return s.replayCreate(ctx, keyed, req)
		}
		return Created{}, fmt.Errorf("create game %s: %w", rec.ID, err)
	}
	out, err := s.created(rec)
	if err != nil {
		return Created{}, err
	}
	s.log.InfoContext(ctx, "game created", "game", rec.ID, "kind", rec.Kind, "seats", len(rec.Seats), "confirmed", confirmed)
	return out, nil
}

// replayCreate answers a creation whose key made game id before: that
// game, if the request is the same; ErrNotFound if there is none.
func (s *Service) replayCreate(ctx context.Context, id string, req CreateRequest) (Created, error) {
	rec, _, err := s.Load(ctx, id)
	if err != nil {
		return Created{}, err
	}
	if rec.Request != fingerprint(req) {
		return Created{}, newError(CodeKeyReused,
			"Этот ключ запроса уже создал другую игру. Обновите форму и отправьте её снова.",
			"This request key already made another game. Reload the form and send it again.",
			fmt.Errorf("create key of game %s reused with another request", id))
	}
	out, err := s.created(rec)
	out.Replayed = true
	return out, err
}

// created is the answer of a creation: the game and its links.
func (s *Service) created(rec *Record) (Created, error) {
	var err error
	out := Created{ID: rec.ID, Unconfirmed: rec.Status == StatusUnconfirmed}
	if out.OrganiserToken, err = s.Token(linksign.PurposeOrganiser, rec.ID, linksign.NoSeat, 0, OrganiserTokenTTL); err != nil {
		return Created{}, err
	}
	if out.SpectatorToken, err = s.Token(linksign.PurposeSpectator, rec.ID, linksign.NoSeat, 0, OrganiserTokenTTL); err != nil {
		return Created{}, err
	}
	for i := range rec.Seats {
		t, err := s.Token(linksign.PurposeInvite, rec.ID, i, 0, InviteTokenTTL)
		if err != nil {
			return Created{}, err
		}
		out.InviteTokens = append(out.InviteTokens, t)
	}
	return out, nil
}

// Token signs a link token.
func (s *Service) Token(p linksign.Purpose, game string, seat int, version int64, ttl time.Duration) (string, error) {
	t, err := s.keys.Sign(linksign.Claims{Purpose: p, Game: game, Seat: seat, Version: version, Expires: s.now().Add(ttl)})
	if err != nil {
		return "", fmt.Errorf("sign %s token: %w", p, err)
	}
	return t, nil
}

// Authorize checks a token for game and returns its claims. Only the
// purposes listed are accepted.
func (s *Service) Authorize(token, game string, purposes ...linksign.Purpose) (linksign.Claims, error) {
	if token == "" {
		return linksign.Claims{}, Fail(CodeUnauthorized, errors.New("no token"))
	}
	var last error
	for _, p := range purposes {
		c, err := s.keys.Verify(token, s.now(), linksign.Expect{Purpose: p, Game: game, AnySeat: true})
		if err == nil {
			return c, nil
		}
		last = err
		if !errors.Is(err, linksign.ErrWrongPurpose) {
			break
		}
	}
	return linksign.Claims{}, AsError(last)
}

// HasSeat refuses a token tied to a seat the game does not have: a
// validly signed token can name any seat up to linksign.MaxSeat.
func (r *Record) HasSeat(c linksign.Claims) error {
	if c.Purpose != linksign.PurposeSeat && c.Purpose != linksign.PurposeInvite {
		return nil
	}
	if c.Seat < 0 || c.Seat >= len(r.Seats) {
		return Fail(CodeForbidden, fmt.Errorf("%s token for seat %d of %d", c.Purpose, c.Seat, len(r.Seats)))
	}
	return nil
}

// Load reads a game and its version.
func (s *Service) Load(ctx context.Context, id string) (*Record, int64, error) {
	g, err := s.store.GetGame(ctx, id)
	if err != nil {
		return nil, 0, fmt.Errorf("load game %s: %w", id, err)
	}
	var rec Record
	if err := decode(g.Body, &rec); err != nil {
		return nil, 0, fmt.Errorf("load game %s: %w", id, err)
	}
	if rec.Format != RecordFormat {
		return nil, 0, fmt.Errorf("load game %s: record format %d", id, rec.Format)
	}
	rec.upgrade()
	if err := s.settleRules(ctx, &rec); err != nil {
		return nil, 0, fmt.Errorf("load game %s: %w", id, err)
	}
	return &rec, g.Version, nil
}

// Engine restores the engine game of a started game, under its own rules
// version. A game of a version this engine no longer plays is restored
// to be viewed only (frozen).
func (s *Service) Engine(rec *Record) (engine.Game, error) {
	if rec.State == nil {
		return nil, Fail(CodeWrongStatus, errors.New("game not started"))
	}
	g, err := games.Load(rec.Kind, rec.Rules, rec.State)
	if errors.Is(err, games.ErrUnknownRules) {
		if g, err = games.Load(rec.Kind, games.CurrentRules(rec.Kind), rec.State); err == nil {
			return frozen{Game: g, rules: rec.Rules}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", rec.ID, err)
	}
	return g, nil
}

// Accept seats an invited player. It answers the seat's token. When every
// seat has accepted the game starts.
func (s *Service) Accept(ctx context.Context, id string, invite int) (string, error) {
	err := s.update(ctx, id, func(rec *Record) error {
		if invite < 0 || invite >= len(rec.Seats) {
			return Fail(CodeForbidden, fmt.Errorf("invite %d of %d", invite, len(rec.Seats)))
		}
		if rec.Seats[invite].Accepted {
			return errUnchanged // a second click changes nothing
		}
		if rec.Status != StatusInvited {
			return Fail(CodeWrongStatus, fmt.Errorf("accept in status %s", rec.Status))
		}
		rec.Seats[invite].Accepted = true
		rec.Outbox = append(rec.Outbox, Mail{ID: fmt.Sprintf("accepted-%d", invite), Kind: MailAccepted, Seat: -1, About: invite})
		for _, st := range rec.Seats {
			if !st.Accepted {
				return nil
			}
		}
		return s.start(rec)
	})
	if err != nil {
		return "", err
	}
	return s.Token(linksign.PurposeSeat, id, invite, 0, SeatTokenTTL)
}

// Start begins the game with the seats that have accepted (the organiser's
// call when not everyone has).
func (s *Service) Start(ctx context.Context, id string) error {
	return s.update(ctx, id, func(rec *Record) error {
		if rec.Status != StatusInvited {
			return Fail(CodeWrongStatus, fmt.Errorf("start in status %s", rec.Status))
		}
		return s.start(rec)
	})
}

func (s *Service) start(rec *Record) error {
	n := 0
	for i := range rec.Seats {
		if rec.Seats[i].Accepted {
			rec.Seats[i].Engine = n
			n++
		}
	}
	info, _ := games.Lookup(rec.Kind)
	if n < info.MinSeats {
		return newError(CodeWrongStatus,
			fmt.Sprintf("Нужно хотя бы %d принявших приглашение игроков.", info.MinSeats),
			fmt.Sprintf("At least %d players must have accepted.", info.MinSeats), nil)
	}
	g, err := games.New(rec.Kind, rec.Rules, rec.Options, n, [32]byte(rec.Seed))
	if err != nil {
		return err
	}
	if rec.State, err = g.MarshalJSON(); err != nil {
		return err
	}
	rec.Status = StatusPlaying
	s.planMail(rec, nil, g)
	// Orders set before the start play the first decisions they cover.
	return s.autoplay(rec, g, 0)
}

// Precondition is what a move was chosen on; zero fields check nothing.
type Precondition struct {
	// Version is the stored version of the game (API clients).
	Version int64
	// Position is the seat's position a mail's link was issued for
	// (Record.SeatPosition): the link acts while the seat owes decisions
	// of that round.
	Position int64
	// Step and Decision are what a seat page's form was shown on: the
	// seat's own step (Record.SeatStep) and the decisions it owed
	// (DecisionOf). Only the seat itself moves its step, and only a change
	// of what it owes changes the decision: another seat's move never
	// stales a form whose decision is still owed.
	Step     int64
	Decision string
}

// SeatPosition numbers a seat's rounds of decisions: one more each time
// the seat begins to owe decisions after owing none (a turn, a sealed
// bid, an offer), when it is mailed. A link carries it, so it opens the
// seat's decisions for as long as the seat owes any of that round — a
// turn of several decisions, whatever other seats do meanwhile — and
// then shows "already done".
func (r *Record) SeatPosition(seat int) int64 {
	if seat < 0 || seat >= len(r.Rounds) {
		return 1
	}
	return int64(r.Rounds[seat]) + 1
}

// LinkPosition is the position a seat's link issued now carries: its
// round's while the seat owes decisions, else the next round's, so the
// page a player is left on after their last decision opens their next
// decisions once they come rather than saying "already done".
func (r *Record) LinkPosition(seat int) int64 {
	if seat >= 0 && seat < len(r.Due) && r.Due[seat] > 0 {
		return r.SeatPosition(seat)
	}
	return r.SeatPosition(seat) + 1
}

// LinkDone tells whether a link of position pos (0: none) is for a round
// of decisions the seat has finished, owes tells whether the seat owes any
// now.
func (r *Record) LinkDone(seat int, pos int64, owes bool) bool {
	cur := r.SeatPosition(seat)
	return pos != 0 && (pos < cur || pos == cur && !owes || pos > cur+1 || pos == cur+1 && owes)
}

// SeatStep numbers a seat's own commands: 1 before its first, one more
// after each.
func (r *Record) SeatStep(seat int) int64 {
	if seat < 0 || seat >= len(r.Acted) {
		return 1
	}
	return int64(r.Acted[seat]) + 1
}

// ErrDecisionChanged is the cause of a conflict when what a seat owes has
// changed since the form it answers was drawn.
var ErrDecisionChanged = errors.New("the seat's decisions changed")

// DecisionOf fingerprints the decisions a seat owes, as Legal lists them.
func DecisionOf(legal []engine.Choice) string {
	b, err := json.Marshal(legal)
	if err != nil { // plain data: cannot fail
		panic(fmt.Sprintf("decision fingerprint: %v", err))
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:12])
}

// Result of an action.
type Result struct {
	Version  int64          `json:"version"`
	N        int            `json:"n"`
	Position int64          `json:"position"` // what a link issued now carries (Record.LinkPosition)
	Events   []engine.Event `json:"events"`
	Replayed bool           `json:"replayed,omitempty"` // a retry: nothing was applied again
}

// Act applies one action of the seat holding invitation invite. key makes
// it idempotent: the same key again answers as the first time and applies
// nothing. pre says what the player saw: if the game has moved on since,
// the move is refused as a conflict rather than applied to a state the
// player has not seen. A move costs one read and one conditional write.
//
// A move whose precondition names the seat's own step (a page's form) is
// tried again when another write commits between its read and its write:
// the retry checks the step and the decisions again, so only a change of
// that seat's own decision refuses it, never someone else's write.
func (s *Service) Act(ctx context.Context, id string, invite int, a engine.Action, key string, pre Precondition) (Result, error) {
	if err := checkKey(key); err != nil {
		return Result{}, err
	}
	for attempt := 1; ; attempt++ {
		res, err := s.act(ctx, id, invite, a, key, pre)
		if pre.Step == 0 || attempt == maxActAttempts || !errors.Is(err, errLostRace) {
			return res, err
		}
	}
}

// maxActAttempts bounds the retries of a move that lost races to other
// writes.
const maxActAttempts = 5

// errLostRace marks a move whose conditional write found the game moved on.
var errLostRace = errors.New("lost the race")

func (s *Service) act(ctx context.Context, id string, invite int, a engine.Action, key string, pre Precondition) (Result, error) {
	rec, ver, err := s.Load(ctx, id)
	if err != nil {
		return Result{}, err
	}
	if invite < 0 || invite >= len(rec.Seats) {
		return Result{}, Fail(CodeForbidden, fmt.Errorf("invite %d of %d", invite, len(rec.Seats)))
	}
	seat := rec.engineSeat(invite)
	if k, ok := rec.findKey(seat, key); ok && seat >= 0 {
		return s.replayedResult(ctx, rec, k, a)
	}
	switch {
	case pre.Version != 0 && pre.Version != ver:
		return Result{}, Fail(CodeConflict, fmt.Errorf("%w: move made on version %d, game is at %d", store.ErrConflict, pre.Version, ver))
	case pre.Position != 0 && pre.Position != rec.SeatPosition(seat):
		return Result{}, Fail(CodeConflict, fmt.Errorf("%w: link for position %d, seat is at %d", store.ErrConflict, pre.Position, rec.SeatPosition(seat)))
	case pre.Step != 0 && pre.Step != rec.SeatStep(seat):
		return Result{}, Fail(CodeConflict, fmt.Errorf("%w: form for step %d, seat is at %d", store.ErrConflict, pre.Step, rec.SeatStep(seat)))
	case rec.Status == StatusOver:
		return Result{}, Fail(CodeGameOver, nil)
	case rec.Status != StatusPlaying:
		return Result{}, Fail(CodeWrongStatus, fmt.Errorf("act in status %s", rec.Status))
	case seat < 0:
		return Result{}, Fail(CodeForbidden, fmt.Errorf("invite %d has no seat", invite))
	}
	g, err := s.Engine(rec)
	if err != nil {
		return Result{}, err
	}
	if pre.Position != 0 && !slices.Contains(g.Owing(), seat) {
		return Result{}, Fail(CodeConflict, fmt.Errorf("%w: link for position %d, the seat owes nothing", store.ErrConflict, pre.Position))
	}
	if pre.Decision != "" && pre.Decision != DecisionOf(g.Legal(seat)) {
		return Result{}, Fail(CodeConflict, fmt.Errorf("%w: %w since its form", store.ErrConflict, ErrDecisionChanged))
	}
	next, ev, err := g.Apply(seat, a)
	if err != nil {
		return Result{}, err
	}
	if err := s.record(rec, g, next, seat, a, key, ev, ver+1, byPlayer); err != nil {
		return Result{}, err
	}
	if err := s.autoplay(rec, next, ver+1); err != nil {
		return Result{}, err
	}
	v, err := s.commit(ctx, rec, ver)
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			err = fmt.Errorf("%w: %w", errLostRace, err)
		}
		return Result{}, fmt.Errorf("act on game %s v%d: %w", id, ver, err)
	}
	s.log.InfoContext(ctx, "action applied", "game", id, "version", v, "seat", seat, "action", a.Type)
	return Result{Version: v, N: rec.Moves - 1, Position: rec.LinkPosition(seat), Events: visible(ev, seat)}, nil
}

// ActBot plays the engine's bot for the seat of invitation invite: for
// seats handed to a bot and for tests. Like Act it costs one read and one
// conditional write.
func (s *Service) ActBot(ctx context.Context, id string, invite int, key string) (Result, error) {
	rec, ver, err := s.Load(ctx, id)
	if err != nil {
		return Result{}, err
	}
	if rec.Status != StatusPlaying {
		return Result{}, Fail(CodeWrongStatus, fmt.Errorf("bot in status %s", rec.Status))
	}
	seat := rec.engineSeat(invite)
	g, err := s.Engine(rec)
	if err != nil {
		return Result{}, err
	}
	a, ok := g.Bot(seat)
	if !ok {
		return Result{}, Fail(CodeNotYourTurn, fmt.Errorf("bot for seat %d: nothing owed", seat))
	}
	next, ev, err := g.Apply(seat, a)
	if err != nil {
		return Result{}, fmt.Errorf("bot for seat %d chose %v: %w", seat, a, err)
	}
	if err := s.record(rec, g, next, seat, a, key, ev, ver+1, byBot); err != nil {
		return Result{}, err
	}
	if err := s.autoplay(rec, next, ver+1); err != nil {
		return Result{}, err
	}
	v, err := s.commit(ctx, rec, ver)
	if err != nil {
		return Result{}, fmt.Errorf("bot on game %s v%d: %w", id, ver, err)
	}
	return Result{Version: v, N: rec.Moves - 1, Position: rec.LinkPosition(seat), Events: visible(ev, seat)}, nil
}

// Who made a command: the seat's player, the clock (a missed deadline
// plays the default, P-4), or the bot a seat was handed to.
type origin int

const (
	byPlayer origin = iota
	byDeadline
	byBot
	byOrder // the seat's standing orders
)

// What Entry.By says of each origin.
const (
	ByDeadline = "deadline"
	ByBot      = "bot"
	ByOrder    = "order"
)

func (o origin) String() string {
	switch o {
	case byDeadline:
		return ByDeadline
	case byBot:
		return ByBot
	case byOrder:
		return ByOrder
	}
	return ""
}

// record appends an applied command to the record, to be committed as
// version next.
func (s *Service) record(rec *Record, before, after engine.Game, seat int, a engine.Action, key string, ev []engine.Event, next int64, by origin) error {
	state, err := after.MarshalJSON()
	if err != nil {
		return err
	}
	rec.State = state
	if err := rec.appendEntry(Entry{N: rec.Moves, Seat: seat, Action: a, At: s.now().Unix(), Key: key, Events: ev, By: by.String()}); err != nil {
		return err
	}
	rec.Moves++
	for len(rec.Acted) < after.Seats() {
		rec.Acted = append(rec.Acted, 0)
	}
	rec.Acted[seat]++
	rec.grow(after.Seats())
	if by == byPlayer {
		rec.Misses[seat] = 0 // misses count in a row
	}
	if key != "" {
		rec.Keys = rec.Keys.add(Idem{Seat: seat, Key: key, N: rec.Moves - 1, Version: next}, keepKeys)
	}
	if after.Over() {
		rec.Status = StatusOver
	}
	s.planMail(rec, before, after)
	return nil
}

// replayedResult answers a retried key as the first time, reading the
// entry from its chunk if it has left the game item (a rare, late retry).
// A key sent again with another action than the one it made (want) is no
// retry: it is refused, as payment APIs do, rather than
// answered with the first action's result.
func (s *Service) replayedResult(ctx context.Context, rec *Record, k Idem, want engine.Action) (Result, error) {
	var e Entry
	if first := rec.Moves - rec.Log.Len(); k.N >= first {
		_, rest := rec.Log.split(k.N - first)
		one, _ := rest.split(1)
		entries, err := one.decode()
		if err != nil || len(entries) != 1 {
			return Result{}, fmt.Errorf("game %s: entry %d of a retried key: %v", rec.ID, k.N, err)
		}
		e = entries[0]
	} else {
		all, err := s.FullLog(ctx, rec)
		if err != nil {
			return Result{}, err
		}
		e = all[k.N]
	}
	if want != e.Action {
		return Result{}, Fail(CodeKeyReused, fmt.Errorf("key %q made %v, sent again with %v", k.Key, e.Action, want))
	}
	return Result{Version: k.Version, N: k.N, Position: rec.LinkPosition(e.Seat), Events: visible(e.Events, e.Seat), Replayed: true}, nil
}

// visible keeps the events seat may see (P-3).
func visible(ev []engine.Event, seat int) []engine.Event {
	out := make([]engine.Event, 0, len(ev))
	for _, e := range ev {
		if e.VisibleTo(seat) {
			out = append(out, e)
		}
	}
	return out
}

// errUnchanged tells update that the change found nothing to do: nothing
// is written, and the call succeeds.
var errUnchanged = errors.New("unchanged")

// update reads, changes and writes a game, retrying on conflict: for
// commands whose effect does not depend on the order (accept, start).
func (s *Service) update(ctx context.Context, id string, change func(*Record) error) error {
	for attempt := 0; ; attempt++ {
		rec, ver, err := s.Load(ctx, id)
		if err != nil {
			return err
		}
		if err := change(rec); errors.Is(err, errUnchanged) {
			return nil
		} else if err != nil {
			return err
		}
		_, err = s.commit(ctx, rec, ver)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue
		}
		return err
	}
}

// commit writes rec as the version after prev: older log entries first go
// to their immutable chunk (idempotently), then the one conditional write.
//
// The log moves to a chunk in a commit that leaves no mail and marks none
// sent: a commit that leaves mail is followed in the same action by the
// write that marks it sent, and the chunk's write units on top of both
// would take the action over 10 (issue 16). A log of maxLogEntries moves
// in any commit.
func (s *Service) commit(ctx context.Context, rec *Record, prev int64) (int64, error) {
	for n := rec.Log.Len(); n >= maxLogEntries || n >= 2*ChunkSize && len(rec.Outbox) == 0 && !rec.marking; n = rec.Log.Len() {
		old, rest := rec.Log.split(ChunkSize)
		entries, err := old.decode()
		if err != nil {
			return 0, fmt.Errorf("chunk %d of game %s: %w", rec.Chunks, rec.ID, err)
		}
		body, err := encode(entries)
		if err != nil {
			return 0, err
		}
		if err := s.store.PutChunk(ctx, store.Chunk{GameID: rec.ID, Seq: rec.Chunks, Body: body}); err != nil {
			return 0, fmt.Errorf("chunk %d of game %s: %w", rec.Chunks, rec.ID, err)
		}
		rec.Log = append(logLines(nil), rest...)
		rec.Chunks++
	}
	now := s.now()
	rec.Updated = now.Unix()
	rec.WakeKey = rec.wakeKey(now.Unix())
	body, err := encode(rec)
	if err != nil {
		return 0, err
	}
	v, err := s.store.PutGame(ctx, store.Game{ID: rec.ID, Body: body, OutboxPending: len(rec.Outbox) > 0, UpdatedAt: now.Unix(), WakeAt: rec.WakeKey}, prev)
	if err != nil {
		return 0, err
	}
	switch {
	case len(rec.Outbox) == 0:
	case s.committed != nil:
		s.committed(ctx, rec, v)
	case s.afterCommit != nil:
		s.afterCommit(ctx, rec.ID)
	}
	return v, nil
}

// FullLog reads the whole log: the chunks, then the recent entries.
func (s *Service) FullLog(ctx context.Context, rec *Record) ([]Entry, error) {
	chunks, err := s.store.Chunks(ctx, rec.ID)
	if err != nil {
		return nil, fmt.Errorf("log of game %s: %w", rec.ID, err)
	}
	var out []Entry
	for _, c := range chunks {
		if c.Seq >= rec.Chunks {
			break // written by a commit that then lost its race
		}
		var part []Entry
		if err := decode(c.Body, &part); err != nil {
			return nil, fmt.Errorf("log of game %s chunk %d: %w", rec.ID, c.Seq, err)
		}
		out = append(out, part...)
	}
	recent, err := rec.Recent()
	if err != nil {
		return nil, err
	}
	out = append(out, recent...)
	if len(out) != rec.Moves {
		return nil, fmt.Errorf("log of game %s: %d entries, want %d", rec.ID, len(out), rec.Moves)
	}
	return out, nil
}

func (s *Service) newID() (string, error) {
	b := make([]byte, 15)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", fmt.Errorf("new game id: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.EncodeToString(b)), nil
}

// checkKey refuses a missing or odd idempotency key.
func checkKey(key string) error {
	if len(key) < MinKeyLen || len(key) > MaxKeyLen {
		return invalid("Нужен ключ запроса (key) длиной от 8 до 64 символов.", "An idempotency key of 8 to 64 characters is required.")
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return invalid("Ключ запроса: только латинские буквы, цифры, - и _.", "The idempotency key may hold only letters, digits, - and _.")
		}
	}
	return nil
}

// cleanPerson validates a name, an email and a language.
func cleanPerson(p Person, organiser bool) (Person, error) {
	p.Name = strings.TrimSpace(p.Name)
	p.Email = strings.TrimSpace(p.Email)
	if p.Lang == "" {
		p.Lang = "ru"
	}
	// Each message names whose field is wrong: the organiser, or the
	// player by name (by address when the name is what is missing).
	ru, en := whoseField(p, organiser)
	if p.Lang != "ru" && p.Lang != "en" {
		return p, invalid(ru+": язык — ru или en.", en+": the language must be ru or en.")
	}
	if p.Name == "" && organiser {
		p.Name = "—"
	}
	if err := checkName(p.Name); err != nil {
		e := AsError(err)
		return p, invalid(ru+": "+lowerFirst(e.RU), en+": "+lowerFirst(e.EN))
	}
	if len(p.Email) > MaxEmailLen {
		return p, invalid(ru+": слишком длинный адрес почты.", en+": the email address is too long.")
	}
	if p.Email == "" {
		return p, invalid(ru+": нужен адрес почты.", en+": the email address is missing.")
	}
	addr, err := mail.ParseAddress(p.Email)
	if err != nil || addr.Address != p.Email || addr.Name != "" || !strings.Contains(p.Email[strings.LastIndexByte(p.Email, '@')+1:], ".") {
		return p, invalid(ru+": неверный адрес почты «"+sanitize(p.Email)+"».", en+": invalid email address «"+sanitize(p.Email)+"».")
	}
	p.Email = strings.ToLower(p.Email)
	return p, nil
}

// whoseField names the person a form's row is about, in Russian and
// English, for an error message about one of its fields.
func whoseField(p Person, organiser bool) (ru, en string) {
	switch {
	case organiser:
		return "Организатор", "Organiser"
	case p.Name != "" && checkName(p.Name) == nil:
		return "Игрок «" + p.Name + "»", "Player «" + p.Name + "»"
	case p.Email != "":
		return "Игрок с адресом «" + sanitize(p.Email) + "»", "The player with address «" + sanitize(p.Email) + "»"
	}
	return "Игрок", "A player"
}

// lowerFirst lowers a message's first letter, to follow a colon.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// checkName refuses names that could break a page or a mail: control
// characters, markup, or an empty or overlong name.
func checkName(name string) error {
	if name == "" || utf8.RuneCountInString(name) > MaxNameLen || !utf8.ValidString(name) {
		return invalid(fmt.Sprintf("Имя: от 1 до %d символов.", MaxNameLen), fmt.Sprintf("A name must be 1 to %d characters.", MaxNameLen))
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == '<' || r == '>' || r == '&' || r == '"' || r == '`' || unicode.Is(unicode.Cf, r) {
			return invalid("Имя не должно содержать управляющих символов и разметки.", "A name may not hold control characters or markup.")
		}
	}
	return nil
}

// checkGameName allows an empty name (the game is then named by its kind
// and players) or one of up to MaxGameNameLen characters with no control
// characters or markup, as a player's name.
func checkGameName(name string) error {
	if name == "" {
		return nil
	}
	if utf8.RuneCountInString(name) > MaxGameNameLen || !utf8.ValidString(name) {
		return invalid(fmt.Sprintf("Название игры: до %d символов.", MaxGameNameLen), fmt.Sprintf("A game's name must be at most %d characters.", MaxGameNameLen))
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == '<' || r == '>' || r == '&' || r == '"' || r == '`' || unicode.Is(unicode.Cf, r) {
			return invalid("Название игры не должно содержать управляющих символов и разметки.", "A game's name may not hold control characters or markup.")
		}
	}
	return nil
}

// Title names the game for subjects, pages and "my games": the name its
// organiser gave it, else its kind (kindName, in the reader's language)
// and its players — «<game>» (Анна, Bob, Вера) — past three counted.
func (r *Record) Title(lang, kindName string) string {
	if r.Name != "" {
		return r.Name
	}
	names := make([]string, 0, 4)
	for _, s := range r.Seats {
		names = append(names, s.Name)
	}
	if len(names) > 3 {
		names = append(names[:3], "+"+strconv.Itoa(len(r.Seats)-3))
	}
	title := kindName
	if lang != "en" {
		title = "«" + kindName + "»"
	}
	return title + " (" + strings.Join(names, ", ") + ")"
}

// sanitize makes user text safe to echo inside an error message.
func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '<' || r == '>' {
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > 60 {
		s = string([]rune(s)[:60]) + "…"
	}
	return s
}
