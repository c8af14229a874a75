package service_test

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/infra/testenv"
)

// TestSignInLinks (issue 17): a stranger gets no sign-in link and
// nothing is written for them; a player's link names their link id, not
// their address, opens one session once, and stops with "sign out
// everywhere"; an older link with the address works until then; with
// more links than are kept, the oldest stop.
func TestSignInLinks(t *testing.T) {
	st, keys := servicetest.Bolt(t), servicetest.Keys(t)
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	svc := service.New(service.Config{Games: testGames.Engines(), Store: st, Players: st, Keys: keys, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler), Rand: testenv.Rand(t.Name())})
	ctx := t.Context()

	if _, _, ok, err := svc.IssueSignIn(ctx, "stranger@pbm.test"); ok || err != nil {
		t.Fatalf("a stranger's sign-in link: %v, %v", ok, err)
	}
	if _, err := st.GetPlayer(ctx, "stranger@pbm.test"); err == nil {
		t.Fatal("asking for a stranger's link made a player")
	}

	// An address typed as an organiser, never confirmed, is no player's.
	c0, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "anna@pbm.test"},
		Seats: []service.Person{{Name: "A", Email: "a@pbm.test"}, {Name: "B", Email: "b@pbm.test"}}})
	if err != nil || !c0.Unconfirmed {
		t.Fatalf("create: %v, unconfirmed %v", err, c0.Unconfirmed)
	}
	if _, _, ok, err := svc.IssueSignIn(ctx, "anna@pbm.test"); ok || err != nil {
		t.Fatalf("an unconfirmed organiser's sign-in link: %v, %v", ok, err)
	}
	servicetest.Confirm(t, svc, c0.ID)
	legacy, _ := svc.Token(linksign.PurposeMyGames, "anna@pbm.test", linksign.NoSeat, 0, service.MailLinkTTL)
	link, p, ok, err := svc.IssueSignIn(ctx, "ANNA@pbm.test")
	if !ok || err != nil || p.LinkID == "" {
		t.Fatalf("a player's sign-in link: %v, %v, id %q", ok, err, p.LinkID)
	}
	c, err := keys.Verify(link, now, linksign.Expect{Purpose: linksign.PurposeSignIn, AnyGame: true, Seat: linksign.NoSeat})
	if err != nil || c.Game != p.LinkID || strings.Contains(c.Game, "@") || c.Expires != now.Add(service.SignInTTL) {
		t.Fatalf("sign-in claims %v, %v; want the link id %q, expiring in %v", c, err, p.LinkID, service.SignInTTL)
	}
	// A GET of the link checks it and changes nothing: it still opens.
	for range 2 {
		if me, err := svc.Me(ctx, link, linksign.PurposeSignIn); err != nil || me.Email != "anna@pbm.test" {
			t.Fatalf("Me(sign-in link) = %+v, %v", me, err)
		}
	}
	session, err := svc.OpenSignIn(ctx, link)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.OpenSignIn(ctx, link); err == nil {
		t.Fatal("a sign-in link opened twice")
	}
	for _, tok := range []string{session, legacy} {
		if me, err := svc.Me(ctx, tok, linksign.PurposeMyGames); err != nil || me.Email != "anna@pbm.test" {
			t.Fatalf("Me = %+v, %v", me, err)
		}
	}
	// Expired: refused as any expired link.
	now = now.Add(service.SignInTTL)
	link2, _, _, _ := svc.IssueSignIn(ctx, "anna@pbm.test")
	now = now.Add(service.SignInTTL)
	if _, err := svc.OpenSignIn(ctx, link2); err == nil {
		t.Fatal("an expired sign-in link opened")
	}

	me, _ := svc.Me(ctx, session, linksign.PurposeMyGames)
	if err := svc.SignOutEverywhere(ctx, me); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{session, legacy} {
		var e *service.Error
		if _, err := svc.Me(ctx, tok, linksign.PurposeMyGames); !errors.As(err, &e) || e.Code != service.CodeUnauthorized || !strings.Contains(e.EN, "revoked") {
			t.Fatalf("a link after signing out everywhere: %v", err)
		}
	}
	// Unsubscribing from an old mail still works (RFC 8058).
	unsub, _ := svc.Token(linksign.PurposeUnsubscribe, "anna@pbm.test", linksign.NoSeat, 0, service.MailLinkTTL)
	if _, err := svc.Me(ctx, unsub, linksign.PurposeUnsubscribe); err != nil {
		t.Fatalf("an old unsubscribe link after signing out: %v", err)
	}

	// Twenty links and sessions: the list keeps the newest twelve, and a
	// link whose entry is gone no longer opens.
	first, _, _, _ := svc.IssueSignIn(ctx, "anna@pbm.test")
	for range 20 {
		now = now.Add(time.Second)
		if _, _, _, err := svc.IssueSignIn(ctx, "anna@pbm.test"); err != nil {
			t.Fatal(err)
		}
	}
	p, _ = svc.Player(ctx, "anna@pbm.test")
	ls, err := svc.PlayerLinks(ctx, service.Me{Email: p.Email, ID: p.LinkID})
	if err != nil || len(ls.Links) > 12 {
		t.Fatalf("%d links kept, %v; want at most 12", len(ls.Links), err)
	}
	if _, err := svc.OpenSignIn(ctx, first); err == nil {
		t.Fatal("a sign-in link dropped from the list still opens")
	}
}
