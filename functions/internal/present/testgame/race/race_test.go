package raceview

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/engine/testgame/race"
	"github.com/pbmgames/pbm/functions/internal/present"
)

// raceGames are the games of these tests: «Гонка» alone, as the
// catalog lists the real ones.
var raceGames = present.NewGames(games.New(race.Def()), Presenter)

var langs = []string{"ru", "en"}

func name(s int) string { return "P" + string(rune('0'+s)) }

// TestRegistered: the presenter is the one For finds, and the game's name
// and files reach the shared parts.
func TestRegistered(t *testing.T) {
	if raceGames.For(race.Name) != Presenter || !slices.Contains(raceGames.Kinds(), race.Name) {
		t.Fatal("the presenter is not the game's")
	}
	if got := raceGames.GameName("ru", race.Name) + "/" + raceGames.GameName("en", race.Name); got != "Гонка/Race" {
		t.Errorf("names %q", got)
	}
	if present.Board(Presenter) != nil {
		t.Error("«Гонка» draws no board: it proves a game without one is allowed")
	}
}

// TestFilesRead: every file reads, the presenter says its texts (their
// first look-up panics on a key a shared text has), its phrases are
// keyed by the engine's types, its rules are there in both languages.
func TestFilesRead(t *testing.T) {
	var texts map[string][2]string
	read(t, "texts.json", &texts)
	for k, v := range texts {
		if v[0] == "" || v[1] == "" || Presenter.Text("ru", k) != v[0] || Presenter.Text("en", k) != v[1] {
			t.Errorf("text %q: %q", k, v)
		}
	}
	var p present.Phrases
	read(t, "phrases.json", &p)
	actions := []string{race.ARoll, race.ARest, race.AResign}
	events := []string{race.EvRoll, race.EvMove, race.EvCoin, race.EvFinish, engine.EvResign, engine.EvTurn, engine.EvGameOver}
	for typ := range p.Actions {
		if !slices.Contains(actions, typ) {
			t.Errorf("phrase of action %q, which the engine does not have", typ)
		}
	}
	for _, typ := range actions {
		if _, ok := p.Actions[typ]; !ok {
			t.Errorf("action %q has no phrase", typ)
		}
	}
	for typ := range p.Events {
		if !slices.Contains(events, typ) {
			t.Errorf("phrase of event %q, which the engine does not have", typ)
		}
	}
	for _, l := range langs {
		if r := present.Rules(l, Presenter); !strings.Contains(string(r), "<h2>") {
			t.Errorf("no rules in %s", l)
		}
	}
	var api struct {
		Options, View string
		Text          map[string]string
		Schemas       map[string]map[string]json.RawMessage
	}
	read(t, "openapi.json", &api)
	// Its options and view only: the create request is made from them
	// (httpapi.OpenAPI).
	for group, name := range map[string]string{"options": api.Options, "view": api.View} {
		if _, ok := api.Schemas[group][name]; !ok {
			t.Errorf("openapi.json: no %s schema %q", group, name)
		}
	}
}

func read(t *testing.T, file string, v any) {
	t.Helper()
	b, ok := present.File(Presenter, file)
	if !ok {
		t.Fatalf("no %s", file)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// playAll plays seeded games of every kind of ending — the bots to the
// finish, random choices (rests and resignations included), the
// organiser's End — handing each state and the events that led to it to
// see.
func playAll(t *testing.T, see func(g engine.Game, ev []engine.Event)) {
	t.Helper()
	for i := range 30 {
		seed := [32]byte{byte(i), 'p'}
		opts := []byte(`{"track":` + []string{"10", "20", "40"}[i%3] + `}`)
		g, err := raceGames.Engines().New(race.Name, raceGames.Engines().CurrentRules(race.Name), opts, 2, seed)
		if err != nil {
			t.Fatal(err)
		}
		see(g, nil)
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		for step := 0; !g.Over(); step++ {
			var ev []engine.Event
			seat := g.Owing()[0]
			var a engine.Action
			switch {
			case i%10 == 9 && step == 0:
				g, ev, err = g.Apply(engine.Organiser, engine.Action{Type: engine.End})
				if err != nil {
					t.Fatal(err)
				}
				see(g, ev)
				continue
			case i%2 == 0:
				a, _ = g.Bot(seat)
			default:
				legal := g.Legal(seat)
				a = legal[rng.IntN(len(legal))].Action
			}
			if g, ev, err = g.Apply(seat, a); err != nil {
				t.Fatal(err)
			}
			see(g, ev)
		}
	}
}

// fallback is how an event the presenter has no words for reads.
func fallback(e engine.Event) string { return name(e.Seat) + ": " + e.Type }

// TestEverythingWorded: every event and decision of those games is worded
// in both languages — none falls back to the engine's codes —, every seat
// has its panel, the seat that owes is told what to do, the track is
// listed cell by cell, a finished game says why it ended and its score's
// parts are named.
func TestEverythingWorded(t *testing.T) {
	p := raceGames.For(race.Name)
	events, choices, overs := map[string]bool{}, map[string]bool{}, map[int]bool{}
	playAll(t, func(g engine.Game, ev []engine.Event) {
		for _, l := range langs {
			for _, e := range ev {
				events[e.Type] = true
				if text := present.EventText(l, p, e, -1, name); text == "" || strings.HasPrefix(text, fallback(e)) {
					t.Fatalf("%s: event %+v is not worded: %q", l, e, text)
				}
				if e.Type == engine.EvGameOver {
					overs[e.Other] = true
				}
			}
			for _, s := range g.Owing() {
				view := g.View(s)
				if pr := p.Prompt(l, view, s, true, name); pr == "" {
					t.Fatalf("%s: seat %d is not told what to do", l, s)
				}
				if pr := p.Prompt(l, g.View(1-s), 1-s, false, name); pr == "" {
					t.Fatalf("%s: the seat that waits is not told on whom", l)
				}
				for _, c := range g.Legal(s) {
					choices[c.Type] = true
					ch := p.Choice(l, c, view, name)
					if ch.Label == "" || ch.Label == c.Type || !slices.ContainsFunc(p.Groups(), func(gr present.Group) bool { return gr.Key == ch.Group }) {
						t.Fatalf("%s: choice %+v is not worded: %+v", l, c, ch)
					}
					if cmd := p.Command(l, c.Action, name); cmd == c.Type || present.PlayedFor(l, p, c.Action, "deadline", name) == "" {
						t.Fatalf("%s: action %s has no words", l, c.Type)
					}
				}
			}
			view := g.View(engine.Spectator)
			seats := p.Seats(l, view)
			if len(seats) != g.Seats() {
				t.Fatalf("%s: %d panels of %d seats", l, len(seats), g.Seats())
			}
			for i, s := range seats {
				if s.Cell == "" || len(s.Facts) == 0 || s.Laps != 0 || s.LapsOf != 0 {
					t.Fatalf("%s: seat %d's panel %+v", l, i, s)
				}
			}
			v := view.(race.View)
			if sq := p.Squares(l, view, name); len(sq) != v.Track+1 || sq[0].Name == "" || sq[v.Track].Name == "" {
				t.Fatalf("%s: squares %+v", l, sq)
			}
			if g.Over() {
				if present.OverText(p, l, ev, name) == "" {
					t.Fatalf("%s: the end is not told", l)
				}
				for _, sc := range g.Score() {
					for _, part := range p.Parts(l, sc.Parts) {
						if part.Label == "" || strings.Contains(part.Label, "_") || part.Label == race.PartCells {
							t.Fatalf("%s: part %+v is not named", l, part)
						}
					}
				}
			}
		}
	})
	for _, typ := range []string{race.EvRoll, race.EvMove, race.EvCoin, race.EvFinish, engine.EvResign, engine.EvTurn, engine.EvGameOver} {
		if !events[typ] {
			t.Errorf("no game came to an event %q", typ)
		}
	}
	for _, typ := range []string{race.ARoll, race.ARest, race.AResign} {
		if !choices[typ] {
			t.Errorf("no game came to a choice %q", typ)
		}
	}
	for _, why := range []int{race.OverFinish, engine.OverLastOne, engine.OverEnded} {
		if !overs[why] {
			t.Errorf("no game ended for reason %d", why)
		}
	}
}

// TestOptions: the options are summed up and described for the form.
func TestOptions(t *testing.T) {
	p := raceGames.For(race.Name)
	for _, tc := range []struct{ l, raw, want string }{
		{"ru", ``, "трасса — 20 клеток"},
		{"ru", `{"track":21}`, "трасса — 21 клетка"},
		{"ru", `{"track":22}`, "трасса — 22 клетки"},
		{"ru", `{"track":11}`, "трасса — 11 клеток"},
		{"en", `{"track":12}`, "a track of 12 cells"},
		{"en", `[1]`, ""},
	} {
		if got := p.Options(tc.l, json.RawMessage(tc.raw)); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.l, tc.raw, got, tc.want)
		}
	}
	if d := p.OptionDefaults(); len(d) != 1 || d["track"] != float64(race.DefaultTrack) {
		t.Errorf("defaults %v", d)
	}
	for _, l := range langs {
		o := p.Option(l, "track")
		if o.Label == "" || o.Label == "opt_track" || o.Min != race.MinTrack || o.Max != race.MaxTrack {
			t.Errorf("%s: option %+v", l, o)
		}
	}
}

// TestViewMatchesSchema: the views' fields are those openapi.json
// describes, the required ones always there.
func TestViewMatchesSchema(t *testing.T) {
	type schema struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	var api struct {
		Schemas struct {
			View map[string]schema `json:"view"`
		} `json:"schemas"`
	}
	read(t, "openapi.json", &api)
	check := func(what string, s schema, obj map[string]json.RawMessage) {
		for k := range obj {
			if _, ok := s.Properties[k]; !ok {
				t.Fatalf("%s: field %q is not in the schema", what, k)
			}
		}
		for _, k := range s.Required {
			if _, ok := obj[k]; !ok {
				t.Fatalf("%s: required field %q is missing", what, k)
			}
		}
	}
	playAll(t, func(g engine.Game, _ []engine.Event) {
		for seat := engine.Spectator; seat < g.Seats(); seat++ {
			b, _ := json.Marshal(g.View(seat))
			var v map[string]json.RawMessage
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			check("RaceView", api.Schemas.View["RaceView"], v)
			var players []map[string]json.RawMessage
			if err := json.Unmarshal(v["players"], &players); err != nil {
				t.Fatal(err)
			}
			for _, p := range players {
				check("RacePlayer", api.Schemas.View["RacePlayer"], p)
			}
		}
	})
}

// TestOnlyTestsImportIt: no package of the program depends on the
// test-only game or its presentation; only tests may.
func TestOnlyTestsImportIt(t *testing.T) {
	if testing.Short() {
		t.Skip("go list over the module")
	}
	// Every package of the module, with what its code (not its tests)
	// imports: none but the test-only ones may import them.
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "github.com/pbmgames/pbm/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.Contains(f[0], "/testgame/") || strings.Contains(f[0], "/conformance") {
			continue
		}
		for _, imp := range f[1:] {
			if strings.Contains(imp, "/testgame/") || strings.HasSuffix(imp, "/engine/conformance") {
				t.Errorf("%s imports %s, which is for tests only", f[0], imp)
			}
		}
	}
}
