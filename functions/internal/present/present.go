// Package present names what the engine says, for people: actions, cells,
// goods and events in Russian and English. Pages and mails both use it;
// no rule lives here.
package present

import (
	"fmt"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/games"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/templates"
)

// CellName is a cell's number and name.
func CellName(lang string, n int) string {
	if n < 1 || n > western.NumCells {
		return fmt.Sprint(n)
	}
	c := western.Board[n]
	if lang == "en" {
		return fmt.Sprintf("%d %s", n, c.EN)
	}
	return fmt.Sprintf("%d %s", n, c.RU)
}

// GoodName is a good's name.
func GoodName(lang, g string) string {
	gi := western.Goods[western.GoodByName(g)]
	if gi.EN == "" {
		return g
	}
	if lang == "en" {
		return gi.EN
	}
	return gi.RU
}

var actionLabels = map[string][2]string{
	western.ARoll:       {"Бросить кубик", "Roll the die"},
	western.AFork:       {"Идти на %s", "Go to %s"},
	western.ABuy:        {"Купить %s", "Buy %s"},
	western.ASell:       {"Продать банку по номиналу: %s", "Sell to the bank at par: %s"},
	western.ASpecSell:   {"Продать на бирже: %s", "Sell at the speculation: %s"},
	western.ACredit:     {"Взять кредит", "Take credit"},
	western.ADeposit:    {"Положить во вклад", "Put on deposit"},
	western.AWithdraw:   {"Снять со вклада", "Withdraw from deposit"},
	western.ARepay:      {"Погасить кредит", "Repay credit"},
	western.ARepayLoan:  {"Вернуть заём колонии", "Repay the colony loan"},
	western.ASellGood:   {"Продать товар: %s", "Sell goods: %s"},
	western.ADropGood:   {"Уронить курс: %s", "Drop the rate of %s"},
	western.AOffer:      {"Предложить купить %s", "Offer to buy %s"},
	western.AAccept:     {"Согласиться продать", "Accept the offer"},
	western.ADecline:    {"Отказаться", "Decline"},
	western.ABid:        {"Ставка за %s", "Bid for %s"},
	western.APass:       {"Не участвовать", "Pass"},
	western.ANarcoBuy:   {"Купить наркотик, тонн", "Buy narcotics, tons"},
	western.ANarcoSell:  {"Продать наркотик, тонн", "Sell narcotics, tons"},
	western.ABribe:      {"Подкупить полицию", "Bribe the police"},
	western.ASurrender:  {"Отдать награбленное", "Give up the loot"},
	western.APrison:     {"В тюрьму", "Go to prison"},
	western.AColonyLoan: {"Взять беспроцентный заём", "Take the interest-free loan"},
	western.ATrinkets:   {"Обменять безделушки", "Trade trinkets"},
	western.AEnd:        {"Закончить ход", "End the turn"},
	western.AResign:     {"Выйти из игры", "Leave the game"},
}

// ActionLabel names an action (or a choice) for a player.
func ActionLabel(lang string, a engine.Action) string {
	l, ok := actionLabels[a.Type]
	if !ok {
		return a.Type
	}
	f := l[0]
	if lang == "en" {
		f = l[1]
	}
	if !strings.Contains(f, "%s") {
		return f
	}
	arg := CellName(lang, a.Cell)
	if a.Good != "" {
		arg = GoodName(lang, a.Good)
	}
	return fmt.Sprintf(f, arg)
}

// EventText tells an event in words, naming seats by their players.
func EventText(lang string, e engine.Event, name func(seat int) string) string {
	who := name(e.Seat)
	ru := lang != "en"
	money := templates.Money(e.Amount)
	switch e.Type {
	case western.EvRoll:
		return pick(ru, fmt.Sprintf("%s бросает кубик: %d", who, e.Other), fmt.Sprintf("%s rolls %d", who, e.Other))
	case western.EvMove:
		return pick(ru, fmt.Sprintf("%s на клетке %s", who, CellName(lang, e.Cell)), fmt.Sprintf("%s stops on %s", who, CellName(lang, e.Cell)))
	case western.EvForkAsked:
		return pick(ru, fmt.Sprintf("%s на развилке %s", who, CellName(lang, e.Cell)), fmt.Sprintf("%s reaches the fork at %s", who, CellName(lang, e.Cell)))
	case western.EvLap:
		return pick(ru, fmt.Sprintf("%s проходит круг %d", who, e.Other), fmt.Sprintf("%s completes lap %d", who, e.Other))
	case western.EvBuy, western.EvAuctionWon:
		return pick(ru, fmt.Sprintf("%s покупает %s (%s $)", who, CellName(lang, e.Cell), money), fmt.Sprintf("%s buys %s ($%s)", who, CellName(lang, e.Cell), money))
	case western.EvBidPlaced:
		return pick(ru, fmt.Sprintf("%s сделал ставку на торгах", who), fmt.Sprintf("%s has answered the auction", who))
	case western.EvAuction:
		return pick(ru, fmt.Sprintf("Торги: %s, от %d $", CellName(lang, e.Cell), e.Other), fmt.Sprintf("Auction: %s, from $%d", CellName(lang, e.Cell), e.Other))
	case western.EvPrison:
		return pick(ru, fmt.Sprintf("%s в тюрьме: пропускает ходов: %d", who, e.Other), fmt.Sprintf("%s is jailed for %d turns", who, e.Other))
	case western.EvBankrupt:
		return pick(ru, who+" разорился", who+" is bankrupt")
	case western.EvResign:
		return pick(ru, who+" вышел из игры", who+" has left the game")
	case western.EvTurn:
		return pick(ru, "Ходит "+who, who+" to move")
	case western.EvEnd:
		return pick(ru, "Игра окончена", "The game is over")
	}
	if e.Amount != 0 {
		return fmt.Sprintf("%s: %s %s $", who, e.Type, money)
	}
	return fmt.Sprintf("%s: %s", who, e.Type)
}

func pick(ru bool, r, e string) string {
	if ru {
		return r
	}
	return e
}

// GameName is the name of a kind of game.
func GameName(lang, kind string) string {
	if info, ok := games.Lookup(kind); ok {
		if lang == "en" {
			return info.EN
		}
		return info.RU
	}
	return kind
}
