package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbmgames/pbm/infra/store"
)

// ErrNoPlayers: this deployment keeps no player index.
var errNoPlayers = errors.New("no player store configured")

// Player reads what is kept about an address; an unknown address is a
// player with no games and default preferences.
func (s *Service) Player(ctx context.Context, email string) (store.Player, error) {
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
	p, err := s.Player(ctx, email)
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
