package compose_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/infra/store"
)

// mailbox keeps what is sent.
type mailbox []notify.Message

func (m *mailbox) Send(_ context.Context, msg notify.Message) error { *m = append(*m, msg); return nil }

// unsubscribedPlayers knows one player, who unsubscribed.
type unsubscribedPlayers struct {
	store.PlayerStore
	email string
}

func (u unsubscribedPlayers) GetPlayer(_ context.Context, email string) (store.Player, error) {
	if email != u.email {
		return store.Player{}, store.ErrNotFound
	}
	return store.Player{Email: email, Unsubscribed: true}, nil
}

// TestTalkMailEach: a seat that asked for each message gets a mail of
// its own per message it may read, as the notifier sends it for each
// message posted (the stream in AWS, right after the post locally):
// escaped, with the talk page's stop button linked and an unsubscribe
// header; its next mail does not tell it again. A seat that did not ask
// gets none until its next mail; a private message goes to its
// addressee alone; the author and an unsubscribed player get none; a
// seat that stops gets no more.
func TestTalkMailEach(t *testing.T) {
	svc, c, id, turn := talkGame(t)
	ctx := t.Context()
	rec, ver, _ := svc.Load(ctx, id)
	ann, bob, cat := turn, (turn+1)%3, (turn+2)%3
	var sent mailbox
	n := &notify.Notifier{Service: svc, Composer: c, Sender: &sent, Log: slog.New(slog.DiscardHandler),
		Players: unsubscribedPlayers{email: rec.Seats[cat].Email}}
	for _, seat := range []int{bob, cat} {
		if err := svc.SetTalkMail(ctx, rec, seat, true); err != nil {
			t.Fatal(err)
		}
	}
	if on, err := svc.TalkMailOn(ctx, rec, ann); err != nil || on {
		t.Fatalf("a seat that never asked is mailed each message: %v %v", on, err)
	}
	post := func(from, to int, text string) {
		t.Helper()
		l, err := svc.PostTalk(ctx, rec, from, to, text)
		if err != nil {
			t.Fatal(err)
		}
		if err := n.SendTalk(ctx, id, l.Key); err != nil {
			t.Fatal(err)
		}
	}
	post(ann, store.TalkPublic, "<b>sell me</b> Oak street")
	post(bob, store.TalkPublic, "bob's reply")
	post(ann, bob, "for Bob alone")
	post(ann, cat, "for Cat alone")
	if _, v, _ := svc.Load(ctx, id); v != ver {
		t.Errorf("posting wrote the game: version %d → %d", ver, v)
	}
	var to []string
	for _, m := range sent {
		to = append(to, m.To)
		if !strings.Contains(m.Subject, "new at the table") || !strings.Contains(m.HTML, "/g/"+id+"/talk?") || !strings.Contains(m.HTML, "#mail-each") ||
			!strings.Contains(m.Text, "stop these mails") || m.Unsubscribe == "" {
			t.Errorf("talk mail lacks its subject, talk link, stop link or unsubscribe: %q\n%s", m.Subject, m.Text)
		}
		if strings.Contains(m.HTML, "<b>sell me") || strings.Contains(m.HTML+m.Text, "for Cat alone") || strings.Contains(m.HTML+m.Text, "bob's reply") {
			t.Errorf("talk mail holds unescaped markup, another's private message or Bob's own:\n%s", m.HTML)
		}
	}
	if len(sent) != 2 || to[0] != rec.Seats[bob].Email || to[1] != to[0] ||
		!strings.Contains(sent[0].HTML, "&lt;b&gt;sell me&lt;/b&gt;") || !strings.Contains(sent[1].Text, "for Bob alone") {
		t.Fatalf("talk mails to %v; want Bob's two: the public message, then the private one", to)
	}
	// Bob's next mail tells none of it again; Ann, who did not ask, has
	// Bob's reply waiting for hers.
	if tm, err := svc.TalkUnmailed(ctx, rec, bob); err != nil || len(tm.Lines) != 0 {
		t.Errorf("Bob's next mail would tell again: %+v %v", tm.Lines, err)
	}
	if tm, err := svc.TalkUnmailed(ctx, rec, ann); err != nil || len(tm.Lines) != 1 || tm.Lines[0].Text != "bob's reply" {
		t.Errorf("Ann's next mail would tell %+v (%v); want Bob's reply", tm.Lines, err)
	}
	if err := svc.SetTalkMail(ctx, rec, bob, false); err != nil {
		t.Fatal(err)
	}
	post(cat, store.TalkPublic, "cat speaks")
	if len(sent) != 2 {
		t.Errorf("a seat that stopped was mailed: %d mails", len(sent))
	}
}
