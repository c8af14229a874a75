package httpapi_test

import (
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
	"github.com/pbmgames/pbm/templates"
)

// TestPagesHideSealedBids (P-3): a sealed bid is seen by its bidder alone
// — on the seat pages, the spectators' page, the log and its replay —
// while the auction is open; once it closes every bid is shown to all.
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
	secrets := []string{strconv.FormatInt(amount, 10), templates.Money("ru", amount), templates.Money("en", amount), templates.USD("ru", amount), templates.USD("en", amount),
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
			if !strings.Contains(body, testGames.For("western").SecretText("ru")) {
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
		// Sealed only until the auction closes (W-19, issue 10): then
		// every reader's log shows every bid.
		rec, _ := f.game(c.ID)
		for who, tok := range map[string]string{
			"another seat":  f.token(linksign.PurposeSeat, c.ID, invite(rec, other)),
			"a spectator":   f.token(linksign.PurposeSpectator, c.ID, linksign.NoSeat),
			"the organiser": f.token(linksign.PurposeOrganiser, c.ID, linksign.NoSeat),
		} {
			_, body := f.page("/g/"+c.ID+"/log", url.Values{"t": {tok}, "lang": {"ru"}})
			shows(t, who+"'s log once the auction closed", body)
		}
	})
}

// TestHiddenExchangeCards is B-2 with P-3 as a property over a whole bot
// game of «Бизнесмен»: at every checkpoint, no page (game, log, replay,
// organiser), no API answer (view, legal, log) and no mail of one reader
// names an exchange card another seat holds — while each seat's own
// page, view and turn mail do show it its own. A card is named once it is
// played, face up; a hand is never shown.
func TestHiddenExchangeCards(t *testing.T) {
	f := newPageFixture(t)
	c := f.createKind(businessman.Name, map[string]any{"laps": 8}, 3, 3)
	// The mails are composed as the notifier would, the board picture
	// left out (it shows no hand: boardpic's tests say so).
	mails := compose.New(compose.Config{Games: testGames, Service: f.svc, BaseURL: f.srv.URL, NoPicture: true})
	checked, drawn, played, composed, mailed := 0, 0, 0, 0, 0
	// secrets are how the service would name the cards the seats other
	// than reader hold: their codes as the pages and mails write them, as
	// the API does.
	secrets := func(g engine.Game, reader int) []string {
		var out []string
		for s := range g.Seats() {
			if s == reader {
				continue
			}
			for _, card := range g.View(s).(businessman.View).Hand {
				out = append(out, card.Code+" — ", card.Code+": ", `"code":"`+card.Code+`"`)
			}
		}
		return out
	}
	leaks := func(g engine.Game, moves int, what string, reader int, body string) {
		t.Helper()
		body = html.UnescapeString(body)
		for _, s := range secrets(g, reader) {
			if strings.Contains(body, s) {
				t.Errorf("after %d moves, %s of reader %d shows another seat's card %q", moves, what, reader, s)
			}
		}
	}
	// sendMails composes the mails the last move asked for.
	sendMails := func() {
		rec, g := f.game(c.ID)
		_, ver, _ := f.svc.Load(t.Context(), c.ID)
		for _, m := range rec.Outbox[mailed:] {
			if m.Seat < 0 {
				continue
			}
			msg, err := mails.Compose(t.Context(), rec, ver, m)
			if errors.Is(err, notify.ErrObsolete) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			composed++
			reader := rec.Seats[m.Seat].Engine
			leaks(g, rec.Moves, "a "+m.Kind+" mail", reader, msg.Subject+msg.Text+msg.HTML)
			if m.Kind == service.MailTurn {
				for _, card := range g.View(reader).(businessman.View).Hand {
					if !strings.Contains(msg.Text, card.Code+" — ") {
						t.Errorf("after %d moves, seat %d's turn mail does not show its card %s", rec.Moves, reader, card.Code)
					}
				}
			}
		}
		mailed = len(rec.Outbox)
	}
	check := func() {
		rec, g := f.game(c.ID)
		hands := map[int][]businessman.HandCard{}
		for s := range g.Seats() {
			hands[s] = g.View(s).(businessman.View).Hand
		}
		leak := func(what string, reader int, body string) {
			t.Helper()
			leaks(g, rec.Moves, what, reader, body)
		}
		readers := map[int]string{engine.Spectator: f.token(linksign.PurposeSpectator, c.ID, linksign.NoSeat),
			-2: f.token(linksign.PurposeOrganiser, c.ID, linksign.NoSeat)}
		for s := range g.Seats() {
			readers[s] = f.token(linksign.PurposeSeat, c.ID, invite(rec, s))
		}
		q := func(tok string, kv ...string) url.Values {
			v := url.Values{"t": {tok}, "lang": {"ru"}}
			for i := 0; i+1 < len(kv); i += 2 {
				v.Set(kv[i], kv[i+1])
			}
			return v
		}
		for reader, tok := range readers {
			_, page := f.page("/g/"+c.ID, q(tok))
			leak("the game page", reader, page)
			if reader >= 0 && !g.Over() { // its own hand, on its own page
				for _, card := range hands[reader] {
					if !strings.Contains(html.UnescapeString(page), card.Code+" — ") {
						t.Errorf("after %d moves, seat %d's page does not show its card %s", rec.Moves, reader, card.Code)
					}
				}
			}
			_, page = f.page("/g/"+c.ID+"/log", q(tok))
			leak("the log", reader, page)
			_, page = f.page("/g/"+c.ID+"/log", q(tok, "step", strconv.Itoa(rec.Moves)))
			leak("the replay", reader, page)
			if reader == -2 {
				_, page = f.page("/g/"+c.ID+"/org", q(tok))
				leak("the organiser's page", reader, page)
			}
			paths := []string{"/api/games/" + c.ID, "/api/games/" + c.ID + "/log"}
			if reader >= 0 {
				paths = append(paths, "/api/games/"+c.ID+"/legal") // a seat's only
			}
			for _, path := range paths {
				body := f.api(path, tok)
				leak(path, reader, body)
				if strings.HasSuffix(path, "/log") {
					var lg struct {
						Log []httpapi.LogEntry `json:"log"`
					}
					if err := json.Unmarshal([]byte(body), &lg); err != nil {
						t.Fatal(err)
					}
					for _, e := range lg.Log {
						for _, ev := range e.Events {
							if ev.Private && ev.Seat != reader {
								t.Errorf("reader %d gets seat %d's private event %+v", reader, ev.Seat, ev)
							}
						}
					}
				}
				if path == "/api/games/"+c.ID {
					var v struct {
						Game struct {
							Hand []businessman.HandCard `json:"hand"`
						} `json:"game"`
					}
					if err := json.Unmarshal([]byte(body), &v); err != nil {
						t.Fatal(err)
					}
					want := hands[reader]
					if len(v.Game.Hand) != len(want) {
						t.Errorf("reader %d's view holds %d cards, its hand %d", reader, len(v.Game.Hand), len(want))
					}
				}
			}
		}
		checked++
	}
	for n := 0; ; n++ {
		rec, g := f.game(c.ID)
		if n%13 == 0 || g.Over() {
			check()
		}
		if g.Over() {
			break
		}
		if _, err := f.svc.ActBot(t.Context(), c.ID, invite(rec, g.Owing()[0]), ""); err != nil {
			t.Fatal(err)
		}
		sendMails()
	}
	rec, _ := f.game(c.ID)
	log, err := f.svc.FullLog(t.Context(), rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		for _, ev := range e.Events {
			switch ev.Type {
			case businessman.EvXDrawn:
				drawn++
			case businessman.EvXPlayed:
				played++
			}
		}
	}
	t.Logf("%d moves, %d checkpoints, %d mails composed; %d cards drawn in private, %d played face up", rec.Moves, checked, composed, drawn, played)
	if played == 0 || drawn == 0 {
		t.Errorf("the game drew %d and played %d exchange cards: the property was not put to the test", drawn, played)
	}
}

// api GETs an API route with a bearer token.
func (f *pageFixture) api(path, token string) string {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		f.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	return string(b)
}
