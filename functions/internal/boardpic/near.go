package boardpic

import "math"

// SVGNear draws the part of the board a reader on a phone looks at first
// (issue 27): the window around the parts the layout marked (Focus: their
// own token, then what just happened), as large as the picture may be
// while its smallest text, shown shownPx CSS pixels wide, is at least
// minPx pixels high. A layout that marks nothing is shown around its
// middle. The items outside the window are left out.
func (l Layout) SVGNear(view any, names []string, lang string, shownPx, minPx float64) ([]byte, error) {
	b, _, _, err := l.SVGNearSized(view, names, lang, shownPx, minPx)
	return b, err
}

// SVGNearSized is SVGNear, and the size of the whole picture.
func (l Layout) SVGNearSized(view any, names []string, lang string, shownPx, minPx float64) ([]byte, int, int, error) {
	sc, err := l.build(view, names, lang)
	if err != nil {
		return nil, 0, 0, err
	}
	return writeSVGIn(sc, sc.near(shownPx, minPx), sc.Title), sc.W, sc.H, nil
}

// near is the window SVGNear shows.
func (sc *Scene) near(shownPx, minPx float64) Box {
	w := math.Min(float64(sc.W), math.Floor(shownPx*sc.smallestText()/minPx))
	h := math.Min(float64(sc.H), w)
	focus := sc.focus
	if len(focus) == 0 {
		focus = []Box{{float64(sc.W) / 2, float64(sc.H) / 2, 0, 0}}
	}
	u := focus[0]
	for _, f := range focus[1:] {
		x0, y0 := math.Min(u.X, f.X), math.Min(u.Y, f.Y)
		x1, y1 := math.Max(u.X+u.W, f.X+f.W), math.Max(u.Y+u.H, f.Y+f.H)
		if x1-x0 <= w && y1-y0 <= h { // the next mark fits beside the first ones
			u = Box{x0, y0, x1 - x0, y1 - y0}
		}
	}
	x := math.Max(0, math.Min(float64(sc.W)-w, u.X+u.W/2-w/2))
	y := math.Max(0, math.Min(float64(sc.H)-h, u.Y+u.H/2-h/2))
	return Box{math.Round(x), math.Round(y), w, h}
}

// smallestText is the smallest font size of the scene's texts.
func (sc *Scene) smallestText() float64 {
	least, group := math.Inf(1), svgFontSize
	for _, it := range sc.items {
		switch it.k {
		case kGroup:
			group = svgFontSize
			if it.size > 0 {
				group = it.size
			}
		case kEnd:
			group = svgFontSize
		case kText:
			size := it.size
			if size <= 0 {
				size = group
			}
			least = math.Min(least, size)
		}
	}
	if math.IsInf(least, 1) {
		return svgFontSize
	}
	return least
}

// meets tells whether item it, in a group whose defaults are group's,
// reaches into win.
func (sc *Scene) meets(it item, group item, win Box) bool {
	var b Box
	switch it.k {
	case kRect:
		b = Box{it.x, it.y, it.w, it.h}
	case kCircle:
		b = Box{it.x - it.r, it.y - it.r, 2 * it.r, 2 * it.r}
	case kLine, kPoly:
		if len(it.pts) == 0 {
			return false
		}
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range it.pts {
			x0, y0, x1, y1 = math.Min(x0, p.x), math.Min(y0, p.y), math.Max(x1, p.x), math.Max(y1, p.y)
		}
		b = Box{x0 - it.sw, y0 - it.sw, x1 - x0 + 2*it.sw, y1 - y0 + 2*it.sw}
	case kText:
		size := it.size
		if size <= 0 {
			size = group.size
		}
		w := sc.m.width(it.s, size, it.bold || group.bold)
		x := it.x - w*float64(it.anchor)/2
		b = Box{x, it.y - size, w, size * 1.3}
	default:
		return true
	}
	return b.X < win.X+win.W && b.X+b.W > win.X && b.Y < win.Y+win.H && b.Y+b.H > win.Y
}
