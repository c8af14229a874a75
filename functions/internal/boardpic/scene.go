package boardpic

import (
	"fmt"
	"image/color"
	"strconv"

	"github.com/pbmgames/pbm/engine/western"
	"github.com/pbmgames/pbm/templates"
)

// Geometry, in pixels. The main loop is a rectangle loopW cells wide and
// loopH tall, running clockwise from Start in the top-left corner: 1..27
// along the top, so the slippery path (5 → 91..110 → 26) runs just under
// it; 48 (to the sea) and 57 (to the colony) lie on the bottom row, and 90
// beside Start, where the way back from the island ends.
const (
	unit      = 25 // a cell's side
	margin    = 12
	loopW     = 27
	loopH     = 20
	boardH    = loopH * unit
	legendY   = margin + boardH + 14
	legendRow = 30
)

// kind of a display-list item.
type kind uint8

const (
	kRect   kind = iota // x, y, w, h, r; fill, then a stroke of width sw inside the box
	kCircle             // centre x, y, radius r; fill, stroke inside
	kLine               // polyline pts, stroke of width sw, dashed if dash > 0
	kPoly               // filled polygon pts
	kText               // s at x, y (baseline), anchored by anchor
	kGroup              // opens a group (SVG only): its members' default stroke, font size and weight; pass lets the pointer through
	kEnd                // closes a group
)

type pt struct{ x, y float64 }

// item is one element of the display list.
type item struct {
	k          kind
	x, y, w, h float64
	r          float64
	pts        []pt
	fill       color.RGBA // A == 0: none
	stroke     color.RGBA
	sw         float64
	dash       float64
	s          string
	size       float64
	bold       bool
	anchor     int8 // 0 start, 1 middle, 2 end
	pass       bool
}

// scene is the whole picture, w × h pixels.
type scene struct {
	w, h  int
	items []item
	title string // accessible name
	desc  string // accessible description
	m     *measurer
}

// newScene starts a picture w × h pixels: the paper under everything.
func newScene(w, h int) (*scene, error) {
	m, err := newMeasurer()
	if err != nil {
		return nil, err
	}
	sc := &scene{m: m, w: w, h: h}
	sc.rect(0, 0, float64(w), float64(h), 0, cPaper, cNone, 0)
	return sc, nil
}

// seatNamer is the name of seat i: names[i], or "Игрок i+1" for a missing
// or empty one.
func seatNamer(names []string, lang string) func(int) string {
	return func(i int) string {
		if i < len(names) && names[i] != "" {
			return names[i]
		}
		return tr(lang, "player") + " " + strconv.Itoa(i+1)
	}
}

func (sc *scene) add(it item) { sc.items = append(sc.items, it) }

func (sc *scene) rect(x, y, w, h, r float64, fill, stroke color.RGBA, sw float64) {
	sc.add(item{k: kRect, x: x, y: y, w: w, h: h, r: r, fill: fill, stroke: stroke, sw: sw})
}

func (sc *scene) circle(x, y, r float64, fill, stroke color.RGBA, sw float64) {
	sc.add(item{k: kCircle, x: x, y: y, r: r, fill: fill, stroke: stroke, sw: sw})
}

func (sc *scene) text(x, y float64, s string, size float64, bold bool, anchor int8, c color.RGBA) {
	sc.add(item{k: kText, x: x, y: y, s: s, size: size, bold: bold, anchor: anchor, fill: c})
}

// arrow draws a polyline ending in an arrowhead at its last point.
func (sc *scene) arrow(c color.RGBA, sw, dash float64, pts ...pt) {
	const head, half = 6.5, 3.6
	n := len(pts)
	a, b := pts[n-2], pts[n-1]
	dx, dy := b.x-a.x, b.y-a.y
	l := hypot(dx, dy)
	ux, uy := dx/l, dy/l
	line := append([]pt(nil), pts...)
	line[n-1] = pt{b.x - ux*head*0.8, b.y - uy*head*0.8}
	sc.add(item{k: kLine, pts: line, stroke: c, sw: sw, dash: dash})
	base := pt{b.x - ux*head, b.y - uy*head}
	sc.add(item{k: kPoly, fill: c, pts: []pt{b, {base.x - uy*half, base.y + ux*half}, {base.x + uy*half, base.y - ux*half}}})
}

// Colours of the board.
var (
	cNone     = color.RGBA{}
	cWhite    = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	cPaper    = color.RGBA{0xFB, 0xF7, 0xEE, 0xFF}
	cInk      = color.RGBA{0x2B, 0x21, 0x18, 0xFF}
	cMuted    = color.RGBA{0x7A, 0x6E, 0x60, 0xFF}
	cBorder   = color.RGBA{0x9C, 0x8B, 0x70, 0xFF}
	cSand     = color.RGBA{0xEE, 0xE0, 0xC2, 0xFF} // main loop, not a holding
	cSlippy   = color.RGBA{0xD6, 0xD2, 0xDC, 0xFF}
	cSea      = color.RGBA{0xC9, 0xE2, 0xF2, 0xFF}
	cSeaInk   = color.RGBA{0x2E, 0x6C, 0x99, 0xFF}
	cColony   = color.RGBA{0xD5, 0xEA, 0xC8, 0xFF}
	cIsland   = color.RGBA{0xF2, 0xD9, 0x8C, 0xFF}
	cStart    = color.RGBA{0x3A, 0x2E, 0x22, 0xFF}
	cLeading  = color.RGBA{0xB0, 0x84, 0x1C, 0xFF} // the frame of МММ, ЭМА, «Бампер»
	cBar      = color.RGBA{0x5E, 0x7D, 0x8C, 0xFF}
	cBarTrack = color.RGBA{0xE6, 0xDF, 0xD2, 0xFF}
	cHilite   = color.RGBA{0xFF, 0xF0, 0xB3, 0xFF}
)

// tint blends c toward white, keeping frac of c.
func tint(c color.RGBA, frac float64) color.RGBA {
	f := func(v uint8) uint8 { return uint8(float64(v)*frac + 255*(1-frac) + 0.5) }
	return color.RGBA{f(c.R), f(c.G), f(c.B), 0xFF}
}

// onColor is the text colour that reads on background c.
func onColor(c color.RGBA) color.RGBA {
	if 299*int(c.R)+587*int(c.G)+114*int(c.B) > 150_000 {
		return cInk
	}
	return cWhite
}

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

// buildWestern lays out the picture of a «Вестерн» view.
func buildWestern(v western.View, names []string, lang string) (*scene, error) {
	if err := check(v); err != nil {
		return nil, err
	}
	sc, err := newScene(Width, Height)
	if err != nil {
		return nil, err
	}
	seatName := seatNamer(names, lang)
	live := v.Phase != western.PhOver
	sc.title = tr(lang, "board")
	sc.desc = describe(v, seatName, lang)
	sc.connectors()
	sc.captions(lang)
	owner := func(n int) int {
		if n < len(v.Owner) {
			return int(v.Owner[n])
		}
		return -1
	}
	// The cells in three layers: frames, owners' bars, numbers (the
	// SVG then sets the common attributes once a layer).
	sc.add(item{k: kGroup, stroke: cBorder})
	for n := 1; n <= western.NumCells; n++ {
		sc.cell(n, owner(n), lang)
	}
	sc.add(item{k: kEnd})
	for n := 1; n <= western.NumCells; n++ {
		if o := owner(n); o >= 0 {
			b, bw := cellBox(n), cellFrame(n)
			sc.rect(b.x+bw, b.y+b.h+1-bw-5, b.w+1-2*bw, 5, 0, SeatColor(o), cNone, 0)
		}
	}
	sc.add(item{k: kGroup, pass: true})
	for n := 1; n <= western.NumCells; n++ {
		sc.cellNumber(n, owner(n))
	}
	sc.add(item{k: kEnd})
	sc.centre(v, seatName, live, lang)
	if live && !v.Opts.Beginners { // W-41: the variant has no labour exchange
		sc.labour(v, lang)
	}
	sc.tokens(v, live)
	sc.legend(v, seatName, live, lang)
	return sc, nil
}

// cellFill is the colour of cell n (owner −1: the bank's).
func cellFill(n, owner int) color.RGBA {
	c := western.Board[n]
	switch {
	case owner >= 0:
		return tint(SeatColor(owner), 0.42)
	case n == 1:
		return cStart
	case c.Kind == western.KHolding:
		return cWhite
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
func (sc *scene) cell(n, owner int, lang string) {
	c := western.Board[n]
	b := cellBox(n)
	border := cBorder
	switch {
	case len(c.Next) > 1: // a fork
		border = cInk
	case c.Group == western.GLeading:
		border = cLeading
	}
	r := 0.0
	if n == 130 {
		r = 8
	}
	// Adjacent cells of the loop overlap by their 1 px borders.
	sc.add(item{k: kRect, x: b.x, y: b.y, w: b.w + 1, h: b.h + 1, r: r, fill: cellFill(n, owner), stroke: border, sw: cellFrame(n)})
}

// cellNumber writes the number of cell n.
func (sc *scene) cellNumber(n, owner int) {
	b := cellBox(n)
	y := b.y + b.h/2 + 4
	if owner >= 0 {
		y -= 2
	}
	sc.text(b.x+(b.w+1)/2, y, strconv.Itoa(n), 10.5, western.Board[n].Group == western.GLeading || n == 1, 1, onColor(cellFill(n, owner)))
}

// connectors draws the branches' joins, the shortcuts past 78..83 and
// 101..103, and the sea lanes.
func (sc *scene) connectors() {
	const sw = 1.6
	b := cellBox
	// 5 → 91 and 110 → 26: the slippery path.
	sc.arrow(cInk, sw, 0, pt{b(5).cx(), b(5).y + unit + 1}, pt{b(91).cx(), b(91).y})
	sc.arrow(cInk, sw, 0, pt{b(110).x + unit + 1, b(110).cy()}, pt{b(26).cx(), b(110).cy()}, pt{b(26).cx(), b(26).y + unit + 1})
	// 100 → 104 past 101..103.
	y := b(100).y + unit + 1
	sc.arrow(cInk, sw, 0, pt{b(100).cx(), y}, pt{b(100).cx(), y + 7}, pt{b(104).cx(), y + 7}, pt{b(104).cx(), y})
	// 77 → 84 past 78..83.
	x := b(77).x + unit + 1
	sc.arrow(cInk, sw, 0, pt{x, b(77).cy()}, pt{x + 8, b(77).cy()}, pt{x + 8, b(84).cy()}, pt{x, b(84).cy()})
	// 57 → 114 by the travel agency.
	sc.arrow(cInk, sw, 0, pt{b(57).cx(), b(57).y}, pt{b(114).cx(), b(114).y + unit + 1})
	// Sea lanes: 48 → 111 → 112 → 113 → 114, 129 → 111 again, 129 → 130 → 90.
	sea := []pt{{b(48).cx(), b(48).y}, {b(111).cx(), b(111).y + unit + 1}}
	sc.arrow(cSeaInk, sw, 4, sea...)
	for n := 111; n <= 113; n++ {
		sc.arrow(cSeaInk, sw, 4, pt{b(n).x, b(n).cy()}, pt{b(n+1).x + unit + 1, b(n).cy()})
	}
	ly := b(129).cy()
	sc.arrow(cSeaInk, sw, 4, pt{b(129).x + unit + 1, ly}, pt{b(111).cx(), ly}, pt{b(111).cx(), b(111).y})
	sc.arrow(cSeaInk, sw, 4, pt{b(129).cx(), b(129).y}, pt{b(129).cx(), b(130).y + b(130).h + 1})
	sc.arrow(cSeaInk, sw, 4, pt{b(129).cx(), b(130).y}, pt{b(129).cx(), b(90).cy()}, pt{b(90).x + unit + 1, b(90).cy()})
}

// captions names the branches.
func (sc *scene) captions(lang string) {
	b := cellBox
	sc.text(b(91).x, b(91).y+unit+15, tr(lang, "slippery"), 12, false, 0, cMuted)
	sc.text(b(112).cx(), b(129).cy()-6, tr(lang, "sea"), 12, false, 1, cSeaInk)
	sc.text(b(120).x, b(120).y-6, tr(lang, "colony"), 12, false, 0, cMuted)
	sc.text(b(130).x+b(130).w+5, b(130).cy()+4, tr(lang, "island"), 12, false, 0, cMuted)
}

// centre draws the title, whose move it is and the rates.
func (sc *scene) centre(v western.View, seatName func(int) string, live bool, lang string) {
	cx := float64(margin) + loopW*unit/2
	top := float64(margin) + 3.1*unit
	sc.heading(headLayout{cx: cx, titleY: top + 36, titleSize: 32, y: top + 76, size: 20, nameW: 320, gap: 22, r: 11, lift: 7},
		tr(lang, "title"), v.Turn, len(v.Players), seatName, live, lang)
	// Two blocks: the share rates and the commodity rates.
	const blockW, rowH, size = 255.0, 31.0, 17.0
	y0 := top + 130
	lx := cx - blockW - 22
	rx := cx + 22
	sc.text(lx, y0, tr(lang, "shares"), size, true, 0, cInk)
	sc.text(rx, y0, tr(lang, "goods"), size, true, 0, cInk)
	sc.rect(lx, y0+8, blockW, 1.5, 0, cBorder, cNone, 0)
	sc.rect(rx, y0+8, blockW, 1.5, 0, cBorder, cNone, 0)
	for i, n := range []int{56, 65, 117} {
		c := western.Board[n]
		sc.rateRow(lx, y0+6+float64(i+1)*rowH, blockW, pickLang(lang, c.RU, c.EN)+" ("+strconv.Itoa(n)+")", v.Rates[n])
	}
	for i, g := range []western.Good{western.Cars, western.Cola, western.Oil, western.Gold} {
		gi := western.Goods[g]
		sc.rateRow(rx, y0+6+float64(i+1)*rowH, blockW, pickLang(lang, gi.RU, gi.EN), v.GoodPts[g.String()])
	}
}

// headLayout is where a board's heading goes and how big it is.
type headLayout struct {
	cx, titleY, titleSize float64 // the title, centred on cx
	y, size               float64 // the line under it: its baseline and text size
	nameW                 float64 // the widest the name of the seat to move may be
	gap, r, lift          float64 // the disc on that line: from its centre to the words each side, its radius, its centre above the baseline
}

// heading writes the title and, under it, whose move it is ("To move:
// (disc) name") or that the game is over.
func (sc *scene) heading(h headLayout, title string, turn, seats int, seatName func(int) string, live bool, lang string) {
	sc.text(h.cx, h.titleY, title, h.titleSize, true, 1, cInk)
	if live && turn >= 0 && turn < seats {
		label := tr(lang, "turn") + ":"
		name := sc.m.fit(seatName(turn), h.size, true, h.nameW)
		lw := sc.m.width(label, h.size, false)
		nw := sc.m.width(name, h.size, true)
		// The label ends and the name starts at the disc, so that a wider
		// font in the SVG moves them away from it, not over it.
		dx := h.cx - (lw+2*h.gap+nw)/2 + lw + h.gap
		sc.text(dx-h.gap, h.y, label, h.size, false, 2, cInk)
		sc.disc(turn, dx, h.y-h.lift, h.r, true)
		sc.text(dx+h.gap, h.y, name, h.size, true, 0, cInk)
	} else if !live {
		sc.text(h.cx, h.y, tr(lang, "over"), h.size, true, 1, cInk)
	}
}

// labour draws the labour-exchange markers (W-16) in a row under the
// rates: each seat still playing, its token and its marker.
func (sc *scene) labour(v western.View, lang string) {
	const size, r = 15.0, 8.0
	// Room for the system fonts of the SVG, often wider than Go's.
	w := func(s string) float64 { return sc.m.width(s, size, true) * 1.15 }
	label := tr(lang, "labour")
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
	sc.text(x, y, label, size, true, 0, cInk)
	x += w(label) + 12
	for _, i := range seats {
		sc.disc(i, x+r, y-5, r, false)
		x += 2*r + 6
		val := signed(v.Players[i].Labour)
		sc.text(x, y, val, size, true, 0, cInk)
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
func (sc *scene) rateRow(x, y, w float64, name string, pts int) {
	const size, barW = 17.0, 80.0
	sc.text(x, y, sc.m.fit(name, size, false, w-barW-44), size, false, 0, cInk)
	bx := x + w - barW - 34
	fill := 0.0
	if pts > 0 {
		fill = max(2, barW*min(max(float64(pts)/western.MaxRate, 0), 1))
	}
	sc.gauge(bx, y-11, barW, 10, fill, cBar, bx+barW*western.StartRate/western.MaxRate, 3)
	sc.text(x+w, y, strconv.Itoa(pts), size, true, 2, cInk)
}

// gauge draws a bar w × h from (x, top): its track, the first fill pixels
// of it in c (none if fill is 0) and a tick at par standing over pixels
// above and below it.
func (sc *scene) gauge(x, top, w, h, fill float64, c color.RGBA, par, over float64) {
	sc.rect(x, top, w, h, 0, cBarTrack, cNone, 0)
	if fill > 0 {
		sc.rect(x, top, fill, h, 0, c, cNone, 0)
	}
	sc.rect(par-0.75, top-over, 1.5, h+2*over, 0, cInk, cNone, 0)
}

// disc draws seat's token at (x, y): a coloured disc with the seat number,
// ringed when it is the seat to move.
func (sc *scene) disc(seat int, x, y, r float64, turn bool) {
	sc.discIn(SeatColor(seat), seat, x, y, r, turn)
}

func (sc *scene) discIn(c color.RGBA, seat int, x, y, r float64, turn bool) {
	if turn {
		sc.circle(x, y, r+4, cInk, cNone, 0)
		sc.circle(x, y, r+2, cWhite, cNone, 0)
	} else {
		sc.circle(x, y, r+1, cWhite, cNone, 0)
	}
	sc.circle(x, y, r, c, cNone, 0)
	sc.text(x, y+r*0.42, strconv.Itoa(seat+1), r*1.2, true, 1, onColor(c))
}

// tokens draws every player still in the game on their cell; several on
// one cell share it.
func (sc *scene) tokens(v western.View, live bool) {
	on, cells := seatsOn(len(v.Players), func(i int) (int, bool) { return v.Players[i].Cell, !v.Players[i].Bankrupt })
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
		sc.spread(seats, b.cx()+0.5, b.cy()+0.5, r, d, live, v.Turn)
	}
}

// seatsOn groups the seats 0..n-1 by the cell at says they are on (false:
// off the board), the cells in the order they first come.
func seatsOn(n int, at func(seat int) (cell int, on bool)) (map[int][]int, []int) {
	on := map[int][]int{}
	var cells []int
	for i := range n {
		c, ok := at(i)
		if !ok {
			continue
		}
		if len(on[c]) == 0 {
			cells = append(cells, c)
		}
		on[c] = append(on[c], i)
	}
	return on, cells
}

// spread draws the tokens of seats sharing one cell round (cx, cy), discs
// of radius r: one in the middle, two side by side and more in two rows,
// d from the centre. The seat to move is drawn last, on top.
func (sc *scene) spread(seats []int, cx, cy, r, d float64, live bool, turnSeat int) {
	for pass := 0; pass < 2; pass++ {
		for k, s := range seats {
			turn := live && s == turnSeat
			if turn != (pass == 1) {
				continue
			}
			x, y := cx, cy
			switch {
			case len(seats) == 2:
				x += d * float64(2*k-1)
			case len(seats) > 2:
				cols := (len(seats) + 1) / 2
				col, row := k%cols, k/cols
				x += d * (2*float64(col) - float64(cols-1))
				y += d * (2*float64(row) - 1)
			}
			sc.disc(s, x, y, r, turn)
		}
	}
}

// legend lists the seats under the board: token, name and cell.
func (sc *scene) legend(v western.View, seatName func(int) string, live bool, lang string) {
	sc.seatLegend(margin, legendY, 17, 14, len(v.Players), func(i int) (string, bool) {
		return tr(lang, "cell") + " " + strconv.Itoa(v.Players[i].Cell), v.Players[i].Bankrupt
	}, seatName, live, v.Turn, lang)
}

// seatLegend lists seats 0..n-1 two to a row, from (x0, y0) to x0 from
// the right edge: each seat's token, its name in size and, at the right in
// whereSize, where it is; a seat out of the game is faded and "bankrupt".
func (sc *scene) seatLegend(x0, y0, size, whereSize float64, n int, at func(seat int) (where string, out bool), seatName func(int) string, live bool, turnSeat int, lang string) {
	colW := (float64(sc.w) - 2*x0) / 2
	for i := range n {
		col, row := i%2, i/2
		x := x0 + float64(col)*colW
		y := y0 + float64(row)*legendRow
		turn := live && i == turnSeat
		if turn {
			sc.rect(x, y, colW-8, legendRow-4, 6, cHilite, cNone, 0)
		}
		cy := y + (legendRow-4)/2
		where, out := at(i)
		ink, dc := cInk, SeatColor(i)
		if out { // out of the game: faded
			where, ink, dc = tr(lang, "bankrupt"), cMuted, tint(dc, 0.4)
		}
		sc.discIn(dc, i, x+16, cy, 10, turn)
		// Room for the system fonts of the SVG, often wider than Go's.
		ww := sc.m.width(where, whereSize, false) * 1.15
		name := sc.m.fit(seatName(i), size, turn, (colW-8-36-ww-24)/1.1)
		sc.text(x+36, cy+6, name, size, turn, 0, ink)
		sc.text(x+colW-16, cy+5, where, whereSize, false, 2, cMuted)
	}
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
		if lang == "en" {
			s += fmt.Sprintf("%d %s: cell %d, %s", i+1, seatName(i), p.Cell, templates.Count(lang, "n_shares", owned))
		} else {
			s += fmt.Sprintf("%d %s: клетка %d, %s", i+1, seatName(i), p.Cell, templates.Count(lang, "n_shares", owned))
		}
		if p.Labour != 0 {
			s += ", " + tr(lang, "labour") + " " + signed(p.Labour)
		}
		if p.Bankrupt {
			s += " (" + tr(lang, "bankrupt") + ")"
		}
	}
	return s
}
