package leagues

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pbmgames/pbm/infra/store"
)

// The league's own mails (Letter.Kind).
const (
	LetterStart     = "league-start"     // a season starts: your division and its dates
	LetterRound     = "league-round"     // your table for the new round, with the link to your game
	LetterStandings = "league-standings" // the weekly standings digest
	LetterResult    = "league-result"    // the season's result: your place, promotion or relegation
)

// DigestEvery is how often a running season sends its standings digest.
const DigestEvery = 7 * 24 * time.Hour

// Letter is one of the league's own mails to one member, decided by the
// sweep (or the start of a season) in the same conditional write as what
// it tells, so that it is decided once; Config.Post sends it.
type Letter struct {
	ID     string `json:"id"` // unique within the season
	Kind   string `json:"kind"`
	Member string `json:"member"`
	Round  int    `json:"round,omitempty"` // LetterRound: the round
}

// Post sends one letter of a league's season (package compose writes it);
// an error leaves it in the outbox for the next sweep.
type Post func(ctx context.Context, l *League, season *Season, m Letter) error

// Wants tells whether a member whose mail preference is pref
// (store.MailAll, MailTurns, MailDigest; "" is all) gets a letter of
// kind. Their table for a new round asks them to act and always goes;
// "turns only" gets nothing else; "digest" gets the weekly standings and
// the season's result but not the announcement of its start (the first
// round's table mail tells it).
func Wants(pref, kind string) bool {
	switch kind {
	case LetterRound:
		return true
	case LetterStart:
		return pref == "" || pref == store.MailAll
	case LetterStandings, LetterResult:
		return pref == "" || pref == store.MailAll || pref == store.MailDigest
	}
	return false
}

// letter queues a letter of kind to member if they want it; nothing
// where no mail is sent (decides), so none is kept.
func (s *Service) letter(l *League, season *Season, kind, member string, round int, at int64) {
	if !s.decides() {
		return
	}
	m, ok := l.Member(member)
	if !ok || m.Pending || !Wants(m.Mail, kind) {
		return // a member who has not confirmed their address gets nothing
	}
	id := fmt.Sprintf("%s/%s/%d/%d", kind, member, round, at)
	if slices.ContainsFunc(season.Outbox, func(o Letter) bool { return o.ID == id }) {
		return
	}
	season.Outbox = append(season.Outbox, Letter{ID: id, Kind: kind, Member: member, Round: round})
}

// lettersToAll queues a letter of kind to every member of the season.
func (s *Service) lettersToAll(l *League, season *Season, kind string, round int, at int64) {
	for _, div := range season.Divisions {
		for _, name := range div {
			s.letter(l, season, kind, name, round, at)
		}
	}
}

// digestDue queues the weekly standings when their time has come, and
// sets the next; it tells whether it queued them.
func (s *Service) digestDue(l *League, season *Season, now int64) bool {
	if !s.decides() || season.Over || season.DigestAt == 0 || now < season.DigestAt {
		return false
	}
	s.lettersToAll(l, season, LetterStandings, 0, season.DigestAt)
	for season.DigestAt <= now {
		season.DigestAt += int64(DigestEvery / time.Second)
	}
	return true
}

// send posts the letters of outbox not sent yet (by sent, which it
// marks) and answers those whose Post failed, adding the failures to
// errs.
func (s *Service) send(ctx context.Context, l *League, season *Season, outbox []Letter, sent map[string]bool, errs *[]error) []Letter {
	var kept []Letter
	for _, m := range outbox {
		if sent[m.ID] {
			continue
		}
		if err := s.post(ctx, l, season, m); err != nil {
			*errs = append(*errs, fmt.Errorf("letter %s: %w", m.ID, err))
			kept = append(kept, m)
			continue
		}
		sent[m.ID] = true
	}
	return kept
}

// drain sends the current season's letters and takes those sent out of
// its outbox. A letter is sent at least once: a sweep that fails to mark
// it, or two sweeps draining at once, may send it twice, as the games'
// notifier may.
func (s *Service) drain(ctx context.Context, id string, now time.Time) error {
	if s.post == nil {
		return nil
	}
	sent := map[string]bool{}
	var errs []error
	for attempt := 1; ; attempt++ {
		l, _, err := s.League(ctx, id)
		if err != nil {
			return err
		}
		season, ver, _, err := s.current(ctx, id)
		if err != nil || season == nil || len(season.Outbox) == 0 {
			return errors.Join(append(errs, err)...)
		}
		kept := s.send(ctx, l, season, season.Outbox, sent, &errs)
		if len(kept) == len(season.Outbox) {
			return errors.Join(errs...)
		}
		season.Outbox = kept
		_, err = s.put(ctx, id, seasonKey(season.N), season, ver, season.wakeAt(now.Unix()))
		if errors.Is(err, store.ErrConflict) && attempt < maxAttempts {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("season %d outbox: %w", season.N, err))
		}
		return errors.Join(errs...)
	}
}
