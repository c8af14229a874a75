package httpapi_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TestOrdersPage: a seat sets its standing orders on their page (linked
// from its game page); they play its owed roll at once; refused input says
// why and changes nothing; no other reader's page shows them, and no
// other token opens the page.
func TestOrdersPage(t *testing.T) {
	st := openStore(t)
	c, svc := newContract(t, st)
	b := newBrowser(t, c.srv.URL)
	ctx := context.Background()
	created, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Options: []byte(`{"laps":2}`),
		Organiser: service.Person{Email: "org@example.org"},
		Seats:     []service.Person{{Name: "Анна", Email: "anna@example.org"}, {Name: "Bob", Email: "bob@example.org", Lang: "en"}}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.Confirm(t, svc, created.ID)
	servicetest.OrdersOff(t, svc, created.ID) // the orders are set below, by their page
	id := created.ID
	var seatTok []string
	for i := range 2 {
		tok, err := svc.Accept(ctx, id, i)
		if err != nil {
			t.Fatal(err)
		}
		seatTok = append(seatTok, tok)
	}
	rec, _, _ := svc.Load(ctx, id)
	g, _ := svc.Engine(rec)
	mover := g.Owing()[0] // every seat accepted: invitation = engine seat
	other := 1 - mover
	moves := rec.Moves

	// The game page links to the orders page.
	_, seatPage := b.get("/g/" + id + "?" + url.Values{"t": {seatTok[mover]}, "lang": {"en"}}.Encode())
	ordersPath := "/g/" + id + "/orders?" + url.Values{"t": {seatTok[mover]}, "lang": {"en"}}.Encode()
	if !strings.Contains(seatPage, "/g/"+id+"/orders?") {
		t.Fatal("the seat page has no link to the standing orders")
	}
	code, page := b.get(ordersPath)
	if code != 200 || !strings.Contains(page, `name="o_roll"`) || !strings.Contains(page, "Roll at once") {
		t.Fatalf("orders page: %d %.500s", code, page)
	}
	// Refused: a value out of range, and a number that is none.
	for _, bad := range []url.Values{{"o_spend_pct": {"150"}}, {"o_keep_cash": {"lots"}}} {
		bad.Set("t", seatTok[mover])
		unchanged(t, st, id, func() {
			if code, page, _ := b.post("/g/"+id+"/orders?lang=en", bad); code != 400 || !strings.Contains(page, "Invalid") {
				t.Fatalf("bad orders %v: %d", bad, code)
			}
		})
	}
	// Saved: the owed roll is played by order at once.
	code, page, _ = b.post("/g/"+id+"/orders?lang=en", url.Values{"t": {seatTok[mover]}, "do": {"save"}, "o_roll": {"1"}, "o_keep_cash": {"4321"}})
	if code != 200 || !strings.Contains(page, "The orders are saved") || !strings.Contains(page, `value="4321"`) {
		t.Fatalf("save: %d %.500s", code, page)
	}
	rec, _, _ = svc.Load(ctx, id)
	entries, _ := rec.Recent()
	if rec.Moves != moves+1 || entries[len(entries)-1].By != service.ByOrder {
		t.Fatalf("the roll was not played by order: %d new moves", rec.Moves-moves)
	}
	// The seat's own log page says so.
	if _, page := b.get("/g/" + id + "/log?" + url.Values{"t": {seatTok[mover]}, "lang": {"en"}}.Encode()); !strings.Contains(page, "Played by your standing order") {
		t.Error("the seat's log page does not say what its orders played")
	}
	// The seat's own game page says so.
	if _, page := b.get("/g/" + id + "?" + url.Values{"t": {seatTok[mover]}, "lang": {"en"}}.Encode()); !strings.Contains(page, "Played by your standing order") {
		t.Error("the seat's page does not say what its orders played")
	}
	// The seat's own log says so; no other reader's does.
	for i, tok := range []string{seatTok[mover], seatTok[other]} {
		var lg struct {
			Log []httpapi.LogEntry `json:"log"`
		}
		c.want(call{method: "GET", path: "/api/games/" + id + "/log", token: tok}, 200, "", &lg)
		last := lg.Log[len(lg.Log)-1]
		if (i == 0) != (last.By == service.ByOrder) {
			t.Errorf("reader %d reads the roll's origin as %q", i, last.By)
		}
	}
	// Nobody else sees them: not the other seat, the organiser or a
	// spectator, on any page of the game.
	orgTok, _ := svc.Token(linksign.PurposeOrganiser, id, linksign.NoSeat, 0, time.Hour)
	specTok, _ := svc.Token(linksign.PurposeSpectator, id, linksign.NoSeat, 0, time.Hour)
	for _, tok := range []string{seatTok[other], orgTok, specTok} {
		for _, p := range []string{"/g/" + id, "/g/" + id + "/log", "/g/" + id + "/org", "/g/" + id + "/orders"} {
			_, body := b.get(p + "?" + url.Values{"t": {tok}, "lang": {"en"}}.Encode())
			if strings.Contains(body, "4321") || strings.Contains(body, "by your standing order") {
				t.Errorf("%s shows the mover's orders to another reader", p)
			}
		}
	}
	if code, _ := b.get("/g/" + id + "/orders?" + url.Values{"t": {orgTok}}.Encode()); code != 403 {
		t.Errorf("the organiser's token opens a seat's orders page: %d", code)
	}
	// Sensible orders fill the game's proposal into the form, which the
	// player then saves (issue 27); clear removes them.
	before, _ := svc.Orders(ctx, id, other)
	_, filled, _ := b.post("/g/"+id+"/orders?lang=en", url.Values{"t": {seatTok[other]}, "do": {"sensible"}})
	if got, _ := svc.Orders(ctx, id, other); len(got) != len(before) {
		t.Errorf("«fill in sensible orders» saved %v", got)
	}
	fm := forms(filled)[0]
	fm.values.Set("do", "save")
	b.post(fm.action, fm.values)
	got, _ := svc.Orders(ctx, id, other)
	specs, _ := svc.OrderSpecs(rec)
	want := engine.Orders{}
	for k, v := range engine.SensibleOrders(specs) {
		if v != 0 { // an order of 0 is off: not kept
			want[k] = v
		}
	}
	if len(got) != len(want) || got[engine.OrderRoll] != 1 {
		t.Errorf("sensible orders, saved: %v, want %v", got, want)
	}
	b.post("/g/"+id+"/orders?lang=en", url.Values{"t": {seatTok[other]}, "do": {"clear"}})
	if got, _ := svc.Orders(ctx, id, other); len(got) != 0 {
		t.Errorf("orders after clear: %v", got)
	}
}
