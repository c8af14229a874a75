// Package wiring builds the application the same way for every Lambda
// function (api, notify, sweep, bounces) and for the local run:
// configuration → clients → stores → service → notifier. A deployment
// brings its parts (DynamoDB, and SES through package sesmail, in Lambda;
// bbolt and the mailbox through package localrun locally); New puts them
// together in one place, so that a function's main can only differ from
// another, or from the local run, in which events it accepts.
package wiring

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/pbmgames/pbm/functions/internal/catalog"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
)

// Store keeps games, players and the guard's counters in one: the
// service and the notifier always get all, so no deployment can leave the
// player index or the limits out.
type Store interface {
	store.Store
	store.PlayerStore
	store.GuardStore
	store.SentStore
	store.LeagueStore
}

// Parts are what a deployment brings.
type Parts struct {
	// Games are the games the deployment serves: the catalog's
	// (catalog.Games) when nil. The tests hand theirs.
	Games *present.Games
	Log   *slog.Logger
	Store Store
	// Keys sign and check links; nil for a function that handles none
	// (bounces).
	Keys *linksign.Keyring
	// KeysLater, when set, gives the keys instead of Keys, once they
	// arrive (service.Config.KeysLater): a Lambda's, read from SSM.
	KeysLater func() (*linksign.Keyring, error)
	// KeysPending reports whether KeysLater has still to read the keys
	// (service.Config.KeysPending).
	KeysPending func() bool
	// BaseURL is the public origin links point to; "" for links relative
	// to the request's origin (the API's pages).
	BaseURL string
	// Mail, when set, is how mail leaves: a notifier is built on it; nil
	// for a function that sends none (api, bounces).
	Mail *Mail
	// Extra registers routes only this deployment serves (the local
	// mailbox), shown on every page at MailboxURL.
	Extra      func(*http.ServeMux)
	MailboxURL string
	// Limits bound the games made (zero fields: service.DefaultLimits).
	Limits service.Limits
	// Now and Rand are the service's clock, and source of seeds and ids;
	// time.Now and crypto/rand when nil.
	Now  func() time.Time
	Rand io.Reader
	// Closers are what the deployment opened (the local run's files),
	// closed by App.Close in reverse order.
	Closers []io.Closer
}

// Mail is how a deployment's mail leaves (NewMail).
type Mail struct {
	sender          notify.Sender
	permanent       func(error) bool
	afterEachCommit bool
	// notifier builds the notifier. It is a function value set by NewMail
	// rather than a call in New so that a program that never makes a Mail
	// (the api and bounces functions) never reaches the notifier's and
	// the composer's code, and the linker leaves it out of its binary.
	notifier func(a *App, baseURL string, m *Mail) (*notify.Notifier, leagues.Post)
}

// NewMail sends mail with sender. permanent tells a refusal retrying
// cannot cure (nil: none is). afterEachCommit drains a game's outbox right
// after each commit that leaves mail in it (the local run); in AWS the
// table's stream feeds the notify function instead.
func NewMail(sender notify.Sender, permanent func(error) bool, afterEachCommit bool) *Mail {
	return &Mail{sender: sender, permanent: permanent, afterEachCommit: afterEachCommit, notifier: newNotifier}
}

func newNotifier(a *App, baseURL string, m *Mail) (*notify.Notifier, leagues.Post) {
	c := compose.New(compose.Config{Games: a.Games, Service: a.Service, BaseURL: baseURL})
	n := &notify.Notifier{
		Service:   a.Service,
		Composer:  c,
		Sender:    m.sender,
		Players:   a.Store,
		Permanent: m.permanent,
		Log:       a.Log,
		Now:       a.now,
	}
	// A league's own letters go out by the same sender and the same
	// delivery rules (notify.Route): a round's table asks its member to
	// play, the others are the league's news.
	post := func(ctx context.Context, l *leagues.League, season *leagues.Season, letter leagues.Letter) error {
		msg, err := c.League(ctx, l, season, letter)
		if err != nil {
			return err
		}
		class := notify.ClassLeague
		if letter.Kind == leagues.LetterRound {
			class = notify.ClassAct
		}
		return n.SendLeague(ctx, msg, class, l.ID)
	}
	return n, post
}

// App is a wired deployment.
type App struct {
	// Games are the games served (Parts.Games).
	Games   *present.Games
	Log     *slog.Logger
	Store   Store
	Service *service.Service
	// Leagues runs the leagues (issue 14) over Service.
	Leagues *leagues.Service
	// Notifier sends the outbox; nil where no Mail was given.
	Notifier *notify.Notifier

	baseURL, mailboxURL string
	extra               func(*http.ServeMux)
	now                 func() time.Time
	closers             []io.Closer
}

// New wires p.
func New(p Parts) *App {
	if p.Log == nil {
		p.Log = slog.Default()
	}
	if p.Games == nil {
		p.Games = catalog.Games()
	}
	a := &App{Games: p.Games, Log: p.Log, Store: p.Store, baseURL: p.BaseURL, mailboxURL: p.MailboxURL, extra: p.Extra, now: p.Now, closers: p.Closers}
	var committed func(context.Context, *service.Record, int64)
	var signIn func(ctx context.Context, email, lang string)
	var talkPosted func(ctx context.Context, game, key string)
	if p.Mail != nil && p.Mail.afterEachCommit {
		committed = func(ctx context.Context, rec *service.Record, ver int64) { a.Notifier.Committed(ctx, rec, ver) }
		signIn = a.sendSignInLater
		talkPosted = a.sendTalkLater
	}
	// Both stores keep table talk; a store that does not (a test's)
	// leaves the service without it.
	talk, _ := p.Store.(store.TalkStore)
	// Where the table's stream feeds the notifier (AWS), the sweep hands
	// the games due to it: the notifier ticks them, many at once. The
	// local run has no stream to do so: its sweep ticks them itself.
	var handOut store.TickRequester
	if p.Mail != nil && !p.Mail.afterEachCommit {
		handOut, _ = p.Store.(store.TickRequester)
	}
	a.Service = service.New(service.Config{Games: p.Games.Engines(), Store: p.Store, Players: p.Store, Guard: p.Store, Sent: p.Store, Limits: p.Limits, Keys: p.Keys, KeysLater: p.KeysLater, KeysPending: p.KeysPending, Log: p.Log,
		Now: p.Now, Rand: p.Rand, Committed: committed, SignIn: signIn, Talk: talk,
		TalkPosted: talkPosted, HandOut: handOut})
	var post leagues.Post
	if p.Mail != nil {
		a.Notifier, post = p.Mail.notifier(a, p.BaseURL, p.Mail)
	}
	leagueRand := p.Rand
	if leagueRand == nil {
		leagueRand = rand.Reader
	}
	// Every deployment decides the leagues' letters: where this function
	// sends none (the api in AWS), the sweep's sends them.
	a.Leagues = leagues.New(leagues.Config{Store: p.Store, Games: a.Service, Now: p.Now, Rand: leagueRand, Log: p.Log, Post: post, Queue: true})
	return a
}

// sendSignInLater mails a sign-in link, if the address is a player's,
// apart from the request that asked for it (the local run): its answer
// is decided and written without waiting, so that it takes as long for
// an address that gets a mail as for one that does not.
func (a *App) sendSignInLater(ctx context.Context, email, lang string) {
	a.later(ctx, "sign-in", func(ctx context.Context) error { return a.Notifier.SendSignIn(ctx, email, lang) })
}

// sendTalkLater mails a message just posted to the seats that asked
// for each one, apart from the post (the local run), as the table's
// stream does in AWS.
func (a *App) sendTalkLater(ctx context.Context, game, key string) {
	a.later(ctx, "talk", func(ctx context.Context) error { return a.Notifier.SendTalk(ctx, game, key) })
}

// later sends a mail apart from the request that asked for it, which
// has answered by then (its context's cancellation does not reach the
// send); a failure is logged, as the stream's notifier logs it in AWS.
func (a *App) later(ctx context.Context, what string, send func(context.Context) error) {
	ctx = context.WithoutCancel(ctx)
	go func() {
		if err := send(ctx); err != nil {
			a.Log.ErrorContext(ctx, what+" mail failed", "err", err)
		}
	}()
}

// Web is what the deployment gives its HTTP handler (package web builds
// it) besides the service.
type Web struct {
	BaseURL, MailboxURL string
	Extra               func(*http.ServeMux)
}

// Web is what a's HTTP handler is built from.
func (a *App) Web() Web { return Web{BaseURL: a.baseURL, MailboxURL: a.mailboxURL, Extra: a.extra} }

// Sweep does what the clock asks, as the scheduled sweep function does
// in AWS and the local run's ticker locally: starts and closes the
// leagues' rounds that are due and sends their mail
// (leagues.Service.Sweep), plays the defaults of missed deadlines and
// mails the reminders that are due (P-4), sends whatever mail is still
// pending, and the daily digests due at now.
//
// The leagues, the games due, the games with mail pending and the list
// of the digests due are read at once, each on a goroutine of its own: a
// sweep with nothing to do is then one round trip to the table, not four
// (issue 24: it was two, the mail pending read after the ticks). A round
// the leagues' sweep starts has new games, due at once: when a league was
// due, the games due are read again after it, so that they are ticked in
// the same sweep. The mail pending is read before the ticks, and the
// games they give fresh mail are left out of its drain as before; a game
// whose mail came meanwhile from elsewhere is not idle yet
// (notify.SweepIdle), and the drain would leave it anyway. A digest that
// the ticks start is not due yet; the digests due are sent last, with
// what the ticks and the drain queued in them.
func (a *App) Sweep(ctx context.Context, now time.Time) error {
	if a.Notifier == nil {
		return errors.New("sweep: this deployment sends no mail")
	}
	type listed struct {
		keys []string // the players' addresses or the games' ids listed
		err  error
	}
	digests := make(chan listed, 1)
	go func() {
		emails, err := a.Notifier.DigestsDue(ctx, now)
		digests <- listed{emails, err}
	}()
	type swept struct {
		leagues int
		err     error
	}
	leagues := make(chan swept, 1)
	go func() {
		n, err := a.Leagues.SweepDue(ctx, now)
		leagues <- swept{n, err}
	}()
	pendingNow := make(chan listed, 1)
	go func() {
		ids, err := a.Store.PendingOutbox(ctx)
		pendingNow <- listed{ids, err}
	}()
	_, streamed, tickErr := a.Service.TickDue(ctx)
	league := <-leagues
	if league.leagues > 0 {
		_, more, err := a.Service.TickDue(ctx)
		streamed, tickErr = append(streamed, more...), errors.Join(tickErr, err)
	}
	// The games just ticked have fresh mail, and those handed out will
	// have it: the stream's notifier's. The drain of pending mail would
	// read each again only to leave it (or, for one handed out, could
	// drain it at once with the notifier).
	fresh := make(map[string]bool, len(streamed))
	for _, id := range streamed {
		fresh[id] = true
	}
	pending := func(context.Context) ([]string, error) {
		p := <-pendingNow
		return slices.DeleteFunc(p.keys, func(id string) bool { return fresh[id] }), p.err
	}
	drainErr := a.Notifier.SweepMail(ctx, now, pending)
	due := <-digests
	digestErr := due.err
	if digestErr == nil {
		digestErr = a.Notifier.SendDigestsTo(ctx, due.keys)
	}
	return errors.Join(league.err, tickErr, drainErr, digestErr)
}

// Close closes what the deployment opened (Parts.Closers).
func (a *App) Close() error {
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i].Close())
	}
	return errors.Join(errs...)
}
