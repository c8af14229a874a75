package httpapi_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/gamerecord"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// send makes a request of the fixture's server and answers its status
// and body.
func (f *pageFixture) send(method, path, token string, body []byte) (int, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.srv.URL+path, bytes.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestGameRecordRoundTrip (issue 15), for both games: a game is played
// to its end; its record, downloaded from the API and from the game-over
// page's link, carries the commitment every reader was shown at creation
// and the seed that hashes to it, and replays from itself alone — every
// roll and every card drawn recomputed and equal. Imported into the
// service it becomes a finished game to view whose record is the same;
// a tampered record is refused with the step where it diverges.
func TestGameRecordRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		options map[string]any
		cards   bool // the game draws cards
	}{
		{western.Name, map[string]any{"laps": 2}, false},
		{businessman.Name, map[string]any{"laps": 3}, true},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			f := newPageFixture(t)
			c := f.createKind(tc.kind, tc.options, 3, 0)
			var view httpapi.GameView
			if err := json.Unmarshal([]byte(f.api("/api/games/"+c.ID, c.SpectatorToken)), &view); err != nil {
				t.Fatal(err)
			}
			published := view.SeedSHA256
			for i := range 3 {
				if _, err := f.svc.Accept(t.Context(), c.ID, i); err != nil {
					t.Fatal(err)
				}
			}
			f.playUntil(c.ID, func(_ engine.Game, moves int) bool { return moves == 10 })
			if status, body := f.send("GET", "/api/games/"+c.ID+"/record", c.SpectatorToken, nil); status != http.StatusConflict {
				t.Fatalf("the record of a game in play: %d %s, want 409", status, body)
			}
			f.playUntil(c.ID, func(engine.Game, int) bool { return false })

			status, raw := f.send("GET", "/api/games/"+c.ID+"/record", c.SpectatorToken, nil)
			if status != http.StatusOK {
				t.Fatalf("GET record: %d %s", status, raw)
			}
			_, page := f.page("/g/"+c.ID, url.Values{"t": {f.token(linksign.PurposeSeat, c.ID, 1)}, "lang": {"en"}})
			link := "/g/" + c.ID + "/record?"
			i := strings.Index(page, link)
			if i < 0 {
				t.Fatal("the game-over page has no link to the record")
			}
			href := page[i:]
			href = strings.ReplaceAll(href[:strings.IndexByte(href, '"')], "&amp;", "&")
			q, _ := url.ParseQuery(href[len(link):])
			if _, fromPage := f.page("/g/"+c.ID+"/record", q); fromPage != string(raw) {
				t.Error("the page's link gives another record than the API")
			}

			// From the record alone: the published commitment, the
			// revealed seed, every roll and card.
			doc, err := gamerecord.Decode(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			seed, err := hex.DecodeString(doc.Seed)
			if err != nil {
				t.Fatal(err)
			}
			if sum := sha256.Sum256(seed); doc.SeedSHA256 != published || hex.EncodeToString(sum[:]) != published {
				t.Fatalf("the record's seed hashes to %x and it carries %s; the commitment published at creation was %s", sum, doc.SeedSHA256, published)
			}
			rep, err := gamerecord.Verify(testGames.Engines(), doc)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Steps != len(doc.Commands) || rep.Rolls == 0 || tc.cards && rep.Cards == 0 {
				t.Fatalf("the replay checked %d of %d steps, %d rolls, %d cards", rep.Steps, len(doc.Commands), rep.Rolls, rep.Cards)
			}
			t.Logf("%s: %d steps, %d events, %d rolls, %d cards recomputed; record %d bytes", tc.kind, rep.Steps, rep.Events, rep.Rolls, rep.Cards, len(raw))

			// Import: a game to view, whose record is the same.
			status, body := f.send("POST", "/api/records", "", raw)
			if status != http.StatusCreated {
				t.Fatalf("import: %d %s", status, body)
			}
			var imp service.Imported
			if err := json.Unmarshal(body, &imp); err != nil {
				t.Fatal(err)
			}
			if imp.ID == c.ID || imp.Steps != rep.Steps || imp.Rolls != rep.Rolls || imp.Cards != rep.Cards {
				t.Errorf("import answered %+v", imp)
			}
			status, again := f.send("GET", "/api/games/"+imp.ID+"/record", imp.SpectatorToken, nil)
			if status != http.StatusOK {
				t.Fatalf("GET the imported record: %d %s", status, again)
			}
			doc2, err := gamerecord.Decode(bytes.NewReader(again))
			if err != nil {
				t.Fatal(err)
			}
			doc2.ID = doc.ID
			if a, b := mustMarshal(t, doc), mustMarshal(t, doc2); !bytes.Equal(a, b) {
				t.Error("the imported game's record differs from the one imported")
			}
			if _, err := gamerecord.Verify(testGames.Engines(), doc2); err != nil {
				t.Errorf("the imported game's record does not replay: %v", err)
			}
			_, viewed := f.page("/g/"+imp.ID, url.Values{"t": {imp.SpectatorToken}, "lang": {"en"}})
			for _, name := range doc.Seats {
				if !strings.Contains(viewed, name.Name) && !strings.Contains(viewed, strings.ReplaceAll(name.Name, "'", "&#39;")) {
					t.Errorf("the imported game's page does not name %s", name.Name)
				}
			}
			if !strings.Contains(viewed, doc.Seed) || !strings.Contains(viewed, `id="ch-h"`) {
				t.Error("the imported game's page shows no seed or no chart")
			}

			// Tampered records are refused, the divergent step named.
			mid := len(doc.Commands) / 2
			roll := -1
			for k := mid; k < len(doc.Commands) && roll < 0; k++ {
				for _, e := range doc.Commands[k].Events {
					if e.Type == "roll" {
						roll = k
					}
				}
			}
			if roll < 0 {
				t.Fatal("no roll in the second half of the game")
			}
			for _, tamper := range []struct {
				name string
				step string
				edit func(d *gamerecord.Document)
			}{
				{"a roll changed", "step " + strconv.Itoa(roll), func(d *gamerecord.Document) {
					for k, e := range d.Commands[roll].Events {
						if e.Type == "roll" {
							if e.Other > 0 {
								d.Commands[roll].Events[k].Other = e.Other%6 + 1
							} else {
								d.Commands[roll].Events[k].Cell = e.Cell%6 + 1
							}
							break
						}
					}
				}},
				{"a command dropped", "step " + strconv.Itoa(mid), func(d *gamerecord.Document) {
					d.Commands = append(d.Commands[:mid:mid], d.Commands[mid+1:]...)
					for k := mid; k < len(d.Commands); k++ {
						d.Commands[k].N = k
					}
				}},
				{"another seed", "before the first step", func(d *gamerecord.Document) {
					d.Seed = strings.Repeat("0", 64)
				}},
				{"a score raised", "step " + strconv.Itoa(len(doc.Commands)), func(d *gamerecord.Document) {
					d.Result.Scores[0].NetWorth += 1000
				}},
			} {
				var bad gamerecord.Document
				if err := json.Unmarshal(raw, &bad); err != nil {
					t.Fatal(err)
				}
				tamper.edit(&bad)
				status, body := f.send("POST", "/api/records?lang=en", "", mustMarshal(t, &bad))
				if status != http.StatusBadRequest || !strings.Contains(string(body), tamper.step) {
					t.Errorf("%s: import answered %d %s; want 400 naming %q", tamper.name, status, body, tamper.step)
				} else {
					t.Logf("%s: %s", tamper.name, body)
				}
			}
		})
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestImportPage: the home page's form takes a record file; one that
// replays opens as a finished game, one that does not is refused with its
// divergent step, in the reader's language.
func TestImportPage(t *testing.T) {
	f := newPageFixture(t)
	c := f.createKind(businessman.Name, map[string]any{"laps": 3}, 3, 3)
	f.playUntil(c.ID, func(engine.Game, int) bool { return false })
	_, raw := f.send("GET", "/api/games/"+c.ID+"/record", c.SpectatorToken, nil)
	_, home := f.page("/", url.Values{"lang": {"en"}})
	if !strings.Contains(home, `action="/records?lang=en"`) || !strings.Contains(home, `type="file"`) {
		t.Fatal("the home page has no form for a record file")
	}
	upload := func(body []byte) *http.Response {
		t.Helper()
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, err := mw.CreateFormFile("record", "pbm.json")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(body)
		mw.Close()
		cl := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := cl.Post(f.srv.URL+"/records?lang=en", mw.FormDataContentType(), &buf)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	resp := upload(raw)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/g/") {
		t.Fatalf("a good record: %d to %q", resp.StatusCode, loc)
	}
	u, _ := url.Parse(loc)
	status, page := f.page(u.Path, u.Query())
	if status != http.StatusOK || !strings.Contains(page, `id="st-h"`) || !strings.Contains(page, `id="ch-h"`) {
		t.Errorf("the imported game's page: %d, standings or chart missing", status)
	}
	var doc gamerecord.Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc.Commands[5].Action.Type = "end"
	bad, _ := json.Marshal(doc)
	resp = upload(bad)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "step 5") {
		t.Errorf("a tampered record: %d %.300s; want 400 naming step 5", resp.StatusCode, body)
	}
	resp = upload([]byte(`{"hello": 1}`))
	body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "not a game record") {
		t.Errorf("not a record: %d %.300s", resp.StatusCode, body)
	}
}
