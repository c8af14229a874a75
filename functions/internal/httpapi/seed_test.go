package httpapi_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/compose"
	"github.com/pbmgames/pbm/functions/internal/httpapi"
	"github.com/pbmgames/pbm/functions/internal/notify"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TestSeedHiddenUntilTheEnd (issue 15): from the creation on every
// reader is shown the SHA-256 of the game's seed, and no page, mail or API
// response shows the seed itself until the game is over; then the
// game-over page, the final mail and the API reveal it, and it hashes to
// the commitment shown at the start.
func TestSeedHiddenUntilTheEnd(t *testing.T) {
	f := newPageFixture(t)
	c := f.createKind("western", map[string]any{"laps": 2}, 3, 0)
	rec, _, err := f.svc.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	seed := rec.Seed
	secrets := []string{hex.EncodeToString(seed), strings.ToUpper(hex.EncodeToString(seed)),
		base64.StdEncoding.EncodeToString(seed), base64.RawURLEncoding.EncodeToString(seed)}
	sum := sha256.Sum256(seed)
	commitment := hex.EncodeToString(sum[:])
	mails := compose.New(compose.Config{Games: testGames, Service: f.svc, BaseURL: f.srv.URL, NoPicture: true})

	spect := f.token(linksign.PurposeSpectator, c.ID, linksign.NoSeat)
	org := f.token(linksign.PurposeOrganiser, c.ID, linksign.NoSeat)
	// bodies is every page, API answer and mail of the game as it is now.
	bodies := func() map[string]string {
		out := map[string]string{}
		rec, ver, err := f.svc.Load(t.Context(), c.ID)
		if err != nil {
			t.Fatal(err)
		}
		readers := map[string]string{"spectator": spect, "organiser": org}
		for i := range rec.Seats {
			readers[fmt.Sprintf("seat %d", i)] = f.token(linksign.PurposeSeat, c.ID, i)
			q := url.Values{"t": {f.token(linksign.PurposeInvite, c.ID, i)}, "lang": {"en"}}
			_, out[fmt.Sprintf("invitation page %d", i)] = f.page("/g/"+c.ID+"/invite", q)
		}
		for who, tok := range readers {
			for _, l := range []string{"ru", "en"} {
				q := url.Values{"t": {tok}, "lang": {l}}
				_, out[who+" game page "+l] = f.page("/g/"+c.ID, q)
				if rec.State != nil {
					_, out[who+" log page "+l] = f.page("/g/"+c.ID+"/log", q)
				}
			}
			if who == "organiser" {
				_, out["organiser page"] = f.page("/g/"+c.ID+"/org", url.Values{"t": {tok}})
			}
			out[who+" API view"] = f.api("/api/games/"+c.ID, tok)
			_, rb := f.send("GET", "/api/games/"+c.ID+"/record", tok, nil)
			out[who+" API record"] = string(rb)
			_, out[who+" record link"] = f.page("/g/"+c.ID+"/record", url.Values{"t": {tok}})
			if rec.State != nil {
				out[who+" API log"] = f.api("/api/games/"+c.ID+"/log", tok)
				out[who+" API result"] = f.api("/api/games/"+c.ID+"/result", tok)
			}
			if strings.HasPrefix(who, "seat") && rec.State != nil {
				out[who+" API legal"] = f.api("/api/games/"+c.ID+"/legal", tok)
				out[who+" API orders"] = f.api("/api/games/"+c.ID+"/orders", tok)
			}
		}
		for i, m := range rec.Outbox {
			msg, err := mails.Compose(t.Context(), rec, ver, m)
			if errors.Is(err, notify.ErrObsolete) {
				continue
			}
			if err != nil {
				t.Fatalf("compose %s: %v", m.ID, err)
			}
			out[fmt.Sprintf("mail %d %s", i, m.Kind)] = msg.Subject + msg.Text + msg.HTML
		}
		return out
	}
	hidden := func(stage string) {
		t.Helper()
		for what, body := range bodies() {
			body = html.UnescapeString(body)
			for _, s := range secrets {
				if strings.Contains(body, s) {
					t.Errorf("%s: %s shows the seed", stage, what)
				}
			}
		}
	}
	var view httpapi.GameView
	if err := json.Unmarshal([]byte(f.api("/api/games/"+c.ID, spect)), &view); err != nil {
		t.Fatal(err)
	}
	if view.SeedSHA256 != commitment || view.Seed != "" {
		t.Fatalf("at creation the API shows commitment %q, seed %q; want %q and none", view.SeedSHA256, view.Seed, commitment)
	}
	if _, body := f.page("/g/"+c.ID, url.Values{"t": {spect}}); !strings.Contains(body, commitment) {
		t.Error("the spectators' page does not show the commitment at creation")
	}
	hidden("before the start")
	for i := range 3 {
		if _, err := f.svc.Accept(t.Context(), c.ID, i); err != nil {
			t.Fatal(err)
		}
	}
	for stage := 0; ; stage++ {
		_, g := f.game(c.ID)
		if g.Over() {
			break
		}
		hidden("playing")
		if _, body := f.page("/g/"+c.ID, url.Values{"t": {f.token(linksign.PurposeSeat, c.ID, 0)}}); !strings.Contains(body, commitment) {
			t.Error("a seat's page does not show the commitment")
		}
		f.playUntil(c.ID, func(_ engine.Game, moves int) bool { return moves >= (stage+1)*40 })
	}

	// Over: the seed is revealed everywhere the issue says.
	if rec, _ := f.game(c.ID); rec.Moves < 40 {
		t.Fatalf("the game ended after %d moves: too short to put anything to the test", rec.Moves)
	}
	all := bodies()
	want := hex.EncodeToString(seed)
	for _, what := range []string{"seat 0 game page ru", "seat 1 game page en", "spectator game page en", "organiser game page ru",
		"seat 0 API view", "spectator API view", "spectator API result", "organiser API record", "seat 2 record link"} {
		if !strings.Contains(all[what], want) {
			t.Errorf("over: %s does not reveal the seed", what)
		}
	}
	over := 0
	for what, body := range all {
		if strings.HasPrefix(what, "mail ") && strings.HasSuffix(what, " "+service.MailOver) {
			over++
			if !strings.Contains(body, want) || !strings.Contains(body, commitment) {
				t.Errorf("over: %s does not reveal the seed beside its commitment", what)
			}
		}
	}
	if over == 0 {
		t.Error("no game-over mail was composed")
	}
	if err := json.Unmarshal([]byte(all["seat 0 API view"]), &view); err != nil {
		t.Fatal(err)
	}
	revealed, err := hex.DecodeString(view.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if got := sha256.Sum256(revealed); hex.EncodeToString(got[:]) != view.SeedSHA256 || view.SeedSHA256 != commitment {
		t.Errorf("the revealed seed hashes to %x; the commitment shown was %s", got, commitment)
	}
}
