package notify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/testenv"
)

// outbox records what it is given to send.
type outbox struct {
	mu   sync.Mutex
	sent []notify.Message
}

func (o *outbox) Send(_ context.Context, m notify.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, m)
	return nil
}

// rewrite changes a stored game's body as a newer version of the service
// might have written it.
func rewrite(t *testing.T, st store.Store, id string, change func(map[string]any)) {
	t.Helper()
	g, err := st.GetGame(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := service.RecordJSON(g.Body)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	change(body)
	raw, _ = json.Marshal(body)
	if g.Body, err = service.RecordBody(raw); err != nil {
		t.Fatal(err)
	}
	g.OutboxPending = true
	if _, err := st.PutGame(t.Context(), g, g.Version); err != nil {
		t.Fatal(err)
	}
}

// TestUncomposableMailParked: a mail that can never be composed (here, of
// a kind this version of the service does not know) is retried a few
// times, then parked: it leaves the outbox, so neither commits nor sweeps
// try it again and the game is no longer pending; an error is logged for
// the operator; the organiser's page names whose mail did not go. The
// other mail of the game is sent as usual.
func TestUncomposableMailParked(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "park.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)})
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelError}))
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Log: log, Rand: testenv.Rand(t.Name())})
	sender := &outbox{}
	n := &notify.Notifier{Service: svc, Sender: sender, Log: log,
		Composer: compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "http://pbm.test", NoPicture: true})}
	ctx := t.Context()
	c, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "org@pbm.test"},
		Seats: []service.Person{{Name: "Анна", Email: "anna@pbm.test"}, {Name: "Bob", Email: "bob@pbm.test", Lang: "en"}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, c.ID)
	rewrite(t, st, c.ID, func(body map[string]any) {
		body["outbox"] = append(body["outbox"].([]any), map[string]any{"id": "pigeon-1", "kind": "pigeon", "seat": 1, "moves": 0})
	})
	pending := func() bool {
		ids, err := st.PendingOutbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(ids, c.ID)
	}
	for drain := 1; drain <= service.MaxMailFailures+2; drain++ {
		before, _ := st.GetGame(ctx, c.ID)
		err := n.Drain(ctx, c.ID)
		rec, _, lerr := svc.Load(ctx, c.ID)
		if lerr != nil {
			t.Fatal(lerr)
		}
		inOutbox := slices.ContainsFunc(rec.Outbox, func(m service.Mail) bool { return m.ID == "pigeon-1" })
		switch {
		case drain < service.MaxMailFailures:
			if err == nil || !inOutbox {
				t.Fatalf("drain %d: err %v, still in the outbox %v: a failed mail is retried a few times", drain, err, inOutbox)
			}
		case drain == service.MaxMailFailures:
			if inOutbox || len(rec.Parked) != 1 || rec.Parked[0].ID != "pigeon-1" || rec.Parked[0].Reason == "" {
				t.Fatalf("drain %d: still in the outbox %v, parked %+v", drain, inOutbox, rec.Parked)
			}
			if pending() {
				t.Fatal("the game is still pending for the sweep")
			}
		default:
			after, _ := st.GetGame(ctx, c.ID)
			if err != nil || after.Version != before.Version || len(rec.Parked) != 1 {
				t.Fatalf("drain %d after parking: err %v, version %d → %d, parked %d", drain, err, before.Version, after.Version, len(rec.Parked))
			}
		}
	}
	if got := len(sender.sent); got != 2 {
		t.Errorf("%d mails sent, want the two invitations", got)
	}
	if !strings.Contains(logs.String(), `"msg":"mail parked"`) || !strings.Contains(logs.String(), "pigeon-1") {
		t.Errorf("no error logged for the operator:\n%s", logs.String())
	}
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: slog.New(slog.DiscardHandler)}))
	defer srv.Close()
	for _, l := range []string{"ru", "en"} {
		resp, err := srv.Client().Get(srv.URL + "/g/" + c.ID + "/org?" + url.Values{"t": {c.OrganiserToken}, "lang": {l}}.Encode())
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := map[string]string{"ru": "не отправлено", "en": "not sent"}[l]
		if resp.StatusCode != 200 || !strings.Contains(string(page), want) {
			t.Errorf("the organiser's page (%s) does not say a mail to Bob was not sent: %d", l, resp.StatusCode)
		}
	}
}
