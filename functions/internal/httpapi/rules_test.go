package httpapi_test

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/gamerecord"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TestRulesVersionKeepsOldGames (issue 15): a rule's number is changed
// behind a new rules version, as a rules change is made. A finished game
// and a game in play of the old version are unchanged — stored state,
// game page with its net-worth chart, the log's replay, the record — and
// the game in play goes on under its own rules, while a game made after
// the change gets the new rule.
func TestRulesVersionKeepsOldGames(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		options map[string]any
		event   string // the event that pays the changed number
		bump    func(t *testing.T) (old, changed int64)
	}{
		{western.Name, map[string]any{"laps": 2}, western.EvIncome, func(t *testing.T) (int64, int64) {
			book, cur := western.Rulebook, western.CurrentRules
			t.Cleanup(func() { western.Rulebook, western.CurrentRules = book, cur })
			r := book[cur]
			western.Rulebook = map[int]western.Rules{cur: r, cur + 1: {LapIncome: r.LapIncome * 10}}
			western.CurrentRules = cur + 1
			return r.LapIncome, r.LapIncome * 10
		}},
		{businessman.Name, map[string]any{"laps": 3}, businessman.EvStart, func(t *testing.T) (int64, int64) {
			book, cur := businessman.Rulebook, businessman.CurrentRules
			t.Cleanup(func() { businessman.Rulebook, businessman.CurrentRules = book, cur })
			r := book[cur]
			businessman.Rulebook = map[int]businessman.Rules{cur: r, cur + 1: {StartBonus: r.StartBonus * 10}}
			businessman.CurrentRules = cur + 1
			return r.StartBonus, r.StartBonus * 10
		}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			f := newPageFixture(t)
			oldVersion := testGames.Engines().CurrentRules(tc.kind)
			finished := f.createKind(tc.kind, tc.options, 3, 3)
			f.playUntil(finished.ID, func(engine.Game, int) bool { return false })
			running := f.createKind(tc.kind, tc.options, 3, 3)
			f.playUntil(running.ID, func(_ engine.Game, moves int) bool { return moves >= 40 })

			// What the readers are shown of both games.
			type shown struct {
				state           []byte
				page, log, view string
				record          []byte
			}
			look := func(id string) shown {
				t.Helper()
				rec, _ := f.game(id)
				tok := f.token(linksign.PurposeSpectator, id, linksign.NoSeat)
				q := url.Values{"t": {tok}, "lang": {"en"}}
				var s shown
				s.state = rec.State
				_, s.page = f.page("/g/"+id, q)
				q.Set("step", strconv.Itoa(rec.Moves/2))
				_, s.log = f.page("/g/"+id+"/log", q)
				s.view = f.api("/api/games/"+id, tok)
				if rec.Status == service.StatusOver {
					_, s.record = f.send("GET", "/api/games/"+id+"/record", tok, nil)
				}
				return s
			}
			before := map[string]shown{finished.ID: look(finished.ID), running.ID: look(running.ID)}
			if !strings.Contains(before[finished.ID].page, `id="ch-h"`) {
				t.Fatal("the finished game's page draws no chart")
			}

			old, changed := tc.bump(t)
			if testGames.Engines().CurrentRules(tc.kind) != oldVersion+1 {
				t.Fatalf("the new version is not the current one")
			}
			for id, was := range before {
				now := look(id)
				switch {
				case !bytes.Equal(now.state, was.state):
					t.Errorf("game %s: the stored state changed", id)
				case now.page != was.page:
					t.Errorf("game %s: the game page (standings, chart) changed", id)
				case now.log != was.log:
					t.Errorf("game %s: the log's replay changed", id)
				case now.view != was.view:
					t.Errorf("game %s: the API view changed", id)
				case !bytes.Equal(now.record, was.record):
					t.Errorf("game %s: the record changed", id)
				}
			}
			doc, err := gamerecord.Decode(bytes.NewReader(before[finished.ID].record))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Rules != oldVersion {
				t.Errorf("the finished game's record says rules %d, want %d", doc.Rules, oldVersion)
			}
			if _, err := gamerecord.Verify(testGames.Engines(), doc); err != nil {
				t.Errorf("the finished game's record no longer replays: %v", err)
			}

			// The game in play goes on to its end under its own rules; a
			// new game gets the new one.
			f.playUntil(running.ID, func(engine.Game, int) bool { return false })
			fresh := f.createKind(tc.kind, tc.options, 3, 3)
			f.playUntil(fresh.ID, func(engine.Game, int) bool { return false })
			for _, g := range []struct {
				id    string
				rules int
				pays  int64
			}{{finished.ID, oldVersion, old}, {running.ID, oldVersion, old}, {fresh.ID, oldVersion + 1, changed}} {
				rec, _ := f.game(g.id)
				if rec.Rules != g.rules {
					t.Errorf("game %s: rules version %d, want %d", g.id, rec.Rules, g.rules)
				}
				entries, err := f.svc.FullLog(t.Context(), rec)
				if err != nil {
					t.Fatal(err)
				}
				paid := 0
				for _, e := range entries {
					for _, ev := range e.Events {
						if ev.Type == tc.event {
							paid++
							if ev.Amount != g.pays {
								t.Fatalf("game %s (rules %d) pays %s %d at step %d, want %d", g.id, rec.Rules, tc.event, ev.Amount, e.N, g.pays)
							}
						}
					}
				}
				if paid == 0 {
					t.Errorf("game %s never paid %s: the rule was not put to the test", g.id, tc.event)
				}
				_, raw := f.send("GET", "/api/games/"+g.id+"/record", f.token(linksign.PurposeSpectator, g.id, linksign.NoSeat), nil)
				doc, err := gamerecord.Decode(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := gamerecord.Verify(testGames.Engines(), doc); err != nil || doc.Rules != g.rules {
					t.Errorf("game %s: the record of rules %d does not replay: %v", g.id, doc.Rules, err)
				}
			}
		})
	}
}
