package businessmanview

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pbmgames/pbm/engine"
	bm "github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// businessGame presents «Бизнесмен». Its views hold every seat's public
// position and the reader's own exchange cards only (B-2, P-3): the
// other hands are counts, and a card drawn by another seat is an event
// the reader does not get. Nothing here looks further than the view.
type businessGame struct{ present.Base[bm.View] }

// Presenter presents the game; the catalog lists it.
var Presenter = present.Of[bm.View](businessGame{present.Base[bm.View]{Own: own}})

func (businessGame) Kind() string { return bm.Name }

// The game counts money in plain units («250 000 жетонов» in the rules).
func (businessGame) Money(l string, v int64) string { return templates.Money(l, v) }
func (businessGame) Currency() string               { return "" }

func (businessGame) CellName(l string, n int) string {
	if n < 1 || n >= bm.NumCells || bm.Board[n].RU == "" {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d %s", n, templates.Pick(l, bm.Board[n].RU, bm.Board[n].EN))
}

// bmColour is a share or lot colour's name: "Красный", "Red".
func bmColour(l, key string) string {
	for _, g := range bm.Groups {
		if g.Key == key {
			return templates.Pick(l, g.RU, g.EN)
		}
	}
	return key
}

// bmShares names the shares of a colour: "красные акции", "red shares".
var bmSharesRU = map[string]string{"red": "красные", "orange": "оранжевые", "yellow": "жёлтые", "green": "зелёные", "blue": "синие", "purple": "фиолетовые"}

func bmShares(l, key string) string {
	if l == "en" {
		return strings.ToLower(bmColour(l, key)) + " shares"
	}
	if a, ok := bmSharesRU[key]; ok {
		return a + " акции"
	}
	return "акции «" + key + "»"
}

// bmDeck names a pile of cards (Action.Cell of use_pass, Event.Cell of a draw).
func bmDeck(l string, d int) string {
	if d == bm.DeckNotice {
		return templates.Pick(l, "Извещение", "Notice")
	}
	return templates.Pick(l, "Сюрприз", "Surprise")
}

// bmCard is the text of card i of deck d.
func bmCard(l string, d, i int) string {
	cards := bm.SurpriseCards
	if d == bm.DeckNotice {
		cards = bm.NoticeCards
	}
	if i < 0 || i >= len(cards) {
		return "?"
	}
	return templates.Pick(l, cards[i].RU, cards[i].EN)
}

// bmXCard is an exchange card: its code and what it does. Only a played
// card, or one in the reader's own hand, is ever named (P-3).
func bmXCard(l string, id int) string {
	if id < 0 || id >= len(bm.XCards) {
		return "?"
	}
	c := bm.XCards[id]
	return c.Code + " — " + templates.Pick(l, c.RU, c.EN)
}

func bmGroupOf(cell int) int {
	if cell > 0 && cell < bm.NumCells {
		return bm.Board[cell].Group
	}
	return bm.NoGroup
}

func (b businessGame) ActionLabel(l string, a engine.Action, name func(int) string) string {
	cell := b.CellName(l, a.Cell)
	switch a.Type {
	case bm.AUsePass:
		return templates.Pickf(l, "Сыграть на бирже (карта «%s»)", "Play on the exchange (the %s card)", bmDeck(l, a.Cell))
	case bm.APlayCard:
		s := templates.Pickf(l, "Карта биржи %s на цвет «%s»", "Exchange card %s on %s", bmXCardCode(a.Cell), bmColour(l, a.Good))
		return s + bmTwo(l, a.Amount)
	case bm.ABuyShares:
		return templates.Pickf(l, "Купить %s", "Buy %s", bmShares(l, a.Good))
	case bm.ASellShares:
		return templates.Pickf(l, "Продать банку %s", "Sell %s to the bank", bmShares(l, a.Good))
	case bm.AOfferShare:
		return templates.Pickf(l, "Предложить акцию (%s), покупатель — %s", "Offer a share (%s) to %s", strings.ToLower(bmColour(l, a.Good)), name(a.Target))
	case bm.ABuild:
		return templates.Pickf(l, "Строить на участке %s", "Build on %s", cell)
	case bm.ASellBuilding:
		return templates.Pickf(l, "Продать банку постройку на %s", "Sell the building on %s to the bank", cell)
	case bm.AMortgage:
		return templates.Pickf(l, "Заложить %s", "Pledge %s", cell)
	case bm.ARedeem:
		return templates.Pickf(l, "Выкупить из залога %s", "Redeem %s", cell)
	case bm.ASellBank:
		return templates.Pickf(l, "Продать банку %s", "Sell %s to the bank", cell)
	case bm.AOfferSell:
		return templates.Pickf(l, "Предложить продать %s, покупатель — %s", "Offer to sell %s to %s", cell, name(a.Target))
	case bm.AOfferBuy:
		return templates.Pickf(l, "Предложить купить %s, владелец — %s", "Offer to buy %s from %s", cell, name(a.Target))
	case bm.AOfferSwap:
		return templates.Pickf(l, "Предложить обмен: %s на %s, владелец — %s", "Offer a swap: %s for %s (%s)", cell, b.CellName(l, int(a.Amount)), name(a.Target))
	}
	lb, ok := own.Phrases().Actions[a.Type]
	if !ok {
		return a.Type
	}
	f := templates.Pick(l, lb[0], lb[1])
	switch {
	case !strings.Contains(f, "%s"):
		return f
	case a.Good != "":
		return fmt.Sprintf(f, bmColour(l, a.Good))
	}
	return fmt.Sprintf(f, cell)
}

// bmCardPlay says what playing card id on a colour does: "L03: красный
// +10, остальные −4".
func bmCardPlay(l string, id int, good string, dir int64) string {
	if id < 0 || id >= len(bm.XCards) {
		return "?"
	}
	c := bm.XCards[id]
	col := strings.ToLower(bmColour(l, good))
	var eff string
	switch c.Kind {
	case bm.XLarge, bm.XSmallUp:
		down := c.Down
		if c.Kind == bm.XSmallUp {
			down = c.Up
		}
		eff = templates.Pickf(l, "%s +%d, прочие −%d", "%s +%d, others −%d", col, c.Up, down) // short: a phone shows the whole option
	case bm.XTwo:
		if dir < 0 {
			eff = col + " ÷2"
		} else {
			eff = col + " ×2"
		}
	case bm.XSmallDown:
		eff = fmt.Sprintf("%s −%d", col, c.Down)
	}
	return c.Code + ": " + eff
}

// bmTwo tells a «двойка»'s direction.
func bmTwo(l string, dir int64) string {
	switch {
	case dir > 0:
		return templates.Pick(l, ", ×2", ", ×2")
	case dir < 0:
		return templates.Pick(l, ", ÷2", ", ÷2")
	}
	return ""
}

func bmXCardCode(id int) string {
	if id < 0 || id >= len(bm.XCards) {
		return "?"
	}
	return bm.XCards[id].Code
}

func (b businessGame) Command(l string, a engine.Action, name func(int) string) string {
	s := b.ActionLabel(l, a, name)
	switch a.Type {
	case bm.ABuyShares, bm.ASellShares, bm.ATake:
		s += ": " + templates.Count(l, "n_shares", a.Amount)
	case bm.AOfferSell, bm.AOfferBuy, bm.AOfferShare:
		s += ": " + templates.Money(l, a.Amount)
	}
	return s
}

// No action of this game is secret (the engine's Secret): a card is named
// when it is played, face up; the draws are private events.
func (businessGame) SecretText(string) string { return "" }

func (businessGame) TurnEvent(e engine.Event) bool {
	return e.Type == engine.EvTurn || e.Type == engine.EvGameOver
}

func (b businessGame) EventText(l string, e engine.Event, name func(int) string) string {
	who := name(e.Seat)
	cell := b.CellName(l, e.Cell)
	m := templates.Money(l, present.Abs(e.Amount))
	// An event told in a sentence of the same parts: %[1]s is who, %[2]s the cell and %[3]s the amount.
	if f, ok := own.Phrases().Events[e.Type]; ok {
		return templates.Pickf(l, f[0], f[1], who, cell, m)
	}
	switch e.Type {
	case bm.EvRoll:
		return templates.Pickf(l, "%s бросает кубики: %d и %d", "%s rolls %d and %d", who, e.Cell, e.Other)
	case bm.EvStart:
		return templates.Pickf(l, "%s проходит «Старт»: +%s (кругов: %d)", "%s passes Start: +%s (lap %d)", who, m, e.Other)
	case bm.EvRent:
		if e.Amount < 0 {
			if e.Other >= 0 {
				return templates.Pickf(l, "%s платит аренду за %s: %[4]s, получатель — %[3]s", "%s pays %[4]s rent for %[2]s to %[3]s", who, cell, name(e.Other), m)
			}
			return templates.Pickf(l, "%s платит аренду за %s: %s", "%s pays %[3]s rent for %[2]s", who, cell, m)
		}
		return templates.Pickf(l, "%s получает аренду за %s: %s", "%s collects %[3]s rent for %[2]s", who, cell, m)
	case bm.EvRentAsked:
		return templates.Pickf(l, "%s может потребовать аренду за %s, платит %s", "%s may claim the rent for %s from %s", who, cell, name(e.Other))
	case bm.EvCellMoney:
		if e.Amount < 0 {
			return templates.Pickf(l, "%s платит на клетке %s: %s", "%s pays %[3]s on %[2]s", who, cell, m)
		}
		return templates.Pickf(l, "%s получает на клетке %s: %s", "%s gets %[3]s on %[2]s", who, cell, m)
	case bm.EvGift:
		return templates.Pickf(l, "%s получает %s: %s", "%s takes %s: %s", who, bmShares(l, e.Good), templates.Count(l, "n_shares", e.Other))
	case bm.EvSharesBuy:
		return templates.Pickf(l, "%s покупает %s: %s за %s", "%s buys %s: %s for %s", who, bmShares(l, e.Good), templates.Count(l, "n_shares", e.Other), m)
	case bm.EvSharesSold:
		if e.Cell == bm.CellCustoms {
			return templates.Pickf(l, "На таможне %s продаёт банку %s: %s за %s", "At customs %s sells the bank %s: %s for %s", who, bmShares(l, e.Good), templates.Count(l, "n_shares", e.Other), m)
		}
		return templates.Pickf(l, "%s продаёт банку %s: %s за %s", "%s sells the bank %s: %s for %s", who, bmShares(l, e.Good), templates.Count(l, "n_shares", e.Other), m)
	case bm.EvCard:
		switch {
		case e.Amount == 0:
			return templates.Pickf(l, "%s берёт карту «%s»: %s", "%s draws a %s card: %s", who, bmDeck(l, e.Cell), bmCard(l, e.Cell, e.Other))
		case e.Amount > 0:
			return templates.Pickf(l, "%s получает по карте: %s", "%s gets %s by the card", who, m)
		case e.Other >= 0 && e.Other != e.Seat:
			return templates.Pickf(l, "%s платит по карте: %[3]s, получатель — %[2]s", "%s pays %[3]s to %[2]s by the card", who, name(e.Other), m)
		}
		return templates.Pickf(l, "%s платит по карте: %s", "%s pays %s by the card", who, m)
	case bm.EvPassUsed:
		return templates.Pickf(l, "%s играет на бирже по карте «%s»", "%s plays on the exchange with the %s card", who, bmDeck(l, e.Cell))
	case bm.EvXPlayed:
		return templates.Pickf(l, "%s разыгрывает карту биржи %s на цвет «%s»%s", "%s plays exchange card %s on %s%s", who, bmXCard(l, e.Cell), bmColour(l, e.Good), bmTwo(l, int64(e.Other)))
	case bm.EvPoints:
		return templates.Pickf(l, "Курс: %s — %d", "Rate: %s — %d", strings.ToLower(bmColour(l, e.Good)), e.Other)
	case bm.EvXMoney:
		if e.Amount > 0 {
			return templates.Pickf(l, "%s получает на бирже: %s", "%s gets %s on the exchange", who, m)
		}
		return templates.Pickf(l, "%s платит на бирже: %s", "%s pays %s on the exchange", who, m)
	case bm.EvXDrawn: // private: only its seat ever gets this event
		return templates.Pickf(l, "%s: вам досталась карта биржи %s", "%s: you draw exchange card %s", who, bmXCard(l, e.Cell))
	case bm.EvXReturned:
		return templates.Pickf(l, "%s: в колоды вернулось карт биржи — %d", "%s: back to the piles, %s", who, templates.Count(l, "n_xcards", e.Other))
	case bm.EvBuild:
		what := templates.Pick(l, "филиал", "a branch")
		if -e.Amount == bm.Board[max(0, min(e.Cell, bm.NumCells-1))].Enterprise {
			what = templates.Pick(l, "предприятие", "an enterprise")
		}
		return templates.Pickf(l, "%s строит %s на %s за %s", "%s builds %s on %s for %s", who, what, cell, m)
	case bm.EvOffer:
		if e.Good != "" {
			return templates.Pickf(l, "%s предлагает сделку: %[3]s; отвечает %[2]s", "%s offers %s a deal: %s", who, name(e.Other), bmShares(l, e.Good))
		}
		return templates.Pickf(l, "%s предлагает сделку: %[3]s; отвечает %[2]s", "%s offers %s a deal: %s", who, name(e.Other), cell)
	case bm.EvDeal:
		what := cell
		if e.Good != "" {
			what = templates.Pick(l, "акция", "a share") + " (" + strings.ToLower(bmColour(l, e.Good)) + ")"
		}
		switch {
		case e.Amount < 0:
			return templates.Pickf(l, "Сделка: %s покупает %s за %[4]s, продаёт %[3]s", "Deal: %s buys %s from %s for %s", who, what, name(e.Other), m)
		case e.Amount > 0:
			return templates.Pickf(l, "Сделка: %s получает %s", "Deal: %s receives %s", who, m)
		}
		return templates.Pickf(l, "Сделка: %s меняет %s на участок, вторая сторона — %s", "Deal: %s swaps %s with %s for a lot", who, what, name(e.Other))
	case bm.EvHotel:
		if e.Cell == bm.RouletteIn {
			return templates.Pickf(l, "%s идёт играть в рулетку", "%s goes to play the roulette", who)
		}
		return templates.Pickf(l, "%s в отеле: кубики указали на %s за границей", "%s at the hotel: the dice point to %s abroad", who, cell)
	case bm.EvSpin:
		if e.Amount > 0 {
			return templates.Pickf(l, "%s выигрывает в рулетку: %s", "%s wins %s at the roulette", who, m)
		}
		if e.Amount < 0 {
			return templates.Pickf(l, "%s проигрывает в рулетку: %s", "%s loses %s at the roulette", who, m)
		}
		return templates.Pickf(l, "Рулетка: %s", "Roulette: %s", cell)
	case bm.EvDebt:
		return templates.Pickf(l, "%s: не хватает денег, долг %s", "%s is short of cash: owes %s", who, templates.Money(l, int64(e.Other)))
	case engine.EvGameOver:
		if e.Other == engine.OverLaps {
			return templates.Pick(l, "Игра окончена: последний круг пройден, ход доигран.", "The game is over: the last lap is done and its turn played out.")
		}
		return present.OverWhy(l, e.Other)
	}
	return present.Unworded(l, b, who, e)
}

// Options sums up the options: the laps, and the rent left to the owner's claim when it is.
func (businessGame) Options(l string, raw json.RawMessage) string {
	o, ok := present.ReadOptions(raw, bm.DefaultOptions())
	return present.OptionsText(l, ok, o.Laps, present.NoteIf(own.Texts, l, o.RentClaim == bm.RentClaim, "rent_claim_short"))
}

func (businessGame) OptionDefaults() map[string]any { return present.Defaults(bm.DefaultOptions()) }

func (businessGame) Option(l, name string) present.Option {
	o := present.Option{Label: own.Texts.T(l, "opt_"+name)}
	switch name {
	case "laps":
		o.Min, o.Max = 1, 200
	case "rent_claim":
		o.Choices = []present.OptionChoice{{Value: bm.RentAuto, Label: own.Texts.T(l, "opt_rent_claim_auto")}, {Value: bm.RentClaim, Label: own.Texts.T(l, "opt_rent_claim_claim")}}
	}
	return o
}

func (b businessGame) Seats(l string, v bm.View) []present.Seat {
	out := make([]present.Seat, len(v.Players))
	for i, p := range v.Players {
		s := present.Seat{Cell: b.CellName(l, p.Cell), Laps: p.Laps, LapsOf: v.Laps, Cash: p.Cash, Bankrupt: p.Bankrupt}
		s.Facts = []present.Fact{{Label: own.Texts.T(l, "cash"), Value: templates.Money(l, p.Cash)}, {Label: own.Texts.T(l, "xcards"), Value: fmt.Sprint(p.Cards)}}
		if p.Passes != 0 {
			s.Notes = append(s.Notes, templates.Pick(l, "хранит карту «Сыграть на бирже»", "keeps a «Play on the exchange» card"))
		}
		shares := present.List{Title: own.Texts.T(l, "shares")}
		for k, n := range p.Shares {
			if n > 0 {
				shares.Items = append(shares.Items, present.Item{Text: fmt.Sprintf("%s %d", bmColour(l, bm.Groups[k].Key), n), Colour: GroupHex(k)})
			}
		}
		lots := present.List{Title: own.Texts.T(l, "lots")}
		for _, pr := range v.Properties {
			if pr.Owner != i {
				continue
			}
			it := present.Item{Text: b.CellName(l, pr.Cell), Colour: GroupHex(bmGroupOf(pr.Cell))}
			var state []string
			switch pr.Level {
			case 1:
				state, it.Marks = append(state, templates.Pick(l, "филиал", "branch")), "b1"
			case 2:
				state, it.Marks = append(state, templates.Pick(l, "предприятие", "enterprise")), "b2"
			}
			if pr.Pledged {
				state = append(state, templates.Pick(l, "в залоге", "pledged"))
				it.Marks = strings.TrimSpace(it.Marks + " pledged")
			}
			if len(state) > 0 {
				it.Text += " · " + strings.Join(state, ", ")
			}
			lots.Items = append(lots.Items, it)
		}
		for _, ls := range []present.List{lots, shares} {
			if len(ls.Items) > 0 {
				s.Lists = append(s.Lists, ls)
			}
		}
		if i == v.Seat && len(v.Hand) > 0 { // the reader's own hand, in its own view only
			hand := present.List{Title: own.Texts.T(l, "my_xcards"), Private: true}
			for _, c := range v.Hand {
				hand.Items = append(hand.Items, present.Item{Text: bmXCard(l, c.ID)})
			}
			s.Lists = append(s.Lists, hand)
		}
		out[i] = s
	}
	return out
}

func (b businessGame) Prompt(l string, v bm.View, seat int, owes bool, name func(int) string) string {
	if seat < 0 || seat >= len(v.Players) || !owes {
		return ""
	}
	p := v.Players[seat]
	here := b.CellName(l, p.Cell)
	switch v.Phase {
	case bm.PhRoll:
		return templates.Pickf(l, "Вы на клетке %s. Бросайте кубики; до броска можно строить, закладывать и предлагать сделки.",
			"You are on %s. Roll the dice; before that you may build, pledge and offer deals.", here)
	case bm.PhAct:
		s := templates.Pickf(l, "Вы на клетке %s.", "You are on %s.", here)
		if v.Dice[0] > 0 && v.Spot == p.Cell {
			s = templates.Pickf(l, "Выпало %d и %d — вы на клетке %s.", "You rolled %d and %d and stopped on %s.", v.Dice[0], v.Dice[1], here)
		}
		if v.Spot != p.Cell && v.Spot > 0 && v.Spot < bm.NumCells {
			if bm.Board[v.Spot].Kind == bm.KLot {
				s += " " + templates.Pickf(l, "Кубики указали на фирму %s за границей.", "The dice point to the firm %s abroad.", b.CellName(l, v.Spot))
			} else {
				s += " " + templates.Pickf(l, "Кубики указали на %s — это не фирма.", "The dice point to %s: not a firm.", b.CellName(l, v.Spot))
			}
		}
		if v.Exchange {
			s += " " + templates.Pick(l, "Биржа открыта: можно купить и продать акции и сыграть одну карту биржи.",
				"The exchange is open: buy and sell shares and play one exchange card.")
		}
		return s + " " + templates.Pick(l, "Выберите, что сделать.", "Choose what to do.")
	case bm.PhChoose:
		return templates.Pickf(l, "Вы получаете акции: ещё %d, любого цвета — выберите цвет и сколько.",
			"You receive shares: %d more, of any colour; choose a colour and how many.", v.Gift)
	case bm.PhCustoms:
		return templates.Pickf(l, "Таможня: продайте банку ещё %d акций по курсу биржи — каких, решаете вы.",
			"Customs: sell %d more shares to the bank at the exchange price; you choose which.", v.Sell)
	case bm.PhClaim:
		if c := v.Claim; c != nil {
			// Not "or it is lost": the game waits for the answer, and a
			// missed deadline claims it (the engine's default).
			return templates.Pickf(l, "%s — на вашем участке %s. Потребуйте аренду (%s) или откажитесь от неё.",
				"%s stopped on your lot %s. Claim the rent (%s) or waive it.", name(c.Payer), b.CellName(l, c.Cell), templates.Money(l, c.Amount))
		}
	case bm.PhOffer:
		if o := v.Offer; o != nil {
			switch o.Kind {
			case bm.AOfferSell:
				return templates.Pickf(l, "%s предлагает вам купить %s за %s. Согласны?", "%s offers to sell you %s for %s. Do you accept?", name(o.From), b.CellName(l, o.Cell), templates.Money(l, o.Price))
			case bm.AOfferBuy:
				return templates.Pickf(l, "%s хочет купить ваш участок %s за %s. Согласны?", "%s offers to buy your lot %s for %s. Do you accept?", name(o.From), b.CellName(l, o.Cell), templates.Money(l, o.Price))
			case bm.AOfferSwap:
				return templates.Pickf(l, "%s предлагает обмен: ваш участок %s на участок %s. Согласны?", "%s offers a swap: your lot %s for their %s. Do you accept?", name(o.From), b.CellName(l, o.Other), b.CellName(l, o.Cell))
			case bm.AOfferShare:
				key := ""
				if o.Other >= 0 && o.Other < bm.NumColours {
					key = bm.Groups[o.Other].Key
				}
				return templates.Pickf(l, "%s предлагает вам акцию (%s) за %s. Согласны?", "%s offers you a share (%s) for %s. Do you accept?", name(o.From), strings.ToLower(bmColour(l, key)), templates.Money(l, o.Price))
			}
		}
	case bm.PhDebt:
		if d := v.Debt; d != nil && d.To >= 0 {
			return templates.Pickf(l, "Не хватает денег: нужно заплатить %s, а у вас %s. Заложите участок, продайте банку постройку, участок или акции.",
				"You are short of cash: %s to pay, %s in hand. Pledge a lot, or sell a building, a lot or shares to the bank.", templates.Money(l, d.Amount), templates.Money(l, p.Cash))
		}
		if d := v.Debt; d != nil {
			return templates.Pickf(l, "Не хватает денег: нужно заплатить %s, а у вас %s. Заложите участок или продайте банку постройку или участок.",
				"You are short of cash: %s to pay, %s in hand. Pledge a lot, or sell a building or a lot to the bank.", templates.Money(l, d.Amount), templates.Money(l, p.Cash))
		}
	case bm.PhRoulette:
		if v.Roulette > 0 {
			return templates.Pickf(l, "Рулетка: вы на клетке «%s». Крутите дальше или уходите, если это выход.",
				"Roulette: you are on «%s». Spin again, or leave if it is an exit.", templates.Pick(l, bm.Board[v.Roulette].RU, bm.Board[v.Roulette].EN))
		}
	}
	return ""
}

var bmGroups = map[string]string{
	bm.APlayCard: "grp_cards", bm.AUsePass: "grp_here",
	bm.ABuyShares: "grp_shares", bm.ASellShares: "grp_shares",
	bm.ABuild: "grp_build", bm.ASellBuilding: "grp_build",
	bm.AMortgage: "grp_bank", bm.ARedeem: "grp_bank", bm.ASellBank: "grp_bank",
	bm.AOfferSell: "grp_deals", bm.AOfferBuy: "grp_deals", bm.AOfferSwap: "grp_deals", bm.AOfferShare: "grp_deals",
	bm.AResign: "grp_leave",
}

func (businessGame) Groups() []present.Group {
	return []present.Group{{Key: "grp_here"}, {Key: "grp_cards"}, {Key: "grp_shares"}, {Key: "grp_build"}, {Key: "grp_bank"},
		{Key: "grp_deals"}, {Key: "grp_other"}, {Key: "grp_leave"}}
}

func (b businessGame) Choice(l string, c engine.Choice, v bm.View, name func(int) string) present.Choice {
	ch := present.Choice{Label: b.ActionLabel(l, c.Action, name), Group: bmGroups[c.Type]}
	if ch.Group == "" {
		ch.Group = "grp_here"
	}
	price := func(cell int) int64 {
		if cell > 0 && cell < bm.NumCells {
			return bm.Board[cell].Price
		}
		return 0
	}
	level := func(cell int) int {
		for _, p := range v.Properties {
			if p.Cell == cell {
				return p.Level
			}
		}
		return 0
	}
	share := func(key string) int64 {
		if k := bm.ColourIndex(key); k >= 0 {
			return int64(v.Points[k]) * bm.PointValue
		}
		return 0
	}
	// A sensible first amount for a price: the lot's (or share's) price,
	// within what the other side can pay.
	within := func(p int64) int64 { return min(max(p, c.Min), c.Max) }
	switch c.Type {
	case bm.ABuy:
		ch.Note = own.Texts.Tf(l, "note_price", templates.Money(l, price(c.Cell)))
		if c.Cell >= bm.AbroadFirst && c.Cell <= bm.AbroadLast {
			ch.Note += " + " + templates.Money(l, bm.AbroadSurcharge)
		}
	case bm.ATake:
		ch.Label = templates.Pickf(l, "Взять %s", "Take %s", bmShares(l, c.Good))
		ch.Unit = templates.Pick(l, "шт.", "shares")
	case bm.AClaim:
		if v.Claim != nil {
			ch.Note = templates.Money(l, v.Claim.Amount)
		}
	case bm.AAccept:
		if o := v.Offer; o != nil && o.Price > 0 {
			if o.Kind == bm.AOfferBuy {
				ch.Note = own.Texts.Tf(l, "note_get", templates.Money(l, o.Price))
			} else {
				ch.Note = own.Texts.Tf(l, "note_pay", templates.Money(l, o.Price))
			}
		}
	case bm.ABroker:
		ch.Note = own.Texts.Tf(l, "note_pay", templates.Money(l, bm.BrokerFee))
	case bm.AAbroad:
		ch.Note = templates.Pickf(l, "%s и половина акций банку", "%s and half your shares to the bank", templates.Money(l, bm.CustomsFee))
	case bm.APlayCard: // one list of every card and colour
		ch.Label = templates.Pick(l, "Сыграть карту биржи", "Play an exchange card")
		ch.Form, ch.AltLabel = "card", templates.Pick(l, "Карта и цвет", "Card and colour")
		ch.Alt = bmCardPlay(l, c.Cell, c.Good, c.Amount)
	case bm.ABuyShares, bm.ASellShares:
		ch.Unit = templates.Pick(l, "акций", "shares")
		ch.Note = own.Texts.Tf(l, "note_each", templates.Money(l, share(c.Good)))
	case bm.ABuild:
		cell := bm.Board[max(0, min(c.Cell, bm.NumCells-1))]
		if level(c.Cell) == 0 {
			ch.Note = templates.Pick(l, "филиал", "branch") + ", " + templates.Money(l, cell.Branch)
		} else {
			ch.Note = templates.Pick(l, "предприятие", "enterprise") + ", " + templates.Money(l, cell.Enterprise)
		}
	case bm.ASellBuilding:
		cell := bm.Board[max(0, min(c.Cell, bm.NumCells-1))]
		cost := cell.Branch
		if level(c.Cell) == 2 {
			cost = cell.Enterprise
		}
		ch.Note = own.Texts.Tf(l, "note_get", templates.Money(l, cost*bm.BuildingSalePct/100))
	case bm.AMortgage:
		ch.Note = own.Texts.Tf(l, "note_get", templates.Money(l, price(c.Cell)*bm.MortgagePct/100))
	case bm.ARedeem:
		ch.Note = own.Texts.Tf(l, "note_pay", templates.Money(l, price(c.Cell)*bm.RedeemPct/100))
	case bm.ASellBank:
		ch.Note = own.Texts.Tf(l, "note_get", templates.Money(l, price(c.Cell)*bm.BankBuyPct/100))
	case bm.AOfferSell: // one list of every lot and buyer
		ch.Label = templates.Pick(l, "Предложить продать участок", "Offer to sell a lot")
		ch.Form, ch.AltLabel = "sell", templates.Pick(l, "Участок и покупатель", "Lot and buyer")
		ch.Alt = b.CellName(l, c.Cell) + " → " + name(c.Target)
		ch.Value = within(price(c.Cell))
	case bm.AOfferBuy: // one list of every rival's lot
		ch.Label = templates.Pick(l, "Предложить купить участок", "Offer to buy a lot")
		ch.Form, ch.AltLabel = "buy", templates.Pick(l, "Участок (владелец)", "Lot (owner)")
		ch.Alt = b.CellName(l, c.Cell) + " (" + name(c.Target) + ")"
		ch.Value = within(price(c.Cell))
	case bm.AOfferSwap: // for each own lot, a list of the rivals'
		ch.Label = templates.Pickf(l, "Предложить обменять %s", "Offer to swap %s", b.CellName(l, c.Cell))
		ch.Form, ch.AltLabel = fmt.Sprintf("swap:%d", c.Cell), templates.Pick(l, "На участок", "For")
		ch.Alt = b.CellName(l, int(c.Amount)) + " (" + name(c.Target) + ")"
	case bm.AOfferShare: // one list of every colour and buyer
		ch.Label = templates.Pick(l, "Предложить акцию игроку", "Offer a share to a player")
		ch.Form, ch.AltLabel = "share", templates.Pick(l, "Акция и покупатель", "Share and buyer")
		ch.Alt = bmColour(l, c.Good) + " → " + name(c.Target)
		ch.Value = within(share(c.Good))
	}
	return ch
}

// bmParts is the order of the net-worth parts (B-0).
var bmParts = [][2]string{
	{bm.PartCash, "cash"}, {bm.PartLots, "lots"}, {bm.PartBuildings, "buildings"}, {bm.PartShares, "shares"}, {bm.PartPledged, "pledged"},
}

func (businessGame) Parts(l string, parts map[string]int64) []present.Part {
	return present.PartsIn(own.Texts, l, parts, bmParts)
}

func (businessGame) Squares(l string, v bm.View, name func(int) string) []present.Square {
	props := map[int]bm.PropertyView{}
	for _, p := range v.Properties {
		props[p.Cell] = p
	}
	var out []present.Square
	for n := 1; n < bm.NumCells; n++ {
		c := bm.Board[n]
		if c.RU == "" {
			continue
		}
		sq := present.Square{N: n, Name: templates.Pick(l, c.RU, c.EN), Seat: -1}
		if p, owned := props[n]; owned && p.Owner >= 0 {
			sq.Seat, sq.Owner = p.Owner, name(p.Owner)
			var state []string
			switch p.Level {
			case 1:
				state = append(state, templates.Pick(l, "филиал", "branch"))
			case 2:
				state = append(state, templates.Pick(l, "предприятие", "enterprise"))
			}
			if p.Pledged {
				state = append(state, templates.Pick(l, "в залоге", "pledged"))
			}
			sq.Note = strings.Join(state, ", ")
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

// GoodName names a share's colour.
func (businessGame) GoodName(l, good string) string { return bmColour(l, good) }
