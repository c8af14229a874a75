package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/mailer/mailbox"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// writeCounter is the bolt store with its writes counted, and its
// reads of players and access items: what a request did to the store.
type writeCounter struct {
	*boltstore.Store
	mu     sync.Mutex
	writes []string
	reads  []string
}

func (c *writeCounter) note(list *[]string, op string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	*list = append(*list, op)
}

func (c *writeCounter) take() (writes, reads []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	writes, reads, c.writes, c.reads = c.writes, c.reads, nil, nil
	return writes, reads
}

func (c *writeCounter) PutGame(ctx context.Context, g store.Game, prev int64) (int64, error) {
	c.note(&c.writes, "PutGame")
	return c.Store.PutGame(ctx, g, prev)
}

func (c *writeCounter) Count(ctx context.Context, key string, limit, expires, now int64) error {
	c.note(&c.writes, "Count")
	return c.Store.Count(ctx, key, limit, expires, now)
}

func (c *writeCounter) Mark(ctx context.Context, key string, expires int64) error {
	c.note(&c.writes, "Mark")
	return c.Store.Mark(ctx, key, expires)
}

func (c *writeCounter) PutAccess(ctx context.Context, a store.Access, prev int64) (int64, error) {
	c.note(&c.writes, "PutAccess")
	return c.Store.PutAccess(ctx, a, prev)
}

func (c *writeCounter) SetPlayerLinkID(ctx context.Context, email, id string, at int64) (string, error) {
	c.note(&c.writes, "SetPlayerLinkID")
	return c.Store.SetPlayerLinkID(ctx, email, id, at)
}

func (c *writeCounter) BumpLinkGen(ctx context.Context, email string, at int64) (int64, error) {
	c.note(&c.writes, "BumpLinkGen")
	return c.Store.BumpLinkGen(ctx, email, at)
}

func (c *writeCounter) SetPlayerPrefs(ctx context.Context, email, lang, mail, tz string, unsub bool, at int64) error {
	c.note(&c.writes, "SetPlayerPrefs")
	return c.Store.SetPlayerPrefs(ctx, email, lang, mail, tz, unsub, at)
}

func (c *writeCounter) AddPlayerGame(ctx context.Context, email, gameID string, at int64) error {
	c.note(&c.writes, "AddPlayerGame")
	return c.Store.AddPlayerGame(ctx, email, gameID, at)
}

func (c *writeCounter) GetPlayer(ctx context.Context, email string) (store.Player, error) {
	c.note(&c.reads, "GetPlayer")
	return c.Store.GetPlayer(ctx, email)
}

func (c *writeCounter) GetAccess(ctx context.Context, id string) (store.Access, error) {
	c.note(&c.reads, "GetAccess")
	return c.Store.GetAccess(ctx, id)
}

// signinFixture is a service with players, the notifier with the local
// mailbox behind it, and the pages; the sign-in requests the pages
// admit are held (asked) until the test sends them, as the local run
// sends them after the answer.
type signinFixture struct {
	t     *testing.T
	st    *writeCounter
	svc   *service.Service
	n     *notify.Notifier
	box   *mailbox.Mailbox
	srv   *httptest.Server
	now   time.Time
	mu    sync.Mutex
	asked [][2]string
}

func newSigninFixture(t *testing.T) *signinFixture {
	f := &signinFixture{t: t, now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	bs, err := boltstore.Open(filepath.Join(t.TempDir(), "pbm.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bs.Close() })
	f.st = &writeCounter{Store: bs}
	if f.box, err = mailbox.Open(filepath.Join(t.TempDir(), "mail.db"), nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.box.Close() })
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": bytes.Repeat([]byte{7}, 32)})
	clock := func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
	log := slog.New(slog.DiscardHandler)
	f.n = &notify.Notifier{Sender: f.box, Players: f.st, Log: log, Now: clock}
	f.svc = service.New(service.Config{Games: testGames.Engines(), Store: f.st, Players: f.st, Guard: f.st, Keys: keys, Now: clock, Log: log,
		Rand: testenv.Rand(t.Name()), Limits: servicetest.Roomy, AfterCommit: f.n.AfterCommit,
		SignIn: func(_ context.Context, email, lang string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.asked = append(f.asked, [2]string{email, lang})
		}})
	f.n.Service = f.svc
	f.n.Composer = compose.New(compose.Config{Games: testGames, Service: f.svc, BaseURL: "https://pbm.example", NoPicture: true})
	f.srv = httptest.NewServer(httpapi.New(httpapi.Deps{Games: testGames, Service: f.svc, Log: log, Now: clock}))
	t.Cleanup(f.srv.Close)
	return f
}

// game makes a game whose players are a@pbm.test and b@pbm.test: its
// invitations are mailed.
func (f *signinFixture) game() string {
	c := servicetest.Create(f.t, f.svc, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "org@pbm.test"},
		Seats: []service.Person{{Name: "Anna", Email: "a@pbm.test"}, {Name: "Boris", Email: "b@pbm.test"}}})
	return c.ID
}

// sendAsked sends the sign-in mails asked for so far.
func (f *signinFixture) sendAsked() {
	f.mu.Lock()
	asked := f.asked
	f.asked = nil
	f.mu.Unlock()
	for _, a := range asked {
		if err := f.n.SendSignIn(f.t.Context(), a[0], a[1]); err != nil {
			f.t.Fatal(err)
		}
	}
}

// do makes a request without following redirects.
func (f *signinFixture) do(method, path string, form url.Values) (*http.Response, string) {
	f.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, f.srv.URL+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// mails are the mails sent to addr, newest first.
func (f *signinFixture) mails(addr string) []mailbox.Mail {
	ms, err := f.box.List(addr, 100)
	if err != nil {
		f.t.Fatal(err)
	}
	return ms
}

// linkIn is the link of a mail's text that begins with prefix.
func linkIn(t *testing.T, text, prefix string) string {
	t.Helper()
	for _, l := range mailbox.Links(text) {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("no link %s… in:\n%s", prefix, text)
	return ""
}

// tokenOf is the token of a link, and its payload decoded.
func tokenOf(t *testing.T, link string) (token string, payload []byte) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	token = u.Query().Get("t")
	parts := strings.Split(token, ".")
	if len(parts) != 4 {
		t.Fatalf("token %q", token)
	}
	if payload, err = base64.RawURLEncoding.DecodeString(parts[2]); err != nil {
		t.Fatal(err)
	}
	return token, payload
}

// TestSignInSameAnswer: the sign-in form answers a player's address and
// a stranger's alike — status, the headers that matter, every byte of
// the body, and the same store work — and only the player gets a mail,
// whose link names no address: its token's payload holds neither the
// address nor an "@".
func TestSignInSameAnswer(t *testing.T) {
	f := newSigninFixture(t)
	f.game()
	type answer struct {
		status              int
		ctype, cache, retry string
		body                string
		writes, reads       []string
	}
	ask := func(addr, l string) answer {
		f.st.take()
		resp, body := f.do("POST", "/signin?lang="+l, url.Values{"email": {addr}})
		w, r := f.st.take()
		return answer{resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), resp.Header.Get("Retry-After"), body, w, r}
	}
	for _, l := range []string{"ru", "en"} {
		known, stranger := ask("A@pbm.test", l), ask("nobody@pbm.test", l)
		if known.status != 200 || known.ctype != stranger.ctype || known.cache != stranger.cache || known.status != stranger.status ||
			known.body != stranger.body || strings.Join(known.writes, ",") != strings.Join(stranger.writes, ",") ||
			strings.Join(known.reads, ",") != strings.Join(stranger.reads, ",") {
			t.Fatalf("%s: the answers differ:\nknown    %d %q %q writes %v reads %v\nstranger %d %q %q writes %v reads %v\n%s\n----\n%s", l,
				known.status, known.ctype, known.cache, known.writes, known.reads, stranger.status, stranger.ctype, stranger.cache,
				stranger.writes, stranger.reads, known.body, stranger.body)
		}
		if strings.Join(known.writes, ",") != "Count,Count" || len(known.reads) != 0 {
			t.Fatalf("%s: the request wrote %v and read %v, want the two counts only", l, known.writes, known.reads)
		}
		if strings.Contains(known.body, "pbm.test") || !strings.Contains(known.body, map[string]string{"ru": "ссылка для входа уже отправлена", "en": "sign-in link is on its way"}[l]) {
			t.Fatalf("%s: the answer repeats the address or does not say what happens:\n%s", l, known.body)
		}
	}
	before := len(f.mails("a@pbm.test"))
	f.sendAsked()
	if n := len(f.mails("nobody@pbm.test")); n != 0 {
		t.Fatalf("%d mails to an address that plays no game", n)
	}
	got := f.mails("a@pbm.test")
	if len(got) != before+2 {
		t.Fatalf("%d sign-in mails to the player, want 2", len(got)-before)
	}
	m := got[0]
	if !strings.Contains(m.Subject, "sign-in") && !strings.Contains(m.Subject, "для входа") {
		t.Fatalf("subject %q", m.Subject)
	}
	link := linkIn(t, m.Text, "https://pbm.example/signin/open?")
	token, payload := tokenOf(t, link)
	if bytes.Contains(payload, []byte("@")) || bytes.Contains(bytes.ToLower(payload), []byte("pbm.test")) || strings.Contains(m.Text, "/me?") {
		t.Fatalf("the sign-in link names the address, or the mail has a long-lived link: %q\n%s", payload, m.Text)
	}
	// The link works: its page has a button, which opens "my games".
	resp, body := f.do("GET", "/signin/open?t="+url.QueryEscape(token), nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `action="/signin/open`) {
		t.Fatalf("sign-in link page: %d\n%s", resp.StatusCode, body)
	}
	resp, _ = f.do("POST", "/signin/open?lang=en", url.Values{"t": {token}})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/me?") {
		t.Fatalf("sign-in: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body = f.do("GET", resp.Header.Get("Location"), nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "a@pbm.test") || !strings.Contains(body, "Anna") {
		t.Fatalf("my games after signing in: %d\n%s", resp.StatusCode, body)
	}
	// Once only.
	resp, body = f.do("POST", "/signin/open?lang=en", url.Values{"t": {token}})
	if resp.StatusCode != 401 || !strings.Contains(body, "used already") {
		t.Fatalf("a sign-in link used twice: %d\n%s", resp.StatusCode, body)
	}
	// The "my games" links of the game's mails name no address either.
	inv := f.mails("b@pbm.test")
	if len(inv) == 0 {
		t.Fatal("no invitation mailed")
	}
	for _, prefix := range []string{"https://pbm.example/me?", "https://pbm.example/unsubscribe?"} {
		tok, payload := tokenOf(t, linkIn(t, inv[0].Text, prefix))
		if bytes.Contains(payload, []byte("@")) {
			t.Fatalf("%s link names the address: %q", prefix, payload)
		}
		if prefix == "https://pbm.example/me?" {
			if resp, body := f.do("GET", "/me?lang=en&t="+url.QueryEscape(tok), nil); resp.StatusCode != 200 || !strings.Contains(body, "b@pbm.test") {
				t.Fatalf("the mail's my-games link: %d\n%s", resp.StatusCode, body)
			}
		}
	}
}

// TestSignInRateLimits: at most 3 links an hour per address, whether
// or not it is a player's, and 10 per client; over either, 429 with
// Retry-After and a message in the reader's language.
func TestSignInRateLimits(t *testing.T) {
	f := newSigninFixture(t)
	f.game()
	for _, addr := range []string{"a@pbm.test", "stranger@pbm.test"} {
		for i := range service.SignInPerAddressHour {
			if resp, body := f.do("POST", "/signin?lang=en", url.Values{"email": {addr}}); resp.StatusCode != 200 {
				t.Fatalf("%s: request %d: %d\n%s", addr, i+1, resp.StatusCode, body)
			}
		}
	}
	var last string
	for _, addr := range []string{"a@pbm.test", "stranger@pbm.test"} {
		for _, l := range []string{"ru", "en"} {
			resp, body := f.do("POST", "/signin?lang="+l, url.Values{"email": {addr}})
			want := map[string]string{"ru": "Слишком много запросов ссылки для входа для этого адреса", "en": "Too many sign-in links asked for for this address"}[l]
			if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, want) {
				t.Fatalf("%s over the address limit (%s): %d, Retry-After %q\n%s", addr, l, resp.StatusCode, resp.Header.Get("Retry-After"), body)
			}
			if l == "en" {
				if last != "" && body != last {
					t.Fatalf("the refusals of a player's address and a stranger's differ:\n%s\n----\n%s", last, body)
				}
				last = body
			}
		}
	}
	// The client has asked 10 times: the next address is refused too.
	resp, body := f.do("POST", "/signin?lang=en", url.Values{"email": {"c@pbm.test"}})
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "from your address") {
		t.Fatalf("over the client limit: %d\n%s", resp.StatusCode, body)
	}
	// An hour later both limits have passed.
	f.mu.Lock()
	f.now = f.now.Add(time.Hour)
	f.mu.Unlock()
	if resp, body := f.do("POST", "/signin?lang=en", url.Values{"email": {"a@pbm.test"}}); resp.StatusCode != 200 {
		t.Fatalf("an hour later: %d\n%s", resp.StatusCode, body)
	}
	if resp, _ := f.do("POST", "/signin?lang=en", url.Values{"email": {"not an address"}}); resp.StatusCode != 400 {
		t.Fatalf("a malformed address: %d, want 400", resp.StatusCode)
	}
}

// signIn signs a@pbm.test in by mail and returns the session's token.
func (f *signinFixture) signIn() string {
	f.t.Helper()
	if resp, body := f.do("POST", "/signin?lang=en", url.Values{"email": {"a@pbm.test"}}); resp.StatusCode != 200 {
		f.t.Fatalf("sign-in form: %d\n%s", resp.StatusCode, body)
	}
	f.sendAsked()
	token, _ := tokenOf(f.t, linkIn(f.t, f.mails("a@pbm.test")[0].Text, "https://pbm.example/signin/open?"))
	resp, body := f.do("POST", "/signin/open?lang=en", url.Values{"t": {token}})
	if resp.StatusCode != http.StatusSeeOther {
		f.t.Fatalf("sign in: %d\n%s", resp.StatusCode, body)
	}
	session, _ := tokenOf(f.t, "https://x"+resp.Header.Get("Location"))
	return session
}

// refused checks that GET /me with token is refused with the revoked
// page, in both languages, with the way to a new link.
func (f *signinFixture) refused(what, token string) {
	f.t.Helper()
	for l, want := range map[string]string{"ru": "отозвали", "en": "revoked"} {
		resp, body := f.do("GET", "/me?lang="+l+"&t="+url.QueryEscape(token), nil)
		if resp.StatusCode != 401 || !strings.Contains(body, want) || !strings.Contains(body, `href="/signin?lang=`+l+`"`) {
			f.t.Fatalf("%s (%s): %d, want 401 saying %q with a link to /signin\n%s", what, l, resp.StatusCode, want, body)
		}
	}
}

// TestRevokeLinks: the links page lists the sign-ins; a session revoked
// stops working while the others go on; revoking the mail links stops
// every mail's "my games" link, older ones with the address included,
// and the mails after carry working ones; signing out everywhere stops
// every link — each refused with a clear page in both languages.
func TestRevokeLinks(t *testing.T) {
	f := newSigninFixture(t)
	f.game()
	first, second := f.signIn(), f.signIn()
	resp, body := f.do("GET", "/me/links?lang=en&t="+url.QueryEscape(second), nil)
	if resp.StatusCode != 200 || strings.Count(body, `name="link"`) != 1+4 || !strings.Contains(body, "this page") {
		t.Fatalf("links page: %d, want the mail links and 2 sign-in links and 2 sessions, each with a revoke button\n%s", resp.StatusCode, body)
	}
	firstID := string(mustNonce(t, first))
	resp, body = f.do("POST", "/me/links/revoke?lang=en", url.Values{"t": {second}, "link": {firstID}})
	if resp.StatusCode != 200 || !strings.Contains(body, "Link revoked") {
		t.Fatalf("revoke: %d\n%s", resp.StatusCode, body)
	}
	f.refused("a revoked session", first)
	if resp, _ := f.do("GET", "/me?t="+url.QueryEscape(second), nil); resp.StatusCode != 200 {
		t.Fatalf("the other session after a revocation: %d", resp.StatusCode)
	}

	// The mail links: the invitation's, and an older one with the address.
	mailTok, _ := tokenOf(t, linkIn(t, f.mails("a@pbm.test")[len(f.mails("a@pbm.test"))-1].Text, "https://pbm.example/me?"))
	legacy, err := f.svc.Token(linksign.PurposeMyGames, "a@pbm.test", linksign.NoSeat, 0, service.MailLinkTTL)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{mailTok, legacy} {
		if resp, _ := f.do("GET", "/me?t="+url.QueryEscape(tok), nil); resp.StatusCode != 200 {
			t.Fatalf("a mail link before any revocation: %d", resp.StatusCode)
		}
	}
	f.mu.Lock()
	f.now = f.now.Add(time.Minute)
	f.mu.Unlock()
	if resp, body := f.do("POST", "/me/links/revoke?lang=en", url.Values{"t": {second}, "link": {service.LinkMail}}); resp.StatusCode != 200 {
		t.Fatalf("revoke the mail links: %d\n%s", resp.StatusCode, body)
	}
	f.refused("a mail link revoked", mailTok)
	f.refused("an older mail link, with the address, revoked", legacy)
	f.mu.Lock()
	f.now = f.now.Add(time.Minute)
	f.mu.Unlock()
	p, err := f.svc.Player(t.Context(), "a@pbm.test")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := f.svc.PlayerToken(t.Context(), p, linksign.PurposeMyGames)
	if err != nil {
		t.Fatal(err)
	}
	if resp, _ := f.do("GET", "/me?t="+url.QueryEscape(fresh), nil); resp.StatusCode != 200 {
		t.Fatalf("a mail link made after the revocation: %d", resp.StatusCode)
	}

	// Sign out everywhere: the session, the fresh mail link, an older
	// link with the address, all stop.
	resp, body = f.do("POST", "/me/signout?lang=ru", url.Values{"t": {second}})
	if resp.StatusCode != 200 || !strings.Contains(body, "Вы вышли отовсюду") {
		t.Fatalf("sign out everywhere: %d\n%s", resp.StatusCode, body)
	}
	f.refused("a session after signing out everywhere", second)
	f.refused("a mail link after signing out everywhere", fresh)
	// A link with the address, issued after the mail links' revocation,
	// is of generation 0: stopped too.
	legacy2, _ := f.svc.Token(linksign.PurposeMyGames, "a@pbm.test", linksign.NoSeat, 0, service.MailLinkTTL)
	f.refused("an older link after signing out everywhere", legacy2)
	// Signing in again works, with the new generation.
	if resp, _ := f.do("GET", "/me?t="+url.QueryEscape(f.signIn()), nil); resp.StatusCode != 200 {
		t.Fatalf("signing in after signing out everywhere: %d", resp.StatusCode)
	}
}

// mustNonce is the nonce a token carries.
func mustNonce(t *testing.T, token string) string {
	t.Helper()
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": bytes.Repeat([]byte{7}, 32)})
	c, err := keys.Verify(token, time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), linksign.Expect{Purpose: linksign.PurposeMyGames, AnyGame: true, Seat: linksign.NoSeat})
	if err != nil {
		t.Fatal(err)
	}
	return c.Nonce
}

// TestSignInScannerGets: a link scanner's GET of every new link — the
// form, a sign-in link, the session's "my games", the links page —
// writes nothing, and the sign-in link still works after.
func TestSignInScannerGets(t *testing.T) {
	f := newSigninFixture(t)
	f.game()
	session := f.signIn()
	if resp, body := f.do("POST", "/signin?lang=en", url.Values{"email": {"a@pbm.test"}}); resp.StatusCode != 200 {
		t.Fatalf("sign-in form: %d\n%s", resp.StatusCode, body)
	}
	f.sendAsked()
	signin, _ := tokenOf(t, linkIn(t, f.mails("a@pbm.test")[0].Text, "https://pbm.example/signin/open?"))
	f.st.take()
	for _, path := range []string{"/signin", "/signin?lang=en", "/signin/open?t=" + url.QueryEscape(signin), "/me?t=" + url.QueryEscape(session),
		"/me/links?t=" + url.QueryEscape(session), "/me/links?lang=en&t=" + url.QueryEscape(session)} {
		for range 2 {
			resp, body := f.do("GET", path, nil)
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d\n%s", path, resp.StatusCode, body)
			}
			if len(body) > 60<<10 {
				t.Fatalf("GET %s: %d bytes, over 60 KB", path, len(body))
			}
		}
		if w, _ := f.st.take(); len(w) != 0 {
			t.Fatalf("GET %s wrote %v", path, w)
		}
	}
	if resp, _ := f.do("POST", "/signin/open", url.Values{"t": {signin}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the sign-in link after scanners' GETs: %d", resp.StatusCode)
	}
}
