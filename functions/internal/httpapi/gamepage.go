package httpapi

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/pbmgames/pbm/engine"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/service"
	"github.com/pbmgames/pbm/functions/internal/views"
)

// The pictures of a game the pages share: the seats' colours and the
// board, drawn from one reader's view of the game (P-3). What the pages
// say of the game (panels, story, deadlines) is made in views.

// seatCSS gives each seat's class its board colour: the dots, panels
// and lines of a seat on the pages match its token. Every colour of the
// palette has its class, whatever the games' seats.
func seatCSS() template.CSS {
	var b strings.Builder
	for i := range boardpic.SeatColours {
		fmt.Fprintf(&b, ".s%d{--c:%s}", i, boardpic.SeatHex(i))
	}
	return template.CSS(b.String()) // made of fixed hex colours only
}

// boardSVG draws the board as the reader sees it; nil for a game that
// has no picture.
// Phone widths: the near view of the board (boardpic.SVGNear) is drawn
// for a picture nearShownPx CSS pixels wide (the seat page's card at a
// 360-pixel screen is about 307: this leaves room), its smallest text
// nearMinPx high.
const (
	nearShownPx = 300
	nearMinPx   = 12.5
)

// boardNear draws the part of the board around the reader's token and
// what just happened, and says the whole picture's size; "" for a game
// that has no picture.
func boardNear(l string, pr present.Game, g engine.Game, reader int, names []string) (template.HTML, int, int, error) {
	b, w, h, err := present.Board(pr).SVGNearSized(g.View(reader), names, l, nearShownPx, nearMinPx)
	if errors.Is(err, boardpic.ErrNoPicture) {
		return "", 0, 0, nil
	}
	if err != nil {
		return "", 0, 0, err
	}
	return template.HTML(b), w, h, nil // boardpic escapes every text it writes
}

// boardImage answers the whole board as the reader sees it, an SVG
// picture of its own (the game page shows it as an image, issue 27):
// kept by the browser for good when it asks for the game's current
// version (v), which the page's link names.
func (a *api) boardImage(w http.ResponseWriter, r *http.Request) {
	rd, rec, ver, ok := a.loadGame(w, r, a.pageError, r.URL.Query().Get("t"), anyReader...)
	if !ok {
		return
	}
	g, err := a.engine(rec)
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	if g == nil {
		a.pageError(w, r, service.Fail(service.CodeNotFound, errors.New("no board before the game starts")))
		return
	}
	b, err := present.Board(a.games.For(rec.Kind)).SVG(g.View(rd.view().Seat(rec)), views.SeatNames(rec, g.Seats()), lang(r))
	if errors.Is(err, boardpic.ErrNoPicture) {
		err = service.Fail(service.CodeNotFound, err)
	}
	if err != nil {
		a.pageError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	if r.URL.Query().Get("v") == strconv.FormatInt(ver, 10) {
		w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "private, no-cache")
	}
	_, _ = w.Write(b)
}

func boardSVG(l string, pr present.Game, g engine.Game, reader int, names []string) (template.HTML, error) {
	b, err := present.Board(pr).SVG(g.View(reader), names, l)
	if errors.Is(err, boardpic.ErrNoPicture) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return template.HTML(b), nil // boardpic escapes every text it writes
}
