// Package raceview presents «Гонка» (engine/testgame/race), the game kept
// for the tests only: it proves a presenter plugs into present.Game with
// no laps, no board picture (no present.Boarder) and two seats. Nothing
// in production imports it; the catalog does not list it.
package raceview

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/testgame/race"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/templates"
)

// raceGame presents «Гонка». Its views hold the whole position:
// nothing of a seat is hidden from another.
type raceGame struct{ present.Base[race.View] }

// Presenter presents the game; the tests' wiring lists it.
var Presenter = present.Of[race.View](raceGame{present.Base[race.View]{Own: own}})

func (raceGame) Kind() string { return race.Name }

// The game counts coins, in plain numbers, nothing of it is secret, and
// its turns start at "turn": present.Base's Money, Currency, SecretText
// and TurnEvent say so.

// CellName is a cell's number, and the start's name; the finish depends
// on the track, which a cell's number alone does not tell.
func (raceGame) CellName(l string, n int) string {
	if n == 0 {
		return templates.Pick(l, "0 Старт", "0 Start")
	}
	return fmt.Sprint(n)
}

func (raceGame) ActionLabel(l string, a engine.Action, _ func(int) string) string {
	if w, ok := own.Phrases().Actions[a.Type]; ok {
		return templates.Pick(l, w[0], w[1])
	}
	return a.Type
}

func (g raceGame) Command(l string, a engine.Action, name func(int) string) string {
	return g.ActionLabel(l, a, name)
}

// No action of this game is secret (race.Secret).
func (g raceGame) EventText(l string, e engine.Event, name func(int) string) string {
	who := name(e.Seat)
	if f, ok := own.Phrases().Events[e.Type]; ok {
		return templates.Pickf(l, f[0], f[1], who, g.CellName(l, e.Cell), g.Money(l, present.Abs(e.Amount)))
	}
	switch e.Type {
	case race.EvRoll:
		return templates.Pickf(l, "%s бросает кубик: %d", "%s rolls %d", who, e.Other)
	case race.EvCoin:
		return templates.Pickf(l, "%s отдыхает: монет +%d", "%s rests: +%d %s", who, e.Amount, coinsEN(e.Amount))
	case engine.EvGameOver:
		switch e.Other {
		case race.OverFinish:
			return templates.Pick(l, "Игра окончена: финиш достигнут.", "The game is over: the finish is reached.")
		case engine.OverEnded: // the shared words place by net worth; this game counts points
			return templates.Pick(l, "Игра окончена по решению организатора: места — по очкам на этот момент.", "The organiser has ended the game: places by score as it stands.")
		}
		return present.OverWhy(l, e.Other)
	}
	return present.Unworded(l, g, who, e)
}

// coinsEN is "coin" or "coins".
func coinsEN(n int64) string {
	if n == 1 {
		return "coin"
	}
	return "coins"
}

// cellsRU is "клетка", "клетки" or "клеток" after n.
func cellsRU(n int) string {
	switch m := n % 100; {
	case m >= 11 && m <= 14:
		return "клеток"
	case m%10 == 1:
		return "клетка"
	case m%10 >= 2 && m%10 <= 4:
		return "клетки"
	}
	return "клеток"
}

// Options sums up the options: the track's length.
func (raceGame) Options(l string, raw json.RawMessage) string {
	o, ok := present.ReadOptions(raw, race.DefaultOptions())
	if !ok {
		return ""
	}
	if l == "en" {
		return templates.Sprintf(l, "a track of %d cells", o.Track)
	}
	return templates.Sprintf(l, "трасса — %d %s", o.Track, cellsRU(o.Track))
}

func (raceGame) OptionDefaults() map[string]any { return present.Defaults(race.DefaultOptions()) }

func (raceGame) Option(l, name string) present.Option {
	o := present.Option{Label: own.Texts.T(l, "opt_"+name)}
	if name == "track" {
		o.Min, o.Max = race.MinTrack, race.MaxTrack
	}
	return o
}

// Seats shows each seat's cell, coins and what is left to the finish.
// A race has no laps: Laps and LapsOf stay 0, which the pages read as
// "no laps to show".
func (g raceGame) Seats(l string, v race.View) []present.Seat {
	out := make([]present.Seat, len(v.Players))
	for i, p := range v.Players {
		s := present.Seat{Cell: g.CellName(l, p.Cell), Cash: p.Coins, Bankrupt: p.Resigned}
		s.Facts = []present.Fact{
			{Label: own.Texts.T(l, "race_coins"), Value: g.Money(l, p.Coins)},
			{Label: own.Texts.T(l, "race_to_go"), Value: fmt.Sprint(v.Track - p.Cell)},
		}
		if p.Finished {
			s.Notes = append(s.Notes, own.Texts.T(l, "race_finished"))
		}
		if p.Resigned {
			s.Notes = append(s.Notes, own.Texts.T(l, "race_resigned"))
		}
		out[i] = s
	}
	return out
}

func (g raceGame) Prompt(l string, v race.View, seat int, owes bool, name func(int) string) string {
	if seat < 0 || seat >= len(v.Players) {
		return ""
	}
	if !owes {
		if len(v.Owing) > 0 {
			return templates.Pickf(l, "Ход за соперником: %s.", "It is %s's turn.", name(v.Owing[0]))
		}
		return ""
	}
	p := v.Players[seat]
	left := v.Track - p.Cell
	s := templates.Pickf(l, "Вы на клетке %s, до финиша %d.", "You are on %s, %d from the finish.", g.CellName(l, p.Cell), left)
	if v.MayRest {
		return s + " " + templates.Pick(l, "Бросайте кубик или отдохните (+1 монета).", "Roll the die, or rest (+1 coin).")
	}
	return s + " " + templates.Pick(l, "Монет уже пять: бросайте кубик.", "You hold five coins: roll the die.")
}

// Words: the game's score is points, its cash coins, and its seed decides
// the rolls alone.
func (raceGame) Words(l string) present.Words {
	return present.Words{Worth: own.Texts.T(l, "race_points"), Cash: own.Texts.T(l, "race_coins"), Checks: own.Texts.T(l, "race_seed_checks"),
		Chart: own.Texts.T(l, "race_points_chart"), Parts: own.Texts.T(l, "race_points_parts")}
}

func (raceGame) Groups() []present.Group {
	return []present.Group{{Key: "grp_here"}, {Key: "grp_leave"}}
}

func (g raceGame) Choice(l string, c engine.Choice, _ race.View, name func(int) string) present.Choice {
	ch := present.Choice{Label: g.ActionLabel(l, c.Action, name), Group: "grp_here"}
	switch c.Type {
	case race.ARoll:
		ch.Note = templates.Pick(l, "на 1–6 клеток вперёд", "1–6 cells ahead")
	case race.ARest:
		ch.Note = templates.Pick(l, "стоять на месте", "stay where you are")
	case race.AResign:
		ch.Group = "grp_leave"
	}
	return ch
}

// raceParts is the order of the score's parts.
var raceParts = [][2]string{{race.PartCells, "race_cells"}, {race.PartCoins, "race_coins"}, {race.PartFinish, "race_finish"}}

func (raceGame) Parts(l string, parts map[string]int64) []present.Part {
	return present.PartsIn(own.Texts, l, parts, raceParts)
}

// Squares lists the track's cells, start to finish, and who stands where.
func (g raceGame) Squares(l string, v race.View, name func(int) string) []present.Square {
	out := make([]present.Square, 0, v.Track+1)
	for n := 0; n <= v.Track; n++ {
		sq := present.Square{N: n, Seat: -1}
		switch n {
		case 0:
			sq.Name = templates.Pick(l, "Старт", "Start")
		case v.Track:
			sq.Name = templates.Pick(l, "Финиш", "Finish")
		}
		var here []string
		for _, p := range v.Players {
			if p.Cell == n {
				here = append(here, name(p.Seat))
			}
		}
		sq.Note = strings.Join(here, ", ")
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
