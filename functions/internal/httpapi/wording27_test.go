package httpapi_test

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// pageText is a page's words, tags and spaces folded.
func pageText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`(?s)<style>.*?</style>|<script>.*?</script>|<[^>]+>`).ReplaceAllString(page, " "))), " ")
}

// TestWordsOfIssue27 (issue 27, item 6): each wording the players read
// wrong, put right.
func TestWordsOfIssue27(t *testing.T) {
	f := newPageFixture(t)
	ctx := t.Context()
	c := f.create(3, 20, 3)
	seat := func(i int) string { return f.token(linksign.PurposeSeat, c.ID, i) }
	org := f.token(linksign.PurposeOrganiser, c.ID, linksign.NoSeat)
	get := func(path, tok string, kv ...string) string {
		t.Helper()
		q := url.Values{"t": {tok}, "lang": {"ru"}}
		for i := 0; i+1 < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		code, body := f.page(path, q)
		if code != 200 {
			t.Fatalf("%s: %d", path, code)
		}
		return body
	}

	// «Вы в отъезде, пока не вернётесь» on one's own page.
	if err := f.svc.Away(ctx, c.ID, 1, 0, 0); err != nil {
		t.Fatal(err)
	}
	if txt := pageText(get("/g/"+c.ID+"/away", seat(1))); !strings.Contains(txt, "Вы в отъезде, пока не вернётесь") {
		t.Errorf("one's own absence: %q", txt)
	}

	// Offer orders of 0 are off: shown blank, saved as nothing, not counted.
	b := newBrowser(t, f.srv.URL)
	_, ordersPage := b.get("/g/" + c.ID + "/orders?lang=ru&t=" + url.QueryEscape(seat(0)))
	if regexp.MustCompile(`name="o_offer_accept" value="0"`).MatchString(ordersPage) {
		t.Error("the order to accept offers shows 0, which reads «accept any offer»")
	}
	fm := forms(ordersPage)[0]
	fm.values.Set("do", "save")
	for k := range fm.values {
		if strings.HasPrefix(k, "o_") {
			fm.values.Set(k, "0")
		}
	}
	fm.values.Set("o_roll", "1")
	if code, _, _ := b.post(fm.action, fm.values); code != 200 {
		t.Fatalf("save orders: %d", code)
	}
	rec, _ := f.game(c.ID)
	if o := rec.SeatOrders(0); len(o) != 1 || o["roll"] != 1 {
		t.Errorf("orders saved from a form of zeros and one box: %v, want only roll", o)
	}
	if txt := pageText(get("/g/"+c.ID+"/orders", seat(0))); !strings.Contains(txt, "Приказов задано: 1") {
		t.Errorf("the orders page counts: %q", txt)
	}
	// «Заполнить разумными приказами» fills the form in; saving is the
	// player's press.
	fm.values.Set("do", "sensible")
	code, filled, _ := b.post(fm.action, fm.values)
	if rec, _ = f.game(c.ID); code != 200 || len(rec.SeatOrders(0)) != 1 || !strings.Contains(filled, `name="o_roll" value="1" checked`) {
		t.Errorf("«fill in sensible orders» saved them (%v) or filled in nothing: %d", rec.SeatOrders(0), code)
	}

	// A pause of seconds is not reported as an hour; «Продлить» says what
	// it did.
	for _, ctl := range []service.ControlRequest{{Control: service.ControlPause, Key: "pause-0001"}, {Control: service.ControlResume, Key: "resume-001"}} {
		if err := f.svc.Control(ctx, c.ID, ctl); err != nil {
			t.Fatal(err)
		}
	}
	if txt := pageText(get("/g/"+c.ID+"/controls", org)); strings.Contains(txt, "(1 ч)") || !strings.Contains(txt, "(меньше минуты)") {
		t.Errorf("a pause of no time is reported as an hour: %q", txt)
	}
	form := url.Values{"t": {org}, "control": {"extend"}, "hours": {"5"}, "key": {"extend-key-1"}}
	code, page, _ := b.post("/g/"+c.ID+"/control?lang=ru", form)
	if txt := pageText(page); code != 200 || !strings.Contains(txt, "продлён на 5 ч") || !strings.Contains(page, `role="status"`) {
		t.Errorf("«Продлить» confirms nothing: %d %q", code, txt)
	}

	// The organiser's page before the invitations left says so, not
	// «не в игре».
	u, err := f.svc.Create(ctx, service.CreateRequest{Kind: "western", Name: "Пятничная",
		Organiser: service.Person{Name: "Новичок", Email: "new@pbm.test", Lang: "ru"},
		Seats:     []service.Person{{Name: "Аня", Email: "a@pbm.test"}, {Name: "Боря", Email: "b@pbm.test"}}})
	if err != nil {
		t.Fatal(err)
	}
	txt := pageText(get("/g/"+u.ID+"/org", f.token(linksign.PurposeOrganiser, u.ID, linksign.NoSeat)))
	if strings.Contains(txt, "не в игре") || !strings.Contains(txt, "приглашение ещё не отправлено") {
		t.Errorf("the organiser's page before the invitations left: %q", txt)
	}
	// The game's name heads its pages.
	if !strings.Contains(txt, "Пятничная") {
		t.Errorf("the game's name is not on its organiser's page: %q", txt)
	}
	if h := regexp.MustCompile(`<h1>(.*?)</h1>`).FindStringSubmatch(get("/g/"+u.ID, f.token(linksign.PurposeOrganiser, u.ID, linksign.NoSeat))); h == nil || !strings.Contains(h[1], "Пятничная") {
		t.Errorf("the game page's heading has no name: %v", h)
	}

	// After a substitution «Мои игры» names four players for four seats,
	// as the subjects do.
	four := f.create(4, 20, 4)
	if err := f.svc.Control(ctx, four.ID, service.ControlRequest{Control: service.ControlReplace, Seat: 1, Key: "replace-four",
		Substitute: &service.Person{Name: "Замена", Email: "sub@pbm.test", Lang: "ru"}}); err != nil {
		t.Fatal(err)
	}
	me := get("/me", f.token(linksign.PurposeMyGames, "p0@pbm.test", linksign.NoSeat))
	rec4, _ := f.game(four.ID)
	if want := rec4.Title("ru", "Вестерн"); !strings.Contains(html.UnescapeString(me), want) || strings.Contains(html.UnescapeString(me), "+2") {
		t.Errorf("«Мои игры» does not name the game %q as its mails do", want)
	}
}
