// Package boardpic is the kit a game's board is drawn with: a PNG to
// inline in the HTML part of a mail and an SVG for pages. Both come from
// one display list (Scene), so they show the same thing.
//
// The kit knows no game. Each game's presentation lays out its own board
// on a Scene (its cells, tracks, tokens, rates and legend); the layout's
// PNG and SVG draw a view of its game. The kit keeps no list of them: the
// game's presenter hands its layout to whoever draws.
//
// Output is deterministic: the same view, names and language give the same
// bytes.
package boardpic

import (
	"errors"
	"fmt"
	"image/color"
)

// seatColors is the Okabe–Ito palette, distinguishable with the common
// colour-vision deficiencies; seat i (0-based) has seatColors[i].
var seatColors = [...]color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
}

// SeatColours is the number of seats the palette tells apart; seat
// SeatColours and on take its colours again.
const SeatColours = len(seatColors)

// SeatColor is the colour of seat (0-based) on the board: its token, its
// holdings, its legend entry. Pages should use the same for the seat.
func SeatColor(seat int) color.RGBA {
	if seat < 0 {
		return color.RGBA{0x88, 0x88, 0x88, 0xFF}
	}
	return seatColors[seat%len(seatColors)]
}

// SeatHex is SeatColor as a CSS colour, "#0072b2".
func SeatHex(seat int) string { return Hex(SeatColor(seat)) }

// ErrNoPicture is returned for a view of a game the package cannot draw.
var ErrNoPicture = errors.New("boardpic: no picture of this game")

// A Layout lays out the picture of a view of its game: names[i] is seat
// i's name (a missing or empty one is shown as "Игрок i+1"); lang "en" is
// English, anything else Russian. For a view of another game it returns
// ErrNoPicture, as the nil Layout (a game without a board) does for every
// view.
type Layout func(view any, names []string, lang string) (*Scene, error)

// LayoutOf is the Layout of one game's views, of type V, on a picture
// w × h pixels: check refuses a view the board cannot show, draw lays out
// the others on a new Scene.
func LayoutOf[V any](w, h int, check func(V) error, draw func(sc *Scene, v V, lang string)) Layout {
	return func(view any, names []string, lang string) (*Scene, error) {
		v, ok := view.(V)
		if !ok {
			return nil, ErrNoPicture
		}
		if err := check(v); err != nil {
			return nil, err
		}
		sc, err := NewScene(w, h, names, lang)
		if err != nil {
			return nil, err
		}
		draw(sc, v, lang)
		return sc, nil
	}
}

// PNG draws the board of a game's view as a paletted PNG.
func (l Layout) PNG(view any, names []string, lang string) ([]byte, error) {
	sc, err := l.build(view, names, lang)
	if err != nil {
		return nil, err
	}
	return rasterPNG(sc)
}

// SVG draws the board of a game's view as a self-contained inline SVG
// (no external references; text in the reader's system sans-serif font).
func (l Layout) SVG(view any, names []string, lang string) ([]byte, error) {
	sc, err := l.build(view, names, lang)
	if err != nil {
		return nil, err
	}
	return writeSVG(sc), nil
}

// build lays out the picture of a view; ErrNoPicture for a view of
// another game, or with no layout.
func (l Layout) build(view any, names []string, lang string) (*Scene, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: %T", ErrNoPicture, view)
	}
	return l(view, names, lang)
}
