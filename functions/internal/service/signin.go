package service

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// Sign in by mail, and the personal links a player can see and revoke
// (issue 17).
//
// A personal link ("my games", unsubscribe, sign-in) names the player by
// an opaque link id, never by their address: the id is made with the
// first such link (PlayerToken) and kept in the player item
// (store.Player.LinkID); the access item under that id
// (store.LinkStore) holds the address and the links sent. Every token
// also carries the player's link generation (store.Player.LinkGen) in
// its Version: "sign out everywhere" adds one to it, and a token of an
// older generation is refused. Sign-in links and the sessions they open
// carry a nonce naming their entry in the access item, which can be
// revoked one by one; the links of the mails carry none and are revoked
// together (accessBody.MailFrom).
//
// Older "my games" and unsubscribe tokens carry the address itself (their
// Game has an "@", which a link id never has): they keep working until
// they expire (a year after their mail), unless the player signs out
// everywhere or revokes the mail links, which they count as of
// generation 0 and as mail links.

// Lifetimes of personal links.
const (
	// SignInTTL: a sign-in link works once, within this time.
	SignInTTL = 30 * time.Minute
	// SessionTTL: what a sign-in link opens, a "my games" link of its
	// own, works this long, until revoked.
	SessionTTL = 30 * 24 * time.Hour
	// MailLinkTTL: the "my games" and unsubscribe links of every mail.
	// Fixed, so that a mail link's issue time is its expiry less this.
	MailLinkTTL = OrganiserTokenTTL
)

// Limits on asking for sign-in links: what one address can be made to
// receive, and what one client can ask for.
const (
	SignInPerAddressHour = 3
	SignInPerClientHour  = 10
	// maxAccessLinks sign-in links and sessions are kept per player;
	// the expired go first, then the oldest (whose links then stop
	// working: an entry that is gone is refused).
	maxAccessLinks = 12
)

// Kinds of the links an access item lists.
const (
	LinkSignIn  = "signin"
	LinkSession = "session"
)

// AccessLink is a sign-in link or session sent to a player. Times are
// seconds since the Unix epoch.
type AccessLink struct {
	ID      string `json:"id"` // the nonce its token carries
	Kind    string `json:"k"`  // LinkSignIn or LinkSession
	Issued  int64  `json:"i"`
	Expires int64  `json:"x"`
	Used    int64  `json:"u,omitempty"` // last used (a POST: a GET is never recorded)
	Revoked int64  `json:"r,omitempty"` // when revoked; 0 while valid
}

// accessBody is the service's encoding of a store.Access item.
type accessBody struct {
	Email string `json:"e"`
	// MailSince is when the mail links now valid began to be issued (the
	// id made, or the mail links last revoked); MailFrom, when set, is
	// the revocation: a mail link issued at or before it is refused.
	MailSince int64        `json:"ms,omitempty"`
	MailFrom  int64        `json:"mf,omitempty"`
	MailUsed  int64        `json:"mu,omitempty"`
	Links     []AccessLink `json:"l,omitempty"`
}

// Me is a personal link checked: whose it is and which it is.
type Me struct {
	Email  string
	Player store.Player
	// ID is the player's link id ("" for a link that names the address).
	ID string
	// Link is the sign-in link or session the token names; "" for the
	// links of the mails.
	Link string
	// Legacy: an older link, with the address in it.
	Legacy bool
	// Token is the token checked, for the forms of the page it opens.
	Token string
}

// linkStore is the player store's personal links, if it keeps them
// (both stores do; a service without players has none).
func (s *Service) linkStore() store.LinkStore {
	ls, _ := s.players.(store.LinkStore)
	return ls
}

// PlayerToken signs a personal link of purpose (my games, unsubscribe)
// for p, valid MailLinkTTL: it names p's link id, made now if p has none,
// and p's link generation. Without a player store (tests of the mails
// alone) it names the address, as links did before.
func (s *Service) PlayerToken(ctx context.Context, p store.Player, purpose linksign.Purpose) (string, error) {
	ls := s.linkStore()
	if ls == nil {
		return s.Token(purpose, strings.ToLower(p.Email), linksign.NoSeat, 0, MailLinkTTL)
	}
	id := p.LinkID
	if id == "" {
		var err error
		if id, err = s.ensureLinkID(ctx, p.Email); err != nil {
			return "", err
		}
	}
	return s.Token(purpose, id, linksign.NoSeat, p.LinkGen, MailLinkTTL)
}

// ensureLinkID gives the player of email a link id if they have none:
// the access item first, so that an id a player item names always
// resolves. Of racing calls the first id set wins; the others leave an
// access item no link names.
func (s *Service) ensureLinkID(ctx context.Context, email string) (string, error) {
	email = strings.ToLower(email)
	id, err := s.newID()
	if err != nil {
		return "", err
	}
	now := s.now().Unix()
	body, err := json.Marshal(accessBody{Email: email, MailSince: now})
	if err != nil {
		return "", fmt.Errorf("link id: %w", err)
	}
	ls := s.linkStore()
	if _, err := ls.PutAccess(ctx, store.Access{ID: id, Body: body}, 0); err != nil {
		return "", fmt.Errorf("link id: %w", err)
	}
	got, err := ls.SetPlayerLinkID(ctx, email, id, now)
	forgetPlayer(ctx, email)
	if err != nil {
		return "", fmt.Errorf("link id: %w", err)
	}
	return got, nil
}

// loadAccess reads the access item id.
func (s *Service) loadAccess(ctx context.Context, id string) (accessBody, int64, error) {
	var a accessBody
	it, err := s.linkStore().GetAccess(ctx, id)
	if err != nil {
		return a, 0, fmt.Errorf("access %s: %w", id, err)
	}
	if err := json.Unmarshal(it.Body, &a); err != nil {
		return a, 0, fmt.Errorf("access %s: %w", id, err)
	}
	return a, it.Version, nil
}

// updateAccess applies change to the access item id under optimistic
// locking, reading again on a conflict.
func (s *Service) updateAccess(ctx context.Context, id string, change func(*accessBody) error) error {
	for attempt := 0; ; attempt++ {
		a, ver, err := s.loadAccess(ctx, id)
		if err != nil {
			return err
		}
		if err := change(&a); err != nil {
			return err
		}
		a.Links = pruneLinks(a.Links, s.now().Unix())
		body, err := json.Marshal(a)
		if err != nil {
			return fmt.Errorf("access %s: %w", id, err)
		}
		_, err = s.linkStore().PutAccess(ctx, store.Access{ID: id, Body: body}, ver)
		if !errors.Is(err, store.ErrConflict) || attempt >= 4 {
			if err != nil {
				return fmt.Errorf("access %s: %w", id, err)
			}
			return nil
		}
	}
}

// pruneLinks keeps at most maxAccessLinks, newest first: the expired
// go first, then the oldest.
func pruneLinks(ls []AccessLink, now int64) []AccessLink {
	if len(ls) <= maxAccessLinks {
		return ls
	}
	ls = slices.DeleteFunc(ls, func(l AccessLink) bool { return l.Expires <= now })
	slices.SortStableFunc(ls, func(x, y AccessLink) int { return int(y.Issued - x.Issued) })
	if len(ls) > maxAccessLinks {
		ls = ls[:maxAccessLinks]
	}
	return ls
}

// revoked is the refusal of a link revoked, or signed out of.
func revoked(cause error) *Error {
	return newError(CodeUnauthorized,
		"Эта ссылка больше не действует: её отозвали (или вышли отовсюду). Новую ссылку на ваши игры можно получить на странице входа: /signin.",
		"This link no longer works: it was revoked (or you signed out everywhere). Ask for a new link to your games on the sign-in page: /signin.", cause)
}

// errUsed: a sign-in link works once.
var errUsed = newError(CodeUnauthorized,
	"Эта ссылка для входа уже использована. Новую можно получить на странице входа: /signin.",
	"This sign-in link has been used already. Ask for a new one on the sign-in page: /signin.", errors.New("sign-in link used"))

// Me checks a personal token of purpose and says whose it is. It reads
// the access item (a link id) and the player item, which the page it
// opens reads anyway (Me.Player). A link revoked, signed out of, or of a
// sign-in already used is refused with a message that says so.
func (s *Service) Me(ctx context.Context, token string, purpose linksign.Purpose) (Me, error) {
	return s.me(ctx, token, purpose, func(email string) (store.Player, error) { return s.Prefs(ctx, email) })
}

// me is Me reading the player item with player, which may read more in
// the same request (MyGamesOf).
func (s *Service) me(ctx context.Context, token string, purpose linksign.Purpose, player func(email string) (store.Player, error)) (Me, error) {
	if token == "" {
		return Me{}, Fail(CodeUnauthorized, errors.New("no token"))
	}
	c, err := s.keys.Verify(token, s.now(), linksign.Expect{Purpose: purpose, AnyGame: true, Seat: linksign.NoSeat})
	if err != nil {
		return Me{}, AsError(err)
	}
	me := Me{Token: token}
	var a accessBody
	if strings.Contains(c.Game, "@") { // an older link: the address itself
		me.Email, me.Legacy = strings.ToLower(c.Game), true
	} else {
		if s.linkStore() == nil {
			return Me{}, Fail(CodeInternal, errNoPlayers)
		}
		if a, _, err = s.loadAccess(ctx, c.Game); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return Me{}, Fail(CodeUnauthorized, err)
			}
			return Me{}, err
		}
		me.Email, me.ID, me.Link = a.Email, c.Game, c.Nonce
	}
	if me.Player, err = player(me.Email); err != nil {
		return Me{}, err
	}
	if me.Legacy {
		me.ID = me.Player.LinkID
		if me.ID != "" {
			if a, _, err = s.loadAccess(ctx, me.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
				return Me{}, err
			}
		}
	}
	// Unsubscribing is left to every mail ever sent (RFC 8058's one
	// click must keep working, and it can only stop mail): no revocation
	// stops it.
	if purpose == linksign.PurposeUnsubscribe {
		return me, nil
	}
	if c.Version != me.Player.LinkGen {
		return Me{}, revoked(fmt.Errorf("token of generation %d, player's is %d", c.Version, me.Player.LinkGen))
	}
	if c.Nonce == "" {
		if issued := c.Expires.Unix() - int64(MailLinkTTL/time.Second); a.MailFrom != 0 && issued <= a.MailFrom {
			return Me{}, revoked(errors.New("mail link issued before the mail links were revoked"))
		}
		return me, nil
	}
	i := slices.IndexFunc(a.Links, func(l AccessLink) bool { return l.ID == c.Nonce })
	switch {
	case i < 0:
		return Me{}, revoked(errors.New("no such link entry"))
	case a.Links[i].Revoked != 0:
		return Me{}, revoked(errors.New("link entry revoked"))
	case purpose == linksign.PurposeSignIn && a.Links[i].Used != 0:
		return Me{}, errUsed
	}
	return me, nil
}

// plays tells whether p is a player's address: one in a game past its
// organiser's confirmation (seats are listed only then; an organiser is
// listed at once, but an address typed as someone's organiser that was
// never confirmed is no player's). The newest games are read, at most
// 20, in one request: in the notifier, apart from the page's answer.
func (s *Service) plays(ctx context.Context, p store.Player) (bool, error) {
	const newest = 20
	ids := p.Games[max(0, len(p.Games)-newest):] // listed by an older version
	ms, _, err := s.players.Memberships(ctx, p.Email, "", newest)
	if err != nil {
		return false, fmt.Errorf("sign in: %w", err)
	}
	for _, m := range ms {
		ids = append(ids, m.Game)
	}
	read, err := s.readGames(ctx, ids)
	if err != nil {
		return false, fmt.Errorf("sign in: %w", err)
	}
	for _, g := range read {
		var rec Record
		if err := decode(g.Body, &rec); err != nil {
			return false, fmt.Errorf("sign in: game %s: %w", g.ID, err)
		}
		if rec.Status != StatusUnconfirmed {
			return true, nil
		}
	}
	return false, nil
}

// AskSignIn is the sign-in form: someone asks for a link to the games of
// email. It answers the same whether the address is a player's or not,
// and does the same store work either way: the counts of the client's
// and the address's requests (at most SignInPerClientHour and
// SignInPerAddressHour; every address is counted, so the refusal tells
// nothing either). Whether a link is mailed is decided afterwards, away
// from the answer (Config.SignIn, IssueSignIn). client "" counts against
// the address only.
func (s *Service) AskSignIn(ctx context.Context, email, client, lang string) error {
	email, err := CheckEmail(email)
	if err != nil {
		return err
	}
	now := s.now().Unix()
	n := now / 3600
	end := (n + 1) * 3600
	counts := []struct {
		client bool
		key    string
		limit  int
	}{{true, client, SignInPerClientHour}, {false, email, SignInPerAddressHour}}
	for _, c := range counts {
		if c.key == "" {
			continue
		}
		who := "addr"
		if c.client {
			who = "client"
		}
		err := s.guard.Count(ctx, fmt.Sprintf("signin/%s/%s/3600/%d", who, c.key, n), int64(c.limit), end, now)
		if errors.Is(err, store.ErrLimited) {
			return tooManySignIns(c.client, c.limit, time.Duration(end-now)*time.Second)
		}
		if err != nil {
			return fmt.Errorf("count sign-ins: %w", err)
		}
	}
	if s.signIn != nil {
		s.signIn(ctx, email, lang)
	}
	return nil
}

// tooManySignIns is the refusal of a sign-in link over a limit.
func tooManySignIns(client bool, limit int, wait time.Duration) *Error {
	who := [2]string{"для этого адреса", "for this address"}
	if client {
		who = [2]string{"с вашего адреса", "from your address"}
	}
	min := max(1, int((wait+time.Minute-1)/time.Minute))
	e := newError(CodeTooMany,
		fmt.Sprintf("Слишком много запросов ссылки для входа %s: не больше %d за час. Попробуйте снова через %d мин.", who[0], limit, min),
		fmt.Sprintf("Too many sign-in links asked for %s: at most %d an hour. Try again in %d min.", who[1], limit, min), nil)
	e.RetryAfter = wait
	return e
}

// IssueSignIn makes a sign-in link for the player of email, to be mailed
// to them: ok is false, and nothing is written, for an address that is
// no player's or must not be mailed (nothing is sent to strangers, so
// that the form mails no one who has not played here). The token names
// the player's link id and an entry of the access item; it works once,
// for SignInTTL.
func (s *Service) IssueSignIn(ctx context.Context, email string) (token string, p store.Player, ok bool, err error) {
	if s.linkStore() == nil {
		return "", p, false, Fail(CodeInternal, errNoPlayers)
	}
	if p, err = s.Prefs(ctx, email); err != nil {
		return "", p, false, err
	}
	if p.Suppressed {
		return "", p, false, nil
	}
	if ok, err := s.plays(ctx, p); err != nil || !ok {
		return "", p, false, err
	}
	if p.LinkID == "" {
		if p.LinkID, err = s.ensureLinkID(ctx, p.Email); err != nil {
			return "", p, false, err
		}
	}
	nonce, err := s.newNonce()
	if err != nil {
		return "", p, false, err
	}
	now := s.now()
	exp := now.Add(SignInTTL)
	err = s.updateAccess(ctx, p.LinkID, func(a *accessBody) error {
		a.Links = append([]AccessLink{{ID: nonce, Kind: LinkSignIn, Issued: now.Unix(), Expires: exp.Unix()}}, a.Links...)
		return nil
	})
	if err != nil {
		return "", p, false, fmt.Errorf("sign-in link: %w", err)
	}
	token, err = s.keys.Sign(linksign.Claims{Purpose: linksign.PurposeSignIn, Game: p.LinkID, Seat: linksign.NoSeat, Version: p.LinkGen, Expires: exp, Nonce: nonce})
	if err != nil {
		return "", p, false, fmt.Errorf("sign-in link: %w", err)
	}
	return token, p, true, nil
}

// newNonce names a link entry: 8 bytes of the service's randomness.
func (s *Service) newNonce() (string, error) {
	b := make([]byte, 8)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", fmt.Errorf("nonce: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// OpenSignIn uses a sign-in link (the button of its page, a POST: a
// GET of the link changes nothing): the link is spent, and a session,
// a "my games" link of its own valid SessionTTL, is opened; its token
// is returned. Of two racing uses one wins.
func (s *Service) OpenSignIn(ctx context.Context, token string) (string, error) {
	me, err := s.Me(ctx, token, linksign.PurposeSignIn)
	if err != nil {
		return "", err
	}
	session, err := s.newNonce()
	if err != nil {
		return "", err
	}
	now := s.now()
	exp := now.Add(SessionTTL)
	err = s.updateAccess(ctx, me.ID, func(a *accessBody) error {
		i := slices.IndexFunc(a.Links, func(l AccessLink) bool { return l.ID == me.Link })
		switch {
		case i < 0 || a.Links[i].Revoked != 0:
			return revoked(errors.New("link entry gone or revoked"))
		case a.Links[i].Used != 0:
			return errUsed
		}
		a.Links[i].Used = now.Unix()
		a.Links = append([]AccessLink{{ID: session, Kind: LinkSession, Issued: now.Unix(), Expires: exp.Unix(), Used: now.Unix()}}, a.Links...)
		return nil
	})
	if err != nil {
		return "", err
	}
	s.log.InfoContext(ctx, "signed in by mail")
	tok, err := s.keys.Sign(linksign.Claims{Purpose: linksign.PurposeMyGames, Game: me.ID, Seat: linksign.NoSeat, Version: me.Player.LinkGen, Expires: exp, Nonce: session})
	if err != nil {
		return "", fmt.Errorf("session: %w", err)
	}
	return tok, nil
}

// Links is what a player's links page lists.
type Links struct {
	// The links of the mails ("my games", unsubscribe): valid since
	// MailSince, last used MailUsed (0: not since), revoked MailFrom.
	MailSince, MailUsed, MailFrom int64
	// Sign-in links and sessions, newest first.
	Links []AccessLink
	// Current is the entry the page was opened with ("" for a mail link).
	Current string
}

// accessOf reads the access item of me, making the player's link id if
// an older link (with the address) is all they have.
func (s *Service) accessOf(ctx context.Context, me *Me) (accessBody, error) {
	if me.ID == "" {
		id, err := s.ensureLinkID(ctx, me.Email)
		if err != nil {
			return accessBody{}, err
		}
		me.ID = id
	}
	a, _, err := s.loadAccess(ctx, me.ID)
	return a, err
}

// PlayerLinks lists the links sent to the player of me.
func (s *Service) PlayerLinks(ctx context.Context, me Me) (Links, error) {
	if me.ID == "" { // an older link, of a player never sent a new one: nothing to list yet
		return Links{}, nil
	}
	a, _, err := s.loadAccess(ctx, me.ID)
	if err != nil {
		return Links{}, err
	}
	return Links{MailSince: a.MailSince, MailUsed: a.MailUsed, MailFrom: a.MailFrom, Links: a.Links, Current: me.Link}, nil
}

// LinkMail names the links of the mails in Revoke.
const LinkMail = "mail"

// Revoke revokes one of the player's links: a sign-in link or session by
// its id, or with LinkMail the links of every mail sent so far (the
// mails sent from now on carry links that work).
func (s *Service) Revoke(ctx context.Context, me Me, link string) error {
	if _, err := s.accessOf(ctx, &me); err != nil {
		return err
	}
	now := s.now().Unix()
	err := s.updateAccess(ctx, me.ID, func(a *accessBody) error {
		if link == LinkMail {
			a.MailFrom, a.MailSince, a.MailUsed = now, now+1, 0
			return nil
		}
		i := slices.IndexFunc(a.Links, func(l AccessLink) bool { return l.ID == link })
		if i < 0 {
			return newError(CodeNotFound, "Такой ссылки нет.", "No such link.", nil)
		}
		if a.Links[i].Revoked == 0 {
			a.Links[i].Revoked = now
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "link revoked", "kind", map[bool]string{true: "mail", false: "entry"}[link == LinkMail])
	return nil
}

// SignOutEverywhere stops every personal link the player has been sent,
// older ones with the address included: the player's link generation
// goes up by one (one atomic write), and the entries of the access item
// are marked revoked, for the list.
func (s *Service) SignOutEverywhere(ctx context.Context, me Me) error {
	if s.linkStore() == nil {
		return Fail(CodeInternal, errNoPlayers)
	}
	if _, err := s.linkStore().BumpLinkGen(ctx, me.Email, s.now().Unix()); err != nil {
		return fmt.Errorf("sign out everywhere: %w", err)
	}
	if _, err := s.accessOf(ctx, &me); err != nil {
		return err
	}
	now := s.now().Unix()
	err := s.updateAccess(ctx, me.ID, func(a *accessBody) error {
		for i := range a.Links {
			if a.Links[i].Revoked == 0 {
				a.Links[i].Revoked = now
			}
		}
		a.MailSince, a.MailUsed = now+1, 0
		return nil
	})
	if err != nil {
		return fmt.Errorf("sign out everywhere: %w", err)
	}
	s.log.InfoContext(ctx, "signed out everywhere")
	return nil
}

// Touch records that me's link was used by a POST (a GET never writes):
// the "last used" of its entry, or of the mail links.
func (s *Service) Touch(ctx context.Context, me Me) error {
	if me.ID == "" {
		return nil
	}
	now := s.now().Unix()
	return s.updateAccess(ctx, me.ID, func(a *accessBody) error {
		if me.Link == "" {
			a.MailUsed = now
			return nil
		}
		if i := slices.IndexFunc(a.Links, func(l AccessLink) bool { return l.ID == me.Link }); i >= 0 {
			a.Links[i].Used = now
		}
		return nil
	})
}
