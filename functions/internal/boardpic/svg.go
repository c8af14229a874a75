package boardpic

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"unicode/utf8"
)

// Defaults set on the root element, so most items need not repeat them.
const (
	svgFontSize = 10.5
	svgFont     = `system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif`
)

// writeSVG writes the scene as a standalone SVG element, ready to inline in
// HTML: no external references, no ids (two boards on a page cannot
// clash), text in the system sans-serif font.
func writeSVG(sc *Scene) []byte {
	return writeSVGIn(sc, Box{0, 0, float64(sc.W), float64(sc.H)}, sc.Title)
}

// writeSVGIn writes the part win of the scene, titled title: the items
// wholly outside it are left out.
func writeSVGIn(sc *Scene, win Box, title string) []byte {
	var b bytes.Buffer
	full := win == Box{0, 0, float64(sc.W), float64(sc.H)}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="%s %s %s %s" width="%s" height="%s" style="max-width:100%%;height:auto" role="img" aria-label="`,
		num(win.X), num(win.Y), num(win.W), num(win.H), num(win.W), num(win.H))
	esc(&b, title)
	fmt.Fprintf(&b, `" font-family='%s' font-size="%s" text-anchor="middle" fill="%s">`, svgFont, num(svgFontSize), Hex(Ink))
	b.WriteString("<title>")
	esc(&b, title)
	b.WriteString("</title><desc>")
	esc(&b, sc.Desc)
	b.WriteString("</desc>\n")
	root := item{size: svgFontSize}
	group := root // the defaults the open group sets
	for _, it := range sc.items {
		switch it.k {
		case kGroup:
			group = item{stroke: it.stroke, size: svgFontSize, bold: it.bold}
			b.WriteString("<g")
			if it.stroke.A != 0 {
				fmt.Fprintf(&b, ` stroke="%s"`, Hex(it.stroke))
			}
			if it.size > 0 && it.size != svgFontSize {
				group.size = it.size
				fmt.Fprintf(&b, ` font-size="%s"`, num(it.size))
			}
			if it.bold {
				b.WriteString(` font-weight="bold"`)
			}
			if it.pass {
				b.WriteString(` pointer-events="none"`)
			}
			b.WriteString(">\n")
		case kEnd:
			group = root
			b.WriteString("</g>\n")
		default:
			if full || sc.meets(it, group, win) {
				svgItem(&b, it, group)
			}
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// svgItem writes one item in a group whose defaults (stroke, font size
// and weight) are group's.
func svgItem(b *bytes.Buffer, it item, group item) {
	switch it.k {
	case kRect:
		x, y, w, h := it.x, it.y, it.w, it.h
		stroked := it.stroke.A != 0 && it.sw > 0
		if stroked { // the raster strokes inside the box; SVG centres the stroke on the edge
			x, y, w, h = x+it.sw/2, y+it.sw/2, w-it.sw, h-it.sw
		}
		elem := "path"
		if it.r > 0 {
			elem = "rect"
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" rx="%s"`, num(x), num(y), num(w), num(h), num(it.r))
		} else { // a path is the shorter way to write a plain rectangle
			fmt.Fprintf(b, `<path d="M%s %sh%sv%sh-%sz"`, num(x), num(y), num(w), num(h), num(w))
		}
		paint(b, it, stroked, group.stroke)
		end(b, it, elem)
	case kCircle:
		rad := it.r
		stroked := it.stroke.A != 0 && it.sw > 0
		if stroked {
			rad -= it.sw / 2
		}
		fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="%s"`, num(it.x), num(it.y), num(rad))
		paint(b, it, stroked, group.stroke)
		end(b, it, "circle")
	case kLine:
		b.WriteString(`<path d="`)
		path(b, it.pts)
		fmt.Fprintf(b, `" fill="none" stroke="%s" stroke-width="%s"`, Hex(it.stroke), num(it.sw))
		if it.dash > 0 {
			fmt.Fprintf(b, ` stroke-dasharray="%s %s"`, num(it.dash), num(it.dash*0.75))
		}
		b.WriteString("/>\n")
	case kPoly:
		b.WriteString(`<path d="`)
		path(b, it.pts)
		fmt.Fprintf(b, `Z" fill="%s"/>`, Hex(it.fill))
	case kText:
		fmt.Fprintf(b, `<text x="%s" y="%s"`, num(it.x), num(it.y))
		if it.size != group.size {
			fmt.Fprintf(b, ` font-size="%s"`, num(it.size))
		}
		switch {
		case it.bold && !group.bold:
			b.WriteString(` font-weight="bold"`)
		case !it.bold && group.bold:
			b.WriteString(` font-weight="normal"`)
		}
		switch it.anchor {
		case 0:
			b.WriteString(` text-anchor="start"`)
		case 2:
			b.WriteString(` text-anchor="end"`)
		}
		if it.fill != Ink {
			fmt.Fprintf(b, ` fill="%s"`, Hex(it.fill))
		}
		b.WriteString(">")
		esc(b, it.s)
		b.WriteString("</text>")
	}
}

// paint writes the fill and stroke of a shape in a group whose default
// stroke is group.
func paint(b *bytes.Buffer, it item, stroked bool, group color.RGBA) {
	if it.fill.A == 0 {
		b.WriteString(` fill="none"`)
	} else {
		fmt.Fprintf(b, ` fill="%s"`, Hex(it.fill))
	}
	switch {
	case stroked:
		if it.stroke != group {
			fmt.Fprintf(b, ` stroke="%s"`, Hex(it.stroke))
		}
		if it.sw != 1 {
			fmt.Fprintf(b, ` stroke-width="%s"`, num(it.sw))
		}
	case group.A != 0:
		b.WriteString(` stroke="none"`)
	}
}

// end closes a shape's element. Shapes have no titles: inside the
// picture's role="img" no reader hears them, and hover titles do not
// exist on phones; the pages list the squares in words instead.
func end(b *bytes.Buffer, _ item, _ string) { b.WriteString("/>") }

func path(b *bytes.Buffer, pts []Pt) {
	for i, p := range pts {
		if i == 0 {
			b.WriteByte('M')
		} else {
			b.WriteByte('L')
		}
		b.WriteString(num(p.x))
		b.WriteByte(' ')
		b.WriteString(num(p.y))
	}
}

// num prints a coordinate with at most two decimals.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// Hex writes c as a CSS colour, in its short form when it has one.
func Hex(c color.RGBA) string {
	if c.R%17 == 0 && c.G%17 == 0 && c.B%17 == 0 {
		return fmt.Sprintf("#%x%x%x", c.R/17, c.G/17, c.B/17)
	}
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// esc escapes text for both element content and a quoted attribute,
// byte for byte as encoding/xml's EscapeText does (quotes, markup and
// line breaks as character references, a character XML cannot hold as
// U+FFFD), without linking encoding/xml, whose package init builds its
// tables at every cold start (issue 16).
func esc(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		var ref string
		switch r {
		case '"':
			ref = "&#34;"
		case '\'':
			ref = "&#39;"
		case '&':
			ref = "&amp;"
		case '<':
			ref = "&lt;"
		case '>':
			ref = "&gt;"
		case '\t':
			ref = "&#x9;"
		case '\n':
			ref = "&#xA;"
		case '\r':
			ref = "&#xD;"
		default:
			if !xmlChar(r) || (r == utf8.RuneError && width == 1) {
				ref = "\uFFFD"
				break
			}
			continue
		}
		b.WriteString(s[last : i-width])
		b.WriteString(ref)
		last = i
	}
	b.WriteString(s[last:])
}

// xmlChar tells whether XML 1.0 allows r in a document (its Char
// production).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
