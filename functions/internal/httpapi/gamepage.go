package httpapi

import (
	"errors"
	"fmt"
	"html/template"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
)

// The pictures of a game the pages share: the seats' colours and the
// board, drawn from one reader's view of the game (P-3). What the pages
// say of the game (panels, story, deadlines) is made in views.

// seatCSS gives each seat's class its board colour: the dots, panels
// and lines of a seat on the pages match its token.
func seatCSS() template.CSS {
	var b strings.Builder
	for i := range maxSeats() {
		fmt.Fprintf(&b, ".s%d{--c:%s}", i, boardpic.SeatHex(i))
	}
	return template.CSS(b.String()) // made of fixed hex colours only
}

// boardSVG draws the board as the reader sees it; nil for a game that
// has no picture.
func boardSVG(l string, g engine.Game, reader int, names []string) (template.HTML, error) {
	b, err := boardpic.SVG(g.View(reader), names, l)
	if errors.Is(err, boardpic.ErrNoPicture) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return template.HTML(b), nil // boardpic escapes every text it writes
}
