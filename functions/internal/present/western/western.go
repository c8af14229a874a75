package westernview

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// westernGame presents «Вестерн». Everything in its views is public but
// the other seats' sealed bids, which the views leave out.
type westernGame struct{ present.Base[western.View] }

// Presenter presents the game; the catalog lists it.
var Presenter = present.Of[western.View](westernGame{present.Base[western.View]{Own: own}})

func (westernGame) Kind() string     { return western.Name }
func (westernGame) Currency() string { return "$" }

// Money writes dollars: "1 234 $", "$1 234".
func (westernGame) Money(l string, v int64) string { return templates.USD(l, v) }

func (westernGame) CellName(l string, n int) string {
	if n < 1 || n > western.NumCells {
		return fmt.Sprint(n)
	}
	c := western.Board[n]
	return fmt.Sprintf("%d %s", n, templates.Pick(l, c.RU, c.EN))
}

// cellShort is a cell's name without its number.
func westernCellShort(l string, n int) string {
	if n < 1 || n > western.NumCells {
		return fmt.Sprint(n)
	}
	return templates.Pick(l, western.Board[n].RU, western.Board[n].EN)
}

// westernGood is a good's name.
func westernGood(l, g string) string {
	gi := western.Goods[western.GoodByName(g)]
	if gi.EN == "" {
		return g
	}
	return templates.Pick(l, gi.RU, gi.EN)
}

func (w westernGame) ActionLabel(l string, a engine.Action, _ func(int) string) string {
	lb, ok := own.Phrases().Actions[a.Type]
	if !ok {
		return a.Type
	}
	f := templates.Pick(l, lb[0], lb[1])
	if !strings.Contains(f, "%s") {
		return f
	}
	arg := w.CellName(l, a.Cell)
	if a.Good != "" {
		arg = westernGood(l, a.Good)
	}
	return fmt.Sprintf(f, arg)
}

func (w westernGame) Command(l string, a engine.Action, name func(int) string) string {
	s := w.ActionLabel(l, a, name)
	if a.Type == engine.Resign {
		return own.Texts.T(l, "resign")
	}
	if a.Amount != 0 {
		if u := westernCount(l, a.Type, a.Amount); u == "" {
			s += ": " + templates.USD(l, a.Amount)
		} else {
			s += ": " + u
		}
	}
	return s
}

// westernCount writes a ranged amount in what it counts: "3 units",
// "1 ton"; "" for dollars.
func westernCount(l, typ string, n int64) string {
	switch typ {
	case western.ASellGood:
		return templates.Count(l, "n_units", n)
	case western.ANarcoBuy, western.ANarcoSell:
		return templates.Count(l, "n_tons", n)
	}
	return ""
}

// westernUnit names what a ranged amount counts; "" for dollars.
func westernUnit(l, typ string) string {
	switch typ {
	case western.ASellGood:
		return own.Texts.T(l, "unit_units")
	case western.ANarcoBuy, western.ANarcoSell:
		return own.Texts.T(l, "unit_tons")
	}
	return ""
}

// SecretText is what the log says of a sealed bid or pass, which the
// engine keeps secret from the other seats for good (P-3).
func (westernGame) SecretText(l string) string { return own.Texts.T(l, "sealed_bid") }

func (westernGame) TurnEvent(e engine.Event) bool {
	return e.Type == engine.EvTurn || e.Type == engine.EvGameOver
}

func (w westernGame) EventText(l string, e engine.Event, name func(int) string) string {
	who := name(e.Seat)
	cell := w.CellName(l, e.Cell)
	short := westernCellShort(l, e.Cell)
	good := westernGood(l, e.Good)
	usd := templates.USD(l, present.Abs(e.Amount))
	// An event told in a sentence of the same parts: %[1]s is who, %[2]s the cell, %[3]s the amount in dollars, %[4]s the
	// cell's short name and %[5]s the good.
	if f, ok := own.Phrases().Events[e.Type]; ok {
		return templates.Pickf(l, f[0], f[1], who, cell, usd, short, good)
	}
	switch e.Type {
	case western.EvRoll:
		return templates.Pickf(l, "%s бросает кубик: %d", "%s rolls %d", who, e.Other)
	case western.EvLap:
		return templates.Pickf(l, "%s проходит круг %d", "%s completes lap %d", who, e.Other)
	case western.EvBidShown:
		if e.Other == 0 {
			return templates.Pickf(l, "Торги за %[2]s: %[1]s — без ставки", "Auction for %[2]s: %[1]s passed", who, cell)
		}
		return templates.Pickf(l, "Торги за %[2]s: %[1]s — ставка %[3]s", "Auction for %[2]s: %[1]s bid %[3]s", who, cell, templates.USD(l, int64(e.Other)))
	case western.EvAuction:
		return templates.Pickf(l, "Торги: %s, от %s", "Auction: %s, from %s", cell, templates.USD(l, int64(e.Other)))
	case western.EvPrison:
		return templates.Pickf(l, "%s в тюрьме: %s", "%s is jailed: %s", who, templates.Count(l, "skipping", e.Other))
	case engine.EvGameOver:
		if e.Other == engine.OverLaps {
			return templates.Pickf(l, "Игра окончена: %s завершает последний круг.", "The game is over: %s completes the last lap.", who)
		}
		return present.OverWhy(l, e.Other)
	case western.EvProduce:
		return templates.Pickf(l, "%s: «%s» выпускает товар «%s», %s", "%s: %s produces %[4]s of %[3]s", who, short, good, templates.Count(l, "n_units", e.Other))
	case western.EvRate:
		return templates.Pickf(l, "Курс %s: %d пт", "%s's share rate: %d pts", short, e.Other)
	case western.EvGoodRate:
		return templates.Pickf(l, "Курс товара «%s»: %d пт", "%s rate: %d pts", good, e.Other)
	case western.EvDeposit:
		return templates.Pickf(l, "%s кладёт во вклад %s", "%s puts %s on deposit", who, templates.USD(l, int64(e.Other)))
	case western.EvWithdraw:
		return templates.Pickf(l, "%s снимает со вклада %s", "%s withdraws %s from deposit", who, templates.USD(l, int64(e.Other)))
	case western.EvSellGood:
		return templates.Pickf(l, "%s продаёт товар «%s»: %s", "%s sells %[3]s of %[2]s", who, good, templates.Count(l, "n_units", e.Other))
	case western.EvGoodGained:
		return templates.Pickf(l, "%s получает товар «%s»: %s", "%s gains %[3]s of %[2]s", who, good, templates.Count(l, "n_units", e.Other))
	case western.EvGoodLost:
		return templates.Pickf(l, "%s теряет товар «%s»: %s", "%s loses %[3]s of %[2]s", who, good, templates.Count(l, "n_units", e.Other))
	case western.EvOffer:
		return templates.Pickf(l, "%s предлагает выкупить %[3]s (владелец: %[2]s)", "%s offers to buy %[3]s from %[2]s", who, name(e.Other), cell)
	case western.EvOfferDone:
		if e.Amount < 0 {
			return templates.Pickf(l, "%s выкупает %s за %[4]s (продавец: %[3]s)", "%s buys %s from %s for %s", who, cell, name(e.Other), usd)
		}
		return templates.Pickf(l, "%s продаёт %s за %s", "%s sells %s for %s", who, cell, usd)
	case western.EvBid:
		if e.Other == 0 {
			return templates.Pickf(l, "%s: вы не участвуете в торгах", "%s: you pass the auction", who)
		}
		return templates.Pickf(l, "%s: ваша закрытая ставка — %s", "%s: your sealed bid is %s", who, templates.USD(l, int64(e.Other)))
	case western.EvAuctionNil:
		return templates.Pick(l, "Торги не состоялись", "Nobody bought at the auction")
	case western.EvNarco:
		if e.Other < 0 {
			return templates.Pickf(l, "%s продаёт наркотик: %s", "%s sells %s of narcotics", who, templates.Count(l, "n_tons", -e.Other))
		}
		return templates.Pickf(l, "%s покупает наркотик: %s", "%s buys %s of narcotics", who, templates.Count(l, "n_tons", e.Other))
	case western.EvSkip:
		return templates.Pickf(l, "%s пропускает ход (%s)", "%s misses a turn (%s)", who, templates.Count(l, "n_turns_left", e.Other))
	case western.EvLabour:
		return templates.Pickf(l, "%s: биржа труда, отметка %s", "%s: labour exchange, marker %s", who, templates.Signed(l, int64(e.Other)))
	case western.EvForced:
		if e.Cell > 0 {
			return templates.Pickf(l, "%s: вынужденная продажа %s — %s", "%s must sell %s: %s", who, cell, usd)
		}
		return templates.Pickf(l, "%s: вынужденная продажа товара — %s", "%s must sell goods: %s", who, usd)
	}
	return present.Unworded(l, w, who, e)
}

// Options sums up the options: the laps, and the beginners' variant when it is on.
func (westernGame) Options(l string, raw json.RawMessage) string {
	o, ok := present.ReadOptions(raw, western.DefaultOptions())
	return present.OptionsText(l, ok, o.Laps, present.NoteIf(own.Texts, l, o.Beginners, "beginners_short"))
}

func (westernGame) OptionDefaults() map[string]any {
	m := present.Defaults(western.DefaultOptions())
	if _, ok := m["beginners"]; !ok && m != nil {
		m["beginners"] = false // omitted from the JSON when off
	}
	return m
}

func (westernGame) Option(l, name string) present.Option {
	o := present.Option{Label: own.Texts.T(l, "opt_"+name)}
	if name == "laps" {
		o.Min, o.Max = 1, 200
	}
	return o
}

func (w westernGame) Seats(l string, v western.View) []present.Seat {
	usd := func(n int64) string { return templates.USD(l, n) }
	out := make([]present.Seat, len(v.Players))
	for i, p := range v.Players {
		s := present.Seat{Cell: w.CellName(l, p.Cell), Laps: p.Laps, LapsOf: v.Opts.Laps, Cash: p.Cash, Bankrupt: p.Bankrupt}
		s.Facts = []present.Fact{{Label: own.Texts.T(l, "cash"), Value: usd(p.Cash)}, {Label: own.Texts.T(l, "deposit"), Value: usd(p.Deposit)},
			{Label: own.Texts.T(l, "credit"), Value: usd(p.Credit)}}
		if p.ColonyLoan != 0 {
			s.Facts = append(s.Facts, present.Fact{Label: own.Texts.T(l, "colony_loan"), Value: usd(p.ColonyLoan)})
		}
		if !v.Opts.Beginners {
			s.Facts = append(s.Facts, present.Fact{Label: own.Texts.T(l, "labour"), Value: templates.Signed(l, int64(p.Labour))})
		}
		if p.Narco != 0 {
			s.Facts = append(s.Facts, present.Fact{Label: own.Texts.T(l, "narco"), Value: fmt.Sprintf("%d\u00a0%s", p.Narco, own.Texts.T(l, "unit_tons"))})
		}
		if p.Skip > 0 {
			s.Notes = append(s.Notes, own.Texts.Tf(l, "skipping", p.Skip))
		}
		if p.Protected {
			s.Notes = append(s.Notes, own.Texts.T(l, "protected"))
		}
		goods := present.List{Title: own.Texts.T(l, "goods")}
		for g := western.Cars; int(g) < len(p.Goods); g++ {
			if n := p.Goods[g]; n > 0 {
				price := v.Prices[g.String()]
				goods.Items = append(goods.Items, present.Item{Text: fmt.Sprintf("%s %d × %s", westernGood(l, g.String()), n, usd(price))})
			}
		}
		hold := present.List{Title: own.Texts.T(l, "shares")} // one name wherever they are shown: the net worth's part too
		for cell, o := range v.Owner {
			if int(o) == i && cell >= 1 && cell <= western.NumCells {
				it := present.Item{Text: w.CellName(l, cell)}
				if _, leading := v.Rates[cell]; leading {
					it.Marks, it.Title = "lead", templates.Pick(l, "ведущая компания", "leading company")
				}
				hold.Items = append(hold.Items, it)
			}
		}
		for _, ls := range []present.List{goods, hold} {
			if len(ls.Items) > 0 {
				s.Lists = append(s.Lists, ls)
			}
		}
		out[i] = s
	}
	return out
}

func (w westernGame) Prompt(l string, v western.View, seat int, owes bool, name func(int) string) string {
	if seat < 0 || seat >= len(v.Players) {
		return ""
	}
	if !owes {
		if v.Auction != nil && v.Auction.MyBid != nil {
			if *v.Auction.MyBid == 0 { // a pass is no bid, not a bid of 0
				return own.Texts.T(l, "your_pass")
			}
			return own.Texts.Tf(l, "your_bid", templates.USD(l, *v.Auction.MyBid))
		}
		return ""
	}
	p := v.Players[seat]
	here := w.CellName(l, p.Cell)
	switch v.Phase {
	case western.PhRoll:
		return own.Texts.Tf(l, "ask_roll", here)
	case western.PhFork:
		return own.Texts.Tf(l, "ask_fork", v.Die, here, templates.Count(l, "n_steps_left", v.Steps))
	case western.PhAct:
		if v.Die > 0 {
			return own.Texts.Tf(l, "ask_act_die", v.Die, here)
		}
		return own.Texts.Tf(l, "ask_act", here)
	case western.PhRaid:
		return own.Texts.Tf(l, "ask_raid", here, templates.USD(l, min(p.Loot, p.Cash)))
	case western.PhOffer:
		if o := v.Offer; o != nil {
			return own.Texts.Tf(l, "ask_offer", name(o.From), w.CellName(l, o.Cell), templates.USD(l, o.Price))
		}
	case western.PhAuction:
		if au := v.Auction; au != nil {
			return own.Texts.Tf(l, "ask_auction", w.CellName(l, au.Cell), templates.USD(l, au.Min))
		}
	}
	return ""
}

// westernGroups puts each kind of action in a group: what the cell
// offers first, then the bank and the market, then the long lists of
// shares.
var westernGroups = map[string]string{
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

// Groups: the sales to the bank at par, possible at any moment of one's
// turn and seldom wanted, are listed on a page of their own.
func (westernGame) Groups() []present.Group {
	return []present.Group{{Key: "grp_here"}, {Key: "grp_bank"}, {Key: "grp_market"}, {Key: "grp_offer"}, {Key: "grp_spec"},
		{Key: "grp_sell", Own: true}, {Key: "grp_other"}, {Key: "grp_leave"}}
}

func (w westernGame) Choice(l string, c engine.Choice, v western.View, name func(int) string) present.Choice {
	ch := present.Choice{Label: w.ActionLabel(l, c.Action, name), Group: westernGroups[c.Type]}
	if ch.Group == "" {
		ch.Group = "grp_other"
	}
	if c.Ranged() {
		ch.Unit = westernUnit(l, c.Type)
		if ch.Unit == "" {
			ch.Unit = "$"
		}
		if c.Type == western.ACredit { // the amount where English puts it
			ch.Button = templates.Pick(l, "Взять кредит %s", "Take a %s credit")
		}
	}
	switch ch.Group {
	case "grp_offer", "grp_spec", "grp_sell": // the group's title says what is done
		ch.Label = w.CellName(l, c.Cell)
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
		ch.Note = own.Texts.Tf(l, "note_price", usd(cell.Price))
		if cell.Profit > 0 {
			ch.Note += " · " + own.Texts.Tf(l, "note_profit", usd(cell.Profit))
		}
	case western.ASell:
		ch.Note = own.Texts.Tf(l, "note_par", usd(western.Board[c.Cell].Price))
	case western.ASpecSell:
		if here.Mult > 0 {
			ch.Note = own.Texts.Tf(l, "note_mult", templates.Dec(l, float64(here.Mult)/2))
		}
	case western.AOffer: // one list of every rival share: a late game has dozens
		ch.Label = templates.Pick(l, "Предложить купить акцию за 1,5 цены", "Offer to buy a share at 1.5× its value")
		ch.Form, ch.AltLabel = "offer", templates.Pick(l, "Акция (владелец)", "Share (owner)")
		ch.Alt = w.CellName(l, c.Cell) + " (" + name(c.Target) + ")"
	case western.ABid:
		ch.Label = own.Texts.Tf(l, "bid_for", w.CellName(l, c.Cell))
		ch.Note = own.Texts.Tf(l, "note_range", usd(c.Min), usd(c.Max))
	case western.AAccept:
		if v.Offer != nil {
			ch.Note = own.Texts.Tf(l, "note_for", usd(v.Offer.Price))
		}
	case western.ASellGood:
		ch.Note = own.Texts.Tf(l, "note_unit", usd(v.Prices[c.Good]))
		ch.Value = c.Max // sell all the market takes
	case western.ANarcoBuy, western.ANarcoSell:
		ch.Note = own.Texts.Tf(l, "note_ton", usd(here.Amount))
		if c.Type == western.ANarcoSell {
			ch.Value = c.Max
		}
	case western.ABribe:
		ch.Note = own.Texts.Tf(l, "note_price", usd(here.Price))
	case western.ATrinkets:
		ch.Note = own.Texts.Tf(l, "note_trinkets", usd(here.Price), usd(here.Amount))
	case western.APrison:
		if here.Turns > 0 {
			ch.Note = own.Texts.Tf(l, "note_turns", here.Turns)
		}
	case western.ASurrender:
		if me != nil {
			ch.Note = usd(min(me.Loot, me.Cash))
		}
	case western.ACredit, western.ADeposit, western.AWithdraw, western.ARepay, western.ARepayLoan:
		ch.Note = own.Texts.Tf(l, "note_upto", usd(c.Max))
	}
	return ch
}

// westernParts is the order of the net-worth parts (W-40).
var westernParts = [][2]string{
	{western.PartCash, "cash"}, {western.PartDeposit, "deposit"}, {western.PartShares, "shares"},
	{western.PartGoods, "goods"}, {western.PartCredit, "credit"}, {western.PartLoan, "colony_loan"},
	{western.PartStartLoan, "start_loan"},
}

func (westernGame) Parts(l string, parts map[string]int64) []present.Part {
	return present.PartsIn(own.Texts, l, parts, westernParts)
}

func (westernGame) Squares(l string, v western.View, name func(int) string) []present.Square {
	if len(v.Owner) <= western.NumCells {
		return nil
	}
	out := make([]present.Square, 0, western.NumCells)
	for n := 1; n <= western.NumCells; n++ {
		sq := present.Square{N: n, Name: westernCellShort(l, n), Seat: int(v.Owner[n])}
		if sq.Seat >= 0 {
			sq.Owner = name(sq.Seat)
			if _, leading := v.Rates[n]; leading {
				sq.Note = templates.Pick(l, "ведущая компания", "leading company")
			}
		}
		out = append(out, sq)
	}
	return out
}

// files are what the game brings besides its code (present.Own): its
// phrases by key, the texts of its actions and events, its rules page in
// each language and its part of the JSON API's document.
//
//go:embed texts.json phrases.json rules.ru.html rules.en.html openapi.json
var files embed.FS

// own are the game's files and what it reads of them (present.Own).
var own = present.NewOwn(files)

// GoodName names a good.
func (westernGame) GoodName(l, good string) string { return westernGood(l, good) }
