package boardpic

import (
	"image/color"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/templates"
)

// LegendRow is the height of a row of the seats' legend (SeatLegend).
const LegendRow = 30

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

// item is one element of the display list.
type item struct {
	k          kind
	x, y, w, h float64
	r          float64
	pts        []Pt
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

// Scene is the whole picture, W × H pixels, as a display list a game's
// layout draws on.
type Scene struct {
	W, H  int
	Title string // accessible name
	Desc  string // accessible description
	items []item
	m     *measurer
	names []string // the seats' names, by seat
	lang  string   // the reader's language
	// focus: the parts a reader looks at first, most important first
	// (Focus), which the near view shows (SVGNear).
	focus []Box
}

// Box is a rectangle of the picture.
type Box struct{ X, Y, W, H float64 }

// Focus marks a part of the picture a reader looks at first — their own
// token, then what just happened — most important first.
func (sc *Scene) Focus(x, y, w, h float64) { sc.focus = append(sc.focus, Box{x, y, w, h}) }

// NewScene starts a picture w × h pixels, the paper under everything,
// for a reader of language lang: names[i] is seat i's name.
func NewScene(w, h int, names []string, lang string) (*Scene, error) {
	m, err := newMeasurer()
	if err != nil {
		return nil, err
	}
	sc := &Scene{m: m, W: w, H: h, names: names, lang: lang}
	sc.Rect(0, 0, float64(w), float64(h), 0, Paper, None, 0)
	return sc, nil
}

// SeatName is the name of seat i: its name as given to NewScene, or
// "Игрок i+1" for a missing or empty one.
func (sc *Scene) SeatName(i int) string {
	if i < len(sc.names) && sc.names[i] != "" {
		return sc.names[i]
	}
	return templates.Pick(sc.lang, "Игрок", "Player") + " " + strconv.Itoa(i+1)
}

func (sc *Scene) add(it item) { sc.items = append(sc.items, it) }

// Pt is a point of the picture.
type Pt struct{ x, y float64 }

// Point is the point (x, y).
func Point(x, y float64) Pt { return Pt{x, y} }

// Style is what a group of items shares: their default stroke, font
// size and weight; Pass lets the pointer through them (SVG only).
type Style struct {
	Stroke color.RGBA
	Size   float64
	Bold   bool
	Pass   bool
}

// Group opens a group of items that share style; End closes it. The SVG
// sets the common attributes once a group; the PNG ignores groups.
func (sc *Scene) Group(style Style) {
	sc.add(item{k: kGroup, stroke: style.Stroke, size: style.Size, bold: style.Bold, pass: style.Pass})
}

// End closes the group Group opened.
func (sc *Scene) End() { sc.add(item{k: kEnd}) }

// Line draws a polyline of width sw in c.
func (sc *Scene) Line(c color.RGBA, sw float64, pts ...Pt) {
	sc.add(item{k: kLine, pts: pts, stroke: c, sw: sw})
}

// Width is how wide s is written in size (bold or not), in pixels.
func (sc *Scene) Width(s string, size float64, bold bool) float64 { return sc.m.width(s, size, bold) }

// Fit shortens s with an ellipsis to at most w pixels.
func (sc *Scene) Fit(s string, size float64, bold bool, w float64) string {
	return sc.m.fit(s, size, bold, w)
}

func (sc *Scene) Rect(x, y, w, h, r float64, fill, stroke color.RGBA, sw float64) {
	sc.add(item{k: kRect, x: x, y: y, w: w, h: h, r: r, fill: fill, stroke: stroke, sw: sw})
}

func (sc *Scene) Circle(x, y, r float64, fill, stroke color.RGBA, sw float64) {
	sc.add(item{k: kCircle, x: x, y: y, r: r, fill: fill, stroke: stroke, sw: sw})
}

func (sc *Scene) Text(x, y float64, s string, size float64, bold bool, anchor int8, c color.RGBA) {
	sc.add(item{k: kText, x: x, y: y, s: s, size: size, bold: bold, anchor: anchor, fill: c})
}

// Arrow draws a polyline ending in an arrowhead at its last point.
func (sc *Scene) Arrow(c color.RGBA, sw, dash float64, pts ...Pt) {
	const head, half = 6.5, 3.6
	n := len(pts)
	a, b := pts[n-2], pts[n-1]
	dx, dy := b.x-a.x, b.y-a.y
	l := hypot(dx, dy)
	ux, uy := dx/l, dy/l
	line := append([]Pt(nil), pts...)
	line[n-1] = Pt{b.x - ux*head*0.8, b.y - uy*head*0.8}
	sc.add(item{k: kLine, pts: line, stroke: c, sw: sw, dash: dash})
	base := Pt{b.x - ux*head, b.y - uy*head}
	sc.add(item{k: kPoly, fill: c, pts: []Pt{b, {base.x - uy*half, base.y + ux*half}, {base.x + uy*half, base.y - ux*half}}})
}

// Colours every board is drawn with.
var (
	None     = color.RGBA{}
	White    = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	Paper    = color.RGBA{0xFB, 0xF7, 0xEE, 0xFF}
	Ink      = color.RGBA{0x2B, 0x21, 0x18, 0xFF}
	Muted    = color.RGBA{0x7A, 0x6E, 0x60, 0xFF}
	Border   = color.RGBA{0x9C, 0x8B, 0x70, 0xFF}
	BarTrack = color.RGBA{0xE6, 0xDF, 0xD2, 0xFF}
	Hilite   = color.RGBA{0xFF, 0xF0, 0xB3, 0xFF}
)

// Tint blends c toward white, keeping frac of c.
func Tint(c color.RGBA, frac float64) color.RGBA {
	f := func(v uint8) uint8 { return uint8(float64(v)*frac + 255*(1-frac) + 0.5) }
	return color.RGBA{f(c.R), f(c.G), f(c.B), 0xFF}
}

// OnColor is the text colour that reads on background c.
func OnColor(c color.RGBA) color.RGBA {
	if 299*int(c.R)+587*int(c.G)+114*int(c.B) > 150_000 {
		return Ink
	}
	return White
}

// HeadLayout is where a board's heading goes and how big it is.
type HeadLayout struct {
	CX, TitleY, TitleSize float64 // the title, centred on CX
	Y, Size               float64 // the line under it: its baseline and text size
	NameW                 float64 // the widest the name of the seat to move may be
	Gap, R, Lift          float64 // the disc on that line: from its centre to the words each side, its radius, its centre above the baseline
}

// Heading writes the title and, under it, whose move it is ("To move:
// (disc) name") or that the game is over.
func (sc *Scene) Heading(h HeadLayout, title string, turn, seats int, seatName func(int) string, live bool, lang string) {
	sc.Text(h.CX, h.TitleY, title, h.TitleSize, true, 1, Ink)
	if live && turn >= 0 && turn < seats {
		label := templates.Pick(lang, "Ходит", "To move") + ":"
		name := sc.Fit(seatName(turn), h.Size, true, h.NameW)
		lw := sc.Width(label, h.Size, false)
		nw := sc.Width(name, h.Size, true)
		// The label ends and the name starts at the disc, so that a wider
		// font in the SVG moves them away from it, not over it.
		dx := h.CX - (lw+2*h.Gap+nw)/2 + lw + h.Gap
		sc.Text(dx-h.Gap, h.Y, label, h.Size, false, 2, Ink)
		sc.Disc(turn, dx, h.Y-h.Lift, h.R, true)
		sc.Text(dx+h.Gap, h.Y, name, h.Size, true, 0, Ink)
	} else if !live {
		sc.Text(h.CX, h.Y, templates.Pick(lang, "Игра окончена", "Game over"), h.Size, true, 1, Ink)
	}
}

// Gauge draws a bar w × h from (x, top): its track, the first fill pixels
// of it in c (none if fill is 0) and a tick at par standing over pixels
// above and below it.
func (sc *Scene) Gauge(x, top, w, h, fill float64, c color.RGBA, par, over float64) {
	sc.Rect(x, top, w, h, 0, BarTrack, None, 0)
	if fill > 0 {
		sc.Rect(x, top, fill, h, 0, c, None, 0)
	}
	sc.Rect(par-0.75, top-over, 1.5, h+2*over, 0, Ink, None, 0)
}

// Disc draws seat's token at (x, y): a coloured disc with the seat number,
// ringed when it is the seat to move.
func (sc *Scene) Disc(seat int, x, y, r float64, turn bool) {
	sc.discIn(SeatColor(seat), seat, x, y, r, turn)
}

func (sc *Scene) discIn(c color.RGBA, seat int, x, y, r float64, turn bool) {
	if turn {
		sc.Circle(x, y, r+4, Ink, None, 0)
		sc.Circle(x, y, r+2, White, None, 0)
	} else {
		sc.Circle(x, y, r+1, White, None, 0)
	}
	sc.Circle(x, y, r, c, None, 0)
	sc.Text(x, y+r*0.42, strconv.Itoa(seat+1), r*1.2, true, 1, OnColor(c))
}

// SeatsOn groups the seats 0..n-1 by the cell at says they are on (false:
// off the board), the cells in the order they first come.
func SeatsOn(n int, at func(seat int) (cell int, on bool)) (map[int][]int, []int) {
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

// Spread draws the tokens of seats sharing one cell round (cx, cy), discs
// of radius r: one in the middle, two side by side and more in two rows,
// d from the centre. The seat to move is drawn last, on top.
func (sc *Scene) Spread(seats []int, cx, cy, r, d float64, live bool, turnSeat int) {
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
			sc.Disc(s, x, y, r, turn)
		}
	}
}

// SeatLegend lists seats 0..n-1 two to a row, from (x0, y0) to x0 from
// the right edge: each seat's token, its name in size and, at the right in
// whereSize, where it is; a seat out of the game is faded and "bankrupt".
func (sc *Scene) SeatLegend(x0, y0, size, whereSize float64, n int, at func(seat int) (where string, out bool), seatName func(int) string, live bool, turnSeat int, lang string) {
	colW := (float64(sc.W) - 2*x0) / 2
	for i := range n {
		col, row := i%2, i/2
		x := x0 + float64(col)*colW
		y := y0 + float64(row)*LegendRow
		turn := live && i == turnSeat
		if turn {
			sc.Rect(x, y, colW-8, LegendRow-4, 6, Hilite, None, 0)
		}
		cy := y + (LegendRow-4)/2
		where, out := at(i)
		ink, dc := Ink, SeatColor(i)
		if out { // out of the game: faded
			where, ink, dc = templates.Pick(lang, "банкрот", "bankrupt"), Muted, Tint(dc, 0.4)
		}
		sc.discIn(dc, i, x+16, cy, 10, turn)
		// Room for the system fonts of the SVG, often wider than Go's.
		ww := sc.Width(where, whereSize, false) * 1.15
		name := sc.Fit(seatName(i), size, turn, (colW-8-36-ww-24)/1.1)
		sc.Text(x+36, cy+6, name, size, turn, 0, ink)
		sc.Text(x+colW-16, cy+5, where, whereSize, false, 2, Muted)
	}
}

// Wrap breaks s into lines of whole words that fit w, shortening a word
// that alone does not.
func (sc *Scene) Wrap(s string, size, w float64) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		try := word
		if cur != "" {
			try = cur + " " + word
		}
		if sc.m.width(try, size, false) <= w || cur == "" {
			cur = try
			continue
		}
		lines = append(lines, cur)
		cur = word
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	for i, l := range lines {
		lines[i] = sc.m.fit(l, size, false, w)
	}
	return lines
}
