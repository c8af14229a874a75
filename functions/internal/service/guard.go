package service

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pbmgames/pbm/infra/store"
)

// What keeps the service from mailing anyone for anyone (issue 9): a
// game's invitations leave only once its organiser has confirmed their
// own address, and games are counted per organiser address and per
// client address, per hour and per day.

// Limits bound the games made. A zero field takes its DefaultLimits value.
type Limits struct {
	// Games per organiser address: what one address can be made to
	// receive (confirmation mails) and to send (invitations).
	OrganiserPerHour, OrganiserPerDay int
	// Games per client address (the caller's IP): what one client can make.
	ClientPerHour, ClientPerDay int
	// ConfirmedFor is how long an organiser's confirmed address lets their
	// later games invite at once, without confirming again.
	ConfirmedFor time.Duration
}

// DefaultLimits: a person organises a few games a day; a household or an
// office behind one address a few more.
var DefaultLimits = Limits{OrganiserPerHour: 5, OrganiserPerDay: 20, ClientPerHour: 10, ClientPerDay: 50, ConfirmedFor: 180 * 24 * time.Hour}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.OrganiserPerHour > 0 {
		d.OrganiserPerHour = l.OrganiserPerHour
	}
	if l.OrganiserPerDay > 0 {
		d.OrganiserPerDay = l.OrganiserPerDay
	}
	if l.ClientPerHour > 0 {
		d.ClientPerHour = l.ClientPerHour
	}
	if l.ClientPerDay > 0 {
		d.ClientPerDay = l.ClientPerDay
	}
	if l.ConfirmedFor > 0 {
		d.ConfirmedFor = l.ConfirmedFor
	}
	return d
}

// ConfirmTokenTTL is how long the link of a confirmation mail works.
const ConfirmTokenTTL = 7 * 24 * time.Hour

// Guard keys: a counter per address and window ("games/org/<email>/h/<n>",
// n the number of the hour or day since the epoch), a mark per
// confirmed address.
func confirmedKey(email string) string { return "confirmed/" + email }

// admit counts a new game against the client's and then the organiser's
// limits, refusing it with CodeTooMany at the first one reached. The
// client's come first: a client over its limit does not use up the
// organiser address's. client "" (a caller that is not a web client,
// such as a test or a tool) counts against the organiser's only; email
// "" (an import) against the client's only.
func (s *Service) admit(ctx context.Context, email, client string) error {
	now := s.now().Unix()
	type window struct {
		who, id string
		secs    int64
		limit   int
	}
	var ws []window
	if client != "" {
		ws = append(ws, window{"client", client, 3600, s.limits.ClientPerHour}, window{"client", client, 86400, s.limits.ClientPerDay})
	}
	if email != "" { // "": an import, which has no organiser
		ws = append(ws, window{"org", email, 3600, s.limits.OrganiserPerHour}, window{"org", email, 86400, s.limits.OrganiserPerDay})
	}
	for _, w := range ws {
		n := now / w.secs
		end := (n + 1) * w.secs
		key := fmt.Sprintf("games/%s/%s/%d/%d", w.who, w.id, w.secs, n)
		err := s.guard.Count(ctx, key, int64(w.limit), end, now)
		if errors.Is(err, store.ErrLimited) {
			return tooMany(w.who == "client", w.secs == 3600, w.limit, time.Duration(end-now)*time.Second)
		}
		if err != nil {
			return fmt.Errorf("count games of %s: %w", w.who, err)
		}
	}
	return nil
}

// tooMany is the refusal of a game over a limit: which limit, and when to
// try again.
func tooMany(client, hour bool, limit int, wait time.Duration) *Error {
	per := [2]string{"за сутки", "a day"}
	if hour {
		per = [2]string{"за час", "an hour"}
	}
	who := [2]string{"для этого адреса организатора", "for this organiser's address"}
	if client {
		who = [2]string{"с вашего адреса", "from your address"}
	}
	// "через 5 мин." / "через 7 ч": minutes within the hour, hours beyond.
	in := [2]string{fmt.Sprintf("%d мин.", max(1, int((wait+time.Minute-1)/time.Minute))), fmt.Sprintf("%d min", max(1, int((wait+time.Minute-1)/time.Minute)))}
	if wait > 90*time.Minute {
		h := int((wait + time.Hour - 1) / time.Hour)
		in = [2]string{fmt.Sprintf("%d ч", h), fmt.Sprintf("%d h", h)}
	}
	e := newError(CodeTooMany,
		fmt.Sprintf("Слишком много новых игр %s: не больше %d %s. Попробуйте снова через %s.", who[0], limit, per[0], in[0]),
		fmt.Sprintf("Too many new games %s: at most %d %s. Try again in %s.", who[1], limit, per[1], in[1]), nil)
	e.RetryAfter = wait
	return e
}

// Confirmed tells whether email has been confirmed by its owner recently
// enough to invite without confirming again.
func (s *Service) Confirmed(ctx context.Context, email string) (bool, error) {
	ok, err := s.guard.Marked(ctx, confirmedKey(strings.ToLower(email)), s.now().Unix())
	if err != nil {
		return false, fmt.Errorf("confirmed %s: %w", email, err)
	}
	return ok, nil
}

// Confirm is the organiser confirming their address from the mail of game
// id: the address is remembered as confirmed for Limits.ConfirmedFor and
// the game's invitations go out. Confirming again changes nothing.
func (s *Service) Confirm(ctx context.Context, id string) error {
	var email string
	err := s.update(ctx, id, func(rec *Record) error {
		email = rec.Organiser.Email
		if rec.Status != StatusUnconfirmed {
			return errNothingToDo
		}
		rec.Status = StatusInvited
		// A confirmation still unsent asks for what is done.
		rec.Outbox = slices.DeleteFunc(rec.Outbox, func(m Mail) bool { return m.Kind == MailConfirm })
		rec.Outbox = append(rec.Outbox, inviteMails(rec)...)
		return nil
	})
	if err != nil && !errors.Is(err, errNothingToDo) {
		return err
	}
	fresh := err == nil
	rec, _, err := s.Load(ctx, id)
	if err != nil {
		return err
	}
	// Indexed after the commit, and on every confirmation (adding is
	// idempotent): a failure here is mended by confirming again, and no
	// player ever lists a game that has mailed nobody.
	if err := s.indexPlayers(ctx, rec, true); err != nil {
		return fmt.Errorf("confirm game %s: %w", id, err)
	}
	if err := s.guard.Mark(ctx, confirmedKey(email), s.now().Add(s.limits.ConfirmedFor).Unix()); err != nil {
		return fmt.Errorf("confirm game %s: remember the address: %w", id, err)
	}
	if fresh {
		s.log.InfoContext(ctx, "organiser confirmed", "game", id)
	}
	return nil
}

// errNothingToDo ends an update that would write nothing.
var errNothingToDo = errors.New("nothing to do")

// inviteMails are the invitations of every seat.
func inviteMails(rec *Record) []Mail {
	var out []Mail
	for i := range rec.Seats {
		out = append(out, Mail{ID: fmt.Sprintf("invite-%d", i), Kind: MailInvite, Seat: i})
	}
	return out
}

// keyedID is the id of the game an organiser's creation with an
// idempotency key makes: the same key from the same organiser makes the
// same game, whoever else uses that key.
func keyedID(email, key string) string {
	h := sha256.Sum256([]byte("create\x00" + email + "\x00" + key))
	return strings.ToLower(base32.StdEncoding.EncodeToString(h[:15]))
}

// fingerprint identifies what a creation asked for, so that a key sent
// again with another request is told apart from a retry.
func fingerprint(req CreateRequest) string {
	req.Key, req.Client = "", ""
	b, _ := json.Marshal(req)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16])
}

// indexPlayers writes rec's membership of its organiser and, with seats,
// of its players too.
func (s *Service) indexPlayers(ctx context.Context, rec *Record, seats bool) error {
	var emails map[string]bool
	if !seats {
		emails = map[string]bool{strings.ToLower(rec.Organiser.Email): true}
	}
	if err := s.putMembers(ctx, rec, emails); err != nil {
		return fmt.Errorf("index player: %w", err)
	}
	return nil
}
