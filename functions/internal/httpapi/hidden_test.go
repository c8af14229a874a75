package httpapi_test

import (
	"html"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// TestPagesHideSealedBids (P-3): a sealed bid is seen by its bidder alone
// — on the seat pages, the spectators' page, the log and its replay —
// while the auction is open and after it closes.
func TestPagesHideSealedBids(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(3, 20, 3)
	// An open auction where at least two seats owe a bid and the first
	// can bid.
	f.playUntil(c.ID, func(g engine.Game, _ int) bool {
		v, ok := g.View(engine.Spectator).(western.View)
		if !ok || v.Phase != western.PhAuction || len(g.Owing()) < 2 {
			return false
		}
		for _, ch := range g.Legal(g.Owing()[0]) {
			if ch.Type == western.ABid {
				return true
			}
		}
		return false
	})
	rec, g := f.game(c.ID)
	bidder, other := g.Owing()[0], g.Owing()[1]
	var bid engine.Choice
	for _, ch := range g.Legal(bidder) {
		if ch.Type == western.ABid {
			bid = ch
		}
	}
	amount := min(bid.Min+7, bid.Max) // an odd sum nothing else on the pages comes to
	a := bid.Action
	a.Amount = amount
	if _, err := f.svc.Act(t.Context(), c.ID, invite(rec, bidder), a, "sealed-bid-1", service.Precondition{}); err != nil {
		t.Fatal(err)
	}
	secrets := []string{strconv.FormatInt(amount, 10), templates.Money(amount), templates.USD("ru", amount), templates.USD("en", amount),
		fixtureNames[invite(rec, bidder)] + ": ваша закрытая ставка"}
	leaks := func(t *testing.T, what, body string) {
		t.Helper()
		body = html.UnescapeString(body)
		for _, s := range secrets {
			if strings.Contains(body, s) {
				t.Errorf("%s shows the sealed bid %q", what, s)
			}
		}
	}
	shows := func(t *testing.T, what, body string) {
		t.Helper()
		if !strings.Contains(html.UnescapeString(body), templates.USD("ru", amount)) {
			t.Errorf("%s does not show the bidder their own bid", what)
		}
	}
	check := func(t *testing.T) {
		rec, _ := f.game(c.ID)
		q := func(tok string, kv ...string) url.Values {
			v := url.Values{"t": {tok}, "lang": {"ru"}}
			for i := 0; i+1 < len(kv); i += 2 {
				v.Set(kv[i], kv[i+1])
			}
			return v
		}
		mine := f.token(linksign.PurposeSeat, c.ID, invite(rec, bidder))
		for who, tok := range map[string]string{
			"another seat":  f.token(linksign.PurposeSeat, c.ID, invite(rec, other)),
			"a spectator":   f.token(linksign.PurposeSpectator, c.ID, linksign.NoSeat),
			"the organiser": f.token(linksign.PurposeOrganiser, c.ID, linksign.NoSeat),
		} {
			_, body := f.page("/g/"+c.ID, q(tok))
			leaks(t, who+"'s game page", body)
			_, body = f.page("/g/"+c.ID+"/log", q(tok))
			leaks(t, who+"'s log", body)
			if !strings.Contains(body, templates.T("ru", "sealed_bid")) {
				t.Errorf("%s's log does not mark the sealed bid", who)
			}
			for step := rec.Moves - 3; step <= rec.Moves; step++ {
				_, body = f.page("/g/"+c.ID+"/log", q(tok, "step", strconv.Itoa(step)))
				leaks(t, who+"'s replay", body)
			}
		}
		_, body := f.page("/g/"+c.ID+"/log", q(mine))
		shows(t, "the bidder's log", body)
	}
	t.Run("open", func(t *testing.T) {
		check(t)
		rec, _ := f.game(c.ID)
		_, body := f.page("/g/"+c.ID, url.Values{"t": {f.token(linksign.PurposeSeat, c.ID, invite(rec, bidder))}, "lang": {"ru"}})
		shows(t, "the bidder's page", body)
	})
	// Another seat outbids it where it can; the rest answer; the auction
	// closes.
	rec, g = f.game(c.ID)
	for _, ch := range g.Legal(other) {
		if ch.Type == western.ABid && ch.Max > amount {
			a := ch.Action
			a.Amount = ch.Max
			if _, err := f.svc.Act(t.Context(), c.ID, invite(rec, other), a, "sealed-bid-2", service.Precondition{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.playUntil(c.ID, func(g engine.Game, _ int) bool {
		v, _ := g.View(engine.Spectator).(western.View)
		return v.Phase != western.PhAuction
	})
	t.Run("closed", func(t *testing.T) {
		// The price the winner pays is public: it must not be the bid.
		full, _ := f.game(c.ID)
		log, err := f.svc.FullLog(t.Context(), full)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range log {
			for _, ev := range e.Events {
				if ev.Type == western.EvAuctionWon && -ev.Amount == amount {
					t.Skip("the bid became the public price")
				}
			}
		}
		check(t)
	})
}
