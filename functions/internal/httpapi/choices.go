package httpapi

import (
	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// choiceView is one decision of the seat page: one form, one button.
type choiceView struct {
	engine.Choice
	Index int    // in the engine's legal list
	Label string // the button
	Note  string // what it costs or brings, when the page knows
	Value int64  // a ranged choice's initial amount
	Unit  string // what a ranged amount counts
}

// choiceGroup is a run of decisions of one kind; a long one is folded,
// and one the page has no room for is a link to a page that lists it.
type choiceGroup struct {
	Key, Title string
	Fold       bool
	Choices    []choiceView
	More       string // the link, when the forms are left out
}

// groupOf puts each kind of action in a group, in the order the page
// shows them: what the cell offers first, then the bank and the market,
// then the long lists of shares.
var groupOf = map[string]string{
	western.AFork: "grp_here", western.ABuy: "grp_here", western.ABribe: "grp_here", western.AColonyLoan: "grp_here",
	western.ATrinkets: "grp_here", western.ANarcoBuy: "grp_here", western.ANarcoSell: "grp_here", western.ADropGood: "grp_here",
	western.ASurrender: "grp_here", western.APrison: "grp_here", western.AAccept: "grp_here", western.ADecline: "grp_here",
	western.ABid: "grp_here", western.APass: "grp_here", western.ARoll: "grp_here", western.AEnd: "grp_here",
	western.ACredit: "grp_bank", western.ADeposit: "grp_bank", western.AWithdraw: "grp_bank", western.ARepay: "grp_bank",
	western.ARepayLoan: "grp_bank",
	western.ASellGood:  "grp_market",
	western.AOffer:     "grp_offer",
	western.ASpecSell:  "grp_spec",
	western.ASell:      "grp_sell",
	engine.Resign:      "grp_leave",
}

var groupOrder = []string{"grp_here", "grp_bank", "grp_market", "grp_offer", "grp_spec", "grp_sell", "grp_other", "grp_leave"}

// foldOver folds a group longer than this; the sales to the bank at par,
// a last resort, are always folded.
const foldOver = 4

// maxForms bounds the decisions one page lists, to keep it light with its
// board (SPEC §6: 60 KB): past it, the longest folded groups become links
// to a page of their own. The sales to the bank at par, possible at any
// moment of one's turn and seldom wanted, are always such a link.
const maxForms = 20

// lazyAlways are the groups listed only on a page of their own.
var lazyAlways = map[string]bool{"grp_sell": true}

// shortLabel names a choice by its cell alone where the group's title says
// what is done with it.
var shortLabel = map[string]bool{"grp_offer": true, "grp_spec": true, "grp_sell": true}

// arrangeChoices puts the default decision first (the one a missed
// deadline plays, and the first form of the page) and groups the rest.
// focus names the group a page of its own lists (every other long group
// is then a link); more makes the link to a group's page.
func arrangeChoices(l string, legal []engine.Choice, v *western.View, names []string, focus string, more func(group string) string) (*choiceView, []choiceGroup) {
	var first *choiceView
	byGroup := map[string][]choiceView{}
	for i, c := range legal {
		cv := describeChoice(l, c, i, v, names)
		if first == nil && c.Default {
			first = &cv
			continue
		}
		g, ok := groupOf[c.Type]
		if !ok {
			g = "grp_other"
		}
		byGroup[g] = append(byGroup[g], cv)
	}
	if first == nil && len(legal) > 0 { // no default: the first choice leads
		cv := describeChoice(l, legal[0], 0, v, names)
		first = &cv
		for g, cs := range byGroup {
			if len(cs) > 0 && cs[0].Index == 0 {
				byGroup[g] = cs[1:]
			}
		}
	}
	var out []choiceGroup
	for _, g := range groupOrder {
		cs := byGroup[g]
		if len(cs) == 0 {
			continue
		}
		title := ""
		if g != "grp_here" {
			title = templates.T(l, g)
		}
		if shortLabel[g] {
			for i := range cs {
				cs[i].Label = present.CellName(l, cs[i].Cell)
			}
		}
		fold := g != focus && (g == "grp_sell" || g == "grp_leave" || len(cs) > foldOver)
		out = append(out, choiceGroup{Key: g, Title: title, Fold: fold, Choices: cs})
	}
	// Which folded groups the page leaves to their own page: those always
	// so, then the longest until the page's forms fit.
	forms := 1
	for i, g := range out {
		if lazyAlways[g.Key] && g.Key != focus || focus != "" && g.Fold && g.Key != "grp_leave" {
			out[i].More = more(g.Key)
			continue
		}
		forms += len(g.Choices)
	}
	for forms > maxForms {
		longest := -1
		for i, g := range out {
			if g.Fold && g.More == "" && g.Key != focus && g.Key != "grp_leave" && (longest < 0 || len(g.Choices) > len(out[longest].Choices)) {
				longest = i
			}
		}
		if longest < 0 {
			break
		}
		out[longest].More = more(out[longest].Key)
		forms -= len(out[longest].Choices)
	}
	return first, out
}

// describeChoice labels a decision, with what it costs where the board
// says so.
func describeChoice(l string, c engine.Choice, i int, v *western.View, names []string) choiceView {
	cv := choiceView{Choice: c, Index: i, Label: present.ActionLabel(l, c.Action), Value: c.Min}
	if c.Ranged() {
		cv.Unit = unitOf(l, c.Type)
	}
	if c.Type == engine.Resign { // every game's; a last resort, said plainly
		cv.Label, cv.Note = templates.T(l, "resign"), templates.T(l, "resign_note")
	}
	if v == nil {
		return cv
	}
	var me *western.Player
	if v.Seat >= 0 && v.Seat < len(v.Players) {
		me = &v.Players[v.Seat]
	}
	here := western.Cell{}
	if me != nil && me.Cell >= 1 && me.Cell <= western.NumCells {
		here = western.Board[me.Cell]
	}
	usd := func(n int64) string { return templates.USD(l, n) }
	switch c.Type {
	case western.ABuy:
		cell := western.Board[c.Cell]
		cv.Note = templates.Tf(l, "note_price", usd(cell.Price))
		if cell.Profit > 0 {
			cv.Note += " · " + templates.Tf(l, "note_profit", usd(cell.Profit))
		}
	case western.ASell:
		cv.Note = templates.Tf(l, "note_par", usd(western.Board[c.Cell].Price))
	case western.ASpecSell:
		if here.Mult > 0 {
			cv.Note = templates.Tf(l, "note_mult", float64(here.Mult)/2)
		}
	case western.AOffer:
		cv.Note = templates.Tf(l, "note_owner", nameFunc(names)(c.Target))
	case western.ABid:
		cv.Label = templates.Tf(l, "bid_for", present.CellName(l, c.Cell))
		cv.Note = templates.Tf(l, "note_range", usd(c.Min), usd(c.Max))
	case western.AAccept:
		if v.Offer != nil {
			cv.Note = templates.Tf(l, "note_for", usd(v.Offer.Price))
		}
	case western.ASellGood:
		price := v.Prices[c.Good]
		cv.Note = templates.Tf(l, "note_unit", usd(price))
		cv.Value = c.Max // sell all the market takes
	case western.ANarcoBuy, western.ANarcoSell:
		cv.Note = templates.Tf(l, "note_ton", usd(here.Amount))
		if c.Type == western.ANarcoSell {
			cv.Value = c.Max
		}
	case western.ABribe:
		cv.Note = templates.Tf(l, "note_price", usd(here.Price))
	case western.ATrinkets:
		cv.Note = templates.Tf(l, "note_trinkets", usd(here.Price), usd(here.Amount))
	case western.APrison:
		if here.Turns > 0 {
			cv.Note = templates.Tf(l, "note_turns", here.Turns)
		}
	case western.ASurrender:
		if me != nil {
			cv.Note = usd(min(me.Loot, me.Cash))
		}
	case western.ACredit:
		cv.Note = templates.Tf(l, "note_upto", usd(c.Max))
	case western.ADeposit, western.AWithdraw, western.ARepay, western.ARepayLoan:
		cv.Note = templates.Tf(l, "note_upto", usd(c.Max))
	}
	return cv
}

// unitOf names what a ranged choice counts.
func unitOf(l, typ string) string {
	switch typ {
	case western.ASellGood:
		return templates.T(l, "unit_units")
	case western.ANarcoBuy, western.ANarcoSell:
		return templates.T(l, "unit_tons")
	}
	return "$"
}
