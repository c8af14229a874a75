package browser

import (
	"testing"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/infra/linksign"
)

// TestCardPickerOnPhone (issue 10, symptom 15): at 360 px every label of
// the exchange-card picker can be read whole — no option is wider than
// the list that shows it.
func TestCardPickerOnPhone(t *testing.T) {
	s := newSite(t, t.Name())
	b := newBrowser(t, s.url)
	people := []service.Person{{Name: "Вера", Email: "v@pbm.test", Lang: "ru"}, {Name: "Борис", Email: "b@pbm.test", Lang: "ru"},
		{Name: "Анна", Email: "a@pbm.test", Lang: "ru"}}
	g := newSeatedGame(t, s, businessman.Name, `{"laps":20}`, people)
	cards := func(eg engine.Game, seat int) int {
		n := 0
		for _, c := range eg.Legal(seat) {
			if c.Type == businessman.APlayCard {
				n++
			}
		}
		return n
	}
	var seat int
	g.playUntil(t, func(eg engine.Game) bool {
		for _, o := range eg.Owing() {
			if cards(eg, o) >= 6 {
				seat = o
				return true
			}
		}
		return false
	})
	rec, eg0 := g.game(t)
	for _, lang := range []string{"ru", "en"} {
		b.phone()
		b.open("seat", g.link(t, "", linksign.PurposeSeat, invite(rec, seat), lang))
		b.phone()
		t.Logf("%s: the picker at %s", lang, eval[string](b, `(() => { const f = document.querySelector("form[data-choice=play_card]"); const r = f.getBoundingClientRect(); return Math.round(r.top + scrollY) + " height " + Math.round(r.height); })()`))
		if n := eval[int](b, `Math.max(0, ...[...document.querySelectorAll("form[data-choice=play_card] select")].map(s => s.options.length))`); n < 6 {
			t.Fatalf("%s: the card picker lists %d cards, the engine offers %d", lang, n, cards(eg0, seat))
		}
		type cut struct {
			Text  string  `json:"text"`
			Need  float64 `json:"need"`
			Shown float64 `json:"shown"`
		}
		// Each option's text as the list's font draws it, against the
		// room the closed list gives its text (its width less padding and
		// the arrow).
		got := eval[[]cut](b, `(() => { const c = document.createElement("canvas").getContext("2d"); const out = [];
			for (const sel of document.querySelectorAll("form[data-choice] select")) {
				const cs = getComputedStyle(sel); c.font = cs.fontStyle + " " + cs.fontWeight + " " + cs.fontSize + " " + cs.fontFamily;
				const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 32;
				for (const o of sel.options) { const w = c.measureText(o.text).width; if (w > room) out.push({text: o.text, need: w, shown: room}); }
			}
			return out; })()`)
		for _, c := range got {
			t.Errorf("%s: the option %q needs %.0f px, the list shows %.0f", lang, c.Text, c.Need, c.Shown)
		}
		b.screenshot("issue10-card-picker-"+lang+"-360", phoneWidth)
	}
}
