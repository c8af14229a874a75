package httpapi_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// controlMails composes the control mails in the game's outbox, as the
// notifier would, and marks the whole outbox sent: their text parts, in
// the order they were decided.
func (f *pageFixture) controlMails(id string) []string {
	f.t.Helper()
	ctx := context.Background()
	rec, ver, err := f.svc.Load(ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	mails := compose.New(compose.Config{Games: testGames, Service: f.svc, BaseURL: f.srv.URL, NoPicture: true})
	var out, sent []string
	for _, m := range rec.Outbox {
		sent = append(sent, m.ID)
		if m.Kind != service.MailControl {
			continue
		}
		msg, err := mails.Compose(ctx, rec, ver, m)
		if err != nil {
			f.t.Fatal(err)
		}
		out = append(out, msg.Text)
	}
	if err := f.svc.MarkSent(ctx, id, sent, nil); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// replaysExactly checks the game's log replays to its stored state.
func (f *pageFixture) replaysExactly(id string) {
	f.t.Helper()
	ctx := context.Background()
	rec, _, err := f.svc.Load(ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	g, err := f.svc.Engine(rec)
	if err != nil {
		f.t.Fatal(err)
	}
	log, err := f.svc.FullLog(ctx, rec)
	if err != nil {
		f.t.Fatal(err)
	}
	var cmds []engine.Command
	for _, e := range log {
		cmds = append(cmds, engine.Command{Seat: e.Seat, Action: e.Action})
	}
	r, err := testGames.Engines().Replay(rec.Kind, rec.Rules, rec.Options, g.Seats(), [32]byte(rec.Seed), cmds)
	if err != nil {
		f.t.Fatal(err)
	}
	if a, _ := r.MarshalJSON(); string(a) != string(rec.State) {
		f.t.Fatal("the replayed game differs from the stored one")
	}
}

var backLinkRE = regexp.MustCompile(`https?://[^\s]*/g/[a-z0-9]+/back\?[^\s]+`)

// TestControlPages: the organiser pauses, resumes, extends, hands a seat
// to a bot and back, replaces a player and ends the game from the pages of
// the controls; each is mailed to the table; a scanner's GET of every new
// page changes nothing; the log replays exactly after each control.
func TestControlPages(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(3, 3, 3)
	id := c.ID
	f.controlMails(id) // the start's mail
	b := newBrowser(t, f.srv.URL)
	org := url.Values{"t": {c.OrganiserToken}, "lang": {"en"}}
	orgPage := "/g/" + id + "/org?" + org.Encode()
	controls := "/g/" + id + "/controls?" + org.Encode()
	var page string
	unchanged(t, f.st, id, func() { _, page = b.get(orgPage) })
	if !strings.Contains(page, "/g/"+id+"/controls?") {
		t.Fatal("the organiser's page does not link to the controls")
	}
	unchanged(t, f.st, id, func() { _, page = b.get(controls) })
	checkPage(t, page)
	fs := forms(page)
	if len(fs) < 5 {
		t.Fatalf("%d forms on the controls' page", len(fs))
	}
	post := func(control string, extra ...string) string {
		t.Helper()
		v := url.Values{"t": {c.OrganiserToken}, "control": {control}, "key": {fs[0].values.Get("key")}}
		for i := 0; i+1 < len(extra); i += 2 {
			v.Set(extra[i], extra[i+1])
		}
		code, body, _ := b.post("/g/"+id+"/control?lang=en", v)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", control, code, body)
		}
		f.replaysExactly(id)
		return body
	}
	body := post("pause")
	if !strings.Contains(body, "Resume the game") {
		t.Fatal("no resume after the pause")
	}
	mails := f.controlMails(id) // the players read Russian
	if len(mails) != 3 || !strings.Contains(mails[0], "на паузе по решению организатора") {
		t.Fatalf("pause mails: %q", mails)
	}
	// The game page says so; the move is refused while paused.
	seat0 := url.Values{"t": {f.seatToken(t, id, 0)}, "lang": {"en"}}
	unchanged(t, f.st, id, func() { _, page = b.get("/g/" + id + "?" + seat0.Encode()) })
	if !strings.Contains(page, "has paused the game") {
		t.Fatal("the game page does not say it is paused")
	}
	// A pause sent again (the same form, a double click) is one pause.
	post("pause")
	if mails := f.controlMails(id); len(mails) != 0 {
		t.Fatalf("a second pause mailed %d", len(mails))
	}
	post("resume")
	post("extend", "hours", "12")
	if mails := f.controlMails(id); len(mails) != 6 || !strings.Contains(mails[3], "срок хода продлён на 12 ч") {
		t.Fatalf("resume and extend mails: %q", mails)
	}
	// A refusal is shown on the page.
	if code, body, _ := b.post("/g/"+id+"/control?lang=en", url.Values{"t": {c.OrganiserToken}, "control": {"extend"}, "hours": {"9999"}}); code != http.StatusBadRequest || !strings.Contains(body, "Extend by 1 to") {
		t.Fatalf("extend by too much: %d", code)
	}
	// Seat 1 to its bot: its player's mails now carry the way back.
	post("bot", "seat", "1")
	mails = f.controlMails(id)
	// Said to its player as theirs (issue 27), to the others by name.
	if len(mails) != 3 || !strings.Contains(mails[1], "за ваше место теперь играет бот") || !strings.Contains(mails[0], "играет бот: "+fixtureNames[1]) {
		t.Fatalf("bot mails: %q", mails)
	}
	back := backLinkRE.FindString(mails[1])
	if back == "" || backLinkRE.MatchString(mails[0]) {
		t.Fatalf("the back link: in seat 1's mail %q, in seat 0's %v", back, backLinkRE.MatchString(mails[0]))
	}
	unchanged(t, f.st, id, func() { _, page = b.get(back) })
	checkPage(t, page)
	bf := forms(page)
	if len(bf) != 1 || !strings.Contains(bf[0].action, "/back") {
		t.Fatalf("the back page's forms: %v", bf)
	}
	if code, _, _ := b.post(bf[0].action, bf[0].values); code != http.StatusOK {
		t.Fatalf("take the seat back: %d", code)
	}
	rec, _, _ := f.svc.Load(t.Context(), id)
	if rec.Bots[1] {
		t.Fatal("the seat stayed with its bot")
	}
	// Replace seat 2: the substitute is invited; the old links stop.
	old := f.seatToken(t, id, 2)
	post("replace", "seat", "2", "name", "Zoe", "email", "zoe@pbm.test", "sub_lang", "en")
	mails = f.controlMails(id)
	if len(mails) != 3 || !strings.Contains(mails[0], "→ Zoe") || !strings.Contains(mails[2], "ваше место") || !strings.Contains(mails[2], "(Zoe)") {
		t.Fatalf("replace mails: %q", mails)
	}
	if code, _ := b.get("/g/" + id + "?t=" + old + "&lang=en"); code != http.StatusForbidden {
		t.Fatalf("the replaced player's link: %d", code)
	}
	// The substitute accepts from the invitation the organiser's page
	// links to, and plays the seat.
	unchanged(t, f.st, id, func() { _, page = b.get(orgPage) })
	invites := linkRE.FindAllStringSubmatch(page, -1)
	if len(invites) != 1 || !strings.Contains(page, "seat given to a substitute") {
		t.Fatalf("%d invitation links on the organiser's page after the replacement", len(invites))
	}
	unchanged(t, f.st, id, func() { _, page = b.get(html.UnescapeString(invites[0][1])) })
	af := forms(page)
	if len(af) != 1 || !strings.Contains(af[0].action, "/accept") {
		t.Fatal("the substitute's invitation has no accept button")
	}
	if code, body, _ := b.post(af[0].action, af[0].values); code != http.StatusOK || !strings.Contains(body, "Zoe") {
		t.Fatalf("the substitute accepts: %d", code)
	}
	rec, _, _ = f.svc.Load(t.Context(), id)
	if !rec.Seats[3].Accepted || rec.Seats[3].Engine != 2 || rec.Bots[2] {
		t.Fatalf("after the substitute accepted: %+v, bots %v", rec.Seats[3], rec.Bots)
	}
	f.replaysExactly(id)
	// Seat 0 removed: it resigns at its next decision, by the engine's own
	// command.
	post("remove", "seat", "0")
	if mails := f.controlMails(id); len(mails) != 3 || !strings.Contains(mails[0], "вы выходите из игры") || !strings.Contains(mails[1], "из игры выходит: "+fixtureNames[0]) {
		t.Fatalf("remove mails: %q", mails)
	}
	// The end, once confirmed: scored as it stands.
	if code, _, _ := b.post("/g/"+id+"/control?lang=en", url.Values{"t": {c.OrganiserToken}, "control": {"end"}}); code != http.StatusBadRequest {
		t.Fatalf("an end not confirmed: %d", code)
	}
	post("end", "sure", "1")
	rec, _, _ = f.svc.Load(t.Context(), id)
	if rec.Status != service.StatusOver {
		t.Fatalf("status %s after the end", rec.Status)
	}
	unchanged(t, f.st, id, func() { _, page = b.get(controls) })
	if !strings.Contains(page, "The organiser has ended the game") {
		t.Fatal("the controls' log does not tell of the end")
	}
	unchanged(t, f.st, id, func() { _, page = b.get("/g/" + id + "?" + seat0.Encode()) })
	if !strings.Contains(page, "The organiser has ended the game") {
		t.Fatal("the game-over page does not say why")
	}
	// The log, with the organiser's command in it, and the record.
	for _, p := range []string{"/g/" + id + "/log?", "/g/" + id + "/record?"} {
		var code int
		unchanged(t, f.st, id, func() { code, page = b.get(p + org.Encode()) })
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", p, code, page)
		}
	}
}

// seatToken is a seat token of invitation inv.
func (f *pageFixture) seatToken(t *testing.T, id string, inv int) string {
	t.Helper()
	tok, err := f.svc.Token(linksign.PurposeSeat, id, inv, 0, service.SeatTokenTTL)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestAwayPages: a player declares an absence on its page; the others see
// "away until …"; back, the seat is theirs again. The pages' GETs change
// nothing.
func TestAwayPages(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 3, 2)
	id := c.ID
	b := newBrowser(t, f.srv.URL)
	rec, _, _ := f.svc.Load(t.Context(), id)
	g, _ := f.svc.Engine(rec)
	away := g.Owing()[0] // its invitation is its seat: everyone accepted
	me := url.Values{"t": {f.seatToken(t, id, away)}, "lang": {"en"}}
	other := url.Values{"t": {f.seatToken(t, id, 1-away)}, "lang": {"en"}}
	var page string
	unchanged(t, f.st, id, func() { _, page = b.get("/g/" + id + "?" + me.Encode()) })
	if !strings.Contains(page, "/g/"+id+"/away?") {
		t.Fatal("the game page does not link to the absence page")
	}
	unchanged(t, f.st, id, func() { _, page = b.get("/g/" + id + "/away?" + me.Encode()) })
	checkPage(t, page)
	fs := forms(page)
	if len(fs) != 1 || !strings.Contains(fs[0].action, "/away") {
		t.Fatalf("the absence page's forms: %v", fs)
	}
	v := fs[0].values
	v.Set("until", "2026-12-09")
	if code, body, _ := b.post(fs[0].action, v); code != http.StatusOK {
		t.Fatalf("away: %d %s", code, body)
	}
	f.replaysExactly(id)
	rec, _, _ = f.svc.Load(t.Context(), id)
	if g, _ = f.svc.Engine(rec); len(g.Owing()) == 0 || g.Owing()[0] == away {
		t.Fatalf("the away seat still owes: %v", g.Owing())
	}
	unchanged(t, f.st, id, func() { _, page = b.get("/g/" + id + "?" + other.Encode()) })
	if !strings.Contains(page, "away until 2026-12-10 00:00 UTC") {
		t.Fatal("the others do not see until when the player is away")
	}
	// Dates that do not make sense are refused on the page.
	v.Set("until", "2026-11-01")
	if code, body, _ := b.post(fs[0].action, v); code != http.StatusBadRequest || !strings.Contains(body, "must come after") {
		t.Fatalf("away backwards: %d", code)
	}
	unchanged(t, f.st, id, func() { _, page = b.get("/g/" + id + "/away?" + me.Encode()) })
	fs = forms(page)
	if len(fs) != 2 || !strings.Contains(fs[0].action, "/back") {
		t.Fatalf("the absence page of one away: %d forms", len(fs))
	}
	if code, _, _ := b.post(fs[0].action, fs[0].values); code != http.StatusOK {
		t.Fatalf("back: %d", code)
	}
	unchanged(t, f.st, id, func() { _, page = b.get("/g/" + id + "?" + other.Encode()) })
	if strings.Contains(page, "away until") {
		t.Fatal("still shown away after coming back")
	}
}

// TestControlAPI: the controls, an absence and back through the JSON
// API, with what the view then says; the wrong token is refused.
func TestControlAPI(t *testing.T) {
	f := newPageFixture(t)
	c := f.create(2, 3, 2)
	id := c.ID
	call := func(path, token, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", f.srv.URL+"/api/games/"+id+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var sb strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			sb.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, sb.String()
	}
	seat := f.seatToken(t, id, 0)
	if code, _ := call("/controls", seat, `{"control":"pause"}`); code != http.StatusForbidden {
		t.Fatalf("a seat's pause: %d", code)
	}
	if code, body := call("/controls", c.OrganiserToken, `{"control":"pause"}`); code != http.StatusOK || !strings.Contains(body, `"paused":true`) || !strings.Contains(body, `"what":"pause"`) {
		t.Fatalf("pause: %d %s", code, body)
	}
	if code, body := call("/controls", c.OrganiserToken, `{"control":"bot","seat":1}`); code != http.StatusOK || !strings.Contains(body, `"bot":true`) {
		t.Fatalf("bot: %d %s", code, body)
	}
	if code, body := call("/back", f.seatToken(t, id, 1), ``); code != http.StatusOK || strings.Contains(body, `"bot":true`) {
		t.Fatalf("back: %d %s", code, body)
	}
	if code, body := call("/away", seat, `{"until":"2026-12-03"}`); code != http.StatusOK || !strings.Contains(body, `"away":true`) {
		t.Fatalf("away: %d %s", code, body)
	}
	if code, _ := call("/away", c.OrganiserToken, `{}`); code != http.StatusForbidden {
		t.Fatalf("the organiser's absence: %d", code)
	}
	if code, body := call("/controls", c.OrganiserToken, `{"control":"resume"}`); code != http.StatusOK || strings.Contains(body, `"paused"`) {
		t.Fatalf("resume: %d %s", code, body)
	}
	if code, body := call("/controls", c.OrganiserToken, `{"control":"end"}`); code != http.StatusOK || !strings.Contains(body, `"status":"over"`) {
		t.Fatalf("end: %d %s", code, body)
	}
	f.replaysExactly(id)
	// A game that has not started is cancelled, once.
	w := f.create(2, 3, 0)
	id = w.ID
	if code, body := call("/controls", w.OrganiserToken, `{"control":"cancel"}`); code != http.StatusOK || !strings.Contains(body, `"status":"cancelled"`) {
		t.Fatalf("cancel: %d %s", code, body)
	}
	if code, _ := call("/controls", w.OrganiserToken, `{"control":"cancel"}`); code != http.StatusOK {
		t.Fatalf("cancel again: %d", code)
	}
}
