package httpapi_test

import (
	"context"
	"html"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/store"
	"github.com/pbmgames/pbm/infra/store/boltstore"
	"github.com/pbmgames/pbm/infra/testenv"
	"github.com/pbmgames/pbm/templates"
)

// mailToken is the token a mail to an engine seat carries now.
func (f *pageFixture) mailToken(id string, seat int) string {
	f.t.Helper()
	rec, _ := f.game(id)
	tok, err := f.svc.Token(linksign.PurposeSeat, id, invite(rec, seat), rec.SeatPosition(seat), time.Hour)
	if err != nil {
		f.t.Fatal(err)
	}
	return tok
}

// formOf finds the form of a seat page that makes a decision of type typ.
func formOf(t *testing.T, page, typ string) form {
	t.Helper()
	for _, fm := range forms(page) {
		if fm.values.Get("type") == typ {
			return fm
		}
	}
	t.Fatalf("no %q form on the page:\n%s", typ, page)
	return form{}
}

func owes(g engine.Game, seat int) bool { return slices.Contains(g.Owing(), seat) }

// twoSealedBidsOwed stops a fixture's game at a sealed-bid auction where
// two seats owe their bids at once.
func twoSealedBidsOwed(g engine.Game, _ int) bool {
	v, ok := g.View(engine.Spectator).(western.View)
	if !ok || v.Phase != western.PhAuction || len(g.Owing()) < 2 {
		return false
	}
	for _, s := range g.Owing()[:2] {
		if !slices.ContainsFunc(g.Legal(s), func(ch engine.Choice) bool { return ch.Type == western.ABid }) {
			return false
		}
	}
	return true
}

// TestSealedBidSecondSeatNotRefused: two seats owe sealed bids at once;
// each opens its page from its mail, the first submits its bid, then the
// second submits the form it opened before. Both bids are taken: another
// seat's move does not make a move still owed "already made". The same
// form of the first seat posted again with another amount is refused,
// since that seat's decision has really been made.
func TestSealedBidSecondSeatNotRefused(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(3, 20, 3)
	f.playUntil(c.ID, twoSealedBidsOwed)
	_, g := f.game(c.ID)
	first, second := g.Owing()[0], g.Owing()[1]
	b := newBrowser(t, f.srv.URL)
	open := func(seat int) form {
		code, page := b.get("/g/" + c.ID + "?lang=en&t=" + url.QueryEscape(f.mailToken(c.ID, seat)))
		if code != 200 {
			t.Fatalf("seat %d's page: %d", seat, code)
		}
		return formOf(t, page, western.ABid)
	}
	f1, f2 := open(first), open(second)
	if code, page, _ := b.post(f1.action, f1.values); code != 200 || strings.Contains(page, templates.T("en", "already_done")) {
		t.Fatalf("the first bid: %d", code)
	}
	code, page, _ := b.post(f2.action, f2.values)
	if code != 200 || strings.Contains(page, templates.T("en", "already_done")) {
		t.Fatalf("the second seat's bid, still owed, was refused: %d\n%s", code, page)
	}
	rec, g := f.game(c.ID)
	if slices.ContainsFunc(g.Legal(second), func(ch engine.Choice) bool { return ch.Type == western.ABid }) && rec.Moves > 0 {
		t.Fatal("the second seat still owes its bid")
	}
	again := url.Values{}
	for k, v := range f1.values {
		again[k] = v
	}
	again.Set("amount", "0")
	unchanged(t, f.st, c.ID, func() {
		// Refused, and redirected to the game's page saying so (issue 10,
		// 15: a reload must not post again).
		var at string
		if code, page, at = b.post(f1.action, again); code != 200 || !strings.Contains(page, templates.T("en", "already_done")) || strings.Contains(at, "/act") {
			t.Fatalf("a bid made already, posted again with another amount: %d at %s", code, at)
		}
	})
}

// TestTurnResumesFromItsMail: a player opens their "your move" mail,
// rolls, closes the tab and opens the same mail again: while the turn
// still owes decisions the link shows them; once the seat owes nothing
// more the same link says "already done", and opening it changes nothing.
func TestTurnResumesFromItsMail(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 20, 2)
	b := newBrowser(t, f.srv.URL)
	for tries := 0; ; tries++ {
		if tries == 40 {
			t.Fatal("no roll led to more decisions of the same turn in 40 turns")
		}
		f.playUntil(c.ID, func(g engine.Game, _ int) bool {
			s := g.Owing()[0]
			return s == g.Turn() && slices.ContainsFunc(g.Legal(s), func(ch engine.Choice) bool { return ch.Type == western.ARoll })
		})
		_, g := f.game(c.ID)
		seat := g.Turn()
		link := "/g/" + c.ID + "?lang=en&t=" + url.QueryEscape(f.mailToken(c.ID, seat))
		_, page := b.get(link)
		roll := formOf(t, page, western.ARoll)
		if code, _, _ := b.post(roll.action, roll.values); code != 200 {
			t.Fatalf("roll: %d", code)
		}
		if _, g = f.game(c.ID); !owes(g, seat) || g.Turn() != seat {
			continue // the roll ended the turn: try another
		}
		code, page := b.get(link)
		if code != 200 || strings.Contains(page, templates.T("en", "already_done")) || len(forms(page)) == 0 {
			t.Fatalf("the mail's link after rolling, with decisions still owed: %d, %d forms\n%s", code, len(forms(page)), page)
		}
		// Played to the end of the turn, the same link is done.
		f.playUntil(c.ID, func(g engine.Game, _ int) bool { return !owes(g, seat) })
		unchanged(t, f.st, c.ID, func() {
			code, page = b.get(link)
		})
		if code != 200 || !strings.Contains(page, templates.T("en", "already_done")) || len(forms(page)) != 0 {
			t.Fatalf("the mail's link once the turn is over: %d, %d forms", code, len(forms(page)))
		}
		return
	}
}

// TestChangedDecisionRefused: a form whose decisions are no longer what
// the seat owes (another move changed them while the page was open) is
// refused with 409, says so, and changes nothing.
func TestChangedDecisionRefused(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 5, 2)
	_, g := f.game(c.ID)
	seat := g.Owing()[0]
	b := newBrowser(t, f.srv.URL)
	_, page := b.get("/g/" + c.ID + "?lang=en&t=" + url.QueryEscape(f.mailToken(c.ID, seat)))
	roll := formOf(t, page, western.ARoll)
	if roll.values.Get("decision") == "" || roll.values.Get("step") == "" {
		t.Fatalf("the form carries no step or decision: %v", roll.values)
	}
	roll.values.Set("decision", strings.Repeat("0", len(roll.values.Get("decision"))))
	unchanged(t, f.st, c.ID, func() {
		code, page, _ := b.post(roll.action, roll.values)
		if code != 409 || !strings.Contains(page, html.EscapeString(templates.T("en", "choice_changed"))) || len(forms(page)) == 0 {
			t.Fatalf("a form for decisions no longer owed: %d, %d forms", code, len(forms(page)))
		}
	})
}

// interposingStore runs a write of someone else between a move's read and
// its conditional write, once armed.
type interposingStore struct {
	*boltstore.Store
	mu     sync.Mutex
	before func()
}

func (s *interposingStore) PutGame(ctx context.Context, g store.Game, prev int64) (int64, error) {
	s.mu.Lock()
	f := s.before
	s.before = nil
	s.mu.Unlock()
	if f != nil {
		f()
	}
	return s.Store.PutGame(ctx, g, prev)
}

// TestSealedBidRacingBidNotRefused: two seats owe sealed bids; while the
// first seat's bid is on its way to the store, the second seat's bid
// commits. The first bid, still owed and unchanged, is applied all the
// same, not answered "already made".
func TestSealedBidRacingBidNotRefused(t *testing.T) {
	f := newPageFixture(t)
	st := &interposingStore{Store: f.st}
	quiet := slog.New(slog.DiscardHandler)
	keys, _ := linksign.NewKeyring("k1", map[string][]byte{"k1": make([]byte, 32)})
	clock := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) } // the fixture's
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Keys: keys, Log: quiet, Now: clock, Rand: testenv.Rand(t.Name())})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Games: testGames, Service: svc, Log: quiet, Now: clock}))
	defer srv.Close()
	c := f.create(3, 20, 3)
	f.playUntil(c.ID, twoSealedBidsOwed)
	rec, g := f.game(c.ID)
	first, second := g.Owing()[0], g.Owing()[1]
	b := newBrowser(t, srv.URL)
	code, page := b.get("/g/" + c.ID + "?lang=en&t=" + url.QueryEscape(f.mailToken(c.ID, first)))
	if code != 200 {
		t.Fatalf("the first seat's page: %d", code)
	}
	bid := formOf(t, page, western.ABid)
	var other engine.Action
	for _, ch := range g.Legal(second) {
		if ch.Type == western.ABid {
			other = ch.Action
			other.Amount = ch.Min
		}
	}
	st.before = func() {
		if _, err := f.svc.Act(t.Context(), c.ID, invite(rec, second), other, "racing-bid-2", service.Precondition{}); err != nil {
			t.Errorf("the racing bid: %v", err)
		}
	}
	code, page, _ = b.post(bid.action, bid.values)
	if code != 200 || strings.Contains(page, templates.T("en", "already_done")) {
		t.Fatalf("a bid still owed, refused because another seat's bid committed first: %d", code)
	}
	rec, g = f.game(c.ID)
	if slices.ContainsFunc(g.Legal(first), func(ch engine.Choice) bool { return ch.Type == western.ABid }) {
		t.Fatal("the first seat still owes its bid")
	}
}
