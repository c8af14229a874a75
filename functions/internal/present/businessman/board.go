package businessmanview

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	bm "github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/templates"
)

// The board: the big perimeter as a square ring, the small perimeter
// abroad, the highway and the roulette inside it, the lots in their
// colours with their owners, buildings and pledges, the tokens, the
// exchange board's six prices and a legend.

// Board is the layout of this game's board.
func (businessGame) Board() boardpic.Layout {
	return boardpic.LayoutOf(BusinessWidth, BusinessHeight, checkBusiness, buildBusiness)
}

// groupColors are the colours of the lot groups; the first
// bm.NumColours are also the share colours on the exchange.
var groupColors = [bm.NumGroups]color.RGBA{
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

// GroupColor is the colour of lot group (or share colour) g; grey for
// none.
func GroupColor(g int) color.RGBA {
	if g < 0 || g >= len(groupColors) {
		return color.RGBA{0x88, 0x88, 0x88, 0xFF}
	}
	return groupColors[g]
}

// GroupHex is GroupColor as a CSS colour.
func GroupHex(g int) string { return boardpic.Hex(GroupColor(g)) }

// box is where a cell is drawn.
type box struct{ x, y, w, h float64 }

func (b box) cx() float64 { return b.x + b.w/2 }
func (b box) cy() float64 { return b.y + b.h/2 }

// Colours this board shares with the other boards' look.
var (
	cStart  = color.RGBA{0x3A, 0x2E, 0x22, 0xFF}
	cSeaInk = color.RGBA{0x2E, 0x6C, 0x99, 0xFF}
)

// «Бизнесмен»'s board. The big perimeter (1..40) is a square ring of 11
// cells a side, clockwise from Start in the top-left corner. Inside it:
// the highway (60..69) crosses the middle from its entrance beside 15 to
// the crossroads that lead to 35; under it, the small perimeter abroad
// (41..56) is a ring of 5 a side above customs (24) and the border
// exchange (25), and the roulette (70..81) a ring of 4 a side above the
// hotel (30); over it, the title and the exchange board.
const (
	bU       = 61 // a cell of the big perimeter
	bMargin  = 14
	bRing    = 11 * bU
	bSmall   = 42 // a cell abroad and of the roulette
	bHwW     = 46 // a cell of the highway
	bHwH     = 40
	bHwX     = 144 // the highway's left end (the crossroads)
	bHwY     = 320
	bAbroadX = 367 // the ring abroad
	bAbroadY = 396
	bRoulX   = 92 // the roulette ring
	bRoulY   = 438
	bLegendY = bMargin + bRing + 14
	bKeyY    = bLegendY + 3*boardpic.LegendRow + 4

	// BusinessWidth and BusinessHeight are the size of the picture in
	// pixels.
	BusinessWidth  = 2*bMargin + bRing + 1
	BusinessHeight = bKeyY + 22 + bMargin
)

// Colours of «Бизнесмен»'s cells by what they do.
var (
	bBase     = color.RGBA{0xF4, 0xEF, 0xE3, 0xFF}
	bLot      = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	bExchange = color.RGBA{0xE2, 0xEB, 0xF5, 0xFF}
	bDraw     = color.RGBA{0xEE, 0xE8, 0xF5, 0xFF}
	bLoss     = color.RGBA{0xF8, 0xE2, 0xDE, 0xFF}
	bWin      = color.RGBA{0xE4, 0xF2, 0xDF, 0xFF}
	bWay      = color.RGBA{0xF1, 0xE8, 0xD3, 0xFF}
	bJackpot  = color.RGBA{0xF6, 0xE3, 0x9C, 0xFF}
	bAbroad   = color.RGBA{0xE3, 0xEF, 0xF5, 0xFF}
	bRoadInk  = color.RGBA{0x5A, 0x55, 0x4C, 0xFF}
	bPledged  = color.RGBA{0xDD, 0xD8, 0xCF, 0xFF}
)

// bOwnTint is how much of its owner's colour a lot takes.
const bOwnTint = 0.45

// bBox places cell n of «Бизнесмен»; ok is false for a number no cell has.
func bBox(n int) (box, bool) {
	big := func(col, row int) box {
		return box{float64(bMargin + col*bU), float64(bMargin + row*bU), bU, bU}
	}
	small := func(x0, y0, col, row int) box {
		return box{float64(x0 + col*bSmall), float64(y0 + row*bSmall), bSmall, bSmall}
	}
	switch {
	case n >= 1 && n <= 11: // top row, left to right
		return big(n-1, 0), true
	case n >= 12 && n <= 21: // right column, downwards
		return big(10, n-11), true
	case n >= 22 && n <= 31: // bottom row, right to left
		return big(10-(n-21), 10), true
	case n >= 32 && n <= 40: // left column, upwards
		return big(0, 10-(n-31)), true
	case n >= bm.AbroadFirst && n <= bm.AbroadLast:
		// From 41 above customs to the right, round the ring against the
		// clock, back to 56 above the border exchange.
		k := n - bm.AbroadFirst
		var col, row int
		switch {
		case k <= 2: // 41..43: the bottom row, rightwards from column 2
			col, row = 2+k, 4
		case k <= 6: // 44..47: the right column, upwards
			col, row = 4, 4-(k-2)
		case k <= 10: // 48..51: the top row, leftwards
			col, row = 4-(k-6), 0
		case k <= 14: // 52..55: the left column, downwards
			col, row = 0, k-10
		default: // 56: the bottom row, column 1
			col, row = 1, 4
		}
		return small(bAbroadX, bAbroadY, col, row), true
	case n >= bm.HighwayIn && n <= bm.CellCross: // right to left
		return box{float64(bHwX + (bm.CellCross-n)*bHwW), bHwY, bHwW, bHwH}, true
	case n >= bm.RouletteIn && n < bm.RouletteIn+bm.RouletteLen:
		// Clockwise from «Вход» in the bottom-left corner.
		k := n - bm.RouletteIn
		var col, row int
		switch {
		case k <= 3:
			col, row = 0, 3-k
		case k <= 6:
			col, row = k-3, 0
		case k <= 9:
			col, row = 3, k-6
		default:
			col, row = 3-(k-9), 3
		}
		return small(bRoulX, bRoulY, col, row), true
	}
	return box{}, false
}

// bCells are the numbers of every cell, in drawing order.
var bCells = func() []int {
	var out []int
	for n := 1; n < bm.NumCells; n++ {
		if _, ok := bBox(n); ok && bm.Board[n].RU != "" {
			out = append(out, n)
		}
	}
	return out
}()

// bLabels are short names of cells whose own name is too long for the
// picture ("\n" breaks a line); the others are wrapped from the board's.
var bLabels = map[int][2]string{
	15: {"Авто-\nмагистраль", "Highway"},
	28: {"Нефте-\nпромысел", "Oil field"},
	32: {"НПЗ", "Refinery"},
	37: {"Инвест.\nфонд", "Investment\nfund"},
	41: {"Граница", "Border"},
	42: {"Ривьера", "Riviera"},
	47: {"Алмазы", "Diamonds"},
	48: {"Изве-\nщение", "Notice"},
	49: {"Золото", "Gold"},
	51: {"Ювелир.\nдом", "Jewel-\nlers"},
	52: {"Биржа\n(банк)", "Exchange\n(bank)"},
	53: {"Порт", "Seaport"},
	55: {"Авиа-\nлиния", "Airline"},
	60: {"Въезд", "Entry"},
	61: {"Заправка", "Fuel"},
	63: {"+5 акций", "+5 shares"},
	64: {"ДПС", "Police"},
	65: {"Авария", "Crash"},
	66: {"Авария", "Crash"},
	67: {"Кемпинг", "Camping"},
	68: {"½ денег", "½ cash"},
	69: {"Пере-\nкрёсток", "Cross-\nroads"},
	81: {"В банк", "Bank"},
}

// bLabel is the name cell n shows, in lines that fit w pixels at size.
func bLabel(sc *boardpic.Scene, n int, lang string, size, w float64) []string {
	c := bm.Board[n]
	var text string
	switch {
	case c.Kind == bm.KRouletteMoney:
		text = templates.Signed(lang, c.Amount)
	case bLabels[n] != [2]string{}:
		text = templates.Pick(lang, bLabels[n][0], bLabels[n][1])
	default:
		text = templates.Pick(lang, c.RU, c.EN)
	}
	var lines []string
	for _, part := range strings.Split(text, "\n") {
		lines = append(lines, sc.Wrap(part, size, w)...)
	}
	if len(lines) > 2 {
		lines = lines[:2]
		lines[1] = sc.Fit(lines[1]+"…", size, false, w)
	}
	return lines
}

// bFill is the colour of a cell nobody owns, by what it does.
func bFill(n int) color.RGBA {
	switch bm.Board[n].Kind {
	case bm.KStart:
		return cStart
	case bm.KLot, bm.KSuper:
		return bLot
	case bm.KExchange, bm.KHwShares, bm.KBroker:
		return bExchange
	case bm.KSurprise, bm.KNotice:
		return bDraw
	case bm.KFine, bm.KHospital, bm.KHwHalf:
		return bLoss
	case bm.KWin, bm.KProfit, bm.KGift:
		return bWin
	case bm.KHighway, bm.KCustoms, bm.KHotel, bm.KCross, bm.KRouletteIn, bm.KRouletteExit:
		return bWay
	case bm.KRouletteBank:
		return bJackpot
	case bm.KRouletteMoney:
		if bm.Board[n].Amount > 0 {
			return bWin
		}
		return bLoss
	}
	if n >= bm.AbroadFirst && n <= bm.AbroadLast {
		return bAbroad
	}
	return bBase
}

// bOwned is what the view says of an owned lot.
type bOwned struct {
	owner, level int
	pledged      bool
}

// buildBusiness lays out the picture of a view.
func buildBusiness(sc *boardpic.Scene, v bm.View, lang string) {
	seatName := sc.SeatName
	live := v.Phase != bm.PhOver
	owned := map[int]bOwned{}
	for _, p := range v.Properties {
		owned[p.Cell] = bOwned{owner: p.Owner, level: p.Level, pledged: p.Pledged}
	}
	sc.Title = templates.Pick(lang, "Доска игры «Бизнесмен»", "Board of the game «Businessman»")
	sc.Desc = describeBusiness(v, owned, seatName, lang)
	bConnectors(sc)
	bCaptions(sc, lang)
	// The cells in layers: frames, then the marks on them, then the
	// words (the SVG sets the common attributes once a layer).
	sc.Group(boardpic.Style{Stroke: boardpic.Border})
	for _, n := range bCells {
		bCell(sc, n, owned, seatName, lang)
	}
	sc.End()
	sc.Group(boardpic.Style{Size: 8.75, Bold: true})
	for _, n := range bCells {
		bMarks(sc, n, owned)
	}
	sc.End()
	// The numbers, then the names, of the big cells and of the small.
	for _, big := range []bool{true, false} {
		num, name := 11.0, 8.0
		if !big {
			num, name = 9, 7
		}
		sc.Group(boardpic.Style{Pass: true, Size: num, Bold: true})
		for _, n := range bCells {
			if b, _ := bBox(n); (b.h >= bU) == big {
				bNumber(sc, n, owned)
			}
		}
		sc.End()
		sc.Group(boardpic.Style{Pass: true, Size: name})
		for _, n := range bCells {
			if b, _ := bBox(n); (b.h >= bU) == big {
				bName(sc, n, owned, lang)
			}
		}
		sc.End()
	}
	bCentre(sc, v, seatName, live, lang)
	bTokens(sc, v, live)
	bLegend(sc, v, owned, seatName, live, lang)
	// What a reader looks at first (the near view): their own token, then
	// the token of the seat whose turn it is, then the lot the dice point to.
	for _, s := range []int{v.Seat, v.Turn} {
		if s >= 0 && s < len(v.Players) && !v.Players[s].Bankrupt {
			b, _ := bBox(v.Players[s].Cell)
			sc.Focus(b.x, b.y, b.w, b.h)
		}
	}
	if live && v.Spot > 0 && v.Spot < bm.NumCells {
		b, _ := bBox(v.Spot)
		sc.Focus(b.x, b.y, b.w, b.h)
	}
}

// checkBusiness refuses a view the board cannot show.
func checkBusiness(v bm.View) error {
	if len(v.Players) > bm.MaxSeats {
		return fmt.Errorf("boardpic: %d players, at most %d", len(v.Players), bm.MaxSeats)
	}
	for i, p := range v.Players {
		if _, ok := bBox(p.Cell); !ok || p.Cell >= bm.RouletteIn {
			return fmt.Errorf("boardpic: seat %d on cell %d", i, p.Cell)
		}
	}
	for _, p := range v.Properties {
		if _, ok := bBox(p.Cell); !ok || p.Owner < 0 || p.Owner >= max(len(v.Players), 1) {
			return fmt.Errorf("boardpic: lot %d owned by seat %d", p.Cell, p.Owner)
		}
	}
	return nil
}

// bStrip is the height of the colour strip of a lot in box b.
func bStrip(b box) float64 {
	if b.h >= bU {
		return 10
	}
	return 7
}

// bCell draws the frame of cell n, tinted for its owner.
func bCell(sc *boardpic.Scene, n int, owned map[int]bOwned, seatName func(int) string, lang string) {
	b, _ := bBox(n)
	c := bm.Board[n]
	sw := 1.0
	if c.Kind == bm.KExchange || c.Kind == bm.KHwShares {
		sw = 2
	}
	sc.Rect(b.x, b.y, b.w+1, b.h+1, 0, bCellFill(n, owned), boardpic.Border, sw)
}

// bMarks draws what is on a cell besides its name: the group's strip,
// the buildings, the owner, a pledge.
func bMarks(sc *boardpic.Scene, n int, owned map[int]bOwned) {
	b, _ := bBox(n)
	c := bm.Board[n]
	if c.Kind == bm.KLot {
		sc.Rect(b.x+1, b.y+1, b.w-1, bStrip(b), 0, GroupColor(c.Group), boardpic.None, 0)
	}
	o, ok := owned[n]
	if !ok {
		return
	}
	if o.pledged { // a pledge: the lot crossed out
		sc.Line(boardpic.Muted, 1.5, boardpic.Point(b.x+4, b.y+b.h-4), boardpic.Point(b.x+b.w-4, b.y+bStrip(b)+4))
	}
	// The buildings on the strip: a branch is a white square, an
	// enterprise a dark one beside it.
	s := bStrip(b) - 3
	x := b.x + b.w - 3 - s
	if o.level >= 2 {
		sc.Rect(x, b.y+2.5, s, s, 0, boardpic.Ink, boardpic.White, 1)
		x -= s + 2
	}
	if o.level >= 1 {
		sc.Rect(x, b.y+2.5, s, s, 0, boardpic.White, boardpic.Ink, 1)
	}
	// The owner: a badge with its seat number in the bottom-right corner.
	r := 7.0
	if b.h < bU {
		r = 6
	}
	badge(sc, o.owner, b.x+b.w-r-2, b.y+b.h-r-2, r)
}

// badge marks seat's lot: a disc of radius r at (x, y) with its number.
func badge(sc *boardpic.Scene, seat int, x, y, r float64) {
	sc.Circle(x, y, r, boardpic.SeatColor(seat), boardpic.White, 1)
	sc.Text(x, y+r*0.42, strconv.Itoa(seat+1), r*1.25, true, 1, boardpic.OnColor(boardpic.SeatColor(seat)))
}

// bCellFill is the colour of cell n: its owner's tint, grey when pledged.
func bCellFill(n int, owned map[int]bOwned) color.RGBA {
	o, ok := owned[n]
	switch {
	case !ok:
		return bFill(n)
	case o.pledged:
		return bPledged
	}
	return boardpic.Tint(boardpic.SeatColor(o.owner), bOwnTint)
}

// bInk is the colour of the words on cell n.
func bInk(n int, owned map[int]bOwned) color.RGBA {
	return boardpic.OnColor(bCellFill(n, owned))
}

// bTop is where the words of cell n start: under a lot's strip.
func bTop(n int) float64 {
	b, _ := bBox(n)
	if bm.Board[n].Kind == bm.KLot {
		return b.y + bStrip(b)
	}
	return b.y
}

// bSizes are the sizes of cell n's number and name, and the name's leading.
func bSizes(n int) (num, name, lead float64) {
	if b, _ := bBox(n); b.h >= bU {
		return 11, 8, 9
	}
	return 9, 7, 8
}

// bNumber writes cell n's number.
func bNumber(sc *boardpic.Scene, n int, owned map[int]bOwned) {
	b, _ := bBox(n)
	num, _, _ := bSizes(n)
	sc.Text(b.cx()+0.5, bTop(n)+num+2, strconv.Itoa(n), num, true, 1, bInk(n, owned))
}

// bName writes cell n's name under its number, and the price of a free lot.
func bName(sc *boardpic.Scene, n int, owned map[int]bOwned, lang string) {
	b, _ := bBox(n)
	num, size, lead := bSizes(n)
	y := bTop(n) + num + 2
	ink := bInk(n, owned)
	for _, line := range bLabel(sc, n, lang, size, b.w-4) {
		y += lead
		sc.Text(b.cx()+0.5, y, line, size, false, 1, ink)
	}
	if _, own := owned[n]; !own && bm.Board[n].Price > 0 && b.h >= bU {
		sc.Text(b.cx()+0.5, b.y+b.h-4, templates.Num(lang, bm.Board[n].Price), size, false, 1, boardpic.Muted)
	}
}

// bConnectors draws the ways between the tracks.
func bConnectors(sc *boardpic.Scene) {
	const sw = 1.6
	bx := func(n int) box { b, _ := bBox(n); return b }
	// 15 → the highway's entrance, the crossroads → 35.
	in, c15 := bx(bm.HighwayIn), bx(bm.CellHighway)
	sc.Arrow(bRoadInk, sw, 0, boardpic.Point(c15.x, c15.cy()), boardpic.Point(in.cx(), c15.cy()), boardpic.Point(in.cx(), in.y))
	cross, c35 := bx(bm.CellCross), bx(bm.CellExit)
	sc.Arrow(bRoadInk, sw, 0, boardpic.Point(cross.cx(), cross.y+cross.h+1), boardpic.Point(cross.cx(), c35.cy()), boardpic.Point(c35.x+bU+1, c35.cy()))
	// Customs (24) → abroad (41); abroad's last cell (56) → the border exchange (25).
	c24, a41 := bx(bm.CellCustoms), bx(bm.AbroadFirst)
	sc.Arrow(cSeaInk, sw, 0, boardpic.Point(a41.cx(), c24.y), boardpic.Point(a41.cx(), a41.y+a41.h+1))
	a56, c25 := bx(bm.AbroadLast), bx(bm.CellBorder)
	sc.Arrow(cSeaInk, sw, 0, boardpic.Point(a56.cx(), a56.y+a56.h+1), boardpic.Point(a56.cx(), c25.y))
	// The hotel (30) → the roulette's «Вход».
	c30, r70 := bx(bm.CellHotel), bx(bm.RouletteIn)
	sc.Arrow(bRoadInk, sw, 3, boardpic.Point(r70.cx(), c30.y), boardpic.Point(r70.cx(), r70.y+r70.h+1))
}

// bCaptions names the tracks inside the ring.
func bCaptions(sc *boardpic.Scene, lang string) {
	sc.Text(bHwX+bHwW+6, bHwY+bHwH+16, templates.Pick(lang, "Автомагистраль", "Highway"), 12, false, 0, boardpic.Muted)
	ax, ay := float64(bAbroadX+bSmall*5/2), float64(bAbroadY+bSmall*5/2)
	sc.Text(ax, ay-4, templates.Pick(lang, "За границей", "Abroad"), 12, true, 1, cSeaInk)
	sc.Text(ax, ay+12, templates.Pick(lang, "покупки +5 000", "purchases +5,000"), 10.5, false, 1, cSeaInk)
	rx, ry := float64(bRoulX+bSmall*2), float64(bRoulY+bSmall*2)
	sc.Text(rx, ry+4, templates.Pick(lang, "Рулетка", "Roulette"), 12, true, 1, boardpic.Muted)
}

// bCentre writes the title, whose move it is and the exchange board (B-13).
func bCentre(sc *boardpic.Scene, v bm.View, seatName func(int) string, live bool, lang string) {
	cx := float64(bMargin) + bRing/2
	top := float64(bMargin + bU)
	sc.Heading(boardpic.HeadLayout{CX: cx, TitleY: top + 34, TitleSize: 28, Y: top + 64, Size: 17, NameW: 260, Gap: 20, R: 10, Lift: 6},
		templates.Pick(lang, "Бизнесмен", "Businessman"), v.Turn, len(v.Players), seatName, live, lang)
	// The exchange board: each colour's points (1…25) and its price.
	const rowH, size, barW = 19.0, 13.0, 220.0
	x0 := cx - 215
	y0 := top + 96
	sc.Text(x0, y0, templates.Pick(lang, "Биржа: курс акций", "Exchange: share prices"), 14, true, 0, boardpic.Ink)
	sc.Text(x0+112+barW+28, y0, templates.Pick(lang, "пункты", "points"), 11, false, 2, boardpic.Muted)
	sc.Text(cx+215, y0, templates.Pick(lang, "цена", "price"), 11, false, 2, boardpic.Muted)
	bx := x0 + 112
	for k := 0; k < bm.NumColours; k++ {
		g := bm.Groups[k]
		y := y0 + float64(k+1)*rowH
		pts := min(max(v.Points[k], 0), bm.MaxPoints)
		sc.Rect(x0, y-10, 11, 11, 2, GroupColor(k), boardpic.None, 0)
		sc.Text(x0+17, y, templates.Pick(lang, g.RU, g.EN), size, false, 0, boardpic.Ink)
		sc.Gauge(bx, y-9, barW, 8, barW*float64(pts)/bm.MaxPoints, GroupColor(k), bx+barW*bm.StartPoints/bm.MaxPoints, 2)
		sc.Text(bx+barW+28, y, strconv.Itoa(pts), size, true, 2, boardpic.Ink)
		sc.Text(cx+215, y, templates.Num(lang, int64(pts)*bm.PointValue), size, false, 2, boardpic.Ink)
	}
}

// bTokens draws every player still in the game on their cell, and the
// roulette's ball while the turn's seat plays it.
func bTokens(sc *boardpic.Scene, v bm.View, live bool) {
	on, cells := boardpic.SeatsOn(len(v.Players), func(i int) (int, bool) { return v.Players[i].Cell, !v.Players[i].Bankrupt })
	if live && v.Roulette >= bm.RouletteIn && v.Turn >= 0 && v.Turn < len(v.Players) {
		cells = append(cells, v.Roulette)
		on[v.Roulette] = append(on[v.Roulette], v.Turn)
	}
	for _, n := range cells {
		seats := on[n]
		b, _ := bBox(n)
		r, d := 9.0, 7.5
		if b.h < bU {
			r, d = 7, 6
		}
		if len(seats) > 2 {
			r -= 1.5
		}
		cy := b.y + b.h - r - 4
		if len(seats) > 2 {
			cy -= d
		}
		sc.Spread(seats, b.cx()+0.5, cy, r, d, live, v.Turn)
	}
}

// bLegend lists the seats under the board (token, name, cell, cash) and
// says what the marks on the lots mean.
func bLegend(sc *boardpic.Scene, v bm.View, owned map[int]bOwned, seatName func(int) string, live bool, lang string) {
	sc.SeatLegend(bMargin, bLegendY, 16, 13, len(v.Players), func(i int) (string, bool) {
		p := v.Players[i]
		return templates.Pick(lang, "клетка", "cell") + " " + strconv.Itoa(p.Cell) + " · " + templates.Num(lang, p.Cash), p.Bankrupt
	}, seatName, live, v.Turn, lang)
	// The key: a branch, an enterprise, a pledge, an owner.
	y := float64(bKeyY) + 12
	x := float64(bMargin) + 6
	sc.Rect(x, y-8, 8, 8, 0, boardpic.White, boardpic.Ink, 1)
	x += 13
	sc.Text(x, y, templates.Pick(lang, "филиал", "branch"), 12, false, 0, boardpic.Ink)
	x += sc.Width(templates.Pick(lang, "филиал", "branch"), 12, false)*1.15 + 16
	sc.Rect(x, y-8, 8, 8, 0, boardpic.Ink, boardpic.White, 1)
	x += 13
	sc.Text(x, y, templates.Pick(lang, "предприятие", "enterprise"), 12, false, 0, boardpic.Ink)
	x += sc.Width(templates.Pick(lang, "предприятие", "enterprise"), 12, false)*1.15 + 16
	sc.Rect(x, y-10, 12, 12, 0, bPledged, boardpic.Border, 1)
	sc.Line(boardpic.Muted, 1.5, boardpic.Point(x+2, y), boardpic.Point(x+10, y-8))
	x += 17
	sc.Text(x, y, templates.Pick(lang, "в залоге", "pledged"), 12, false, 0, boardpic.Ink)
	x += sc.Width(templates.Pick(lang, "в залоге", "pledged"), 12, false)*1.15 + 16
	badge(sc, 0, x+6, y-4, 6)
	x += 17
	sc.Text(x, y, templates.Pick(lang, "владелец", "owner"), 12, false, 0, boardpic.Ink)
	left := sc.Width(templates.Pick(lang, "владелец", "owner"), 12, false)*1.15 + x + 16
	if v.Pieces != [2]int{} || len(owned) > 0 {
		s := fmt.Sprintf(templates.Pick(lang, "в банке: филиалов %d, предприятий %d", "in the bank: %d branches, %d enterprises"), v.Pieces[0], v.Pieces[1])
		if left+sc.Width(s, 12, false)*1.15 < float64(sc.W-bMargin) {
			sc.Text(float64(sc.W-bMargin-6), y, s, 12, false, 2, boardpic.Muted)
		}
	}
}

// describeBusiness is the text alternative of the picture.
func describeBusiness(v bm.View, owned map[int]bOwned, seatName func(int) string, lang string) string {
	var parts []string
	for i, p := range v.Players {
		lots := 0
		for _, o := range owned {
			if o.owner == i {
				lots++
			}
		}
		s := fmt.Sprintf(templates.Pick(lang, "%d %s: клетка %d, наличные %s, %s", "%d %s: cell %d, cash %s, %s"),
			i+1, seatName(i), p.Cell, templates.Num(lang, p.Cash), templates.Count(lang, "n_lots", lots))
		if p.Bankrupt {
			s += " (" + templates.Pick(lang, "банкрот", "bankrupt") + ")"
		}
		parts = append(parts, s)
	}
	var rates []string
	for k := 0; k < bm.NumColours; k++ {
		rates = append(rates, fmt.Sprintf("%s %d", templates.Pick(lang, bm.Groups[k].RU, bm.Groups[k].EN), v.Points[k]))
	}
	return strings.Join(parts, "; ") + ". " + templates.Pick(lang, "Биржа: курс акций", "Exchange: share prices") + ": " + strings.Join(rates, ", ") + "."
}
