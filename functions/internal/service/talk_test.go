package service_test

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/testenv"
)

// talkWorld is a service with table talk, a clock the test moves and a
// game of three seats, all accepted.
func talkWorld(t *testing.T) (*service.Service, *service.Record, *time.Time) {
	t.Helper()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Talk: st, Keys: keys, Now: func() time.Time { return now },
		Log: slog.New(slog.DiscardHandler), Limits: servicetest.Roomy, Rand: testenv.Rand(t.Name())})
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "businessman", Organiser: service.Person{Email: "o@pbm.test"},
		Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}, {Name: "C", Email: "c@pbm.test"}}})
	for i := range 3 {
		if _, err := svc.Accept(t.Context(), c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	rec, _, err := svc.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	return svc, rec, &now
}

func code(t *testing.T, err error) service.Code {
	t.Helper()
	var e *service.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want a service error", err)
	}
	return e.Code
}

func TestTalkSizeLimit(t *testing.T) {
	svc, rec, _ := talkWorld(t)
	ctx := t.Context()
	full := strings.Repeat("я", service.MaxTalkRunes)
	if _, err := svc.PostTalk(ctx, rec, 0, store.TalkPublic, full); err != nil {
		t.Fatalf("a message of %d characters: %v", service.MaxTalkRunes, err)
	}
	for name, text := range map[string]string{"too long": full + "!", "empty": " \n\t ", "control": "a\x00b", "escape": "a\x1b[31mb",
		"not utf-8": "a\xffb"} {
		_, err := svc.PostTalk(ctx, rec, 0, store.TalkPublic, text)
		if c := code(t, err); c != service.CodeInvalid {
			t.Errorf("%s: %s, want invalid", name, c)
		}
		var e *service.Error
		errors.As(err, &e)
		if e.RU == "" || e.EN == "" || e.RU == e.EN {
			t.Errorf("%s: refusal %q / %q is not in both languages", name, e.RU, e.EN)
		}
	}
	_, err := svc.PostTalk(ctx, rec, 0, store.TalkPublic, full+"!")
	var e *service.Error
	errors.As(err, &e)
	if !strings.Contains(e.EN, "1001") || !strings.Contains(e.RU, "1000") {
		t.Errorf("the refusal of a long message says %q / %q: not its length and the limit", e.EN, e.RU)
	}
	for _, to := range []int{0, 3, -2} {
		if _, err := svc.PostTalk(ctx, rec, 0, to, "hi"); code(t, err) != service.CodeInvalid {
			t.Errorf("private message to seat %d of seat 0: %v", to, err)
		}
	}
	page, err := svc.ReadTalk(ctx, rec, service.TalkReader{Seat: 1}, "", 0)
	if err != nil || len(page.Lines) != 1 {
		t.Fatalf("after one good post and refusals: %+v, %v", page, err)
	}
	for _, before := range []string{strings.Repeat("9", 65), "a b", "ключ"} {
		if _, err := svc.ReadTalk(ctx, rec, service.TalkReader{Seat: 1}, before, 0); code(t, err) != service.CodeInvalid {
			t.Errorf("a page before %q: %v, want invalid", before, err)
		}
	}
}

// TestTalkRateLimit: TalkPerHour messages a seat an hour of the clock,
// each seat its own, and the next hour again.
func TestTalkRateLimit(t *testing.T) {
	svc, rec, now := talkWorld(t)
	ctx := t.Context()
	*now = now.Add(45 * time.Minute)
	for i := range service.TalkPerHour {
		if _, err := svc.PostTalk(ctx, rec, 0, store.TalkPublic, fmt.Sprint("m", i)); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	_, err := svc.PostTalk(ctx, rec, 0, 1, "one more")
	if code(t, err) != service.CodeTooMany {
		t.Fatalf("message %d in the hour: %v", service.TalkPerHour+1, err)
	}
	var e *service.Error
	errors.As(err, &e)
	if e.RetryAfter != 15*time.Minute || !strings.Contains(e.EN, "15 min") {
		t.Errorf("refusal at 09:45 says %q, retry after %v; want 15 min", e.EN, e.RetryAfter)
	}
	if _, err := svc.PostTalk(ctx, rec, 1, store.TalkPublic, "another seat"); err != nil {
		t.Errorf("another seat over the first's limit: %v", err)
	}
	*now = now.Add(15 * time.Minute)
	if _, err := svc.PostTalk(ctx, rec, 0, store.TalkPublic, "next hour"); err != nil {
		t.Errorf("the next hour: %v", err)
	}
}

// TestTalkPrivate: a private message reaches its two seats only: not the
// third, the organiser or a spectator, and not the third's mail.
func TestTalkPrivate(t *testing.T) {
	svc, rec, now := talkWorld(t)
	ctx := t.Context()
	if _, err := svc.PostTalk(ctx, rec, 0, store.TalkPublic, "hello all"); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(time.Second)
	if _, err := svc.PostTalk(ctx, rec, 0, 1, "secret deal"); err != nil {
		t.Fatal(err)
	}
	texts := func(rd service.TalkReader) string {
		page, err := svc.ReadTalk(ctx, rec, rd, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range page.Lines {
			out = append(out, l.Text)
		}
		return strings.Join(out, "|")
	}
	for name, c := range map[string]struct {
		rd   service.TalkReader
		want string
	}{
		"author":    {service.TalkReader{Seat: 0}, "secret deal|hello all"},
		"recipient": {service.TalkReader{Seat: 1}, "secret deal|hello all"},
		"third":     {service.TalkReader{Seat: 2}, "hello all"},
		"organiser": {service.TalkReader{Seat: -1, Organiser: true}, "hello all"},
		"spectator": {service.TalkReader{Seat: -1}, "hello all"},
	} {
		if got := texts(c.rd); got != c.want {
			t.Errorf("%s reads %q, want %q", name, got, c.want)
		}
	}
	for seat, want := range []int{0, 2, 1} {
		tm, err := svc.TalkUnmailed(ctx, rec, seat)
		if err != nil || len(tm.Lines) != want {
			t.Errorf("mail to seat %d folds %+v, %v; want %d messages", seat, tm.Lines, err, want)
		}
	}
	// Private messages are not the organiser's to hide.
	page, _ := svc.ReadTalk(ctx, rec, service.TalkReader{Seat: 0}, "", 0)
	if err := svc.HideTalk(ctx, rec.ID, page.Lines[0].Key, true); code(t, err) != service.CodeNotFound {
		t.Errorf("hiding a private message: %v, want not_found", err)
	}
}

// TestTalkHide: a hidden message stays in its place; others see that it
// was hidden, not its text; its author and the organiser see the text
// marked hidden; showing it again restores it.
func TestTalkHide(t *testing.T) {
	svc, rec, _ := talkWorld(t)
	ctx := t.Context()
	l, err := svc.PostTalk(ctx, rec, 2, store.TalkPublic, "rude words")
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.HideTalk(ctx, rec.ID, l.Key, true); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		rd   service.TalkReader
		text string
	}{
		"author":    {service.TalkReader{Seat: 2}, "rude words"},
		"organiser": {service.TalkReader{Seat: -1, Organiser: true}, "rude words"},
		"other":     {service.TalkReader{Seat: 0}, ""},
		"spectator": {service.TalkReader{Seat: -1}, ""},
	} {
		page, err := svc.ReadTalk(ctx, rec, c.rd, "", 0)
		if err != nil || len(page.Lines) != 1 || !page.Lines[0].Hidden || page.Lines[0].Text != c.text {
			t.Errorf("%s reads %+v, %v; want one hidden message with text %q", name, page.Lines, err, c.text)
		}
	}
	if tm, _ := svc.TalkUnmailed(ctx, rec, 0); len(tm.Lines) != 1 || tm.Lines[0].Text != "" || !tm.Lines[0].Hidden {
		t.Errorf("a mail folds in %+v; want the message as hidden, without its text", tm.Lines)
	}
	if err := svc.HideTalk(ctx, rec.ID, l.Key, false); err != nil {
		t.Fatal(err)
	}
	if page, _ := svc.ReadTalk(ctx, rec, service.TalkReader{Seat: 0}, "", 0); page.Lines[0].Hidden || page.Lines[0].Text != "rude words" {
		t.Errorf("shown again: %+v", page.Lines)
	}
	if err := svc.HideTalk(ctx, rec.ID, "0000000000000001-00000000", true); code(t, err) != service.CodeNotFound {
		t.Errorf("hiding no message: %v", err)
	}
}

// TestTalkPagesAndMailOnce: pages cover the talk newest first; a mail
// folds in what came since the seat's last mail, once.
func TestTalkPagesAndMailOnce(t *testing.T) {
	svc, rec, now := talkWorld(t)
	ctx := t.Context()
	for i := range 25 {
		*now = now.Add(5 * time.Minute) // 12 an hour from three seats: under each one's limit
		if _, err := svc.PostTalk(ctx, rec, i%3, store.TalkPublic, fmt.Sprint("m", i)); err != nil {
			t.Fatal(err)
		}
	}
	var all []string
	before := ""
	for {
		page, err := svc.ReadTalk(ctx, rec, service.TalkReader{Seat: -1}, before, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range page.Lines {
			all = append(all, l.Text)
		}
		if page.Older == "" {
			break
		}
		before = page.Older
	}
	if len(all) != 25 || all[0] != "m24" || all[24] != "m0" {
		t.Fatalf("pages read %v", all)
	}
	tm, err := svc.TalkUnmailed(ctx, rec, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0 wrote 9 of the 25; of the other 16 all fit in one mail.
	if len(tm.Lines) != 16 || tm.More || tm.Lines[0].Text != "m1" || tm.Lines[15].Text != "m23" {
		t.Fatalf("first mail folds %d messages (more %v): %+v", len(tm.Lines), tm.More, tm.Lines)
	}
	if err := svc.MarkTalkMailed(ctx, rec.ID, 0, tm.UpTo); err != nil {
		t.Fatal(err)
	}
	if tm, _ := svc.TalkUnmailed(ctx, rec, 0); len(tm.Lines) != 0 || tm.UpTo != "" {
		t.Fatalf("the next mail folds in %+v again", tm)
	}
	*now = now.Add(time.Hour)
	if _, err := svc.PostTalk(ctx, rec, 1, store.TalkPublic, "later"); err != nil {
		t.Fatal(err)
	}
	if tm, _ := svc.TalkUnmailed(ctx, rec, 0); len(tm.Lines) != 1 || tm.Lines[0].Text != "later" {
		t.Fatalf("after a new message the mail folds in %+v", tm.Lines)
	}
}

// TestTalkPageWeight: a page of the heaviest messages (every character
// escaped into five bytes) stops at TalkPageBytes, and the next page has
// the rest, so no talk page goes over its 60 KB.
func TestTalkPageWeight(t *testing.T) {
	svc, rec, _ := talkWorld(t)
	ctx := t.Context()
	for i := range 10 {
		if _, err := svc.PostTalk(ctx, rec, i%2, store.TalkPublic, strings.Repeat("&", service.MaxTalkRunes)); err != nil {
			t.Fatal(err)
		}
	}
	first, err := svc.ReadTalk(ctx, rec, service.TalkReader{Seat: -1}, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := service.TalkPageBytes / (5 * service.MaxTalkRunes); len(first.Lines) != want || first.Older == "" {
		t.Fatalf("first page of heavy messages: %d (older %q), want %d and more", len(first.Lines), first.Older, want)
	}
	rest, err := svc.ReadTalk(ctx, rec, service.TalkReader{Seat: -1}, first.Older, 0)
	if err != nil || len(rest.Lines) != 10-len(first.Lines) || rest.Older != "" {
		t.Fatalf("the page after: %d lines (older %q), %v", len(rest.Lines), rest.Older, err)
	}
}

// TestTalkOnlyToPlayers: a private message goes to a seat that joined the
// game, not to one that was invited and never accepted.
func TestTalkOnlyToPlayers(t *testing.T) {
	svc, _, _ := talkWorld(t)
	ctx := t.Context()
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "o@pbm.test"},
		Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}, {Name: "C", Email: "c@pbm.test"}}})
	for i := range 2 {
		if _, err := svc.Accept(ctx, c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	rec, _, err := svc.Load(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.PostTalk(ctx, rec, 0, 1, "to a player"); err != nil {
		t.Errorf("to a seat that joined: %v", err)
	}
	if _, err := svc.PostTalk(ctx, rec, 0, 2, "to nobody yet"); code(t, err) != service.CodeInvalid {
		t.Errorf("to a seat that never accepted: %v, want invalid", err)
	}
}
