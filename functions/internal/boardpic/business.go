package boardpic

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	bm "github.com/pbmgames/pbm/engine/businessman"
	"github.com/pbmgames/pbm/templates"
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
	bKeyY    = bLegendY + 3*legendRow + 4

	// BusinessWidth and BusinessHeight are the size of «Бизнесмен»'s
	// picture in pixels.
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
func (sc *scene) bLabel(n int, lang string, size, w float64) []string {
	c := bm.Board[n]
	var text string
	switch {
	case c.Kind == bm.KRouletteMoney:
		text = templates.Signed(lang, c.Amount)
	case bLabels[n] != [2]string{}:
		text = pickLang(lang, bLabels[n][0], bLabels[n][1])
	default:
		text = pickLang(lang, c.RU, c.EN)
	}
	var lines []string
	for _, part := range strings.Split(text, "\n") {
		lines = append(lines, sc.wrap(part, size, w)...)
	}
	if len(lines) > 2 {
		lines = lines[:2]
		lines[1] = sc.m.fit(lines[1]+"…", size, false, w)
	}
	return lines
}

// wrap breaks s into lines of whole words that fit w, shortening a word
// that alone does not.
func (sc *scene) wrap(s string, size, w float64) []string {
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

// buildBusiness lays out the picture of a «Бизнесмен» view.
func buildBusiness(v bm.View, names []string, lang string) (*scene, error) {
	if err := checkBusiness(v); err != nil {
		return nil, err
	}
	sc, err := newScene(BusinessWidth, BusinessHeight)
	if err != nil {
		return nil, err
	}
	seatName := seatNamer(names, lang)
	live := v.Phase != bm.PhOver
	owned := map[int]bOwned{}
	for _, p := range v.Properties {
		owned[p.Cell] = bOwned{owner: p.Owner, level: p.Level, pledged: p.Pledged}
	}
	sc.title = tr(lang, "bm_board")
	sc.desc = describeBusiness(v, owned, seatName, lang)
	sc.bConnectors()
	sc.bCaptions(lang)
	// The cells in layers: frames, then the marks on them, then the
	// words (the SVG sets the common attributes once a layer).
	sc.add(item{k: kGroup, stroke: cBorder})
	for _, n := range bCells {
		sc.bCell(n, owned, seatName, lang)
	}
	sc.add(item{k: kEnd})
	sc.add(item{k: kGroup, size: 8.75, bold: true})
	for _, n := range bCells {
		sc.bMarks(n, owned)
	}
	sc.add(item{k: kEnd})
	// The numbers, then the names, of the big cells and of the small.
	for _, big := range []bool{true, false} {
		num, name := 11.0, 8.0
		if !big {
			num, name = 9, 7
		}
		sc.add(item{k: kGroup, pass: true, size: num, bold: true})
		for _, n := range bCells {
			if b, _ := bBox(n); (b.h >= bU) == big {
				sc.bNumber(n, owned)
			}
		}
		sc.add(item{k: kEnd})
		sc.add(item{k: kGroup, pass: true, size: name})
		for _, n := range bCells {
			if b, _ := bBox(n); (b.h >= bU) == big {
				sc.bName(n, owned, lang)
			}
		}
		sc.add(item{k: kEnd})
	}
	sc.bCentre(v, seatName, live, lang)
	sc.bTokens(v, live)
	sc.bLegend(v, owned, seatName, live, lang)
	return sc, nil
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
func (sc *scene) bCell(n int, owned map[int]bOwned, seatName func(int) string, lang string) {
	b, _ := bBox(n)
	c := bm.Board[n]
	sw := 1.0
	if c.Kind == bm.KExchange || c.Kind == bm.KHwShares {
		sw = 2
	}
	sc.add(item{k: kRect, x: b.x, y: b.y, w: b.w + 1, h: b.h + 1, fill: bCellFill(n, owned), stroke: cBorder, sw: sw})
}

// bMarks draws what is on a cell besides its name: the group's strip,
// the buildings, the owner, a pledge.
func (sc *scene) bMarks(n int, owned map[int]bOwned) {
	b, _ := bBox(n)
	c := bm.Board[n]
	if c.Kind == bm.KLot {
		sc.rect(b.x+1, b.y+1, b.w-1, bStrip(b), 0, GroupColor(c.Group), cNone, 0)
	}
	o, ok := owned[n]
	if !ok {
		return
	}
	if o.pledged { // a pledge: the lot crossed out
		sc.add(item{k: kLine, pts: []pt{{b.x + 4, b.y + b.h - 4}, {b.x + b.w - 4, b.y + bStrip(b) + 4}}, stroke: cMuted, sw: 1.5})
	}
	// The buildings on the strip: a branch is a white square, an
	// enterprise a dark one beside it.
	s := bStrip(b) - 3
	x := b.x + b.w - 3 - s
	if o.level >= 2 {
		sc.rect(x, b.y+2.5, s, s, 0, cInk, cWhite, 1)
		x -= s + 2
	}
	if o.level >= 1 {
		sc.rect(x, b.y+2.5, s, s, 0, cWhite, cInk, 1)
	}
	// The owner: a badge with its seat number in the bottom-right corner.
	r := 7.0
	if b.h < bU {
		r = 6
	}
	sc.badge(o.owner, b.x+b.w-r-2, b.y+b.h-r-2, r)
}

// badge marks seat's lot: a disc of radius r at (x, y) with its number.
func (sc *scene) badge(seat int, x, y, r float64) {
	sc.circle(x, y, r, SeatColor(seat), cWhite, 1)
	sc.text(x, y+r*0.42, strconv.Itoa(seat+1), r*1.25, true, 1, onColor(SeatColor(seat)))
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
	return tint(SeatColor(o.owner), bOwnTint)
}

// bInk is the colour of the words on cell n.
func bInk(n int, owned map[int]bOwned) color.RGBA {
	return onColor(bCellFill(n, owned))
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
func (sc *scene) bNumber(n int, owned map[int]bOwned) {
	b, _ := bBox(n)
	num, _, _ := bSizes(n)
	sc.text(b.cx()+0.5, bTop(n)+num+2, strconv.Itoa(n), num, true, 1, bInk(n, owned))
}

// bName writes cell n's name under its number, and the price of a free lot.
func (sc *scene) bName(n int, owned map[int]bOwned, lang string) {
	b, _ := bBox(n)
	num, size, lead := bSizes(n)
	y := bTop(n) + num + 2
	ink := bInk(n, owned)
	for _, line := range sc.bLabel(n, lang, size, b.w-4) {
		y += lead
		sc.text(b.cx()+0.5, y, line, size, false, 1, ink)
	}
	if _, own := owned[n]; !own && bm.Board[n].Price > 0 && b.h >= bU {
		sc.text(b.cx()+0.5, b.y+b.h-4, templates.Num(lang, bm.Board[n].Price), size, false, 1, cMuted)
	}
}

// bConnectors draws the ways between the tracks.
func (sc *scene) bConnectors() {
	const sw = 1.6
	bx := func(n int) box { b, _ := bBox(n); return b }
	// 15 → the highway's entrance, the crossroads → 35.
	in, c15 := bx(bm.HighwayIn), bx(bm.CellHighway)
	sc.arrow(bRoadInk, sw, 0, pt{c15.x, c15.cy()}, pt{in.cx(), c15.cy()}, pt{in.cx(), in.y})
	cross, c35 := bx(bm.CellCross), bx(bm.CellExit)
	sc.arrow(bRoadInk, sw, 0, pt{cross.cx(), cross.y + cross.h + 1}, pt{cross.cx(), c35.cy()}, pt{c35.x + bU + 1, c35.cy()})
	// Customs (24) → abroad (41); abroad's last cell (56) → the border exchange (25).
	c24, a41 := bx(bm.CellCustoms), bx(bm.AbroadFirst)
	sc.arrow(cSeaInk, sw, 0, pt{a41.cx(), c24.y}, pt{a41.cx(), a41.y + a41.h + 1})
	a56, c25 := bx(bm.AbroadLast), bx(bm.CellBorder)
	sc.arrow(cSeaInk, sw, 0, pt{a56.cx(), a56.y + a56.h + 1}, pt{a56.cx(), c25.y})
	// The hotel (30) → the roulette's «Вход».
	c30, r70 := bx(bm.CellHotel), bx(bm.RouletteIn)
	sc.arrow(bRoadInk, sw, 3, pt{r70.cx(), c30.y}, pt{r70.cx(), r70.y + r70.h + 1})
}

// bCaptions names the tracks inside the ring.
func (sc *scene) bCaptions(lang string) {
	sc.text(bHwX+bHwW+6, bHwY+bHwH+16, tr(lang, "highway"), 12, false, 0, cMuted)
	ax, ay := float64(bAbroadX+bSmall*5/2), float64(bAbroadY+bSmall*5/2)
	sc.text(ax, ay-4, tr(lang, "abroad"), 12, true, 1, cSeaInk)
	sc.text(ax, ay+12, tr(lang, "surcharge"), 10.5, false, 1, cSeaInk)
	rx, ry := float64(bRoulX+bSmall*2), float64(bRoulY+bSmall*2)
	sc.text(rx, ry+4, tr(lang, "roulette"), 12, true, 1, cMuted)
}

// bCentre writes the title, whose move it is and the exchange board (B-13).
func (sc *scene) bCentre(v bm.View, seatName func(int) string, live bool, lang string) {
	cx := float64(bMargin) + bRing/2
	top := float64(bMargin + bU)
	sc.heading(headLayout{cx: cx, titleY: top + 34, titleSize: 28, y: top + 64, size: 17, nameW: 260, gap: 20, r: 10, lift: 6},
		tr(lang, "bm_title"), v.Turn, len(v.Players), seatName, live, lang)
	// The exchange board: each colour's points (1…25) and its price.
	const rowH, size, barW = 19.0, 13.0, 220.0
	x0 := cx - 215
	y0 := top + 96
	sc.text(x0, y0, tr(lang, "exchange"), 14, true, 0, cInk)
	sc.text(x0+112+barW+28, y0, tr(lang, "points"), 11, false, 2, cMuted)
	sc.text(cx+215, y0, tr(lang, "point"), 11, false, 2, cMuted)
	bx := x0 + 112
	for k := 0; k < bm.NumColours; k++ {
		g := bm.Groups[k]
		y := y0 + float64(k+1)*rowH
		pts := min(max(v.Points[k], 0), bm.MaxPoints)
		sc.rect(x0, y-10, 11, 11, 2, GroupColor(k), cNone, 0)
		sc.text(x0+17, y, pickLang(lang, g.RU, g.EN), size, false, 0, cInk)
		sc.gauge(bx, y-9, barW, 8, barW*float64(pts)/bm.MaxPoints, GroupColor(k), bx+barW*bm.StartPoints/bm.MaxPoints, 2)
		sc.text(bx+barW+28, y, strconv.Itoa(pts), size, true, 2, cInk)
		sc.text(cx+215, y, templates.Num(lang, int64(pts)*bm.PointValue), size, false, 2, cInk)
	}
}

// bTokens draws every player still in the game on their cell, and the
// roulette's ball while the turn's seat plays it.
func (sc *scene) bTokens(v bm.View, live bool) {
	on, cells := seatsOn(len(v.Players), func(i int) (int, bool) { return v.Players[i].Cell, !v.Players[i].Bankrupt })
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
		sc.spread(seats, b.cx()+0.5, cy, r, d, live, v.Turn)
	}
}

// bLegend lists the seats under the board (token, name, cell, cash) and
// says what the marks on the lots mean.
func (sc *scene) bLegend(v bm.View, owned map[int]bOwned, seatName func(int) string, live bool, lang string) {
	sc.seatLegend(bMargin, bLegendY, 16, 13, len(v.Players), func(i int) (string, bool) {
		p := v.Players[i]
		return tr(lang, "cell") + " " + strconv.Itoa(p.Cell) + " · " + templates.Num(lang, p.Cash), p.Bankrupt
	}, seatName, live, v.Turn, lang)
	// The key: a branch, an enterprise, a pledge, an owner.
	y := float64(bKeyY) + 12
	x := float64(bMargin) + 6
	sc.rect(x, y-8, 8, 8, 0, cWhite, cInk, 1)
	x += 13
	sc.text(x, y, tr(lang, "branch"), 12, false, 0, cInk)
	x += sc.m.width(tr(lang, "branch"), 12, false)*1.15 + 16
	sc.rect(x, y-8, 8, 8, 0, cInk, cWhite, 1)
	x += 13
	sc.text(x, y, tr(lang, "enterprise"), 12, false, 0, cInk)
	x += sc.m.width(tr(lang, "enterprise"), 12, false)*1.15 + 16
	sc.rect(x, y-10, 12, 12, 0, bPledged, cBorder, 1)
	sc.add(item{k: kLine, pts: []pt{{x + 2, y}, {x + 10, y - 8}}, stroke: cMuted, sw: 1.5})
	x += 17
	sc.text(x, y, tr(lang, "pledged"), 12, false, 0, cInk)
	x += sc.m.width(tr(lang, "pledged"), 12, false)*1.15 + 16
	sc.badge(0, x+6, y-4, 6)
	x += 17
	sc.text(x, y, tr(lang, "owner"), 12, false, 0, cInk)
	left := sc.m.width(tr(lang, "owner"), 12, false)*1.15 + x + 16
	if v.Pieces != [2]int{} || len(owned) > 0 {
		s := fmt.Sprintf(tr(lang, "pieces"), v.Pieces[0], v.Pieces[1])
		if left+sc.m.width(s, 12, false)*1.15 < float64(sc.w-bMargin) {
			sc.text(float64(sc.w-bMargin-6), y, s, 12, false, 2, cMuted)
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
		var s string
		if lang == "en" {
			s = fmt.Sprintf("%d %s: cell %d, cash %s, %s", i+1, seatName(i), p.Cell, templates.Num(lang, p.Cash), templates.Count(lang, "n_lots", lots))
		} else {
			s = fmt.Sprintf("%d %s: клетка %d, наличные %s, %s", i+1, seatName(i), p.Cell, templates.Num(lang, p.Cash), templates.Count(lang, "n_lots", lots))
		}
		if p.Bankrupt {
			s += " (" + tr(lang, "bankrupt") + ")"
		}
		parts = append(parts, s)
	}
	var rates []string
	for k := 0; k < bm.NumColours; k++ {
		rates = append(rates, fmt.Sprintf("%s %d", pickLang(lang, bm.Groups[k].RU, bm.Groups[k].EN), v.Points[k]))
	}
	return strings.Join(parts, "; ") + ". " + tr(lang, "exchange") + ": " + strings.Join(rates, ", ") + "."
}
