package service

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pbmgames/pbm/infra/store"
)

// What keeps the service from mailing anyone for anyone (issue 9): a
// game's invitations leave only once its organiser has confirmed their
// own address, and games are counted per organiser address and per
// client address, per hour and per day.

// Limits bound what one person or one client can make the service do:
// the games made, and (issue 25) the leagues made, the members joined to
// leagues and the seasons started. A zero field takes its DefaultLimits
// value.
type Limits struct {
	// Games per organiser address: what one address can be made to
	// receive (confirmation mails) and to send (invitations).
	OrganiserPerHour, OrganiserPerDay int
	// Games per client address (the caller's IP): what one client can
	// make. Records imported count here too.
	ClientPerHour, ClientPerDay int
	// ConfirmedFor is how long an organiser's confirmed address lets their
	// later games invite at once, without confirming again.
	ConfirmedFor time.Duration
	// Leagues made, members joined to the leagues of one organiser (the
	// league's organiser is the Organiser here), and seasons started.
	Leagues, Joins, Seasons Rate
	// LoopbackFree: clients on a loopback address are not counted per
	// client (the organisers still are). Everyone at a local run comes
	// from 127.0.0.1; in AWS the client is API Gateway's sourceIp, never a
	// loopback address, so the setting changes nothing there.
	LoopbackFree bool
}

// Rate is a limit per organiser address and per client, an hour and a
// day. A zero field takes its default.
type Rate struct {
	OrganiserPerHour, OrganiserPerDay, ClientPerHour, ClientPerDay int
}

// DefaultLimits: a person organises a few games a day; a household or an
// office behind one address a few more. A league is rarer than a game; a
// club joins its league from many homes, but one client adding dozens of
// addresses an hour is a list being mailed.
var DefaultLimits = Limits{OrganiserPerHour: 5, OrganiserPerDay: 20, ClientPerHour: 10, ClientPerDay: 50, ConfirmedFor: 180 * 24 * time.Hour,
	Leagues: Rate{OrganiserPerHour: 2, OrganiserPerDay: 5, ClientPerHour: 5, ClientPerDay: 10},
	Joins:   Rate{OrganiserPerHour: 60, OrganiserPerDay: 200, ClientPerHour: 20, ClientPerDay: 50},
	Seasons: Rate{OrganiserPerHour: 3, OrganiserPerDay: 10, ClientPerHour: 5, ClientPerDay: 20},
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	g := Rate{l.OrganiserPerHour, l.OrganiserPerDay, l.ClientPerHour, l.ClientPerDay}.or(Rate{d.OrganiserPerHour, d.OrganiserPerDay, d.ClientPerHour, d.ClientPerDay})
	d.OrganiserPerHour, d.OrganiserPerDay, d.ClientPerHour, d.ClientPerDay = g.OrganiserPerHour, g.OrganiserPerDay, g.ClientPerHour, g.ClientPerDay
	if l.ConfirmedFor > 0 {
		d.ConfirmedFor = l.ConfirmedFor
	}
	d.Leagues, d.Joins, d.Seasons = l.Leagues.or(d.Leagues), l.Joins.or(d.Joins), l.Seasons.or(d.Seasons)
	d.LoopbackFree = l.LoopbackFree
	return d
}

// or is r with each zero field taken from d.
func (r Rate) or(d Rate) Rate {
	pick := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	return Rate{pick(r.OrganiserPerHour, d.OrganiserPerHour), pick(r.OrganiserPerDay, d.OrganiserPerDay),
		pick(r.ClientPerHour, d.ClientPerHour), pick(r.ClientPerDay, d.ClientPerDay)}
}

// Counted is what a limit counts.
type Counted int

const (
	CountGames   Counted = iota // games made and records imported
	CountLeagues                // leagues made
	CountJoins                  // members joined to a league, counted against its organiser
	CountSeasons                // seasons started
)

// counted names each count's counters and its refusal's words.
var counted = map[Counted]struct {
	key    string
	ru, en string // "Too many …"
}{
	CountGames:   {"games", "новых игр", "new games"},
	CountLeagues: {"leagues", "новых лиг", "new leagues"},
	CountJoins:   {"joins", "новых участников лиг", "new league members"},
	CountSeasons: {"seasons", "новых сезонов", "new seasons"},
}

func (l Limits) rate(what Counted) Rate {
	switch what {
	case CountLeagues:
		return l.Leagues
	case CountJoins:
		return l.Joins
	case CountSeasons:
		return l.Seasons
	}
	return Rate{l.OrganiserPerHour, l.OrganiserPerDay, l.ClientPerHour, l.ClientPerDay}
}

// ConfirmTokenTTL is how long the link of a confirmation mail works.
const ConfirmTokenTTL = 7 * 24 * time.Hour

// Guard keys: a counter per address and window ("games/org/<email>/3600/<n>",
// n the number of the hour or day since the epoch), a mark per
// confirmed address, and a mark per counter found full ("full/<counter>"),
// which lets a costly request be refused before its work (Blocked).
func confirmedKey(email string) string { return "confirmed/" + email }

// counter is one counter of a request: whose, over which window.
type counter struct {
	who, id string
	secs    int64
	limit   int
}

// windows are the counters a request of what by the organiser email and
// the client counts against, the client's first: a client over its limit
// does not use up the organiser address's. client "" (a caller that is not
// a web client, such as a test or a tool), or a loopback client when
// LoopbackFree, counts against the organiser's only; email "" (an import)
// against the client's only.
func (s *Service) windows(what Counted, email, client string) []counter {
	r := s.limits.rate(what)
	var ws []counter
	if client != "" && !(s.limits.LoopbackFree && loopback(client)) {
		ws = append(ws, counter{"client", client, 3600, r.ClientPerHour}, counter{"client", client, 86400, r.ClientPerDay})
	}
	if email != "" {
		ws = append(ws, counter{"org", strings.ToLower(email), 3600, r.OrganiserPerHour}, counter{"org", strings.ToLower(email), 86400, r.OrganiserPerDay})
	}
	return ws
}

// loopback tells whether client is a loopback address.
func loopback(client string) bool {
	ip, err := netip.ParseAddr(client)
	return err == nil && ip.IsLoopback()
}

func (w counter) key(what Counted, now int64) (string, int64) {
	n := now / w.secs
	return fmt.Sprintf("%s/%s/%s/%d/%d", counted[what].key, w.who, w.id, w.secs, n), (n + 1) * w.secs
}

// Admit counts one request of what against the client's and then the
// organiser's limits, refusing it with CodeTooMany at the first one
// reached. Count it only once everything the server could fail at
// before it has been done, so that a request the server fails does not
// use up the caller's limit.
func (s *Service) Admit(ctx context.Context, what Counted, email, client string) error {
	return s.count(ctx, what, email, client, false)
}

// count is Admit; with markFull, a counter found full is marked so until
// its window ends, for Blocked (one more write a refusal: only where
// Blocked spares the work it guards).
func (s *Service) count(ctx context.Context, what Counted, email, client string, markFull bool) error {
	now := s.now().Unix()
	for _, w := range s.windows(what, email, client) {
		key, end := w.key(what, now)
		err := s.guard.Count(ctx, key, int64(w.limit), end, now)
		if errors.Is(err, store.ErrLimited) {
			if markFull {
				if err := s.guard.Mark(ctx, "full/"+key, end); err != nil {
					s.log.WarnContext(ctx, "limit reached, not marked", "err", err)
				}
			}
			return tooMany(what, w.who == "client", w.secs == 3600, w.limit, time.Duration(end-now)*time.Second)
		}
		if err != nil {
			return fmt.Errorf("count %s of %s: %w", counted[what].key, w.who, err)
		}
	}
	return nil
}

// Blocked refuses, with CodeTooMany, a request whose counters count
// found full (and marked so) in their current window, before the work
// that would be counted.
func (s *Service) Blocked(ctx context.Context, what Counted, email, client string) error {
	now := s.now().Unix()
	for _, w := range s.windows(what, email, client) {
		key, end := w.key(what, now)
		full, err := s.guard.Marked(ctx, "full/"+key, now)
		if err != nil {
			return fmt.Errorf("limit of %s of %s: %w", counted[what].key, w.who, err)
		}
		if full {
			return tooMany(what, w.who == "client", w.secs == 3600, w.limit, time.Duration(end-now)*time.Second)
		}
	}
	return nil
}

// admit counts a new game (Admit).
func (s *Service) admit(ctx context.Context, email, client string) error {
	return s.Admit(ctx, CountGames, email, client)
}

// tooMany is the refusal of a request over a limit: which limit, and when
// to try again.
func tooMany(what Counted, client, hour bool, limit int, wait time.Duration) *Error {
	per := [2]string{"за сутки", "a day"}
	if hour {
		per = [2]string{"за час", "an hour"}
	}
	who := [2]string{"для этого адреса организатора", "for this organiser's address"}
	if client {
		who = [2]string{"с вашего адреса", "from your address"}
	}
	// "через 5 мин" / "через 7 ч": minutes within the hour, hours beyond.
	mins := max(1, int((wait+time.Minute-1)/time.Minute))
	in := [2]string{fmt.Sprintf("%d мин", mins), fmt.Sprintf("%d min", mins)}
	if wait > 90*time.Minute {
		h := int((wait + time.Hour - 1) / time.Hour)
		in = [2]string{fmt.Sprintf("%d ч", h), fmt.Sprintf("%d h", h)}
	}
	c := counted[what]
	e := newError(CodeTooMany,
		fmt.Sprintf("Слишком много %s %s: не больше %d %s. Попробуйте снова через %s.", c.ru, who[0], limit, per[0], in[0]),
		fmt.Sprintf("Too many %s %s: at most %d %s. Try again in %s.", c.en, who[1], limit, per[1], in[1]), nil)
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
// the game's invitations go out. Confirming again changes nothing, nor
// does confirming a game cancelled meanwhile: it invites nobody, so
// nobody of it becomes known (issue 25).
func (s *Service) Confirm(ctx context.Context, id string) error {
	var email string
	cancelled := false
	err := s.update(ctx, id, func(rec *Record) error {
		email = rec.Organiser.Email
		cancelled = rec.Status == StatusCancelled
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
	if cancelled {
		return nil
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
	if err := s.ConfirmAddress(ctx, email); err != nil {
		return fmt.Errorf("confirm game %s: %w", id, err)
	}
	if fresh {
		s.log.InfoContext(ctx, "organiser confirmed", "game", id)
	}
	return nil
}

// ConfirmAddress remembers that the owner of email confirmed it, from a
// link mailed to it, for Limits.ConfirmedFor: their games invite at
// once, and their leagues mail their members (Confirmed).
func (s *Service) ConfirmAddress(ctx context.Context, email string) error {
	if err := s.guard.Mark(ctx, confirmedKey(strings.ToLower(email)), s.now().Add(s.limits.ConfirmedFor).Unix()); err != nil {
		return fmt.Errorf("remember the address confirmed: %w", err)
	}
	return nil
}

// ConfirmMailsPerDay is how many mails asking to confirm it an address
// not (yet) confirmed gets a day from the leagues (AskToConfirm): a
// stranger's address given to a league gets one fixed text a day at
// most, whoever gives it and however often (issue 25).
const ConfirmMailsPerDay = 1

// AskToConfirm counts a mail that asks the owner of email to confirm it,
// refusing it with CodeTooMany (and when to ask again) past
// ConfirmMailsPerDay.
func (s *Service) AskToConfirm(ctx context.Context, email string) error {
	now := s.now().Unix()
	n := now / 86400
	end := (n + 1) * 86400
	err := s.guard.Count(ctx, fmt.Sprintf("confirm-mail/%s/86400/%d", strings.ToLower(email), n), ConfirmMailsPerDay, end, now)
	if errors.Is(err, store.ErrLimited) {
		wait := time.Duration(end-now) * time.Second
		h := max(1, int((wait+time.Hour-1)/time.Hour))
		e := newError(CodeTooMany,
			fmt.Sprintf("Письмо с просьбой подтвердить этот адрес сегодня уже ушло: подтвердите его по ссылке из того письма. Новое можно попросить через %d ч.", h),
			fmt.Sprintf("A mail asking to confirm this address went today already: confirm it from that mail's link. Ask for another in %d h.", h), nil)
		e.RetryAfter = wait
		return e
	}
	if err != nil {
		return fmt.Errorf("count the confirmation mails of an address: %w", err)
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

// ParseLimits reads limits as a deployment's settings give them (the
// local run's -limits flag): comma-separated name=value, over base. A
// name is what, whose and per what: games, leagues, joins or seasons;
// org or client; hour or day — "games-client-hour=100" — or
// "confirmed-days" (ConfirmedFor). A value is a positive count.
func ParseLimits(spec string, base Limits) (Limits, error) {
	l := base
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, value, ok := strings.Cut(item, "=")
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if !ok || err != nil || n <= 0 {
			return base, fmt.Errorf("limit %q: want name=a positive number", item)
		}
		if p := l.field(strings.TrimSpace(name)); p != nil {
			*p = n
			continue
		}
		if strings.TrimSpace(name) == "confirmed-days" {
			l.ConfirmedFor = time.Duration(n) * 24 * time.Hour
			continue
		}
		return base, fmt.Errorf("limit %q: unknown name; names are <games|leagues|joins|seasons>-<org|client>-<hour|day> and confirmed-days", item)
	}
	return l, nil
}

// field is the limit a ParseLimits name sets, nil for none.
func (l *Limits) field(name string) *int {
	what, rest, _ := strings.Cut(name, "-")
	r := map[string]*Rate{"leagues": &l.Leagues, "joins": &l.Joins, "seasons": &l.Seasons}[what]
	games := map[string]*int{"org-hour": &l.OrganiserPerHour, "org-day": &l.OrganiserPerDay, "client-hour": &l.ClientPerHour, "client-day": &l.ClientPerDay}
	switch {
	case what == "games":
		return games[rest]
	case r != nil:
		return map[string]*int{"org-hour": &r.OrganiserPerHour, "org-day": &r.OrganiserPerDay, "client-hour": &r.ClientPerHour, "client-day": &r.ClientPerDay}[rest]
	}
	return nil
}
