package compose_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// talkGame is a started game of three seats on a service that keeps
// table talk, and the invitation index of the seat that owes the first
// move.
func talkGame(t *testing.T) (*service.Service, *compose.Composer, string, int) {
	t.Helper()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Talk: st, Keys: keys, Now: func() time.Time { now = now.Add(time.Second); return now },
		Rand: testenv.Rand(t.Name()), Log: slog.New(slog.DiscardHandler), Limits: servicetest.Roomy})
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "businessman", Organiser: service.Person{Email: "org@pbm.test"},
		Seats: []service.Person{{Name: "Анна", Email: "a@pbm.test", Lang: "en"}, {Name: "Bob", Email: "b@pbm.test", Lang: "en"}, {Name: "Вера", Email: "v@pbm.test", Lang: "en"}}})
	for i := range 3 {
		if _, err := svc.Accept(t.Context(), c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	rec, _, err := svc.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Engine(rec)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range rec.Seats {
		if s.Engine == g.Turn() {
			return svc, compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "https://pbm.example", NoPicture: true}), c.ID, i
		}
	}
	t.Fatal("nobody's turn")
	return nil, nil, "", 0
}

// TestMailFoldsTalkOnce: the next mail a player gets tells the others'
// talk since their last mail — escaped in HTML, with a link to the board,
// private messages only to their two seats — and the mail after it does
// not tell it again.
func TestMailFoldsTalkOnce(t *testing.T) {
	svc, c, id, turn := talkGame(t)
	ctx := t.Context()
	rec, _, _ := svc.Load(ctx, id)
	other, third := (turn+1)%3, (turn+2)%3
	hostile := `<script>alert(1)</script><img src=x onerror=alert(2)> «цена» & ‮evil`
	if _, err := svc.PostTalk(ctx, rec, other, store.TalkPublic, hostile); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.PostTalk(ctx, rec, third, other, "a deal for your eyes only"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.PostTalk(ctx, rec, turn, store.TalkPublic, "my own words"); err != nil {
		t.Fatal(err)
	}
	f := fixture{svc: svc, c: c, id: id}
	msg := f.mailFor(t, service.MailTurn, turn)
	for _, want := range []string{"Table talk since your last mail", "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;",
		"&amp;", "/g/" + id + "/talk?", `dir="auto"`} {
		if !strings.Contains(msg.HTML, want) {
			t.Errorf("turn mail HTML lacks %q", want)
		}
	}
	for _, bad := range []string{"<script>", "<img src=x"} {
		if strings.Contains(msg.HTML, bad) {
			t.Errorf("turn mail HTML holds %q", bad)
		}
	}
	for _, bad := range []string{"a deal for your eyes only", "my own words"} {
		if strings.Contains(msg.HTML, bad) || strings.Contains(msg.Text, bad) {
			t.Errorf("turn mail holds %q: another's private message, or the reader's own", bad)
		}
	}
	if !strings.Contains(msg.Text, hostile) || !strings.Contains(msg.Text, "Table talk since your last mail:") {
		t.Errorf("turn mail text lacks the talk as written:\n%s", msg.Text)
	}
	again := f.mailFor(t, service.MailTurn, turn)
	if strings.Contains(again.HTML, "Table talk") || strings.Contains(again.Text, "Table talk") {
		t.Errorf("the mail after tells the same talk again:\n%s", again.Text)
	}

	// The private message reaches its recipient's next mail, in their
	// digest here.
	d, err := c.Digest(ctx, rec.Seats[other].Email, "en", []store.DigestItem{{Game: id, Kind: service.MailOver, Seat: other}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Text, "a deal for your eyes only") || !strings.Contains(d.Text, "to you alone") || !strings.Contains(d.HTML, "my own words") || strings.Contains(d.HTML, "&lt;script&gt;") {
		t.Errorf("the recipient's digest lacks the private message or the talk of others, or tells the recipient their own:\n%s", d.Text)
	}
	if d2, err := c.Digest(ctx, rec.Seats[other].Email, "en", []store.DigestItem{{Game: id, Kind: service.MailOver, Seat: other}}); err != nil || strings.Contains(d2.Text, "Table talk") {
		t.Errorf("the next digest tells the talk again (%v):\n%s", err, d2.Text)
	}
}

// TestControlMailFoldsTalk: the organiser's decision mailed to the table
// is a mail each player gets, so it folds in the talk too.
func TestControlMailFoldsTalk(t *testing.T) {
	svc, c, id, turn := talkGame(t)
	ctx := t.Context()
	rec, _, _ := svc.Load(ctx, id)
	other := (turn + 1) % 3
	if _, err := svc.PostTalk(ctx, rec, turn, store.TalkPublic, "who pauses?"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Control(ctx, id, service.ControlRequest{Control: service.ControlPause}); err != nil {
		t.Fatal(err)
	}
	msg := fixture{svc: svc, c: c, id: id}.mailFor(t, service.MailControl, other)
	if !strings.Contains(msg.Text, "who pauses?") || !strings.Contains(msg.HTML, "Table talk since your last mail") {
		t.Errorf("the control mail to another seat does not fold the talk in:\n%s", msg.Text)
	}
}
