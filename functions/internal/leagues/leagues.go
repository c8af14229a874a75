package leagues

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/functions/internal/leaguerules"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/store"
)

// Limits of a league.
const (
	MaxLeagueNameLen = 40 // a game's name is the league's and a short suffix
	MaxRounds        = 30
	MaxDivisions     = 9
	MaxMembers       = 200
	// CheckEvery is how often the sweep looks whether an open round's
	// games have all ended (the games do not tell the league).
	CheckEvery = time.Hour
	// WaitEvery is how often the sweep tries again to start a round that
	// is due and waits: for the organiser to confirm their address (a
	// person who just followed the mail's link), or for the limits of new
	// games. The scheduled sweep runs every 5 minutes.
	WaitEvery = 5 * time.Minute
	// maxAttempts bounds the retries of a write that lost a race.
	maxAttempts = 8
)

// Item keys.
const leagueKey = "league"

func seasonKey(n int) string { return fmt.Sprintf("season/%04d", n) }

// League is a league's settings, members, ratings and proposal.
type League struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Organiser service.Person  `json:"organiser"`
	Kind      string          `json:"kind"`
	Options   json.RawMessage `json:"options"` // written out whole (games.Complete)
	TableSize int             `json:"table_size"`
	// DeadlineHours is each decision's time in the league's games.
	DeadlineHours int `json:"deadline_hours"`
	// MissesToBot as in service.CreateRequest; 0: the service's default.
	MissesToBot int `json:"misses_to_bot,omitempty"`
	// RoundDays is the time a round is given; 0: from the game's
	// estimated length (RoundLength).
	RoundDays int      `json:"round_days,omitempty"`
	Rounds    int      `json:"rounds"`    // a season's
	Divisions int      `json:"divisions"` // the first season's
	Swap      int      `json:"swap"`      // members promoted and relegated between neighbours
	Members   []Member `json:"members"`
	Created   int64    `json:"created"`
	// Confirmed: the organiser confirmed their address from this league's
	// mail, or it was confirmed when the league was made (confirm.go).
	// A league without it mails no member until the address is confirmed.
	Confirmed bool `json:"confirmed,omitempty"`
	// Outbox is the league's confirmation letters not yet sent.
	Outbox []Letter `json:"outbox,omitempty"`

	Ratings map[string]leaguerules.Rating `json:"ratings,omitempty"`
	// Rated lists the rounds the ratings include ("0001/01": season 1,
	// round 1), so that each round is rated once.
	Rated []string `json:"rated,omitempty"`
	// Proposal is the next season's divisions, proposed at the end of
	// season ProposedAfter from its tables (promotion and relegation,
	// leavers out, newcomers in the bottom division), with the moves.
	ProposedAfter int                `json:"proposed_after,omitempty"`
	Proposal      [][]string         `json:"proposal,omitempty"`
	Moves         []leaguerules.Move `json:"moves,omitempty"`
}

// Member is one member of a league; the name identifies them in the
// league's tables.
type Member struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Lang  string `json:"lang"` // "ru" or "en"
	// TimeZone (IANA) and Mail (store.MailAll, MailTurns, MailDigest) are
	// for the league's own mails: the start of a season and of a round,
	// the weekly standings, the season's result.
	TimeZone string `json:"time_zone,omitempty"`
	Mail     string `json:"mail,omitempty"`
	Joined   int64  `json:"joined"`
	// Leaving: the member leaves at the end of the season (NextSeason
	// leaves them out of the proposal).
	Leaving bool `json:"leaving,omitempty"`
	// Pending: the member has not yet confirmed, from a mail to their
	// address, that they joined by their own hand; they get no letter and
	// are seated nowhere till then (confirm.go). Members who joined before
	// confirmations have none. Asked is when their confirmation mail was
	// last queued (0: not yet, as the organiser has not confirmed).
	Pending bool  `json:"pending,omitempty"`
	Asked   int64 `json:"asked,omitempty"`
}

// Member finds a member by name.
func (l *League) Member(name string) (Member, bool) {
	i := slices.IndexFunc(l.Members, func(m Member) bool { return m.Name == name })
	if i < 0 {
		return Member{}, false
	}
	return l.Members[i], true
}

// Format is the league's seating and promotion, with the seat limits of
// its game in reg.
func (l *League) Format(reg *games.Registry) leaguerules.Format {
	info, _ := reg.Lookup(l.Kind)
	return leaguerules.Format{TableSize: l.TableSize, MinSeats: info.MinSeats, MaxSeats: info.MaxSeats, Rounds: l.Rounds, Swap: l.Swap}
}

// Config wires a Service.
type Config struct {
	Store store.LeagueStore
	Games *service.Service
	Now   func() time.Time // time.Now when nil
	Rand  io.Reader        // league ids; the games' seeds come from Games
	Log   *slog.Logger
	// Rating is the rating model; leaguerules.DefaultRatingModel when zero.
	Rating leaguerules.RatingModel
	// Post sends the league's own mails (letters.go). Without it the
	// league decides none, unless Queue: another function of the
	// deployment sends them (in AWS the api function decides them, the
	// sweep's Post sends them).
	Post  Post
	Queue bool
}

// Service runs leagues. It is safe for concurrent use.
type Service struct {
	store  store.LeagueStore
	games  *service.Service
	now    func() time.Time
	rand   io.Reader
	log    *slog.Logger
	rating leaguerules.RatingModel
	post   Post
	queue  bool
}

// New makes a Service.
func New(c Config) *Service {
	s := &Service{store: c.Store, games: c.Games, now: c.Now, rand: c.Rand, log: c.Log, rating: c.Rating, post: c.Post, queue: c.Queue}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.rating == (leaguerules.RatingModel{}) {
		s.rating = leaguerules.DefaultRatingModel()
	}
	return s
}

// CreateRequest is what an organiser sends to make a league.
type CreateRequest struct {
	Name          string          `json:"name"`
	Organiser     service.Person  `json:"organiser"`
	Kind          string          `json:"kind"`
	Options       json.RawMessage `json:"options,omitempty"`
	TableSize     int             `json:"table_size"`
	DeadlineHours int             `json:"deadline_hours,omitempty"` // 72 when 0
	MissesToBot   int             `json:"misses_to_bot,omitempty"`
	RoundDays     int             `json:"round_days,omitempty"`
	Rounds        int             `json:"rounds"`
	Divisions     int             `json:"divisions"`
	Swap          int             `json:"swap,omitempty"` // 1 when 0
	// Client is the caller's address, which the limits count; set by the
	// HTTP layer, never read from the body.
	Client string `json:"-"`
}

func invalid(ru, en string) *service.Error {
	return &service.Error{Code: service.CodeInvalid, RU: ru, EN: en}
}

// Create checks a request and stores a new league without members. It
// counts against the limits of leagues of the client and the organiser's
// address (service.CountLeagues). Unless the organiser's address is
// confirmed already, a mail asks them to confirm it (confirm.go), and
// the league mails nobody else till then.
func (s *Service) Create(ctx context.Context, req CreateRequest) (*League, error) {
	info, ok := s.games.Games().Lookup(req.Kind)
	if !ok {
		return nil, invalid("Неизвестная игра.", "Unknown game.")
	}
	name := strings.TrimSpace(req.Name)
	if err := checkText(name, MaxLeagueNameLen); err != nil {
		return nil, invalid(fmt.Sprintf("Название лиги: от 1 до %d символов, без разметки.", MaxLeagueNameLen),
			fmt.Sprintf("A league's name must be 1 to %d characters without markup.", MaxLeagueNameLen))
	}
	if req.TableSize < info.MinSeats || req.TableSize > info.MaxSeats {
		return nil, invalid(fmt.Sprintf("Игроков за столом: от %d до %d.", info.MinSeats, info.MaxSeats),
			fmt.Sprintf("A table seats %d to %d players.", info.MinSeats, info.MaxSeats))
	}
	if req.DeadlineHours == 0 {
		req.DeadlineHours = service.DefaultDeadlineHours
	}
	if req.DeadlineHours < 1 || req.DeadlineHours > service.MaxDeadlineHours {
		return nil, invalid(fmt.Sprintf("Срок хода: от 1 до %d часов.", service.MaxDeadlineHours),
			fmt.Sprintf("The move deadline must be 1 to %d hours.", service.MaxDeadlineHours))
	}
	if req.Rounds < 1 || req.Rounds > MaxRounds || req.Divisions < 1 || req.Divisions > MaxDivisions || req.RoundDays < 0 || req.RoundDays > 365 || req.MissesToBot < 0 || req.MissesToBot > 100 {
		return nil, invalid(fmt.Sprintf("Туров в сезоне: от 1 до %d; дивизионов: от 1 до %d; дней на тур: до 365.", MaxRounds, MaxDivisions),
			fmt.Sprintf("A season has 1 to %d rounds, a league 1 to %d divisions, a round at most 365 days.", MaxRounds, MaxDivisions))
	}
	if req.Swap == 0 {
		req.Swap = 1
	}
	if req.Swap < 0 || req.Swap > 10 {
		return nil, invalid("Переходят между дивизионами: от 1 до 10.", "1 to 10 members move between divisions.")
	}
	org, err := cleanMember(Member{Name: req.Organiser.Name, Email: req.Organiser.Email, Lang: req.Organiser.Lang})
	if err != nil {
		return nil, err
	}
	opts, err := s.games.Games().Complete(req.Kind, req.Options)
	if err != nil {
		return nil, err
	}
	id, err := s.newID()
	if err != nil {
		return nil, err
	}
	l := &League{ID: id, Name: name, Organiser: service.Person{Name: org.Name, Email: org.Email, Lang: org.Lang},
		Kind: req.Kind, Options: opts, TableSize: req.TableSize, DeadlineHours: req.DeadlineHours,
		MissesToBot: req.MissesToBot, RoundDays: req.RoundDays, Rounds: req.Rounds, Divisions: req.Divisions,
		Swap: req.Swap, Created: s.now().Unix()}
	if err := s.games.Admit(ctx, service.CountLeagues, org.Email, req.Client); err != nil {
		return nil, err
	}
	if l.Confirmed, err = s.games.Confirmed(ctx, org.Email); err != nil {
		return nil, err
	}
	if !l.Confirmed {
		// One mail a day at most to the address; past it the league waits
		// for the confirmation of an earlier mail (or AskAgain).
		letter, err := s.confirmation(ctx, org.Email, "")
		if e := service.AsError(err); e != nil && e.Code != service.CodeTooMany {
			return nil, err
		}
		if letter != nil {
			l.Outbox = append(l.Outbox, *letter)
		}
	}
	if _, err := s.putLeague(ctx, l, 0); err != nil {
		return nil, fmt.Errorf("create league: %w", err)
	}
	s.log.InfoContext(ctx, "league created", "league", id, "kind", l.Kind, "confirmed", l.Confirmed)
	s.drainLater(ctx, id)
	return l, nil
}

func (s *Service) newID() (string, error) {
	id, err := service.NewID(s.rand, 10)
	if err != nil {
		return "", fmt.Errorf("new league id: %w", err)
	}
	return id, nil
}

// checkText refuses an empty or overlong text, or one with markup or
// anything invisible (service.PlainText: it goes into pages, mails and
// game names).
func checkText(s string, maxLen int) error {
	if s == "" || utf8.RuneCountInString(s) > maxLen || !utf8.ValidString(s) {
		return errors.New("length")
	}
	if !service.PlainText(s) {
		return errors.New("markup")
	}
	return nil
}

// cleanMember checks a member's fields and fills the defaults.
func cleanMember(m Member) (Member, error) {
	m.Name = strings.TrimSpace(m.Name)
	if m.Lang == "" {
		m.Lang = "ru"
	}
	if err := checkText(m.Name, service.MaxNameLen); err != nil {
		return m, invalid(fmt.Sprintf("Имя: от 1 до %d символов, без разметки.", service.MaxNameLen),
			fmt.Sprintf("A name must be 1 to %d characters without markup.", service.MaxNameLen))
	}
	email, err := service.CheckEmail(m.Email)
	if err != nil {
		return m, err
	}
	m.Email = email
	if m.Lang != "ru" && m.Lang != "en" {
		return m, invalid("Язык — ru или en.", "The language must be ru or en.")
	}
	if _, err := service.ZoneOf(m.TimeZone); err != nil {
		return m, invalid("Неизвестный часовой пояс.", "Unknown time zone.")
	}
	switch m.Mail {
	case "", store.MailAll, store.MailTurns, store.MailDigest:
	default:
		return m, invalid("Неизвестная настройка писем.", "Unknown mail preference.")
	}
	return m, nil
}

// AddMember adds a member to the league: they play from the next season
// that seats them (the first season, or the bottom division of the next
// one's proposal), once they have confirmed their address from the mail
// that asks them to (confirm.go): until then they are Pending. The mail
// goes once the organiser has confirmed theirs, to an address once a day
// at most; the organiser's own address needs none. Adding a member with
// the same name and address again changes nothing. Each new member counts
// against the limits of joins of the client and of the league's
// organiser (service.CountJoins).
func (s *Service) AddMember(ctx context.Context, id string, m Member, client string) error {
	m, err := cleanMember(m)
	if err != nil {
		return err
	}
	l, _, err := s.League(ctx, id)
	if err != nil {
		return err
	}
	if old, ok := l.Member(m.Name); ok && old.Email == m.Email {
		return nil
	}
	if err := s.games.Admit(ctx, service.CountJoins, l.Organiser.Email, client); err != nil {
		return err
	}
	ready, err := s.organiserReady(ctx, l)
	if err != nil {
		return err
	}
	m.Pending = !(ready && m.Email == l.Organiser.Email)
	var letter *Letter
	if m.Pending && ready {
		letter, err = s.confirmation(ctx, m.Email, m.Name)
		if e := service.AsError(err); e != nil && e.Code != service.CodeTooMany {
			return err
		}
	}
	err = s.updateLeague(ctx, id, func(l *League) error {
		if old, ok := l.Member(m.Name); ok {
			if old.Email == m.Email {
				return errUnchanged
			}
			return invalid("В лиге уже есть участник с таким именем.", "The league has a member of that name already.")
		}
		if slices.ContainsFunc(l.Members, func(o Member) bool { return o.Email == m.Email }) {
			return invalid("Этот адрес уже в лиге.", "That address is in the league already.")
		}
		if len(l.Members) >= MaxMembers {
			return invalid(fmt.Sprintf("В лиге не больше %d участников.", MaxMembers), fmt.Sprintf("A league has at most %d members.", MaxMembers))
		}
		m.Joined = s.now().Unix()
		if letter != nil {
			m.Asked = m.Joined
			l.Outbox = append(l.Outbox, *letter)
		}
		l.Members = append(l.Members, m)
		return nil
	})
	if err != nil {
		return err
	}
	s.drainLater(ctx, id)
	return nil
}

// Leave marks a member as leaving at the end of the current season.
func (s *Service) Leave(ctx context.Context, id, name string) error {
	return s.updateLeague(ctx, id, func(l *League) error {
		i := slices.IndexFunc(l.Members, func(m Member) bool { return m.Name == name })
		if i < 0 {
			return &service.Error{Code: service.CodeNotFound, RU: "Нет такого участника.", EN: "No such member."}
		}
		if l.Members[i].Leaving {
			return errUnchanged
		}
		l.Members[i].Leaving = true
		return nil
	})
}

// errUnchanged ends an update that has nothing to write.
var errUnchanged = service.ErrUnchanged

// League reads a league and its version.
func (s *Service) League(ctx context.Context, id string) (*League, int64, error) {
	var l League
	ver, err := s.get(ctx, id, leagueKey, &l)
	if err != nil {
		return nil, 0, err
	}
	return &l, ver, nil
}

// updateLeague reads, changes and writes the league item, again on a
// conflict.
func (s *Service) updateLeague(ctx context.Context, id string, change func(*League) error) error {
	return service.Update(maxAttempts, func() (*League, int64, error) { return s.League(ctx, id) },
		func(l *League, _ int64) error { return change(l) },
		func(l *League, ver int64) error {
			_, err := s.putLeague(ctx, l, ver)
			return err
		})
}

// get reads an item into v.
func (s *Service) get(ctx context.Context, id, key string, v any) (int64, error) {
	it, err := s.store.GetLeagueItem(ctx, id, key)
	if errors.Is(err, store.ErrNotFound) {
		return 0, &service.Error{Code: service.CodeNotFound, RU: "Такой лиги нет.", EN: "No such league.", Cause: err}
	}
	if err != nil {
		return 0, fmt.Errorf("league %s %s: %w", id, key, err)
	}
	if err := json.Unmarshal(it.Body, v); err != nil {
		return 0, fmt.Errorf("league %s %s: %w", id, key, err)
	}
	return it.Version, nil
}

// put writes v as the item's version after prev.
func (s *Service) put(ctx context.Context, id, key string, v any, prev, wake int64) (int64, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	return s.store.PutLeagueItem(ctx, store.LeagueItem{League: id, Key: key, Body: body, WakeAt: wake}, prev)
}
