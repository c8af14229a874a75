package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbmgames/pbm/infra/store"
)

// ErrNoPlayers: this deployment keeps no player index.
var errNoPlayers = errors.New("no player store configured")

// Player reads what is kept about an address, and the ids of all their
// games, sorted: one query a thousand games besides the player item (a
// mail reads Prefs, a page MyGames). An unknown address is a player with
// no games and default preferences.
func (s *Service) Player(ctx context.Context, email string) (store.Player, error) {
	p, err := s.Prefs(ctx, email)
	if err != nil {
		return p, err
	}
	for cursor := ""; ; {
		ms, next, err := s.players.Memberships(ctx, p.Email, cursor, 1000)
		if err != nil {
			return p, fmt.Errorf("player: %w", err)
		}
		for _, m := range ms {
			p.Games = append(p.Games, m.Game)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	slices.Sort(p.Games)
	p.Games = slices.Compact(p.Games)
	return p, nil
}

// SetPrefs saves a player's language, mail preference, time zone (an
// IANA name, "" for UTC) and unsubscription.
func (s *Service) SetPrefs(ctx context.Context, email, lang, mail, tz string, unsubscribed bool) error {
	if s.players == nil {
		return Fail(CodeInternal, errNoPlayers)
	}
	if lang != "" && lang != "ru" && lang != "en" {
		return invalid("Язык: ru или en.", "Language must be ru or en.")
	}
	if _, err := ZoneOf(tz); err != nil {
		return invalid("Неизвестный часовой пояс: "+sanitize(tz), "Unknown time zone: "+sanitize(tz))
	}
	switch mail {
	case "", store.MailAll, store.MailTurns, store.MailDigest:
	default:
		return invalid("Неизвестная настройка писем.", "Unknown mail preference.")
	}
	if err := s.players.SetPlayerPrefs(ctx, strings.ToLower(email), lang, mail, tz, unsubscribed, s.now().Unix()); err != nil {
		return fmt.Errorf("set preferences: %w", err)
	}
	s.log.InfoContext(ctx, "preferences saved", "mail", mail, "unsubscribed", unsubscribed)
	return nil
}

// Unsubscribe stops every mail but those asking the player to act
// (RFC 8058 one-click), keeping the other preferences.
func (s *Service) Unsubscribe(ctx context.Context, email string) error {
	p, err := s.Prefs(ctx, email)
	if err != nil {
		return err
	}
	return s.SetPrefs(ctx, email, p.Lang, p.Mail, p.TimeZone, true)
}

// ZoneOf is a player's time zone by its IANA name; "" is UTC. A name
// must be a zone's ("Europe/Moscow"), not a file path or "Local".
func ZoneOf(tz string) (*time.Location, error) {
	if tz == "" {
		return time.UTC, nil
	}
	if len(tz) > 64 || tz == "Local" || strings.Contains(tz, "..") || strings.HasPrefix(tz, "/") {
		return nil, fmt.Errorf("time zone %q", tz)
	}
	return time.LoadLocation(tz)
}

// Prefs reads the player item alone, a fixed size whatever the number of
// games (issue 16): what a mail to the player needs.
func (s *Service) Prefs(ctx context.Context, email string) (store.Player, error) {
	if s.players == nil {
		return store.Player{}, Fail(CodeInternal, errNoPlayers)
	}
	p, err := s.players.GetPlayer(ctx, strings.ToLower(email))
	if errors.Is(err, store.ErrNotFound) {
		return store.Player{Email: strings.ToLower(email)}, nil
	}
	if err != nil {
		return p, fmt.Errorf("player: %w", err)
	}
	return p, nil
}

// GameSummary is what a player's "my games" page shows of one game: kept
// in their membership of it, so that a page of games is one query.
type GameSummary struct {
	ID      string   `json:"-"`
	Name    string   `json:"n,omitempty"` // what the organiser called it
	Kind    string   `json:"k"`
	Players []string `json:"p,omitempty"`
	Status  string   `json:"st"`
	// Seat is the player's invitation index; -1 when they only organise.
	Seat      int  `json:"s"`
	Accepted  bool `json:"a,omitempty"`
	Organiser bool `json:"o,omitempty"`
	// Due is when the decision the player owes falls due; 0 when they
	// owe none.
	Due int64 `json:"d,omitempty"`
}

// YourTurn tells whether the player owes a decision.
func (g GameSummary) YourTurn() bool { return g.Due > 0 }

// Title names the game as Record.Title does.
func (g GameSummary) Title(lang, kindName string) string {
	r := Record{Name: g.Name}
	for _, p := range g.Players {
		r.Seats = append(r.Seats, SeatInfo{Person: Person{Name: p}})
	}
	return r.Title(lang, kindName)
}

// summaries are the game's summaries for each of its people by address:
// the organiser's, and the seats' once the invitations can leave.
func (r *Record) summaries() map[string]GameSummary {
	out := map[string]GameSummary{}
	base := GameSummary{ID: r.ID, Name: r.Name, Kind: r.Kind, Status: r.Status, Seat: -1}
	for _, s := range r.Seats {
		base.Players = append(base.Players, s.Name)
	}
	if e := strings.ToLower(r.Organiser.Email); e != "" {
		g := base
		g.Organiser = true
		out[e] = g
	}
	if r.Status == StatusUnconfirmed {
		return out
	}
	for i, s := range r.Seats {
		e := strings.ToLower(s.Email)
		if e == "" {
			continue
		}
		g, ok := out[e]
		if !ok {
			g = base
		} else if g.Seat >= 0 {
			continue // the player's first seat stands for them
		}
		g.Seat, g.Accepted = i, s.Accepted
		if r.Status == StatusPlaying && s.Engine >= 0 && s.Engine < len(r.Due) {
			g.Due = r.Due[s.Engine]
		}
		out[e] = g
	}
	return out
}

// putMembers writes the memberships of the people in emails (all when
// nil) as rec stands at version ver, and their turns.
func (s *Service) putMembers(ctx context.Context, rec *Record, ver int64, emails map[string]bool) error {
	if s.players == nil {
		return nil
	}
	for e, g := range rec.summaries() {
		if emails != nil && !emails[e] {
			continue
		}
		if err := s.putMembership(ctx, rec, ver, e, g); err != nil {
			return err
		}
		if g.YourTurn() {
			if err := s.putTurn(ctx, rec.ID, e, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// putMembership writes the player's membership: the summary without the
// deadline, which is the turn's.
func (s *Service) putMembership(ctx context.Context, rec *Record, ver int64, email string, g GameSummary) error {
	g.Due = 0
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	err = s.players.PutMembership(ctx, store.Membership{Email: email, Game: rec.ID, Created: rec.Created, Summary: b, Version: ver})
	if err != nil && !errors.Is(err, store.ErrConflict) { // a later commit's summary stands
		return fmt.Errorf("membership of %s: %w", rec.ID, err)
	}
	return nil
}

func (s *Service) putTurn(ctx context.Context, id, email string, g GameSummary) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if err := s.players.PutTurn(ctx, store.Turn{Email: email, Game: id, Due: g.Due, Summary: b}); err != nil {
		return fmt.Errorf("turn in %s: %w", id, err)
	}
	return nil
}

// syncMembers, after the commit of rec as version ver, rewrites what the
// commit changed of its people's games: the turn of a player whose
// decision came or went (one small write each: most moves pass the turn
// from one player to another), the membership of one whose game started,
// ended, or whose invitation they accepted. A failure is logged, not
// returned: the game is committed, and the next change mends it.
func (s *Service) syncMembers(ctx context.Context, rec *Record, ver int64) {
	now := rec.summaries()
	if rec.seen != nil && s.players != nil {
		if err := s.syncChanged(ctx, rec, ver, rec.seen, now); err != nil {
			s.log.ErrorContext(ctx, "my games", "game", rec.ID, "err", err)
		}
	}
	rec.seen = now
}

func (s *Service) syncChanged(ctx context.Context, rec *Record, ver int64, was, now map[string]GameSummary) error {
	for e, g := range now {
		old, ok := was[e]
		if !ok {
			continue // not listed yet (its invitation has not left)
		}
		if old.Due != g.Due && old.Due > 0 {
			if err := s.players.DeleteTurn(ctx, e, rec.ID, old.Due); err != nil {
				return fmt.Errorf("turn in %s: %w", rec.ID, err)
			}
		}
		if g.YourTurn() && (old.Due != g.Due || !sameSummary(old, g)) {
			if err := s.putTurn(ctx, rec.ID, e, g); err != nil {
				return err
			}
		}
		if !sameSummary(old, g) {
			if err := s.putMembership(ctx, rec, ver, e, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameSummary tells whether the summaries agree but for the deadline.
func sameSummary(x, y GameSummary) bool {
	x.Due, y.Due = 0, 0
	return x.ID == y.ID && x.Name == y.Name && x.Kind == y.Kind && slices.Equal(x.Players, y.Players) &&
		x.Status == y.Status && x.Seat == y.Seat && x.Accepted == y.Accepted && x.Organiser == y.Organiser
}

// MyGamesPage is the number of games a page of "my games" lists.
const MyGamesPage = 50

// MyGames lists a page of the player's games from after the cursor (""
// for the first page), and the cursor of the next page ("" for none):
// newest first, the first page beginning with the games in which they
// owe a decision, soonest due first. Each page is two queries. Games an older version listed in the player item become
// memberships on the first read.
func (s *Service) MyGames(ctx context.Context, p store.Player, cursor string, limit int) ([]GameSummary, string, error) {
	if s.players == nil {
		return nil, "", Fail(CodeInternal, errNoPlayers)
	}
	if cursor != "" && !store.ParseCursor(cursor) {
		return nil, "", invalid("Неверная ссылка на страницу.", "Bad page link.")
	}
	if len(p.Games) > 0 {
		if err := s.migrateGames(ctx, p); err != nil {
			return nil, "", err
		}
	}
	// The turns on every page: the first shows them, the others leave out
	// their games, which the first showed.
	var out []GameSummary
	owed := map[string]bool{}
	ts, err := s.players.Turns(ctx, p.Email, limit)
	if err != nil {
		return nil, "", fmt.Errorf("my games: %w", err)
	}
	for _, t := range ts {
		g, err := decodeSummary(t.Game, t.Summary)
		if err != nil || owed[t.Game] {
			continue // a turn left twice by two racing commits
		}
		owed[t.Game] = true
		if cursor == "" {
			out = append(out, g)
		}
	}
	ms, next, err := s.players.Memberships(ctx, p.Email, cursor, limit)
	if err != nil {
		return nil, "", fmt.Errorf("my games: %w", err)
	}
	for _, m := range ms {
		if owed[m.Game] {
			continue
		}
		g, err := decodeSummary(m.Game, m.Summary)
		if err != nil {
			return nil, "", err
		}
		out = append(out, g)
	}
	return out, next, nil
}

func decodeSummary(id string, b []byte) (GameSummary, error) {
	var g GameSummary
	if err := json.Unmarshal(b, &g); err != nil {
		return g, fmt.Errorf("my games: game %s: %w", id, err)
	}
	g.ID = id
	return g, nil
}

// migrateGames makes memberships of the games an older version listed in
// the player item, then drops the list: once per such player.
func (s *Service) migrateGames(ctx context.Context, p store.Player) error {
	for _, id := range p.Games {
		rec, ver, err := s.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue // indexed before a create that did not commit
		}
		if err != nil {
			return err
		}
		if err := s.putMembers(ctx, rec, ver, map[string]bool{p.Email: true}); err != nil {
			return err
		}
	}
	if err := s.players.ForgetPlayerGames(ctx, p.Email, p.Games); err != nil {
		return fmt.Errorf("my games: %w", err)
	}
	return nil
}
