package boardpic

import (
	"bytes"
	"cmp"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"slices"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// levels is how many steps of partial coverage an edge may have. Few steps
// keep the picture to a small palette (every colour is exact, no
// dithering) while the edges stay smooth.
const levels = 4

var quant = func() (q [256]uint8) {
	for a := range q {
		q[a] = uint8((a*levels + 127) / 255 * 255 / levels)
	}
	return q
}()

// raster draws a scene into an RGBA image.
type raster struct {
	img  *image.RGBA
	m    *measurer
	z    vector.Rasterizer
	mask image.Alpha
}

func rasterPNG(sc *Scene) ([]byte, error) {
	r := &raster{img: image.NewRGBA(image.Rect(0, 0, sc.W, sc.H)), m: sc.m}
	r.z.DrawOp = draw.Src
	for _, it := range sc.items {
		r.draw(it)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, paletted(r.img)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (r *raster) draw(it item) {
	switch it.k {
	case kRect:
		if it.r > 0 {
			r.roundRect(it)
			return
		}
		inner := it.sw
		if it.stroke.A == 0 {
			inner = 0
		}
		if inner > 0 {
			if it.fill.A == 0 {
				r.fillRect(it.x, it.y, it.w, inner, it.stroke)
				r.fillRect(it.x, it.y+it.h-inner, it.w, inner, it.stroke)
				r.fillRect(it.x, it.y+inner, inner, it.h-2*inner, it.stroke)
				r.fillRect(it.x+it.w-inner, it.y+inner, inner, it.h-2*inner, it.stroke)
				return
			}
			r.fillRect(it.x, it.y, it.w, it.h, it.stroke)
		}
		if it.fill.A != 0 {
			r.fillRect(it.x+inner, it.y+inner, it.w-2*inner, it.h-2*inner, it.fill)
		}
	case kCircle:
		rad := it.r
		if it.stroke.A != 0 && it.sw > 0 {
			r.fillPath(it.stroke, func(z *vector.Rasterizer, o Pt) { circlePath(z, it.x-o.x, it.y-o.y, rad) }, it.x-rad, it.y-rad, it.x+rad, it.y+rad)
			rad -= it.sw
		}
		if it.fill.A != 0 {
			r.fillPath(it.fill, func(z *vector.Rasterizer, o Pt) { circlePath(z, it.x-o.x, it.y-o.y, rad) }, it.x-rad, it.y-rad, it.x+rad, it.y+rad)
		}
	case kLine:
		for _, seg := range dashes(it.pts, it.dash) {
			r.segment(seg[0], seg[1], it.sw, it.stroke)
		}
	case kPoly:
		r.polygon(it.pts, it.fill)
	case kText:
		r.text(it)
	}
}

// fillRect fills an axis-aligned rectangle, with exact coverage at
// fractional edges.
func (r *raster) fillRect(x, y, w, h float64, c color.RGBA) {
	if w <= 0 || h <= 0 {
		return
	}
	b := r.img.Bounds()
	x0, y0 := max(int(math.Floor(x)), b.Min.X), max(int(math.Floor(y)), b.Min.Y)
	x1, y1 := min(int(math.Ceil(x+w)), b.Max.X), min(int(math.Ceil(y+h)), b.Max.Y)
	span := func(p int, lo, hi float64) float64 {
		return max(0, min(float64(p+1), hi)-max(float64(p), lo))
	}
	for py := y0; py < y1; py++ {
		cy := span(py, y, y+h)
		for px := x0; px < x1; px++ {
			a := cy * span(px, x, x+w)
			r.blend(px, py, c, quant[uint8(a*255+0.5)])
		}
	}
}

// blend puts c over the pixel at (x, y) with coverage a.
func (r *raster) blend(x, y int, c color.RGBA, a uint8) {
	if a == 0 {
		return
	}
	i := r.img.PixOffset(x, y)
	p := r.img.Pix[i : i+4 : i+4]
	if a == 255 {
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 255
		return
	}
	mix := func(s, d uint8) uint8 { return uint8((int(s)*int(a) + int(d)*(255-int(a)) + 127) / 255) }
	p[0], p[1], p[2], p[3] = mix(c.R, p[0]), mix(c.G, p[1]), mix(c.B, p[2]), 255
}

// fillPath rasterises the path that add draws (offset by the corner of
// the bounding box x0, y0, x1, y1) and fills it with c.
func (r *raster) fillPath(c color.RGBA, add func(z *vector.Rasterizer, o Pt), x0, y0, x1, y1 float64) {
	rb := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1))).Intersect(r.img.Bounds())
	if rb.Empty() {
		return
	}
	w, h := rb.Dx(), rb.Dy()
	r.z.Reset(w, h)
	r.z.DrawOp = draw.Src
	add(&r.z, Pt{float64(rb.Min.X), float64(rb.Min.Y)})
	m := r.scratch(image.Rect(0, 0, w, h))
	r.z.Draw(m, m.Rect, image.Opaque, image.Point{})
	r.composite(m, rb.Min, c)
}

// scratch is a cleared alpha mask of bounds b.
func (r *raster) scratch(b image.Rectangle) *image.Alpha {
	n := b.Dx() * b.Dy()
	if cap(r.mask.Pix) < n {
		r.mask.Pix = make([]uint8, n)
	}
	r.mask.Pix = r.mask.Pix[:n]
	clear(r.mask.Pix)
	r.mask.Stride, r.mask.Rect = b.Dx(), b
	return &r.mask
}

// composite fills c through mask m, whose top-left pixel lands at at.
func (r *raster) composite(m *image.Alpha, at image.Point, c color.RGBA) {
	b := m.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := m.Pix[(y-b.Min.Y)*m.Stride:]
		for x := b.Min.X; x < b.Max.X; x++ {
			px, py := at.X+x-b.Min.X, at.Y+y-b.Min.Y
			if (image.Point{px, py}).In(r.img.Rect) {
				r.blend(px, py, c, quant[row[x-b.Min.X]])
			}
		}
	}
}

func (r *raster) roundRect(it item) {
	path := func(x, y, w, h, rad float64) func(*vector.Rasterizer, Pt) {
		return func(z *vector.Rasterizer, o Pt) {
			x, y := x-o.x, y-o.y
			f := func(v float64) float32 { return float32(v) }
			z.MoveTo(f(x+rad), f(y))
			z.LineTo(f(x+w-rad), f(y))
			z.QuadTo(f(x+w), f(y), f(x+w), f(y+rad))
			z.LineTo(f(x+w), f(y+h-rad))
			z.QuadTo(f(x+w), f(y+h), f(x+w-rad), f(y+h))
			z.LineTo(f(x+rad), f(y+h))
			z.QuadTo(f(x), f(y+h), f(x), f(y+h-rad))
			z.LineTo(f(x), f(y+rad))
			z.QuadTo(f(x), f(y), f(x+rad), f(y))
			z.ClosePath()
		}
	}
	x, y, w, h, rad := it.x, it.y, it.w, it.h, it.r
	if it.stroke.A != 0 && it.sw > 0 {
		r.fillPath(it.stroke, path(x, y, w, h, rad), x, y, x+w, y+h)
		x, y, w, h, rad = x+it.sw, y+it.sw, w-2*it.sw, h-2*it.sw, max(0, rad-it.sw)
	}
	if it.fill.A != 0 {
		r.fillPath(it.fill, path(x, y, w, h, rad), x, y, x+w, y+h)
	}
}

// circlePath adds a circle of four cubic arcs.
func circlePath(z *vector.Rasterizer, cx, cy, rad float64) {
	const k = 0.5522847498
	f := func(v float64) float32 { return float32(v) }
	d := rad * k
	z.MoveTo(f(cx+rad), f(cy))
	z.CubeTo(f(cx+rad), f(cy+d), f(cx+d), f(cy+rad), f(cx), f(cy+rad))
	z.CubeTo(f(cx-d), f(cy+rad), f(cx-rad), f(cy+d), f(cx-rad), f(cy))
	z.CubeTo(f(cx-rad), f(cy-d), f(cx-d), f(cy-rad), f(cx), f(cy-rad))
	z.CubeTo(f(cx+d), f(cy-rad), f(cx+rad), f(cy-d), f(cx+rad), f(cy))
	z.ClosePath()
}

func (r *raster) polygon(pts []Pt, c color.RGBA) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, y0, x1, y1 = min(x0, p.x), min(y0, p.y), max(x1, p.x), max(y1, p.y)
	}
	r.fillPath(c, func(z *vector.Rasterizer, o Pt) {
		z.MoveTo(float32(pts[0].x-o.x), float32(pts[0].y-o.y))
		for _, p := range pts[1:] {
			z.LineTo(float32(p.x-o.x), float32(p.y-o.y))
		}
		z.ClosePath()
	}, x0, y0, x1, y1)
}

// segment strokes a straight line of width sw with square ends; an
// axis-aligned one is a rectangle.
func (r *raster) segment(a, b Pt, sw float64, c color.RGBA) {
	h := sw / 2
	switch {
	case a.x == b.x:
		r.fillRect(a.x-h, min(a.y, b.y)-h, sw, math.Abs(b.y-a.y)+sw, c)
	case a.y == b.y:
		r.fillRect(min(a.x, b.x)-h, a.y-h, math.Abs(b.x-a.x)+sw, sw, c)
	default:
		dx, dy := b.x-a.x, b.y-a.y
		l := hypot(dx, dy)
		nx, ny := -dy/l*h, dx/l*h
		r.polygon([]Pt{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}}, c)
	}
}

// dashes splits a polyline into its segments, or into dashes of length
// dash with gaps of 0.75 dash.
func dashes(pts []Pt, dash float64) [][2]Pt {
	var out [][2]Pt
	on, left := true, dash
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if dash <= 0 {
			out = append(out, [2]Pt{a, b})
			continue
		}
		l := hypot(b.x-a.x, b.y-a.y)
		for t := 0.0; t < l; {
			step := min(left, l-t)
			p := Pt{a.x + (b.x-a.x)*t/l, a.y + (b.y-a.y)*t/l}
			q := Pt{a.x + (b.x-a.x)*(t+step)/l, a.y + (b.y-a.y)*(t+step)/l}
			if on {
				out = append(out, [2]Pt{p, q})
			}
			t += step
			left -= step
			if left <= 1e-9 {
				on = !on
				left = dash
				if !on {
					left = dash * 0.75
				}
			}
		}
	}
	return out
}

// text draws a line of text, its baseline and anchor snapped to whole
// pixels for crisp hinted glyphs.
func (r *raster) text(it item) {
	face := r.m.face(it.size, it.bold)
	x := it.x
	if it.anchor != 0 {
		x -= r.m.width(it.s, it.size, it.bold) * float64(it.anchor) / 2
	}
	dot := fixed.P(int(math.Round(x)), int(math.Round(it.y)))
	bb, _ := font.BoundString(face, it.s)
	b := image.Rect(bb.Min.X.Floor(), bb.Min.Y.Floor(), bb.Max.X.Ceil(), bb.Max.Y.Ceil()).Add(image.Pt(dot.X.Floor(), dot.Y.Floor()))
	if b.Empty() {
		return
	}
	m := r.scratch(b)
	d := font.Drawer{Dst: m, Src: image.Opaque, Face: face, Dot: dot}
	d.DrawString(it.s)
	r.composite(m, b.Min, it.fill)
}

// paletted converts img to a paletted image without loss when it has at
// most 256 colours (the usual case: the quantised edges keep it so), else
// to its 256 commonest colours, the others mapped to the nearest.
func paletted(img *image.RGBA) *image.Paletted {
	key := func(p []uint8) uint32 { return uint32(p[0])<<16 | uint32(p[1])<<8 | uint32(p[2]) }
	count := map[uint32]int{}
	run, n := key(img.Pix), 0
	for i := 0; i < len(img.Pix); i += 4 {
		if k := key(img.Pix[i:]); k != run {
			count[run] += n
			run, n = k, 0
		}
		n++
	}
	count[run] += n
	cols := make([]uint32, 0, len(count))
	for c := range count {
		cols = append(cols, c)
	}
	slices.SortFunc(cols, func(a, b uint32) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	keep := cols[:min(len(cols), 256)]
	pal := make(color.Palette, len(keep))
	index := make(map[uint32]uint8, len(count))
	for i, c := range keep {
		pal[i] = color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xFF}
		index[c] = uint8(i)
	}
	for _, c := range cols[len(keep):] {
		index[c] = uint8(pal.Index(color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xFF}))
	}
	out := image.NewPaletted(img.Rect, pal)
	last, li := uint32(1<<31), uint8(0)
	for i, j := 0, 0; i < len(img.Pix); i, j = i+4, j+1 {
		k := key(img.Pix[i:])
		if k != last {
			last, li = k, index[k]
		}
		out.Pix[j] = li
	}
	return out
}

func hypot(x, y float64) float64 { return math.Sqrt(x*x + y*y) }
