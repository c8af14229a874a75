// Package boardpic draws the board of a «Вестерн» game: a PNG to inline in
// the HTML part of a mail and an SVG for pages. Both come from one display
// list (scene.go), so they show the same thing: the main loop as a
// rectangle of cells, the slippery path, the sea route, the colony and the
// island as branches where they attach, the holdings tinted with their
// owners' colours, the tokens, the current rates and a legend.
//
// Output is deterministic: the same view, names and language give the same
// bytes.
package boardpic

import (
	"fmt"
	"image/color"

	"github.com/pbmgames/pbm/engine/western"
)

// seatColors is the Okabe–Ito palette, distinguishable with the common
// colour-vision deficiencies; seat i (0-based) has seatColors[i].
var seatColors = [western.MaxSeats]color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
}

// SeatColor is the colour of seat (0-based) on the board: its token, its
// holdings, its legend entry. Pages should use the same for the seat.
func SeatColor(seat int) color.RGBA {
	if seat < 0 {
		return color.RGBA{0x88, 0x88, 0x88, 0xFF}
	}
	return seatColors[seat%len(seatColors)]
}

// SeatHex is SeatColor as a CSS colour, "#0072b2".
func SeatHex(seat int) string { return hex(SeatColor(seat)) }

// Width and Height are the size of the picture in pixels (the PNG's size
// and the SVG's viewBox).
const (
	Width  = 2*margin + loopW*unit + 1 // + the right border of the last column
	Height = legendY + 3*legendRow + margin
)

// PNG draws the board of v as a paletted PNG. names[i] is seat i's name
// (a missing or empty one is shown as "Игрок i+1"); lang "en" is English,
// anything else Russian.
func PNG(v western.View, names []string, lang string) ([]byte, error) {
	sc, err := build(v, names, lang)
	if err != nil {
		return nil, err
	}
	return rasterPNG(sc)
}

// SVG draws the board of v as a self-contained inline SVG (no external
// references; text in the reader's system sans-serif font).
func SVG(v western.View, names []string, lang string) ([]byte, error) {
	sc, err := build(v, names, lang)
	if err != nil {
		return nil, err
	}
	return writeSVG(sc), nil
}

// check refuses a view the board cannot show.
func check(v western.View) error {
	if len(v.Players) > western.MaxSeats {
		return fmt.Errorf("boardpic: %d players, at most %d", len(v.Players), western.MaxSeats)
	}
	if len(v.Owner) != 0 && len(v.Owner) != western.NumCells+1 {
		return fmt.Errorf("boardpic: owner list of %d cells, want %d", len(v.Owner), western.NumCells+1)
	}
	for i, p := range v.Players {
		if p.Cell < 1 || p.Cell > western.NumCells {
			return fmt.Errorf("boardpic: seat %d on cell %d", i, p.Cell)
		}
	}
	return nil
}

// texts are the words of the picture, Russian and English.
var texts = map[string][2]string{
	"title":    {"Вестерн", "Western"},
	"slippery": {"Скользкий путь", "Slippery path"},
	"sea":      {"Море", "Sea"},
	"colony":   {"Колония", "Colony"},
	"island":   {"Остров", "Island"},
	"shares":   {"Курс акций", "Share rates"},
	"goods":    {"Биржа товаров", "Commodity rates"},
	"turn":     {"Ходит", "To move"},
	"over":     {"Игра окончена", "Game over"},
	"player":   {"Игрок", "Player"},
	"cell":     {"клетка", "cell"},
	"bankrupt": {"банкрот", "bankrupt"},
	"board":    {"Доска игры «Вестерн»", "Board of the game «Western»"},
	"start":    {"Старт", "Start"},
	"labour":   {"Биржа труда", "Labour exchange"},
}

func tr(lang, key string) string {
	if lang == "en" {
		return texts[key][1]
	}
	return texts[key][0]
}
