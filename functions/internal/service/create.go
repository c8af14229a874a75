package service

import (
	"context"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

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
	// AwayDays is each seat's vacation allowance in days (Away):
	// DefaultAwayDays when 0, none when −1.
	AwayDays int `json:"away_days,omitempty"`
	// Key makes the creation idempotent: the same key from the same
	// organiser with the same request answers the game the first made
	// (a form sent again, a retried call); with another request it is
	// refused.
	Key string `json:"key,omitempty"`
	// Client is the caller's address, which the limits count; set by the
	// HTTP layer, never read from the body.
	Client string `json:"-"`
	// Seated makes the game with every seat taken and starts it at once:
	// no invitation, no confirmation and no "accepted" mail, and no count
	// against the limits of new games. Only a trusted caller sets it, never
	// a request's body: a league, whose members each confirmed from a mail
	// that they joined to play, whose organiser confirmed their address,
	// and whose seasons are counted (issue 27).
	Seated bool `json:"-"`
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
	org, err := s.checkCreate(&req)
	if err != nil {
		return Created{}, err
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
		DeadlineHours: req.DeadlineHours, MissesToBot: req.MissesToBot, OnMisses: req.OnMisses, AwayDays: req.AwayDays}
	if rec.Seats, err = seatsOf(req.Seats); err != nil {
		return Created{}, err
	}
	rec.Seed = make([]byte, 32)
	if _, err := io.ReadFull(s.rand, rec.Seed); err != nil {
		return Created{}, fmt.Errorf("create game: seed: %w", err)
	}
	// The options are written out whole (the game's length by mail where
	// none is given) and checked by making the game now; it is made again,
	// with the seats that accept, when it starts.
	rec.Rules = s.games.CurrentRules(req.Kind)
	opts, err := s.games.Complete(req.Kind, req.Options)
	if err != nil {
		return Created{}, err
	}
	g, err := s.games.New(req.Kind, rec.Rules, opts, len(req.Seats), [32]byte(rec.Seed))
	if err != nil {
		return Created{}, err
	}
	rec.Options = opts
	// Every seat starts with its game's suggested standing orders (SPEC
	// §1.7): routine decisions are played at once, and a player is mailed
	// only for what they do not cover. Turning them off is the player's
	// one click (SetOrders with none).
	for i := range rec.Seats {
		rec.suggestOrders(g, i)
	}
	if keyed != "" {
		rec.ID, rec.Request = keyed, fingerprint(req)
	} else if rec.ID, err = s.newID(); err != nil {
		return Created{}, err
	}
	confirmed := req.Seated
	if !req.Seated {
		if err := s.admit(ctx, org.Email, req.Client); err != nil {
			return Created{}, err
		}
		if confirmed, err = s.Confirmed(ctx, org.Email); err != nil {
			return Created{}, err
		}
	}
	now := s.now()
	rec.Created = now.Unix()
	switch {
	case req.Seated:
		rec.Seated = true
		for i := range rec.Seats {
			rec.Seats[i].Accepted = true
		}
		if err := s.start(rec); err != nil {
			return Created{}, fmt.Errorf("create game %s: %w", rec.ID, err)
		}
	case confirmed:
		rec.Outbox = inviteMails(rec)
	default:
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

// checkCreate checks a creation's game, its number of seats, its name
// (trimmed) and its deadlines, and cleans its organiser.
func (s *Service) checkCreate(req *CreateRequest) (Person, error) {
	info, ok := s.games.Lookup(req.Kind)
	if !ok {
		return Person{}, invalid("Неизвестная игра.", "Unknown game.")
	}
	if n := len(req.Seats); n < info.MinSeats || n > info.MaxSeats {
		return Person{}, invalid(
			fmt.Sprintf("В игре должно быть от %d до %d игроков.", info.MinSeats, info.MaxSeats),
			fmt.Sprintf("A game needs %d to %d players.", info.MinSeats, info.MaxSeats))
	}
	org, err := cleanPerson(req.Organiser, true)
	if err != nil {
		return Person{}, err
	}
	req.Name = strings.TrimSpace(req.Name)
	if err := checkGameName(req.Name); err != nil {
		return Person{}, err
	}
	if req.DeadlineHours < 0 || req.DeadlineHours > MaxDeadlineHours {
		return Person{}, invalid(fmt.Sprintf("Срок хода: от 1 до %d часов.", MaxDeadlineHours), fmt.Sprintf("The move deadline must be 1 to %d hours.", MaxDeadlineHours))
	}
	if req.MissesToBot < 0 || req.MissesToBot > 100 {
		return Person{}, invalid("Пропусков до передачи хода боту: от 1 до 100.", "Misses before a bot takes the seat must be 1 to 100.")
	}
	if req.AwayDays < -1 || req.AwayDays > MaxAwayDays {
		return Person{}, invalid(fmt.Sprintf("Отпуск на игру: до %d дней (−1 — без отпуска).", MaxAwayDays),
			fmt.Sprintf("The vacation allowance is up to %d days (−1: none).", MaxAwayDays))
	}
	switch req.OnMisses {
	case "", OnMissesBot, OnMissesDrop:
	default:
		return Person{}, invalid("on_misses: bot или drop.", "on_misses must be bot or drop.")
	}
	return org, nil
}

// seatsOf checks and cleans the people invited to the seats of a game:
// each once.
func seatsOf(people []Person) ([]SeatInfo, error) {
	var seats []SeatInfo
	seen := map[string]bool{}
	for _, p := range people {
		p, err := cleanPerson(p, false)
		if err != nil {
			return nil, err
		}
		if seen[p.Email] {
			return nil, invalid("Один адрес почты указан дважды: "+p.Email, "The same email is given twice: "+p.Email)
		}
		seen[p.Email] = true
		seats = append(seats, SeatInfo{Person: p, Engine: -1})
	}
	return seats, nil
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

// Accept seats an invited player. It answers the seat's token. When every
// seat has accepted the game starts.
func (s *Service) Accept(ctx context.Context, id string, invite int) (string, error) {
	return s.AcceptWith(ctx, id, invite, AcceptOptions{})
}

// AcceptOptions are what a player may choose as they accept.
type AcceptOptions struct {
	// OrdersOff: the player plays every decision themselves — their seat
	// starts without the game's suggested standing orders, from the
	// first decision on, and every decision is mailed.
	OrdersOff bool `json:"orders_off,omitempty"`
}

// AcceptWith is Accept with the player's choices.
func (s *Service) AcceptWith(ctx context.Context, id string, invite int, opts AcceptOptions) (string, error) {
	err := s.update(ctx, id, func(rec *Record) error {
		if opts.OrdersOff && invite >= 0 && invite < len(rec.Seats) && !rec.Seats[invite].Accepted {
			delete(rec.Orders, invite)
		}
		if invite < 0 || invite >= len(rec.Seats) {
			return Fail(CodeForbidden, fmt.Errorf("invite %d of %d", invite, len(rec.Seats)))
		}
		if err := rec.Seats[invite].stillSeated(); err != nil {
			return err // its seat went to a substitute (issue 25)
		}
		if rec.Seats[invite].Accepted {
			return errUnchanged // a second click changes nothing
		}
		if rec.Status == StatusPlaying && rec.Seats[invite].Engine >= 0 {
			return s.seatSubstitute(rec, invite) // invited to a seat in play (Control)
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
	info, _ := s.games.Lookup(rec.Kind)
	if n < info.MinSeats {
		return newError(CodeWrongStatus,
			fmt.Sprintf("Нужно хотя бы %d принявших приглашение игроков.", info.MinSeats),
			fmt.Sprintf("At least %d players must have accepted.", info.MinSeats), nil)
	}
	g, err := s.games.New(rec.Kind, rec.Rules, rec.Options, n, [32]byte(rec.Seed))
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

func (s *Service) newID() (string, error) {
	id, err := NewID(s.rand, 15)
	if err != nil {
		return "", fmt.Errorf("new game id: %w", err)
	}
	return id, nil
}

// NewID is an id of n bytes read from r in lower-case base32: letters
// and digits only, for n a multiple of 5.
func NewID(r io.Reader, n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", err
	}
	return strings.ToLower(base32.StdEncoding.EncodeToString(b)), nil
}
