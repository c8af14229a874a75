package present

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/templates"
)

// Deals in words (engine.Deal, issue 23). A game's phrases give, for each
// kind of offer (the offer's action type), three sentences in each
// language — as its answering seat reads it, as its proposer reads it,
// and as anyone else does — whose parts are: %[1]s the proposer's name,
// %[2]s the offer's cell, %[3]s its amount in the game's money, %[4]s the
// answering seat's name, %[5]s the second cell of a swap (held in the
// offer's Amount), %[6]s its good (a share's colour). A purchase kept for
// later is the bank's offer: its proposer is engine.Bank. The sentences
// avoid the agreement of a name with a verb's gender or a case.

// DealPhrases are a game's deal sentences by offer type: [reader][lang],
// reader 0 the answering seat, 1 the proposer, 2 anyone else.
type DealPhrases map[string][3][2]string

// DealWorder is a presenter that words its game's deals.
type DealWorder interface {
	// DealPhrases are the game's deal sentences.
	DealPhrases() DealPhrases
	// GoodName names a good (a share's colour).
	GoodName(l, good string) string
}

// DealText says deal in words as reader (an engine seat, or −1) reads it.
func DealText(l string, g Game, d engine.Deal, reader int, name func(int) string) string {
	who := 2
	switch reader {
	case d.To:
		who = 0
	case d.From:
		who = 1
	}
	from := templates.T(l, "the_bank")
	if d.From >= 0 {
		from = name(d.From)
	}
	if w, ok := optional[DealWorder](g); ok {
		if f, ok := w.DealPhrases()[d.Offer.Type]; ok {
			good := d.Offer.Good
			if good != "" {
				good = w.GoodName(l, good)
			}
			// A swap's Amount is its second cell; the sentences of the
			// other kinds use it as money and leave %[5]s out.
			return templates.Pickf(l, f[who][0], f[who][1], from, g.CellName(l, d.Offer.Cell), g.Money(l, d.Offer.Amount),
				name(d.To), g.CellName(l, int(d.Offer.Amount)), good)
		}
	}
	return fmt.Sprintf("%s → %s: %s", from, name(d.To), g.Command(l, d.Offer, name))
}

// EventText tells an event in words as reader reads it: the deals'
// events every game shares, and the game's own through its presenter.
func EventText(l string, g Game, e engine.Event, reader int, name func(int) string) string {
	if e.Deal == nil {
		return g.EventText(l, e, name)
	}
	deal := DealText(l, g, *e.Deal, reader, name)
	switch e.Type {
	case engine.EvDealOpen:
		return deal
	case engine.EvDealDone:
		return templates.Pickf(l, "Сделка заключена — %s", "Deal done — %s", deal)
	case engine.EvDealDeclined:
		return templates.Pickf(l, "Отказ: %s", "Declined: %s", deal)
	case engine.EvDealLapsed:
		return templates.Pickf(l, "Сделка не состоялась (%s): %s", "The deal fell through (%s): %s", LapseText(l, e.Other), deal)
	}
	return g.EventText(l, e, name)
}

// OverWhy words a game's end (engine.EvGameOver) for the reasons every
// game shares, why in its Other: one player left (engine.OverLastOne), or
// the organiser's end (engine.OverEnded), places by net worth; a game
// words its own reasons (engine.OverLaps) before it asks.
func OverWhy(l string, why int) string {
	switch why {
	case engine.OverLastOne:
		return templates.T(l, "over_last_one")
	case engine.OverEnded:
		return templates.T(l, "over_ended")
	}
	return templates.T(l, "game_over")
}

// LapseText says why a deal lapsed (engine.Lapse…).
func LapseText(l string, why int) string {
	switch why {
	case engine.LapseGone:
		return templates.Pick(l, "предмета сделки больше нет у владельца или он заложен, застроен", "what it offered is no longer its owner's, or is pledged or built on")
	case engine.LapseCash:
		return templates.Pick(l, "у платящего не хватает наличных", "the paying side is short of cash")
	case engine.LapseLeft:
		return templates.Pick(l, "игрок выбыл из игры", "a player left the game")
	case engine.LapseOver:
		return templates.Pick(l, "игра окончена", "the game is over")
	case engine.LapseTaken:
		return templates.Pick(l, "клетка уже куплена", "the cell is bought already")
	}
	return fmt.Sprint(why)
}
