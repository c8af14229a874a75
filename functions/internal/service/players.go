package service

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// ErrNoPlayers: this deployment keeps no player index.
var errNoPlayers = errors.New("no player store configured")

// Player reads what is kept about an address, and the ids of all their
// games, sorted: one query a thousand games besides the player item. No
// request a player makes needs it (a mail reads Prefs, "my games" a page
// at a time, MyGamesOf); it is the whole list, for tools and tests. An
// unknown address is a player with no games and default preferences.
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
	p, err := CachedPlayer(ctx, s.players, email)
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

	// What "my games" shows of a game in play (summaryOf), not kept:
	// Waiting names the other players who owe a decision now; for a
	// player who owes one, View is the game as their seat (Me, in the
	// engine) sees it, Names the players by engine seat, and MyTurn
	// whether it is their turn (not another decision: an offer, a bid).
	Waiting []string `json:"-"`
	View    any      `json:"-"`
	Me      int      `json:"-"`
	Names   []string `json:"-"`
	MyTurn  bool     `json:"-"`
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
//
// While the game plays on by itself (Record.PlayOn: the last commit
// stopped at its bound with more that standing orders and bots cover,
// and the sweep carries it on within minutes), nobody is shown owing a
// decision, so that the commits that play on, each giving the seat it
// stops at a new deadline, move no one's turn in "my games" (two write
// units each, issue 28): the turn is listed again once the game waits
// on a player.
func (r *Record) summaries() map[string]GameSummary {
	out := map[string]GameSummary{}
	base := GameSummary{ID: r.ID, Name: r.Name, Kind: r.Kind, Status: r.Status, Seat: -1}
	for _, s := range r.Seats {
		if s.Out == "" { // not who gave their seat to a substitute (as Title)
			base.Players = append(base.Players, s.Name)
		}
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
		if r.Status == StatusPlaying && !r.PlayOn && s.Engine >= 0 && s.Engine < len(r.Due) {
			g.Due = r.Due[s.Engine]
		}
		out[e] = g
	}
	return out
}

// putMembers writes the memberships of the people in emails (all when
// nil), and their turns as rec stands.
func (s *Service) putMembers(ctx context.Context, rec *Record, emails map[string]bool) error {
	if s.players == nil {
		return nil
	}
	for e, g := range rec.summaries() {
		if emails != nil && !emails[e] {
			continue
		}
		if err := s.putMembership(ctx, rec, e); err != nil {
			return err
		}
		if g.YourTurn() {
			if err := s.putTurn(ctx, rec.ID, e, g.Due); err != nil {
				return err
			}
		}
	}
	return nil
}

// putMembership lists the game in the player's games.
func (s *Service) putMembership(ctx context.Context, rec *Record, email string) error {
	if err := s.players.PutMembership(ctx, store.Membership{Email: email, Game: rec.ID, Created: rec.Created}); err != nil {
		return fmt.Errorf("membership of %s: %w", rec.ID, err)
	}
	return nil
}

// TurnGrace is how long after its deadline a turn item expires
// (store.Turn.Expires): from then on "my games" does not list it, and
// DynamoDB's TTL deletes it at no write of ours. A turn is owed past its
// deadline only until the sweep plays the default (minutes), or while
// the organiser pauses the game (its deadlines stand, and move on at the
// resume, which puts the turn anew); a turn whose deadline passed is
// never marked gone (syncChanged): it goes when it expires. The grace is
// the longest deadline a game may give (MaxDeadlineHours, 30 days): a
// sweep late by days, or a pause as long as the longest deadline, still
// lists what is owed, while the turns a player let pass (at most a few a
// game before a bot takes the seat) stay no more than a month (then
// hidden at once, deleted within days) — and far inside the five years
// beyond which DynamoDB's TTL skips a value.
const TurnGrace = int64(MaxDeadlineHours) * 3600

// turn is the turn of email in game id due at due, to expire TurnGrace
// after it.
func turn(id, email string, due int64) store.Turn {
	return store.Turn{Email: email, Game: id, Due: due, Expires: due + TurnGrace}
}

// putTurn lists the game in the player's decisions owed, due at due.
func (s *Service) putTurn(ctx context.Context, id, email string, due int64) error {
	if err := s.players.PutTurn(ctx, turn(id, email, due)); err != nil {
		return fmt.Errorf("turn in %s: %w", id, err)
	}
	return nil
}

// syncMembers, after the commit of rec as version ver, writes what the
// commit changed of its people's lists: the turn of a player whose
// decision came or went (one small write each, together in one request
// where the store can: most moves pass the turn from one player to
// another), and the membership of someone new to the
// game (a substitute). Nothing else: "my games" reads the games
// themselves for what it shows of them (MyGames), so that a game that
// starts or ends rewrites no one's list. A failure is logged, not
// returned: the game is committed, and the next change mends the turns.
func (s *Service) syncMembers(ctx context.Context, rec *Record, ver int64) {
	now := rec.summaries()
	if rec.seen != nil && s.players != nil {
		if err := s.syncChanged(ctx, rec, rec.seen, now); err != nil {
			s.log.ErrorContext(ctx, "my games", "game", rec.ID, "err", err)
		}
	}
	rec.seen = now
}

func (s *Service) syncChanged(ctx context.Context, rec *Record, was, now map[string]GameSummary) error {
	confirming := false // Confirm lists every seat itself (indexPlayers)
	for _, g := range was {
		confirming = confirming || g.Status == StatusUnconfirmed
	}
	var gone, put []store.Turn
	at := s.now().Unix()
	for e, g := range now {
		old, ok := was[e]
		if !ok {
			if confirming {
				continue
			}
			if err := s.putMembership(ctx, rec, e); err != nil {
				return err
			}
		}
		if old.Due != g.Due && old.Due > rec.Updated {
			// A turn whose deadline has passed (the clock played its
			// default, or the player answered in the minutes before the
			// sweep came) is left to expire (TurnGrace after it) at no
			// write: the listing passes it over until then (showList),
			// and the clock's commit at a deadline, which moves the
			// game in both indexes, writes one turn, not two (issue
			// 28). One that goes before its deadline goes now.
			gone = append(gone, store.Turn{Email: e, Game: rec.ID, Due: old.Due, Expires: at})
		}
		if g.YourTurn() && old.Due != g.Due {
			put = append(put, turn(rec.ID, e, g.Due))
		}
	}
	// The turns that came and went, together: one request for the
	// common commit that passes the turn from one player to another
	// (issue 28).
	for len(gone)+len(put) > 0 {
		g := gone[:min(len(gone), store.MaxTurnMoves)]
		p := put[:min(len(put), store.MaxTurnMoves-len(g))]
		gone, put = gone[len(g):], put[len(p):]
		if err := s.players.MoveTurns(ctx, g, p); err != nil {
			return fmt.Errorf("turns in %s: %w", rec.ID, err)
		}
	}
	return nil
}

// MyGamesPage is the number of games a page of "my games" lists.
const MyGamesPage = 50

// MyGames is a page of a player's games, as MyGamesOf lists it.
type MyGames struct {
	Me    Me
	Games []GameSummary
	// Next is the cursor of the next page; "" when this is the last.
	Next string
}

// MyGamesOf checks a "my games" token (as Me does) and lists a page of at
// most limit of its player's games (MyGamesPage on the page) from after
// cursor ("" for the first page): the first page begins with the games
// in which they owe a decision, soonest due first, then every page lists
// their games newest first (a game whose decision the first page showed
// is not listed again). The first page is three requests whatever the
// number of games: the link's access item, one query of the player's
// partition (the player item, their turns, their newest games:
// store.FirstPage), and one read of the games listed
// (store.BatchGetter), whose state, not a copy kept in the lists, says
// what the page shows of each. Later pages read the player item and a
// page of games instead of the first query. Games an older version
// listed in the player item become memberships on the first read.
func (s *Service) MyGamesOf(ctx context.Context, token, cursor string, limit int) (MyGames, error) {
	if s.players == nil {
		return MyGames{}, Fail(CodeInternal, errNoPlayers)
	}
	l, err := parseListCursor(cursor)
	if err != nil {
		return MyGames{}, err
	}
	me, err := s.me(ctx, token, linksign.PurposeMyGames, func(email string) (store.Player, error) {
		return s.readList(ctx, email, &l, limit)
	})
	if err != nil {
		return MyGames{}, err
	}
	if len(me.Player.Games) > 0 && l.cursor == "" {
		// Listed by an older version: made memberships once, once the
		// link is known good, and the first page read again.
		if err := s.migrateGames(ctx, me.Player); err != nil {
			return MyGames{}, err
		}
		if _, err := s.readList(ctx, me.Email, &l, limit); err != nil {
			return MyGames{}, err
		}
		me.Player.Games = nil
	}
	games, err := s.showList(ctx, me.Email, l)
	if err != nil {
		return MyGames{}, fmt.Errorf("my games: %w", err)
	}
	return MyGames{Me: me, Games: games, Next: l.nextCursor()}, nil
}

// list is a page of a player's games as read from the store.
type list struct {
	cursor string // the store's cursor of a later page; "" for the first
	// partly: the first page showed as many decisions owed as a page
	// holds, perhaps not all of them, the last shownTo (a turn key); the
	// cursors after it say so after a "+", so that the later pages list
	// the owed games after that one.
	partly  bool
	shownTo string
	turns   []store.Turn
	ms      []store.Membership
	next    string // the store's cursor after ms
}

// fromFirst is the cursor of the page after a first page that could only
// show decisions owed (store.FirstPage's Unread): the games from the
// newest.
const fromFirst = "-"

func parseListCursor(cursor string) (list, error) {
	c, shownTo, partly := strings.Cut(cursor, "+")
	if c != "" && c != fromFirst && !store.ParseCursor(c) {
		return list{}, invalid("Неверная ссылка на страницу.", "Bad page link.")
	}
	return list{cursor: c, partly: partly, shownTo: shownTo}, nil
}

func (l list) nextCursor() string {
	if l.partly && l.next != "" {
		return l.next + "+" + l.shownTo
	}
	return l.next
}

// readList reads the player item and the page l names: the first page
// in one query (store.FirstPage), a later one in two.
func (s *Service) readList(ctx context.Context, email string, l *list, limit int) (store.Player, error) {
	if l.cursor != "" {
		p, err := s.Prefs(ctx, email)
		if err != nil {
			return p, err
		}
		l.ms, l.next, err = s.players.Memberships(ctx, p.Email, strings.TrimPrefix(l.cursor, fromFirst), limit)
		return p, err
	}
	first, err := s.players.FirstPage(ctx, email, limit, s.now().Unix())
	if err != nil {
		return first.Player, fmt.Errorf("my games: %w", err)
	}
	l.turns, l.ms, l.next = first.Turns, first.Memberships, first.Next
	if first.Unread {
		l.next = fromFirst
	}
	if l.partly = len(l.turns) == limit; l.partly {
		l.shownTo = l.turns[len(l.turns)-1].TurnKey()
	}
	return first.Player, nil
}

// showList reads the games of l and says what the page shows of each to
// the player of email, in l's order: the turns, then the memberships,
// each game once, none that is no longer theirs, no turn that passed.
// It writes nothing: a turn it passes over expires (TurnGrace).
func (s *Service) showList(ctx context.Context, email string, l list) ([]GameSummary, error) {
	ids := make([]string, 0, len(l.turns)+len(l.ms))
	for _, t := range l.turns {
		ids = append(ids, t.Game)
	}
	for _, m := range l.ms {
		ids = append(ids, m.Game)
	}
	read, err := s.readGames(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []GameSummary
	listed := map[string]bool{}
	for i, id := range ids {
		g, ok := read[id]
		if !ok {
			continue // a game not made (a create that did not commit)
		}
		sum, ok, err := s.summaryOf(g, email)
		owed := i < len(l.turns)
		switch {
		case listed[id]: // listed already
		case err != nil:
			return nil, err
		case !ok: // no longer theirs
		case owed && sum.Due != l.turns[i].Due:
			// A turn the game no longer owes: one that passed since, or
			// whose deadline passed before the turn did, which stays
			// until it expires (syncChanged). The game is shown where its
			// own turn falls, or among the memberships (on a later page
			// only when that turn is past shownTo): not at a passed
			// turn's place too.
		case !owed && l.cursor != "" && sum.YourTurn() && (!l.partly || store.Turn{Game: id, Due: sum.Due}.TurnKey() <= l.shownTo):
			// the first page shows it
		default:
			listed[id] = true
			out = append(out, sum)
		}
	}
	return out, nil
}

// readGames reads the games of ids, in one request a hundred where the
// store can (store.BatchGetter); a game that does not exist is left out.
func (s *Service) readGames(ctx context.Context, ids []string) (map[string]store.Game, error) {
	out := make(map[string]store.Game, len(ids))
	if bg, ok := s.store.(store.BatchGetter); ok {
		for batch := range slices.Chunk(ids, store.MaxBatch) {
			read, err := bg.GetGames(ctx, batch)
			if err != nil {
				return nil, err
			}
			maps.Copy(out, read)
		}
		return out, nil
	}
	for _, id := range ids {
		g, err := s.store.GetGame(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			out[id] = g
		}
	}
	return out, nil
}

// summaryOf is what a player's list shows of the stored game g: false
// when email is no longer in it. The record is decoded, not loaded: its
// outbox, log and rules are not needed.
func (s *Service) summaryOf(g store.Game, email string) (GameSummary, bool, error) {
	var rec Record
	if err := decode(g.Body, &rec); err != nil {
		return GameSummary{}, false, fmt.Errorf("game %s: %w", g.ID, err)
	}
	rec.upgrade()
	sum, ok := rec.summaries()[strings.ToLower(email)]
	if ok && rec.Status == StatusPlaying {
		if err := s.owed(&rec, &sum); err != nil {
			return GameSummary{}, false, fmt.Errorf("game %s: %w", g.ID, err)
		}
	}
	return sum, ok, nil
}

// owed fills in what "my games" says of a game in play: who it waits on
// and, if the player owes a decision, what it is (issue 27).
func (s *Service) owed(rec *Record, sum *GameSummary) error {
	me := -1
	if sum.Seat >= 0 && sum.Seat < len(rec.Seats) && rec.Seats[sum.Seat].Out == "" {
		me = rec.Seats[sum.Seat].Engine
	}
	names := make([]string, len(rec.Due))
	for _, st := range rec.Seats {
		if st.Accepted && st.Out == "" && st.Engine >= 0 && st.Engine < len(names) {
			names[st.Engine] = st.Name
		}
	}
	for seat, due := range rec.Due {
		if due > 0 && seat != me && names[seat] != "" {
			sum.Waiting = append(sum.Waiting, names[seat])
		}
	}
	if !sum.YourTurn() || me < 0 {
		return nil
	}
	g, err := s.Engine(rec)
	if err != nil {
		return err
	}
	sum.View, sum.Me, sum.Names, sum.MyTurn = g.View(me), me, names, g.Turn() == me
	return nil
}

// migrateGames makes memberships of the games an older version listed in
// the player item, then drops the list: once per such player.
func (s *Service) migrateGames(ctx context.Context, p store.Player) error {
	for _, id := range p.Games {
		rec, _, err := s.Load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue // indexed before a create that did not commit
		}
		if err != nil {
			return err
		}
		if err := s.putMembers(ctx, rec, map[string]bool{p.Email: true}); err != nil {
			return err
		}
	}
	if err := s.players.ForgetPlayerGames(ctx, p.Email, p.Games); err != nil {
		return fmt.Errorf("my games: %w", err)
	}
	return nil
}
