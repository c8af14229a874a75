package views

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// Choice is one form of the seat page: one decision, one button —
// or several decisions that differ in one thing (whom to sell a lot to,
// which colour to play a card on), chosen in a list.
type Choice struct {
	engine.Choice
	Index int    // in the engine's legal list (the first, for a list)
	Label string // the button
	Note  string // what it costs or brings, when the page knows
	Value int64  // a ranged choice's initial amount (0: none, the player types it)
	Unit  string // what a ranged amount counts
	// Verb is what the button does ("Взять кредит"), and Format the
	// button's words with %s where a ranged amount goes (ButtonText).
	Verb, Format string
	AltLabel     string // the list's label
	Alts         []Alt
	Titled       bool // its group's title already says what Label says
}

// Alt is one decision of a form's list. Its value names the fields
// that tell it from the others (AltValue).
type Alt struct {
	Value, Label string
}

// AltValue writes the fields of a decision the list picks: cell, target,
// good, and the amount unless the player types it (or it is 0).
func AltValue(c engine.Choice) string {
	v := strconv.Itoa(c.Cell) + "/" + strconv.Itoa(c.Target) + "/" + c.Good + "/"
	if !c.Ranged() && c.Amount != 0 {
		v += strconv.FormatInt(c.Amount, 10)
	}
	return v
}

// ParseAlt reads an AltValue into a.
func ParseAlt(v string, a *engine.Action) error {
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

// Group is a run of decisions of one kind; a long one is folded,
// and one the page has no room for is a link to a page that lists it.
type Group struct {
	Key, Title string
	Fold       bool
	Choices    []Choice
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

// The groups the arrangement itself names: the decisions a presenter
// puts in no group, and leaving the game (never left to a page of its
// own).
const (
	groupHere  = "grp_here"
	groupLeave = "grp_leave"
)

// TurnEnders asks the engine which of the seat's decisions end its turn
// at once (buying narcotics on a cell with nothing else to do, going to
// prison): each is applied to the game (a pure function, nothing is
// kept) and the turn looked at. A ranged decision is tried with its
// least amount. Only decisions of the seat's own turn are tried.
func TurnEnders(g engine.Game, seat int, legal []engine.Choice) map[int]bool {
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

// Arrange puts the default decision first (the one a missed deadline
// plays, and the first form of the page) and groups the rest as the
// game's presenter says; ends marks the decisions that end the turn.
// focus names the group a page of its own lists (every other long group
// is then a link); more makes the link to a group's page.
func Arrange(l string, p present.Game, legal []engine.Choice, view any, names []string, ends map[int]bool, focus string, more func(group string) string) (*Choice, []Group) {
	d := describer{l: l, p: p, legal: legal, view: view, name: NameFunc(names), ends: ends}
	lead, byGroup := d.sort(leadIndex(legal))
	var out []Group
	for _, gr := range p.Groups() {
		if cs := byGroup[gr.Key]; len(cs) > 0 {
			out = append(out, newGroup(l, p, gr, cs, focus, more))
		}
	}
	fit(out, focus, more)
	return lead, out
}

// leadIndex is the decision that leads the page: the default, else the
// first; −1 for none.
func leadIndex(legal []engine.Choice) int {
	for i, c := range legal {
		if c.Default {
			return i
		}
	}
	if len(legal) > 0 { // no default: the first choice leads
		return 0
	}
	return -1
}

// describer words the decisions of one seat page.
type describer struct {
	l     string
	p     present.Game
	legal []engine.Choice
	view  any
	name  func(int) string
	ends  map[int]bool
}

// describe words decision i: its form, and what the presenter says of it.
func (d describer) describe(i int) (Choice, present.Choice) {
	c := d.legal[i]
	pc := d.p.Choice(d.l, c, d.view, d.name)
	// No amount is filled in that the player did not choose (issue 27:
	// the least credit, filled in, was taken with one press), unless the
	// presenter suggests one or only one is possible.
	cv := Choice{Choice: c, Index: i, Label: pc.Label, Note: pc.Note, Unit: pc.Unit, Verb: pc.Label, Format: pc.Button}
	switch {
	case !c.Ranged():
	case c.Min == c.Max:
		cv.Value = c.Min
	case pc.Value > 0 && pc.Value >= c.Min && pc.Value <= c.Max:
		cv.Value = pc.Value
	}
	if d.ends[i] {
		cv.Note = strings.TrimPrefix(cv.Note+" · "+templates.T(d.l, "ends_turn"), " · ")
	}
	if c.Type == engine.Resign { // every game's; a last resort, said plainly
		cv.Label, cv.Note = templates.T(d.l, "resign"), templates.T(d.l, "resign_note")
	}
	return cv, pc
}

// sort words every decision: the lead apart, the others into their
// groups, those the presenter lists in one form joined in it.
func (d describer) sort(first int) (*Choice, map[string][]Choice) {
	var lead *Choice
	byGroup := map[string][]Choice{}
	forms := map[string]int{} // a list's key → its form in its group
	for i := range d.legal {
		cv, pc := d.describe(i)
		if i == first {
			lead = &cv
			continue
		}
		g := pc.Group
		if g == "" {
			g = groupHere
		}
		if pc.Form == "" {
			byGroup[g] = append(byGroup[g], cv)
			continue
		}
		key := g + "\x00" + pc.Form
		alt := Alt{Value: AltValue(cv.Choice), Label: pc.Alt}
		if k, ok := forms[key]; ok {
			byGroup[g][k].join(cv, alt)
			continue
		}
		cv.AltLabel, cv.Alts = pc.AltLabel, []Alt{alt}
		forms[key] = len(byGroup[g])
		byGroup[g] = append(byGroup[g], cv)
	}
	return lead, byGroup
}

// join adds decision cv to the list of form f, as alt.
func (f *Choice) join(cv Choice, alt Alt) {
	f.Alts = append(f.Alts, alt)
	if f.Ranged() { // an amount every decision of the list takes
		f.Min, f.Max = min(f.Min, cv.Min), max(f.Max, cv.Max)
		f.Value = min(f.Value, cv.Value)
	}
}

// newGroup makes the group gr of forms cs: its title, and whether it is
// folded or left to a page of its own.
func newGroup(l string, p present.Game, gr present.Group, cs []Choice, focus string, more func(string) string) Group {
	title := ""
	if gr.Key != groupHere {
		title = p.Text(l, gr.Key)
	}
	n := 0
	for i, c := range cs {
		n += max(1, len(c.Alts))
		cs[i].Titled = title != "" && c.Label == title
		if len(c.Alts) > 0 && title != "" && c.Format == "" {
			cs[i].Verb = title // a list's first decision does not name them all
		}
	}
	cg := Group{Key: gr.Key, Title: title, Choices: cs, Count: n}
	cg.Fold = gr.Key != focus && (gr.Own || gr.Key == groupLeave || len(cs) > foldOver || len(cs) > 1 && cg.weight() > foldOver+1)
	if gr.Own && gr.Key != focus || focus != "" && cg.Fold && gr.Key != groupLeave {
		cg.More = more(gr.Key)
	}
	return cg
}

// fit leaves other folded groups to their own page, the heaviest first,
// until the page's forms fit in maxForms.
func fit(out []Group, focus string, more func(string) string) {
	total := 1.0
	for _, g := range out {
		if g.More == "" {
			total += g.weight()
		}
	}
	for total > maxForms {
		h := heaviest(out, focus)
		if h < 0 {
			return
		}
		out[h].More = more(out[h].Key)
		total -= out[h].weight()
	}
}

// heaviest is the heaviest folded group still on the page that may
// leave it; −1 for none.
func heaviest(out []Group, focus string) int {
	h := -1
	for i, g := range out {
		if g.Fold && g.More == "" && g.Key != focus && g.Key != groupLeave && (h < 0 || g.weight() > out[h].weight()) {
			h = i
		}
	}
	return h
}

// altsPerForm is how many options of a list weigh as much as a form.
const altsPerForm = 5

// weight is what a group's forms weigh on the page, in forms.
func (g Group) weight() float64 {
	w := 0.0
	for _, c := range g.Choices {
		w += 1 + float64(len(c.Alts))/altsPerForm
	}
	return w
}

// ButtonText is the words of the decision's button: what it does and,
// for an amount filled in, the amount ("Взять кредит 5 000 $").
func (c Choice) ButtonText(l string) string {
	if !c.Ranged() || c.Value <= 0 {
		return c.Verb
	}
	return fmt.Sprintf(c.ButtonFormat(), AmountText(l, c.Unit, c.Value))
}

// ButtonFormat is the button's words with %s where the amount goes.
func (c Choice) ButtonFormat() string {
	if c.Format != "" {
		return c.Format
	}
	return strings.ReplaceAll(c.Verb, "%", "%%") + " %s"
}

// AmountText writes an amount of unit ("$": dollars) in the reader's
// language, as the page's script writes one typed in.
func AmountText(l, unit string, n int64) string {
	if unit == "$" {
		return templates.USD(l, n)
	}
	s := templates.Num(l, n)
	if unit != "" {
		s += "\u00a0" + unit
	}
	return s
}

// ConfirmAmount tells whether a ranged decision's amount is large enough
// to be asked again before it is made: more than half the most it may
// be, and more than its least.
func ConfirmAmount(c engine.Choice, amount int64) bool {
	return c.Ranged() && amount > c.Min && amount <= c.Max && 2*amount > c.Max
}

// AmountButton words the button of decision c of seat's legal list with
// amount, as the seat page does.
func AmountButton(l string, p present.Game, c engine.Choice, view any, names []string, amount int64) string {
	pc := p.Choice(l, c, view, NameFunc(names))
	cv := Choice{Choice: c, Unit: pc.Unit, Verb: pc.Label, Format: pc.Button, Value: amount}
	if pc.Form != "" && pc.Group != "" && pc.Group != groupHere && pc.Button == "" {
		cv.Verb = p.Text(l, pc.Group)
	}
	return cv.ButtonText(l)
}
