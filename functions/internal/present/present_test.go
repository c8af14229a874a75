package present_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/functions/internal/present"
)

// botGame plays a seeded bot game of kind and hands every state, with the
// events that led to it, to see.
func botGame(t *testing.T, kind string, seats int, options string, see func(g engine.Game, ev []engine.Event)) {
	t.Helper()
	botGameSeed(t, kind, "", seats, options, see)
}

func botGameSeed(t *testing.T, kind, salt string, seats int, options string, see func(g engine.Game, ev []engine.Event)) {
	t.Helper()
	var seed [32]byte
	copy(seed[:], "present "+kind+salt)
	g, err := testGames.Engines().New(kind, testGames.Engines().CurrentRules(kind), []byte(options), seats, seed)
	if err != nil {
		t.Fatal(err)
	}
	see(g, nil)
	for n := 0; !g.Over(); n++ {
		if n > 50_000 {
			t.Fatal("the game does not end")
		}
		seat := g.Owing()[0]
		a, _ := g.Bot(seat)
		var ev []engine.Event
		if g, ev, err = g.Apply(seat, a); err != nil {
			t.Fatal(err)
		}
		see(g, ev)
	}
}

// fallbackMoney is the amount a presenter's fallback writes after an
// event's code.
var fallbackMoney = regexp.MustCompile(`^ [−$\d\s\x{00a0}]+\$?$`)

// TestEverythingWorded: every event and every decision a whole bot game of
// each game comes to is worded in both languages — none falls back to
// the engine's codes — and every seat has its panel.
func TestEverythingWorded(t *testing.T) {
	for _, tc := range []struct{ kind, options string }{
		{"western", `{"laps":3}`},
		{"businessman", `{"laps":6,"rent_claim":"claim"}`},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			p := testGames.For(tc.kind)
			name := func(s int) string { return "P" + string(rune('0'+s)) }
			events, choices := map[string]bool{}, map[string]bool{}
			for _, salt := range []string{"", "1", "2", "3"} {
				botGameSeed(t, tc.kind, salt, 4+len(salt), tc.options, func(g engine.Game, ev []engine.Event) {
					for _, l := range []string{"ru", "en"} {
						for _, e := range ev {
							events[e.Type] = true
							text := present.EventText(l, p, e, -1, name) // the deals' words are every game's
							if fb := name(e.Seat) + ": " + e.Type; text == fb || fallbackMoney.MatchString(strings.TrimPrefix(text, fb)) {
								t.Errorf("%s: event %+v is not worded: %q", l, e, text)
							}
						}
						for _, s := range g.Owing() {
							for _, c := range g.Legal(s) {
								choices[c.Type] = true
								ch := p.Choice(l, c, g.View(s), name)
								if ch.Label == "" || ch.Label == c.Type || ch.Group == "" {
									t.Errorf("%s: choice %+v is not worded: %+v", l, c, ch)
								}
								if label := p.ActionLabel(l, c.Action, name); label == c.Type {
									t.Errorf("%s: action %s has no label", l, c.Type)
								}
							}
						}
						if seats := p.Seats(l, g.View(engine.Spectator)); len(seats) != g.Seats() {
							t.Errorf("%s: %d panels of %d seats", l, len(seats), g.Seats())
						}
					}
				})
			}
			t.Logf("%d kinds of event and %d kinds of decision worded", len(events), len(choices))
			if len(events) < 15 || len(choices) < 8 {
				t.Errorf("only %d kinds of event and %d of decision seen", len(events), len(choices))
			}
		})
	}
}

// TestOwnHandOnly (B-2, P-3): a «Бизнесмен» panel lists the exchange
// cards of the reader's own seat, from its own view, and no other.
func TestOwnHandOnly(t *testing.T) {
	p := testGames.For(businessman.Name)
	botGame(t, businessman.Name, 3, `{"laps":2}`, func(g engine.Game, _ []engine.Event) {
		for reader := engine.Spectator; reader < g.Seats(); reader++ {
			for i, s := range p.Seats("ru", g.View(reader)) {
				for _, ls := range s.Lists {
					if ls.Private && i != reader {
						t.Fatalf("reader %d's view lists seat %d's hand", reader, i)
					}
					if ls.Private && len(ls.Items) != len(g.View(reader).(businessman.View).Hand) {
						t.Fatalf("seat %d's panel lists %d of its %d cards", i, len(ls.Items), len(g.View(reader).(businessman.View).Hand))
					}
				}
			}
		}
	})
}

// TestOptions: each game's create-form options are labelled, and
// «Бизнесмен»'s rent is chosen from its two words.
func TestOptions(t *testing.T) {
	for _, info := range testGames.Engines().List() {
		p := testGames.For(info.Kind)
		for name := range p.OptionDefaults() {
			for _, l := range []string{"ru", "en"} {
				if o := p.Option(l, name); o.Label == "" || strings.HasPrefix(o.Label, "opt_") {
					t.Errorf("%s: option %s of %s has no label: %q", l, name, info.Kind, o.Label)
				}
			}
		}
	}
	rent := testGames.For(businessman.Name).Option("ru", "rent_claim")
	if len(rent.Choices) != 2 || rent.Choices[0].Value != businessman.RentAuto {
		t.Errorf("rent_claim: %+v", rent)
	}
	if s := testGames.For(businessman.Name).Options("ru", []byte(`{"laps":5,"rent_claim":"claim"}`)); s != "5 кругов, аренду требует владелец" {
		t.Errorf("options: %q", s)
	}
}

// TestClaimPromptMatchesDefault (issue 10, 5): the rent-claim prompt
// says nothing the default contradicts: the default claims the rent, so
// the prompt may not say the rent is lost unless claimed.
func TestClaimPromptMatchesDefault(t *testing.T) {
	p := testGames.For(businessman.Name)
	name := func(s int) string { return "P" + string(rune('0'+s)) }
	asked := 0
	botGame(t, businessman.Name, 4, `{"laps":6,"rent_claim":"claim"}`, func(g engine.Game, _ []engine.Event) {
		for _, s := range g.Owing() {
			v := g.View(s).(businessman.View)
			if v.Phase != businessman.PhClaim {
				continue
			}
			asked++
			def, ok := g.Default(s)
			if !ok || def.Type != businessman.AClaim {
				t.Fatalf("the claim's default is %+v, %v", def, ok)
			}
			for _, l := range []string{"ru", "en"} {
				prompt := p.Prompt(l, v, s, true, name)
				if strings.Contains(prompt, "пропад") || strings.Contains(prompt, "lost") {
					t.Fatalf("%s: %q, yet a missed deadline claims the rent", l, prompt)
				}
			}
		}
	})
	if asked == 0 {
		t.Fatal("no rent was asked for")
	}
}
