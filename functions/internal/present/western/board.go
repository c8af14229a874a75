package westernview

import (
	"fmt"
	"image/color"
	"strconv"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/templates"
)

// The board: the main loop as a rectangle of cells, the slippery path,
// the sea route, the colony and the island as branches where they
// attach, the holdings tinted with their owners' colours, the tokens, the
// current rates and a legend.

// Width and Height are the size of the picture in pixels (the PNG's size
// and the SVG's viewBox).
const (
	Width  = 2*margin + loopW*unit + 1 // + the right border of the last column
	Height = legendY + 3*boardpic.LegendRow + margin
)

// Board is the layout of this game's board.
func (westernGame) Board() boardpic.Layout {
	return boardpic.LayoutOf(Width, Height, check, buildWestern)
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

// Geometry, in pixels. The main loop is a rectangle loopW cells wide and
// loopH tall, running clockwise from Start in the top-left corner: 1..27
// along the top, so the slippery path (5 → 91..110 → 26) runs just under
// it; 48 (to the sea) and 57 (to the colony) lie on the bottom row, and 90
// beside Start, where the way back from the island ends.
const (
	unit    = 25 // a cell's side
	margin  = 12
	loopW   = 27
	loopH   = 20
	boardH  = loopH * unit
	legendY = margin + boardH + 14
)

// Colours of the board.
var (
	cSand    = color.RGBA{0xEE, 0xE0, 0xC2, 0xFF} // main loop, not a holding
	cSlippy  = color.RGBA{0xD6, 0xD2, 0xDC, 0xFF}
	cSea     = color.RGBA{0xC9, 0xE2, 0xF2, 0xFF}
	cSeaInk  = color.RGBA{0x2E, 0x6C, 0x99, 0xFF}
	cColony  = color.RGBA{0xD5, 0xEA, 0xC8, 0xFF}
	cIsland  = color.RGBA{0xF2, 0xD9, 0x8C, 0xFF}
	cStart   = color.RGBA{0x3A, 0x2E, 0x22, 0xFF}
	cLeading = color.RGBA{0xB0, 0x84, 0x1C, 0xFF} // the frame of МММ, ЭМА, «Бампер»
	cBar     = color.RGBA{0x5E, 0x7D, 0x8C, 0xFF}
)

// box is where a cell is drawn.
type box struct{ x, y, w, h float64 }

func (b box) cx() float64 { return b.x + b.w/2 }

func (b box) cy() float64 { return b.y + b.h/2 }

// cellBox places cell n (1..130).
func cellBox(n int) box {
	at := func(col, row float64) box {
		return box{margin + col*unit, margin + row*unit, unit, unit}
	}
	switch {
	case n <= loopW: // top row, left to right
		return at(float64(n-1), 0)
	case n <= loopW+loopH-1: // right column, downwards: 28..46
		return at(loopW-1, float64(n-loopW))
	case n <= 2*loopW+loopH-2: // bottom row, right to left: 47..72
		return at(float64(loopW-2-(n-(loopW+loopH))), loopH-1)
	case n <= 90: // left column, upwards: 73..90
		return at(0, float64(loopH-2-(n-(2*loopW+loopH-1))))
	case n <= 110: // the slippery path under the top row, from 5 (col 4)
		return at(float64(4+n-91), 1.4)
	case n <= 113: // the sea, from 48 (col 24) towards 114 (col 15)
		return at(float64(24-3*(n-111)), loopH-2.4)
	case n <= 127: // the colony, right to left above the bottom row
		return at(float64(15-(n-114)), loopH-2.4)
	case n <= 129: // and up
		return at(2, loopH-2.4-1.2*float64(n-127))
	default: // the island
		return box{margin + 1.6*unit, margin + (loopH-2.4-4.6)*unit, 1.8 * unit, 1.2 * unit}
	}
}

// buildWestern lays out the picture of a view.
func buildWestern(sc *boardpic.Scene, v western.View, lang string) {
	seatName := sc.SeatName
	live := v.Phase != western.PhOver
	sc.Title = templates.Pick(lang, "Доска игры «Вестерн»", "Board of the game «Western»")
	sc.Desc = describe(v, seatName, lang)
	connectors(sc)
	captions(sc, lang)
	owner := func(n int) int {
		if n < len(v.Owner) {
			return int(v.Owner[n])
		}
		return -1
	}
	// The cells in three layers: frames, owners' bars, numbers (the
	// SVG then sets the common attributes once a layer).
	sc.Group(boardpic.Style{Stroke: boardpic.Border})
	for n := 1; n <= western.NumCells; n++ {
		cell(sc, n, owner(n), lang)
	}
	sc.End()
	for n := 1; n <= western.NumCells; n++ {
		if o := owner(n); o >= 0 {
			b, bw := cellBox(n), cellFrame(n)
			sc.Rect(b.x+bw, b.y+b.h+1-bw-5, b.w+1-2*bw, 5, 0, boardpic.SeatColor(o), boardpic.None, 0)
		}
	}
	sc.Group(boardpic.Style{Pass: true})
	for n := 1; n <= western.NumCells; n++ {
		cellNumber(sc, n, owner(n))
	}
	sc.End()
	centre(sc, v, seatName, live, lang)
	if live && !v.Opts.Beginners { // W-41: the variant has no labour exchange
		labour(sc, v, lang)
	}
	tokens(sc, v, live)
	legend(sc, v, seatName, live, lang)
	// What a reader looks at first (the near view): their own token, then
	// the token of the seat whose turn it is.
	for _, s := range []engine.Seat{v.Seat, v.Turn} {
		if s >= 0 && int(s) < len(v.Players) && !v.Players[s].Bankrupt {
			b := cellBox(v.Players[s].Cell)
			sc.Focus(b.x, b.y, b.w, b.h)
		}
	}
}

// cellFill is the colour of cell n (owner −1: the bank's).
func cellFill(n, owner int) color.RGBA {
	c := western.Board[n]
	switch {
	case owner >= 0:
		return boardpic.Tint(boardpic.SeatColor(owner), 0.42)
	case n == 1:
		return cStart
	case c.Kind == western.KHolding:
		return boardpic.White
	case n == 130:
		return cIsland
	case c.Slippy:
		return cSlippy
	case n >= 111 && n <= 113:
		return cSea
	case c.Colony:
		return cColony
	}
	return cSand
}

// cellFrame is the width of cell n's frame: 2 for the forks and the leading
// companies, else 1.
func cellFrame(n int) float64 {
	c := western.Board[n]
	if len(c.Next) > 1 || c.Group == western.GLeading {
		return 2
	}
	return 1
}

// cell draws the frame of cell n, filled for its owner.
func cell(sc *boardpic.Scene, n, owner int, lang string) {
	c := western.Board[n]
	b := cellBox(n)
	border := boardpic.Border
	switch {
	case len(c.Next) > 1: // a fork
		border = boardpic.Ink
	case c.Group == western.GLeading:
		border = cLeading
	}
	r := 0.0
	if n == 130 {
		r = 8
	}
	// Adjacent cells of the loop overlap by their 1 px borders.
	sc.Rect(b.x, b.y, b.w+1, b.h+1, r, cellFill(n, owner), border, cellFrame(n))
}

// cellNumber writes the number of cell n.
func cellNumber(sc *boardpic.Scene, n, owner int) {
	b := cellBox(n)
	y := b.y + b.h/2 + 4
	if owner >= 0 {
		y -= 2
	}
	sc.Text(b.x+(b.w+1)/2, y, strconv.Itoa(n), 10.5, western.Board[n].Group == western.GLeading || n == 1, 1, boardpic.OnColor(cellFill(n, owner)))
}

// connectors draws the branches' joins, the shortcuts past 78..83 and
// 101..103, and the sea lanes.
func connectors(sc *boardpic.Scene) {
	const sw = 1.6
	b := cellBox
	// 5 → 91 and 110 → 26: the slippery path.
	sc.Arrow(boardpic.Ink, sw, 0, boardpic.Point(b(5).cx(), b(5).y+unit+1), boardpic.Point(b(91).cx(), b(91).y))
	sc.Arrow(boardpic.Ink, sw, 0, boardpic.Point(b(110).x+unit+1, b(110).cy()), boardpic.Point(b(26).cx(), b(110).cy()), boardpic.Point(b(26).cx(), b(26).y+unit+1))
	// 100 → 104 past 101..103.
	y := b(100).y + unit + 1
	sc.Arrow(boardpic.Ink, sw, 0, boardpic.Point(b(100).cx(), y), boardpic.Point(b(100).cx(), y+7), boardpic.Point(b(104).cx(), y+7), boardpic.Point(b(104).cx(), y))
	// 77 → 84 past 78..83.
	x := b(77).x + unit + 1
	sc.Arrow(boardpic.Ink, sw, 0, boardpic.Point(x, b(77).cy()), boardpic.Point(x+8, b(77).cy()), boardpic.Point(x+8, b(84).cy()), boardpic.Point(x, b(84).cy()))
	// 57 → 114 by the travel agency.
	sc.Arrow(boardpic.Ink, sw, 0, boardpic.Point(b(57).cx(), b(57).y), boardpic.Point(b(114).cx(), b(114).y+unit+1))
	// Sea lanes: 48 → 111 → 112 → 113 → 114, 129 → 111 again, 129 → 130 → 90.
	sea := []boardpic.Pt{boardpic.Point(b(48).cx(), b(48).y), boardpic.Point(b(111).cx(), b(111).y+unit+1)}
	sc.Arrow(cSeaInk, sw, 4, sea...)
	for n := 111; n <= 113; n++ {
		sc.Arrow(cSeaInk, sw, 4, boardpic.Point(b(n).x, b(n).cy()), boardpic.Point(b(n+1).x+unit+1, b(n).cy()))
	}
	ly := b(129).cy()
	sc.Arrow(cSeaInk, sw, 4, boardpic.Point(b(129).x+unit+1, ly), boardpic.Point(b(111).cx(), ly), boardpic.Point(b(111).cx(), b(111).y))
	sc.Arrow(cSeaInk, sw, 4, boardpic.Point(b(129).cx(), b(129).y), boardpic.Point(b(129).cx(), b(130).y+b(130).h+1))
	sc.Arrow(cSeaInk, sw, 4, boardpic.Point(b(129).cx(), b(130).y), boardpic.Point(b(129).cx(), b(90).cy()), boardpic.Point(b(90).x+unit+1, b(90).cy()))
}

// captions names the branches.
func captions(sc *boardpic.Scene, lang string) {
	b := cellBox
	sc.Text(b(91).x, b(91).y+unit+15, templates.Pick(lang, "Скользкий путь", "Slippery path"), 12, false, 0, boardpic.Muted)
	sc.Text(b(112).cx(), b(129).cy()-6, templates.Pick(lang, "Море", "Sea"), 12, false, 1, cSeaInk)
	sc.Text(b(120).x, b(120).y-6, templates.Pick(lang, "Колония", "Colony"), 12, false, 0, boardpic.Muted)
	sc.Text(b(130).x+b(130).w+5, b(130).cy()+4, templates.Pick(lang, "Остров", "Island"), 12, false, 0, boardpic.Muted)
}

// centre draws the title, whose move it is and the rates.
func centre(sc *boardpic.Scene, v western.View, seatName func(int) string, live bool, lang string) {
	cx := float64(margin) + loopW*unit/2
	top := float64(margin) + 3.1*unit
	sc.Heading(boardpic.HeadLayout{CX: cx, TitleY: top + 36, TitleSize: 32, Y: top + 76, Size: 20, NameW: 320, Gap: 22, R: 11, Lift: 7},
		templates.Pick(lang, "Вестерн", "Western"), v.Turn, len(v.Players), seatName, live, lang)
	// Two blocks: the share rates and the commodity rates.
	const blockW, rowH, size = 255.0, 31.0, 17.0
	y0 := top + 130
	lx := cx - blockW - 22
	rx := cx + 22
	sc.Text(lx, y0, templates.Pick(lang, "Курс акций", "Share rates"), size, true, 0, boardpic.Ink)
	sc.Text(rx, y0, templates.Pick(lang, "Биржа товаров", "Commodity rates"), size, true, 0, boardpic.Ink)
	sc.Rect(lx, y0+8, blockW, 1.5, 0, boardpic.Border, boardpic.None, 0)
	sc.Rect(rx, y0+8, blockW, 1.5, 0, boardpic.Border, boardpic.None, 0)
	for i, n := range []int{56, 65, 117} {
		c := western.Board[n]
		rateRow(sc, lx, y0+6+float64(i+1)*rowH, blockW, templates.Pick(lang, c.RU, c.EN)+" ("+strconv.Itoa(n)+")", v.Rates[n])
	}
	for i, g := range []western.Good{western.Cars, western.Cola, western.Oil, western.Gold} {
		gi := western.Goods[g]
		rateRow(sc, rx, y0+6+float64(i+1)*rowH, blockW, templates.Pick(lang, gi.RU, gi.EN), v.GoodPts[g.String()])
	}
}

// labour draws the labour-exchange markers (W-16) in a row under the
// rates: each seat still playing, its token and its marker.
func labour(sc *boardpic.Scene, v western.View, lang string) {
	const size, r = 15.0, 8.0
	// Room for the system fonts of the SVG, often wider than Go's.
	w := func(s string) float64 { return sc.Width(s, size, true) * 1.15 }
	label := templates.Pick(lang, "Биржа труда", "Labour exchange")
	total := w(label) + 12
	var seats []int
	for i, p := range v.Players {
		if !p.Bankrupt {
			seats = append(seats, i)
			total += 2*r + 6 + w(signed(p.Labour)) + 14
		}
	}
	if len(seats) == 0 {
		return
	}
	y := float64(margin) + 3.1*unit + 292 // a row under the commodity rates
	x := float64(margin) + loopW*unit/2 - total/2
	sc.Text(x, y, label, size, true, 0, boardpic.Ink)
	x += w(label) + 12
	for _, i := range seats {
		sc.Disc(i, x+r, y-5, r, false)
		x += 2*r + 6
		val := signed(v.Players[i].Labour)
		sc.Text(x, y, val, size, true, 0, boardpic.Ink)
		x += w(val) + 14
	}
}

// signed writes a marker with its sign: +2, −1, 0.
func signed(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}

// rateRow is one line of a rate table: the name, a bar out of
// western.MaxRate with a tick at par, and the points.
func rateRow(sc *boardpic.Scene, x, y, w float64, name string, pts int) {
	const size, barW = 17.0, 80.0
	sc.Text(x, y, sc.Fit(name, size, false, w-barW-44), size, false, 0, boardpic.Ink)
	bx := x + w - barW - 34
	fill := 0.0
	if pts > 0 {
		fill = max(2, barW*min(max(float64(pts)/western.MaxRate, 0), 1))
	}
	sc.Gauge(bx, y-11, barW, 10, fill, cBar, bx+barW*western.StartRate/western.MaxRate, 3)
	sc.Text(x+w, y, strconv.Itoa(pts), size, true, 2, boardpic.Ink)
}

// tokens draws every player still in the game on their cell; several on
// one cell share it.
func tokens(sc *boardpic.Scene, v western.View, live bool) {
	on, cells := boardpic.SeatsOn(len(v.Players), func(i int) (int, bool) { return v.Players[i].Cell, !v.Players[i].Bankrupt })
	for _, n := range cells {
		seats := on[n]
		b := cellBox(n)
		var r, d float64
		switch len(seats) {
		case 1:
			r = 10
		case 2:
			r, d = 8.5, 7
		default:
			r, d = 7, 7.5
		}
		sc.Spread(seats, b.cx()+0.5, b.cy()+0.5, r, d, live, v.Turn)
	}
}

// legend lists the seats under the board: token, name and cell.
func legend(sc *boardpic.Scene, v western.View, seatName func(int) string, live bool, lang string) {
	sc.SeatLegend(margin, legendY, 17, 14, len(v.Players), func(i int) (string, bool) {
		return templates.Pick(lang, "клетка", "cell") + " " + strconv.Itoa(v.Players[i].Cell), v.Players[i].Bankrupt
	}, seatName, live, v.Turn, lang)
}

// describe is the text alternative of the picture.
func describe(v western.View, seatName func(int) string, lang string) string {
	s := ""
	for i, p := range v.Players {
		if i > 0 {
			s += "; "
		}
		owned := 0
		for _, o := range v.Owner {
			if int(o) == i {
				owned++
			}
		}
		s += fmt.Sprintf(templates.Pick(lang, "%d %s: клетка %d, %s", "%d %s: cell %d, %s"), i+1, seatName(i), p.Cell, templates.Count(lang, "n_shares", owned))
		if p.Labour != 0 {
			s += ", " + templates.Pick(lang, "Биржа труда", "Labour exchange") + " " + signed(p.Labour)
		}
		if p.Bankrupt {
			s += " (" + templates.Pick(lang, "банкрот", "bankrupt") + ")"
		}
	}
	return s
}
