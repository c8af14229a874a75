package httpapi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// choiceView is one form of the seat page: one decision, one button —
// or several decisions that differ in one thing (whom to sell a lot to,
// which colour to play a card on), chosen in a list.
type choiceView struct {
	engine.Choice
	Index    int    // in the engine's legal list (the first, for a list)
	Label    string // the button
	Note     string // what it costs or brings, when the page knows
	Value    int64  // a ranged choice's initial amount
	Unit     string // what a ranged amount counts
	AltLabel string // the list's label
	Alts     []altView
	Titled   bool // its group's title already says what Label says
}

// altView is one decision of a form's list. Its value names the fields
// that tell it from the others (altValue).
type altView struct {
	Value, Label string
}

// altValue writes the fields of a decision the list picks: cell, target,
// good, and the amount unless the player types it (or it is 0).
func altValue(c engine.Choice) string {
	v := strconv.Itoa(c.Cell) + "/" + strconv.Itoa(c.Target) + "/" + c.Good + "/"
	if !c.Ranged() && c.Amount != 0 {
		v += strconv.FormatInt(c.Amount, 10)
	}
	return v
}

// parseAlt reads an altValue into a.
func parseAlt(v string, a *engine.Action) error {
	f := strings.Split(v, "/")
	if len(f) != 4 {
		return fmt.Errorf("alt %q: want cell/target/good/amount", v)
	}
	var err error
	if a.Cell, err = strconv.Atoi(f[0]); err != nil {
		return fmt.Errorf("alt cell: %w", err)
	}
	if a.Target, err = strconv.Atoi(f[1]); err != nil {
		return fmt.Errorf("alt target: %w", err)
	}
	a.Good = f[2]
	if f[3] != "" {
		if a.Amount, err = strconv.ParseInt(f[3], 10, 64); err != nil {
			return fmt.Errorf("alt amount: %w", err)
		}
	}
	return nil
}

// choiceGroup is a run of decisions of one kind; a long one is folded,
// and one the page has no room for is a link to a page that lists it.
type choiceGroup struct {
	Key, Title string
	Fold       bool
	Choices    []choiceView
	Count      int    // decisions in it, those in lists included
	More       string // the link, when the forms are left out
}

// foldOver folds a group longer than this, or of forms that weigh more
// (a single form, whatever its list, is never folded alone).
const foldOver = 4

// maxForms bounds the forms one page lists, to keep it light with its
// board (SPEC §6: 60 KB): past it, the longest folded groups become links
// to a page of their own. A game's "own" groups are always such a link.
const maxForms = 20

// endTurn is the action type of both games that ends a turn: its button
// says so itself.
const endTurn = "end"

// turnEnders asks the engine which of the seat's decisions end its turn
// at once (buying narcotics on a cell with nothing else to do, going to
// prison): each is applied to the game (a pure function, nothing is
// kept) and the turn looked at. A ranged decision is tried with its
// least amount. Only decisions of the seat's own turn are tried.
func turnEnders(g engine.Game, seat int, legal []engine.Choice) map[int]bool {
	if g.Turn() != seat {
		return nil
	}
	ends := map[int]bool{}
	for i, c := range legal {
		if c.Type == endTurn || c.Type == engine.Resign {
			continue
		}
		a := c.Action
		if c.Ranged() {
			a.Amount = c.Min
		}
		next, _, err := g.Apply(seat, a)
		if err == nil && (next.Over() || next.Turn() != seat) {
			ends[i] = true
		}
	}
	return ends
}

// arrangeChoices puts the default decision first (the one a missed
// deadline plays, and the first form of the page) and groups the rest as
// the game's presenter says; ends marks the decisions that end the turn. focus names the group a page of its own
// lists (every other long group is then a link); more makes the link to
// a group's page.
func arrangeChoices(l string, p present.Game, legal []engine.Choice, view any, names []string, ends map[int]bool, focus string, more func(group string) string) (*choiceView, []choiceGroup) {
	name := nameFunc(names)
	describe := func(i int) (choiceView, present.Choice) {
		c := legal[i]
		pc := p.Choice(l, c, view, name)
		cv := choiceView{Choice: c, Index: i, Label: pc.Label, Note: pc.Note, Unit: pc.Unit, Value: c.Min}
		if c.Ranged() && pc.Value >= c.Min && pc.Value <= c.Max {
			cv.Value = pc.Value
		}
		if ends[i] {
			cv.Note = strings.TrimPrefix(cv.Note+" · "+templates.T(l, "ends_turn"), " · ")
		}
		if c.Type == engine.Resign { // every game's; a last resort, said plainly
			cv.Label, cv.Note = templates.T(l, "resign"), templates.T(l, "resign_note")
		}
		return cv, pc
	}
	first := -1
	for i, c := range legal {
		if c.Default {
			first = i
			break
		}
	}
	if first < 0 && len(legal) > 0 { // no default: the first choice leads
		first = 0
	}
	var lead *choiceView
	byGroup := map[string][]choiceView{}
	forms := map[string]int{} // a list's key → its form in its group
	for i := range legal {
		cv, pc := describe(i)
		if i == first {
			lead = &cv
			continue
		}
		g := pc.Group
		if g == "" {
			g = "grp_here"
		}
		if pc.Form == "" {
			byGroup[g] = append(byGroup[g], cv)
			continue
		}
		key := g + "\x00" + pc.Form
		alt := altView{Value: altValue(cv.Choice), Label: pc.Alt}
		if k, ok := forms[key]; ok {
			f := &byGroup[g][k]
			f.Alts = append(f.Alts, alt)
			if f.Ranged() { // an amount every decision of the list takes
				f.Min, f.Max = min(f.Min, cv.Min), max(f.Max, cv.Max)
				f.Value = min(f.Value, cv.Value)
			}
			continue
		}
		cv.AltLabel, cv.Alts = pc.AltLabel, []altView{alt}
		forms[key] = len(byGroup[g])
		byGroup[g] = append(byGroup[g], cv)
	}
	var out []choiceGroup
	for _, gr := range p.Groups() {
		cs := byGroup[gr.Key]
		if len(cs) == 0 {
			continue
		}
		title := ""
		if gr.Key != "grp_here" {
			title = templates.T(l, gr.Key)
		}
		n := 0
		for _, c := range cs {
			n += max(1, len(c.Alts))
		}
		for i := range cs {
			cs[i].Titled = title != "" && cs[i].Label == title
		}
		cg := choiceGroup{Key: gr.Key, Title: title, Choices: cs, Count: n}
		cg.Fold = gr.Key != focus && (gr.Own || gr.Key == "grp_leave" || len(cs) > foldOver || len(cs) > 1 && cg.weight() > foldOver+1)
		fold := cg.Fold
		if gr.Own && gr.Key != focus || focus != "" && fold && gr.Key != "grp_leave" {
			cg.More = more(gr.Key)
		}
		out = append(out, cg)
	}
	// Which other folded groups the page leaves to their own page: the
	// heaviest until the page's forms fit.
	total := 1.0
	for _, g := range out {
		if g.More == "" {
			total += g.weight()
		}
	}
	for total > maxForms {
		heaviest := -1
		for i, g := range out {
			if g.Fold && g.More == "" && g.Key != focus && g.Key != "grp_leave" && (heaviest < 0 || g.weight() > out[heaviest].weight()) {
				heaviest = i
			}
		}
		if heaviest < 0 {
			break
		}
		out[heaviest].More = more(out[heaviest].Key)
		total -= out[heaviest].weight()
	}
	return lead, out
}

// altsPerForm is how many options of a list weigh as much as a form.
const altsPerForm = 5

// weight is what a group's forms weigh on the page, in forms.
func (g choiceGroup) weight() float64 {
	w := 0.0
	for _, c := range g.Choices {
		w += 1 + float64(len(c.Alts))/altsPerForm
	}
	return w
}
