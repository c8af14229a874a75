// Package boardpic draws the board of a game: a PNG to inline in the HTML
// part of a mail and an SVG for pages. Both come from one display list
// (scene), so they show the same thing.
//
// «Вестерн» (scene.go): the main loop as a rectangle of cells, the
// slippery path, the sea route, the colony and the island as branches
// where they attach, the holdings tinted with their owners' colours, the
// tokens, the current rates and a legend.
//
// «Бизнесмен» (business.go): the big perimeter as a square ring, the
// small perimeter abroad, the highway and the roulette inside it, the lots
// in their colours with their owners, buildings and pledges, the tokens,
// the exchange board's six prices and a legend.
//
// Output is deterministic: the same view, names and language give the same
// bytes.
package boardpic

import (
	"errors"
	"fmt"
	"image/color"

	"github.com/pbmgames/pbm/engine/businessman"
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

// Width and Height are the size of «Вестерн»'s picture in pixels (the
// PNG's size and the SVG's viewBox); BusinessWidth and BusinessHeight
// are «Бизнесмен»'s.
const (
	Width  = 2*margin + loopW*unit + 1 // + the right border of the last column
	Height = legendY + 3*legendRow + margin
)

// ErrNoPicture is returned for a view of a game the package cannot draw.
var ErrNoPicture = errors.New("boardpic: no picture of this game")

// PNG draws the board of a game's view (western.View or
// businessman.View) as a paletted PNG. names[i] is seat i's name (a
// missing or empty one is shown as "Игрок i+1"); lang "en" is English,
// anything else Russian.
func PNG(view any, names []string, lang string) ([]byte, error) {
	sc, err := build(view, names, lang)
	if err != nil {
		return nil, err
	}
	return rasterPNG(sc)
}

// SVG draws the board of a game's view as a self-contained inline SVG
// (no external references; text in the reader's system sans-serif font).
func SVG(view any, names []string, lang string) ([]byte, error) {
	sc, err := build(view, names, lang)
	if err != nil {
		return nil, err
	}
	return writeSVG(sc), nil
}

// build lays out the picture of a view, by its game.
func build(view any, names []string, lang string) (*scene, error) {
	switch v := view.(type) {
	case western.View:
		return buildWestern(v, names, lang)
	case businessman.View:
		return buildBusiness(v, names, lang)
	}
	return nil, fmt.Errorf("%w: %T", ErrNoPicture, view)
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
	// «Бизнесмен».
	"bm_title":   {"Бизнесмен", "Businessman"},
	"bm_board":   {"Доска игры «Бизнесмен»", "Board of the game «Businessman»"},
	"highway":    {"Автомагистраль", "Highway"},
	"abroad":     {"За границей", "Abroad"},
	"surcharge":  {"покупки +5 000", "purchases +5,000"},
	"roulette":   {"Рулетка", "Roulette"},
	"exchange":   {"Биржа: курс акций", "Exchange: share prices"},
	"point":      {"цена", "price"},
	"points":     {"пункты", "points"},
	"price":      {"цена", "price"},
	"branch":     {"филиал", "branch"},
	"enterprise": {"предприятие", "enterprise"},
	"pledged":    {"в залоге", "pledged"},
	"owner":      {"владелец", "owner"},
	"pieces":     {"в банке: филиалов %d, предприятий %d", "in the bank: %d branches, %d enterprises"},
}

func tr(lang, key string) string {
	return pickLang(lang, texts[key][0], texts[key][1])
}

// pickLang is en for lang "en", else ru.
func pickLang(lang, ru, en string) string {
	if lang == "en" {
		return en
	}
	return ru
}

// groupColors are the colours of «Бизнесмен»'s lot groups; the first
// businessman.NumColours are also its share colours on the exchange.
var groupColors = [businessman.NumGroups]color.RGBA{
	{0xD0, 0x31, 0x2D, 0xFF}, // red
	{0xEE, 0x7B, 0x1A, 0xFF}, // orange
	{0xF2, 0xC8, 0x1E, 0xFF}, // yellow
	{0x3A, 0x9A, 0x45, 0xFF}, // green
	{0x24, 0x63, 0xB5, 0xFF}, // blue
	{0x86, 0x3F, 0xB0, 0xFF}, // purple
	{0xB8, 0xC0, 0xC8, 0xFF}, // silver
	{0xC9, 0x9A, 0x22, 0xFF}, // gold
	{0x7C, 0x93, 0xA8, 0xFF}, // platinum
}

// GroupColor is the colour of «Бизнесмен»'s lot group (or share colour)
// g; grey for none.
func GroupColor(g int) color.RGBA {
	if g < 0 || g >= len(groupColors) {
		return color.RGBA{0x88, 0x88, 0x88, 0xFF}
	}
	return groupColors[g]
}

// GroupHex is GroupColor as a CSS colour.
func GroupHex(g int) string { return hex(GroupColor(g)) }
