package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/mailer/sesmailer"
	"github.com/pbmgames/pbm/infra/store/dynamostore"
	"github.com/pbmgames/pbm/infra/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// site is the whole service as deployed, in one process: the real
// HTTP handler on a loopback server, the DynamoDB store on dynalite, and
// the in-process notifier sending through SES v2 to aws-ses-v2-local
// after each commit. Its games are seeded (testenv.Rand): the same game,
// dealt the same way, every run.
type site struct {
	url string // the service's origin, http://127.0.0.1:P
	ses string // the SES server's endpoint
	svc *service.Service
	// created counts the answers to the create form (POST /games).
	created *atomic.Int32
}

func newSite(t *testing.T, seed string) *site {
	t.Helper()
	return newSiteAt(t, seed, nil)
}

// newSiteAt is newSite whose configured public origin is base(the
// server's own origin) rather than that origin itself (nil: itself).
func newSiteAt(t *testing.T, seed string, base func(origin string) string) *site {
	t.Helper()
	st, keys := scratchStore(t)
	ses := testenv.SESLocal(t)
	resp, err := http.Post(ses+"/clear-store", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var h http.Handler
	created := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if r.Method == http.MethodPost && r.URL.Path == "/games" {
			created.Add(1)
		}
	}))
	t.Cleanup(srv.Close)
	log := slog.New(slog.DiscardHandler)
	n := &notify.Notifier{Sender: sesmailer.New(testenv.SESClient(t, ses), "games@pbm.test", "pbm"), Players: st,
		Permanent: sesmailer.IsPermanent, Log: log}
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Log: log, AfterCommit: n.AfterCommit,
		Rand: testenv.Rand(seed), Talk: st})
	public := srv.URL
	if base != nil {
		public = base(srv.URL)
	}
	n.Service, n.Composer = svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: public})
	h = httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: log, BaseURL: public})
	return &site{url: srv.URL, ses: ses, svc: svc, created: created}
}

// scratchStore is a new table on dynalite and a new link-signing key.
func scratchStore(t *testing.T) (*dynamostore.Store, *linksign.Keyring) {
	t.Helper()
	client := testenv.DynamoClient(t, testenv.Dynalite(t))
	table := "browser-" + randomHex(6)
	if err := dynamostore.CreateTable(context.Background(), client, table); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	keys, err := linksign.NewKeyring("k1", map[string][]byte{"k1": key})
	if err != nil {
		t.Fatal(err)
	}
	return dynamostore.New(client, table), keys
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// mail is one mail as aws-ses-v2-local keeps it (GET /store).
type mail struct {
	MessageID   string `json:"messageId"`
	Destination struct {
		To []string `json:"to"`
	} `json:"destination"`
	Subject string `json:"subject"`
	Body    struct {
		Text string `json:"text"`
	} `json:"body"`
}

// twoSeatGame starts a 20-lap «Вестерн» of Аня and Bob, both reading
// English, its organiser confirmed and both invitations accepted.
func (s *site) twoSeatGame(t *testing.T) service.Created {
	t.Helper()
	ctx := t.Context()
	c, err := s.svc.Create(ctx, service.CreateRequest{Kind: "western", Options: []byte(`{"laps":20}`),
		Organiser: service.Person{Email: "org@pbm.test", Lang: "en"},
		Seats:     []service.Person{{Name: "Аня", Email: "p0@pbm.test", Lang: "en"}, {Name: "Bob", Email: "p1@pbm.test", Lang: "en"}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, s.svc, c.ID)
	servicetest.OrdersOff(t, s.svc, c.ID) // every decision waits for its player
	for i := range 2 {
		if _, err := s.svc.Accept(ctx, c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// mails reads everything the SES server holds, oldest first.
func (s *site) mails(t *testing.T) []mail {
	t.Helper()
	resp, err := http.Get(s.ses + "/store")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Emails []mail `json:"emails"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("GET %s/store: %v", s.ses, err)
	}
	return out.Emails
}

// latestAll is the last mail sent to each address.
func (s *site) latestAll(t *testing.T) map[string]mail {
	t.Helper()
	out := map[string]mail{}
	for _, m := range s.mails(t) {
		for _, to := range m.Destination.To {
			out[strings.ToLower(to)] = m
		}
	}
	return out
}

// latest is the last mail sent to addr.
func (s *site) latest(t *testing.T, addr string) mail {
	t.Helper()
	m, ok := s.latestAll(t)[strings.ToLower(addr)]
	if !ok {
		t.Fatalf("no mail to %s", addr)
	}
	return m
}

var mailLinkRE = regexp.MustCompile(`https?://[^\s"<>]+`)

// link is the first link of a mail's text part whose path is path, or
// starts with it when prefix is set; "" if there is none.
func (m mail) link(path string, prefix bool) string {
	for _, l := range mailLinkRE.FindAllString(m.Body.Text, -1) {
		u, err := url.Parse(l)
		if err != nil {
			continue
		}
		if u.Path == path || prefix && strings.HasPrefix(u.Path, path) && u.Path != "/me" && u.Path != "/unsubscribe" {
			return l
		}
	}
	return ""
}

// artifactsDir is where the screenshots go: $PBM_ARTIFACTS, or
// artifacts/screenshots at the repository's root.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PBM_ARTIFACTS")
	if dir == "" {
		root, err := testenv.RepoRoot()
		if err != nil {
			t.Fatal(err)
		}
		dir = root + "/artifacts/screenshots"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifacts: %v", err)
	}
	return dir
}
