package views

import (
	"strings"
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
)

// TestTurnEndersMarked (issue 10, 14): buying narcotics ends the turn at
// once, so the page must not say "do what you want here, then end the
// turn": the prompt says only to choose, and each decision the engine
// says ends the turn is marked so, the others not.
func TestTurnEndersMarked(t *testing.T) {
	var seed [32]byte
	copy(seed[:], "turn enders")
	g, err := testGames.Engines().New(western.Name, testGames.Engines().CurrentRules(western.Name), []byte(`{"laps":30}`), 4, seed)
	if err != nil {
		t.Fatal(err)
	}
	p := testGames.For(western.Name)
	names := []string{"Вера", "Борис", "Анна", "Игорь"}
	seen, ended := 0, 0
	for n := 0; !g.Over() && n < 20_000 && seen < 5; n++ {
		seat := g.Owing()[0]
		legal := g.Legal(seat)
		if i := findType(legal, western.ANarcoBuy); i >= 0 && g.Turn() == seat {
			seen++
			ends := TurnEnders(g, seat, legal)
			a := legal[i].Action
			a.Amount = legal[i].Min
			next, _, err := g.Apply(seat, a)
			if err != nil {
				t.Fatal(err)
			}
			want := next.Turn() != seat || next.Over()
			if ends[i] != want {
				t.Fatalf("narco_buy ends the turn: %v, marked %v", want, ends[i])
			}
			if want {
				ended++
			}
			for _, l := range []string{"ru", "en"} {
				prompt := p.Prompt(l, g.View(seat), seat, true, NameFunc(names))
				if strings.Contains(prompt, "end the turn") || strings.Contains(prompt, "закончите ход") {
					t.Errorf("%s prompt %q promises the player ends the turn", l, prompt)
				}
				lead, groups := Arrange(l, p, legal, g.View(seat), names, ends, "", func(string) string { return "" })
				all := []Choice{*lead}
				for _, gr := range groups {
					all = append(all, gr.Choices...)
				}
				for _, cv := range all {
					marked := strings.Contains(cv.Note, "ends your turn") || strings.Contains(cv.Note, "ход на этом закончится")
					if marked != ends[cv.Index] {
						t.Errorf("%s: %s marked %v, ends the turn %v (note %q)", l, cv.Type, marked, ends[cv.Index], cv.Note)
					}
				}
			}
		}
		bot, _ := g.Bot(seat)
		if g, _, err = g.Apply(seat, bot); err != nil {
			t.Fatal(err)
		}
	}
	if ended == 0 {
		t.Fatalf("of %d stops offering narcotics none ended the turn", seen)
	}
}

func findType(cs []engine.Choice, typ string) int {
	for i, c := range cs {
		if c.Type == typ {
			return i
		}
	}
	return -1
}
