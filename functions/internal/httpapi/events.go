package httpapi

import (
	"fmt"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// eventText tells an event in words. present names the events the mails
// tell too; the pages tell every event of «Вестерн», so the money lines
// that present leaves as codes are worded here.
func eventText(l string, e engine.Event, name func(int) string) string {
	who := name(e.Seat)
	cell := present.CellName(l, e.Cell)
	good := present.GoodName(l, e.Good)
	usd := templates.USD(l, abs(e.Amount))
	say := func(ru, en string, args ...any) string {
		if l == "en" {
			return fmt.Sprintf(en, args...)
		}
		return fmt.Sprintf(ru, args...)
	}
	switch e.Type {
	case western.EvIncome:
		return say("%s получает доход за круг: %s", "%s collects the lap income: %s", who, usd)
	case western.EvDividend:
		return say("%s: доход от «%s» — %s", "%s: profit of %s, %s", who, cellNameShort(l, e.Cell), usd)
	case western.EvProduce:
		return pick(l, fmt.Sprintf("%s: «%s» выпускает товар «%s», %d ед.", who, cellNameShort(l, e.Cell), good, e.Other),
			fmt.Sprintf("%s: %s produces %d units of %s", who, cellNameShort(l, e.Cell), e.Other, good))
	case western.EvHMM:
		return say("%s: доля ХММ с %s — %s", "%s: ХММ's share of %s, %s", who, cellNameShort(l, e.Cell), usd)
	case western.EvInterest:
		return say("%s платит проценты по кредиту: %s", "%s pays interest on credit: %s", who, usd)
	case western.EvDepositInt:
		return say("%s: проценты по вкладу — %s", "%s earns deposit interest: %s", who, usd)
	case western.EvRate:
		return say("Курс %s: %d пт", "%s's share rate: %d pts", cellNameShort(l, e.Cell), e.Other)
	case western.EvGoodRate:
		return say("Курс товара «%s»: %d пт", "%s rate: %d pts", good, e.Other)
	case western.EvSell:
		return say("%s продаёт банку %s за %s", "%s sells %s to the bank for %s", who, cell, usd)
	case western.EvSpecSell:
		return say("%s продаёт на бирже %s за %s", "%s sells %s at the speculation for %s", who, cell, usd)
	case western.EvCredit:
		return say("%s берёт %s в долг", "%s borrows %s", who, usd)
	case western.EvDeposit:
		return say("%s кладёт во вклад %s", "%s puts %s on deposit", who, templates.USD(l, int64(e.Other)))
	case western.EvWithdraw:
		return say("%s снимает со вклада %s", "%s withdraws %s from deposit", who, templates.USD(l, int64(e.Other)))
	case western.EvRepay:
		return say("%s гасит кредит: %s", "%s repays %s of credit", who, usd)
	case western.EvRepayLoan:
		return say("%s возвращает заём колонии: %s", "%s repays %s of the colony loan", who, usd)
	case western.EvSellGood:
		return pick(l, fmt.Sprintf("%s продаёт товар «%s»: %d ед.", who, good, e.Other), fmt.Sprintf("%s sells %d units of %s", who, e.Other, good))
	case western.EvGoodGained:
		return pick(l, fmt.Sprintf("%s получает товар «%s»: %d ед.", who, good, e.Other), fmt.Sprintf("%s gains %d units of %s", who, e.Other, good))
	case western.EvGoodLost:
		return pick(l, fmt.Sprintf("%s теряет товар «%s»: %d ед.", who, good, e.Other), fmt.Sprintf("%s loses %d units of %s", who, e.Other, good))
	case western.EvFee:
		return pick(l, fmt.Sprintf("%s платит на клетке %s: %s", who, cell, usd), fmt.Sprintf("%s pays %s on %s", who, usd, cell))
	case western.EvGain:
		return pick(l, fmt.Sprintf("%s получает на клетке %s: %s", who, cell, usd), fmt.Sprintf("%s gets %s on %s", who, usd, cell))
	case western.EvOffer:
		return pick(l, fmt.Sprintf("%s предлагает %s продать %s", who, name(e.Other), cell), fmt.Sprintf("%s offers to buy %s from %s", who, cell, name(e.Other)))
	case western.EvOfferDone:
		if e.Amount < 0 {
			return say("%s выкупает %s у %s за %s", "%s buys %s from %s for %s", who, cell, name(e.Other), usd)
		}
		return say("%s продаёт %s за %s", "%s sells %s for %s", who, cell, usd)
	case western.EvOfferNo:
		return say("%s не продаёт %s", "%s keeps %s", who, cell)
	case western.EvBid:
		if e.Other == 0 {
			return say("%s: вы не участвуете в торгах", "%s: you pass the auction", who)
		}
		return say("%s: ваша закрытая ставка — %s", "%s: your sealed bid is %s", who, templates.USD(l, int64(e.Other)))
	case western.EvAuctionNil:
		return say("Торги не состоялись", "Nobody bought at the auction")
	case western.EvNarco:
		if e.Other < 0 {
			return say("%s продаёт наркотик: %d т", "%s sells %d tons of narcotics", who, -e.Other)
		}
		return say("%s покупает наркотик: %d т", "%s buys %d tons of narcotics", who, e.Other)
	case western.EvBribe:
		return say("%s подкупает полицию: %s", "%s bribes the police: %s", who, usd)
	case western.EvProtected:
		return say("%s под защитой полиции до конца круга", "%s is protected from the police for this lap", who)
	case western.EvSkip:
		return say("%s пропускает ход (осталось: %d)", "%s misses a turn (%d left)", who, e.Other)
	case western.EvSurrender:
		return say("%s отдаёт награбленное", "%s gives up the loot", who)
	case western.EvLabour:
		return say("%s: биржа труда, отметка %+d", "%s: labour exchange, marker %+d", who, e.Other)
	case western.EvResign:
		return say("%s покидает игру", "%s leaves the game", who)
	case western.EvForced:
		if e.Cell > 0 {
			return say("%s вынужден продать %s: %s", "%s must sell %s: %s", who, cell, usd)
		}
		return say("%s вынужден продать товар: %s", "%s must sell goods: %s", who, usd)
	}
	return present.EventText(l, e, name)
}

func pick(l, ru, en string) string {
	if l == "en" {
		return en
	}
	return ru
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
