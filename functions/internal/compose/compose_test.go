package compose_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/grammar"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/store"
)

var update = flag.Bool("update", false, "rewrite the golden mails in testdata/")

// maxMailBytes is SPEC §6: a turn mail with its picture ≤ 150 KB.
const maxMailBytes = 150 << 10

// fixture is a deterministic game: fixed clock, key and randomness, so
// the mails (links included) are the same bytes every run.
type fixture struct {
	svc *service.Service
	c   *compose.Composer
	id  string
}

func newFixture(t testing.TB, seats int, moves int) fixture {
	t.Helper()
	return newGame(t, "western", `{"laps":20}`, seats, func(_ engine.Game, n int) bool { return n >= moves })
}

// newGame plays a game of kind with options by its bots until stop says
// so (or the game ends).
func newGame(t testing.TB, kind, options string, seats int, stop func(g engine.Game, moves int) bool) fixture {
	t.Helper()
	return newGameBy(t, service.Person{Name: "Org", Email: "org@pbm.test", Lang: "en"}, kind, options, seats, stop)
}

// newGameBy is newGame with organiser.
func newGameBy(t testing.TB, organiser service.Person, kind, options string, seats int, stop func(g engine.Game, moves int) bool) fixture {
	t.Helper()
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return now },
		Rand: rand.NewChaCha8([32]byte{'m', 'a', 'i', 'l'}), Log: slog.New(slog.DiscardHandler)})
	people := []service.Person{{Name: "Анна", Email: "anna@pbm.test", Lang: "ru"}, {Name: "Bob O'Neil", Email: "bob@pbm.test", Lang: "en"},
		{Name: "Вера", Email: "vera@pbm.test"}, {Name: "Dan", Email: "dan@pbm.test", Lang: "en"}, {Name: "Егор", Email: "egor@pbm.test"}, {Name: "Fay", Email: "fay@pbm.test", Lang: "en"}}
	created, err := svc.Create(context.Background(), service.CreateRequest{Kind: kind, Options: []byte(options),
		Organiser: organiser, Seats: people[:seats]})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, created.ID)
	servicetest.OrdersOff(t, svc, created.ID) // the bots play every move below, one a commit
	for i := 0; i < seats; i++ {
		if _, err := svc.Accept(context.Background(), created.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; ; i++ {
		rec, _, _ := svc.Load(context.Background(), created.ID)
		if rec.Status != service.StatusPlaying {
			break
		}
		g, _ := svc.Engine(rec)
		if stop(g, i) {
			break
		}
		inv := -1
		for j, s := range rec.Seats {
			if s.Engine == g.Owing()[0] {
				inv = j
			}
		}
		if _, err := svc.ActBot(context.Background(), created.ID, inv, fmt.Sprintf("fixture-%05d", i)); err != nil {
			t.Fatal(err)
		}
	}
	return fixture{svc: svc, c: compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "https://pbm.example"}), id: created.ID}
}

// mailFor composes the newest outbox entry of a kind for seat (−1 for any).
func (f fixture) mailFor(t testing.TB, kind string, seat int) notify.Message {
	t.Helper()
	rec, ver, err := f.svc.Load(context.Background(), f.id)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(rec.Outbox) - 1; i >= 0; i-- {
		m := rec.Outbox[i]
		if m.Kind == kind && (seat < 0 || m.Seat == seat) {
			msg, err := f.c.Compose(context.Background(), rec, ver, m)
			if err != nil {
				t.Fatal(err)
			}
			return msg
		}
	}
	t.Fatalf("no %s mail in the outbox", kind)
	return notify.Message{}
}

// TestGoldenMails compares the rendered mails, text and HTML, with the
// files in testdata/ (`go test ./functions/internal/compose -update`
// rewrites them after a deliberate change).
func TestGoldenMails(t *testing.T) {
	start := newFixture(t, 3, 0)
	mid := newFixture(t, 3, 60)
	// «Бизнесмен»: a turn in the middle of the game, a deal offered to a
	// seat, a rent to claim (option claim), and the end.
	const bmOpts = `{"laps":3,"rent_claim":"claim"}`
	bmMid := newGame(t, "businessman", bmOpts, 3, func(_ engine.Game, n int) bool { return n >= 80 })
	phase := func(ph businessman.Phase) func(engine.Game, int) bool {
		return func(g engine.Game, n int) bool { return g.View(engine.Spectator).(businessman.View).Phase == ph }
	}
	// Rules 3: a deal open to a seat, answered in its own time.
	bmOffer := newGame(t, "businessman", `{"laps":20}`, 3, func(g engine.Game, n int) bool {
		return len(g.(engine.Dealing).Deals()) > 0
	})
	bmClaim := newGame(t, "businessman", bmOpts, 3, phase(businessman.PhClaim))
	bmOver := newGame(t, "businessman", bmOpts, 3, func(engine.Game, int) bool { return false })
	for _, tc := range []struct {
		name string
		f    fixture
		kind string
		seat int
	}{
		{"invite-ru", start, service.MailInvite, 0},
		{"invite-en", start, service.MailInvite, 1},
		{"accepted-en", start, service.MailAccepted, -1},
		{"turn", mid, service.MailTurn, -1},
		{"businessman-turn", bmMid, service.MailTurn, -1},
		{"businessman-deal", bmOffer, service.MailDeal, -1},
		{"businessman-claim", bmClaim, service.MailDecision, -1},
		{"businessman-over-ru", bmOver, service.MailOver, 0},
		{"businessman-over-en", bmOver, service.MailOver, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := tc.f.mailFor(t, tc.kind, tc.seat)
			for ext, got := range map[string]string{"txt": msg.Subject + "\n\n" + msg.Text, "html": msg.HTML} {
				path := filepath.Join("testdata", tc.name+"."+ext)
				if *update {
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from %s", tc.name+"."+ext, path)
				}
			}
			if strings.Contains(msg.HTML, "O'Neil") {
				t.Error("a player's name reached the HTML unescaped")
			}
		})
	}
	// Daily digests: the end of a game for a seat (in the language it has
	// in the game, a repeated item and a game gone left out), and two
	// acceptances for the organiser.
	digests := []struct {
		name, email, lang string
		items             []store.DigestItem
	}{
		{"digest-ru", "anna@pbm.test", "", []store.DigestItem{
			{Game: bmOver.id, Kind: service.MailOver, Seat: 0, At: 100},
			{Game: "nosuchgame", Kind: service.MailOver, Seat: 0, At: 101},
			{Game: bmOver.id, Kind: service.MailOver, Seat: 0, At: 102},
		}},
		{"digest-en", "org@pbm.test", "en", []store.DigestItem{
			{Game: bmOver.id, Kind: service.MailAccepted, Seat: 1, At: 100},
			{Game: bmOver.id, Kind: service.MailAccepted, Seat: 2, At: 101},
		}},
	}
	for _, tc := range digests {
		t.Run(tc.name, func(t *testing.T) {
			msg, err := bmOver.c.Digest(context.Background(), tc.email, tc.lang, tc.items)
			if err != nil {
				t.Fatal(err)
			}
			if msg.To != tc.email || len(msg.Inline) != 0 || !strings.HasPrefix(msg.Unsubscribe, "https://pbm.example/unsubscribe?") ||
				!strings.Contains(msg.Text, "https://pbm.example/me?") {
				t.Fatalf("digest to %q, %d pictures, unsubscribe %q, or no my-games link", msg.To, len(msg.Inline), msg.Unsubscribe)
			}
			for ext, got := range map[string]string{"txt": msg.Subject + "\n\n" + msg.Text, "html": msg.HTML} {
				golden(t, tc.name+"."+ext, got)
			}
		})
	}
	if _, err := bmOver.c.Digest(context.Background(), "anna@pbm.test", "ru", []store.DigestItem{{Game: "nosuchgame", Kind: service.MailOver}}); !errors.Is(err, notify.ErrObsolete) {
		t.Errorf("digest of games gone: %v, want ErrObsolete", err)
	}
}

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s", name, path)
	}
}

// TestTurnMailParts: a turn mail has both parts, the board picture inline
// and referenced by the HTML, one-click unsubscribe, and fits 150 KB.
func TestTurnMailParts(t *testing.T) {
	for _, tc := range []struct {
		kind string
		f    fixture
	}{
		// Late in play, at a moment when the turn's seat owes the move (not
		// a rival answering an offer or a bid), so its turn mail is live.
		{"western", newGame(t, "western", `{"laps":20}`, 6, func(g engine.Game, n int) bool {
			return n >= 400 && len(g.Owing()) == 1 && g.Owing()[0] == g.Turn()
		})},
		{"businessman", newGame(t, "businessman", `{"laps":20}`, 6, func(_ engine.Game, n int) bool { return n >= 300 })},
	} {
		t.Run(tc.kind, func(t *testing.T) { turnMailParts(t, tc.f) })
	}
}

func turnMailParts(t *testing.T, f fixture) {
	msg := f.mailFor(t, service.MailTurn, -1)
	size := len(msg.Subject) + len(msg.Text) + len(msg.HTML)
	for _, p := range msg.Inline {
		size += len(p.Data) * 4 / 3 // base64 in the MIME message
	}
	t.Logf("turn mail of a 6-seat game late in play: %d bytes (text %d, html %d, picture %d)", size, len(msg.Text), len(msg.HTML), len(msg.Inline[0].Data))
	switch {
	case size > maxMailBytes:
		t.Fatalf("%d bytes > %d", size, maxMailBytes)
	case len(msg.Inline) != 1 || msg.Inline[0].ContentType != "image/png" || !strings.Contains(msg.HTML, `src="cid:board"`):
		t.Fatal("no inline board picture")
	case msg.Unsubscribe == "" || !strings.HasPrefix(msg.Unsubscribe, "https://pbm.example/unsubscribe?"):
		t.Fatalf("unsubscribe URL %q", msg.Unsubscribe)
	case !strings.Contains(msg.Text, "https://pbm.example/g/"+f.id+"?"):
		t.Fatal("no game link in the text part")
	}
}

// BenchmarkTurnMail renders a turn mail with its board picture (SPEC §6):
//
//	go test ./functions/internal/compose -run XXX -bench TurnMail -benchmem
func BenchmarkTurnMail(b *testing.B) {
	f := newFixture(b, 6, 400)
	rec, ver, _ := f.svc.Load(context.Background(), f.id)
	var m service.Mail
	for _, x := range rec.Outbox {
		if x.Kind == service.MailTurn {
			m = x
		}
	}
	var size int
	for b.Loop() {
		msg, err := f.c.Compose(context.Background(), rec, ver, m)
		if err != nil {
			b.Fatal(err)
		}
		size = len(msg.Text) + len(msg.HTML) + len(msg.Inline[0].Data)*4/3
	}
	b.ReportMetric(float64(size), "mail-bytes")
}

// TestRussianMailsAgree (issue 10): every mail of a game, in Russian,
// reads correctly for a woman's name (Анна, Вера) and a man's (Егор):
// the acceptances, the invitations, turns, decisions and the end, and
// the daily digest of acceptances.
func TestRussianMailsAgree(t *testing.T) {
	names := []string{"Анна", "Вера", "Егор"}
	check := func(what string, msg notify.Message) {
		t.Helper()
		for _, text := range []string{msg.Subject, msg.Text} {
			for _, p := range grammar.Problems(text, false, names...) {
				t.Errorf("%s: %s in %q", what, p, text)
			}
		}
	}
	bmOver := newGame(t, "businessman", `{"laps":3,"rent_claim":"claim"}`, 5, func(engine.Game, int) bool { return false })
	for _, f := range []fixture{newFixture(t, 5, 0), newFixture(t, 5, 120), bmOver} {
		rec, ver, err := f.svc.Load(context.Background(), f.id)
		if err != nil {
			t.Fatal(err)
		}
		rec.Organiser.Lang = "ru"
		for i := range rec.Seats {
			rec.Seats[i].Lang = "ru"
		}
		for _, m := range rec.Outbox {
			msg, err := f.c.Compose(context.Background(), rec, ver, m)
			if errors.Is(err, notify.ErrObsolete) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			check(m.Kind, msg)
		}
	}
	for _, seat := range []int{0, 2, 4} {
		msg, err := bmOver.c.Digest(context.Background(), "org@pbm.test", "ru", []store.DigestItem{{Game: bmOver.id, Kind: service.MailAccepted, Seat: seat, At: 100}})
		if err != nil {
			t.Fatal(err)
		}
		check("digest", msg)
	}
}

// TestSubjectsTellGamesApart (issue 10, 11): an invitation's subject says
// who invites, and the other mails of a game name it by its players, so
// two games of one kind are told apart in a mailbox.
func TestSubjectsTellGamesApart(t *testing.T) {
	a, b := newFixture(t, 2, 10), newFixture(t, 4, 10)
	inv := a.mailFor(t, service.MailInvite, 0)
	if !strings.HasPrefix(inv.Subject, "Org приглашает вас") {
		t.Errorf("invitation subject %q does not name the organiser", inv.Subject)
	}
	ta, tb := a.mailFor(t, service.MailTurn, -1).Subject, b.mailFor(t, service.MailTurn, -1).Subject
	if ta == tb || !strings.Contains(ta, "Анна, Bob O'Neil") || !strings.Contains(tb, "Анна, Bob O'Neil, Вера, +1") {
		t.Errorf("turn subjects %q and %q do not tell the games apart by their players", ta, tb)
	}
}

// TestOrganiserGetsTheEnd (issue 27): the organiser is mailed the end
// of their game as every player is — the standings, why it ended, the
// link to the results and to the game's record — and an organiser who
// also plays gets one mail, their seat's.
func TestOrganiserGetsTheEnd(t *testing.T) {
	over := func(engine.Game, int) bool { return false }
	f := newGame(t, "businessman", `{"laps":3}`, 3, over)
	rec, ver, err := f.svc.Load(context.Background(), f.id)
	if err != nil {
		t.Fatal(err)
	}
	var msg notify.Message
	for _, m := range rec.Outbox {
		if m.Kind == service.MailOver && m.Seat < 0 {
			if msg, err = f.c.Compose(context.Background(), rec, ver, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if msg.To != "org@pbm.test" {
		t.Fatalf("no mail of the end to the organiser (to %q)", msg.To)
	}
	for _, want := range []string{"Анна", "Bob O'Neil", "Вера", "the last lap is done", "https://pbm.example/g/" + f.id + "?",
		"https://pbm.example/g/" + f.id + "/record?"} {
		if !strings.Contains(msg.Text, want) {
			t.Errorf("the organiser's end mail lacks %q:\n%s", want, msg.Text)
		}
	}
	golden(t, "businessman-over-org.txt", msg.Subject+"\n\n"+msg.Text)

	// The organiser plays seat 0 (another case of the address): one mail.
	g := newGameBy(t, service.Person{Name: "Анна", Email: "ANNA@pbm.test", Lang: "ru"}, "businessman", `{"laps":3}`, 3, over)
	rec, _, err = g.svc.Load(context.Background(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	to := map[string]int{}
	for _, m := range rec.Outbox {
		if m.Kind == service.MailOver {
			p, err := notify.Recipient(rec, m)
			if err != nil {
				t.Fatal(err)
			}
			to[strings.ToLower(p.Email)]++
		}
	}
	if to["anna@pbm.test"] != 1 || len(to) != 3 {
		t.Errorf("end mails by address %v, want one each to the three players", to)
	}
}

// TestInvitationNamesTheGame (issue 27): an invitation's subject gives
// the name the organiser gave the game; a mail about a player's own
// seat speaks to them («your seat», not their name).
func TestInvitationNamesTheGame(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Now: func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) },
		Rand: rand.NewChaCha8([32]byte{'n', 'a', 'm', 'e'}), Log: slog.New(slog.DiscardHandler)})
	created, err := svc.Create(context.Background(), service.CreateRequest{Kind: "western", Name: "Пятничная",
		Organiser: service.Person{Name: "Org", Email: "org@pbm.test", Lang: "en"},
		Seats:     []service.Person{{Name: "Анна", Email: "anna@pbm.test", Lang: "ru"}, {Name: "Alice", Email: "alice@pbm.test", Lang: "en"}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, created.ID)
	f := fixture{svc: svc, c: compose.New(compose.Config{Games: testGames, Service: svc, BaseURL: "https://pbm.example", NoPicture: true}), id: created.ID}
	for seat, want := range []string{"Пятничная", "Пятничная"} {
		if s := f.mailFor(t, service.MailInvite, seat).Subject; !strings.Contains(s, want) {
			t.Errorf("invitation %d: subject %q does not name the game", seat, s)
		}
	}
	for i := range 2 {
		if _, err := svc.Accept(context.Background(), created.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Control(context.Background(), created.ID, service.ControlRequest{Control: service.ControlBot, Seat: 1, Key: "bot-alice"}); err != nil {
		t.Fatal(err)
	}
	msg := f.mailFor(t, service.MailControl, 1)
	_, body, _ := strings.Cut(msg.Text, "\n") // past the greeting, which names her
	body, _, _ = strings.Cut(body, "https://")
	if p := grammar.Addressed(body, "Alice"); len(p) > 0 {
		t.Errorf("the mail to Alice about her seat: %q: %v", body, p)
	}
}
