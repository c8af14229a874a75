package httpapi

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/pbmgames/pbm/functions/internal/boardpic"
	"github.com/pbmgames/pbm/functions/internal/present"
	"github.com/pbmgames/pbm/functions/internal/views"
	"github.com/pbmgames/pbm/templates"
)

// Geometry of the net-worth chart, in its viewBox units. It is drawn
// narrow so that its text stays legible scaled down to a phone.
const (
	chartW      = 420
	chartLeft   = 62 // room for the net-worth labels and the axis title
	chartRight  = 16 // room for the end markers
	chartTop    = 12
	chartPlotH  = 190
	chartFont   = 12
	chartLegend = 19 // one legend row
)

// dashes tell the lines apart without their colours.
var dashes = [...]string{"", "7 4", "2 3", "10 3 2 3", "4 2", "12 4"}

// netWorthChart draws every seat's net worth over the game as an inline
// SVG line chart: gridlines, labelled axes, one line a seat in its board
// colour and dash, a numbered marker at its end, and a legend.
func netWorthChart(l string, pr present.Game, s views.Series, names []string) template.HTML {
	if len(s.Moves) < 2 || len(s.Worth) == 0 {
		return ""
	}
	lo, hi := int64(0), int64(0)
	for _, w := range s.Worth {
		for _, v := range w {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	step := niceStep(float64(hi-lo), 4)
	ymin := math.Floor(float64(lo)/step) * step
	ymax := math.Ceil(float64(hi)/step) * step
	if ymax == ymin {
		ymax = ymin + step
	}
	last := s.Moves[len(s.Moves)-1]
	plotW := float64(chartW - chartLeft - chartRight)
	x := func(m int) float64 { return chartLeft + plotW*float64(m)/float64(max(last, 1)) }
	y := func(v float64) float64 { return chartTop + chartPlotH*(ymax-v)/(ymax-ymin) }

	rows := (len(s.Worth) + 1) / 2
	axisY := chartTop + chartPlotH
	legendTop := axisY + 40
	height := legendTop + rows*chartLegend + 4

	var b strings.Builder
	title := pr.Words(l).Chart
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-label="%s" class="chart" font-family="system-ui,sans-serif" font-size="%d" fill="#2b2118">`,
		chartW, height, html.EscapeString(title), chartFont)
	fmt.Fprintf(&b, "<title>%s</title><desc>%s</desc>\n", html.EscapeString(title), html.EscapeString(chartDesc(l, pr, s, names)))

	// Gridlines and the net-worth axis.
	b.WriteString(`<g stroke="#d9d0bf">`)
	for v := ymin; v <= ymax+step/2; v += step {
		w := ""
		if v == 0 {
			w = ` stroke="#7a6e60" stroke-width="1.5"`
		}
		fmt.Fprintf(&b, `<path d="M%d %.0fH%d"%s/>`, chartLeft, y(v), chartW-chartRight, w)
	}
	b.WriteString("</g>\n<g text-anchor=\"end\">")
	for v := ymin; v <= ymax+step/2; v += step {
		fmt.Fprintf(&b, `<text x="%d" y="%.0f">%s</text>`, chartLeft-4, y(v)+4, templates.Money(l, int64(v)))
	}
	b.WriteString("</g>\n")
	fmt.Fprintf(&b, `<text transform="translate(11 %d) rotate(-90)" text-anchor="middle">%s</text>`, chartTop+chartPlotH/2, html.EscapeString(chartY(l, pr)))

	// The move axis.
	fmt.Fprintf(&b, `<path d="M%d %dH%d" stroke="#7a6e60"/><g text-anchor="middle">`, chartLeft, axisY, chartW-chartRight)
	xstep := int(max(niceStep(float64(last), 4), 1))
	for m := 0; m <= last; m += xstep {
		fmt.Fprintf(&b, `<path d="M%.0f %dv4" stroke="#7a6e60"/><text x="%.0f" y="%d">%d</text>`, x(m), axisY, x(m), axisY+15, m)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%d">%s</text></g>`+"\n", chartLeft+plotW/2, axisY+31, html.EscapeString(templates.T(l, "chart_x")))

	// The lines, then their end markers on top.
	for seat, w := range s.Worth {
		chartLine(&b, seat, w, func(i int) float64 { return x(s.Moves[i]) }, y, views.NameFunc(names)(seat))
	}
	for seat, w := range s.Worth {
		if len(w) > 0 {
			marker(&b, seat, x(last), y(float64(w[len(w)-1])), 7)
		}
	}

	chartLegendRows(&b, len(s.Worth), legendTop, views.NameFunc(names))
	b.WriteString("</svg>")
	return template.HTML(b.String()) // every text in it is escaped above
}

// chartLine draws one seat's line through the values w, the i-th at
// x(i): in its colour and dash, as a path of whole units, each point
// relative to the last (the shortest way to write ~200 points), titled
// with the seat's name.
func chartLine(b *strings.Builder, seat int, w []int64, x func(i int) float64, y func(float64) float64, title string) {
	fmt.Fprintf(b, `<path fill="none" stroke="%s" stroke-width="2.2" stroke-linejoin="round"`, boardpic.SeatHex(seat))
	if d := dashes[seat%len(dashes)]; d != "" {
		fmt.Fprintf(b, ` stroke-dasharray="%s"`, d)
	}
	b.WriteString(` d="`)
	var px, py int
	for i, v := range w {
		cx, cy := int(math.Round(x(i))), int(math.Round(y(float64(v))))
		switch i {
		case 0:
			fmt.Fprintf(b, "M%d %dl", cx, cy)
		default:
			if i > 1 && cx-px >= 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(b, "%d", cx-px)
			if cy-py >= 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(b, "%d", cy-py)
		}
		px, py = cx, cy
	}
	if len(w) == 1 {
		b.WriteString("0 0")
	}
	fmt.Fprintf(b, `"><title>%s</title></path>`+"\n", html.EscapeString(title))
}

// chartLegendRows is the legend of n lines from top: a sample of each
// line, its marker and its name, two a row.
func chartLegendRows(b *strings.Builder, n, top int, name func(int) string) {
	for seat := range n {
		lx := float64(chartLeft - 50 + (seat%2)*((chartW-chartLeft+50)/2))
		ly := float64(top + (seat/2)*chartLegend)
		fmt.Fprintf(b, `<path d="M%.0f %.0fh26" stroke="%s" stroke-width="2.5"`, lx, ly, boardpic.SeatHex(seat))
		if d := dashes[seat%len(dashes)]; d != "" {
			fmt.Fprintf(b, ` stroke-dasharray="%s"`, d)
		}
		b.WriteString("/>")
		marker(b, seat, lx+36, ly, 6)
		fmt.Fprintf(b, `<text x="%.0f" y="%.0f">%s</text>`+"\n", lx+48, ly+4, html.EscapeString(clip(name(seat), 20)))
	}
}

// chartY is the title of the net-worth axis, with the game's currency.
func chartY(l string, pr present.Game) string {
	if c := pr.Currency(); c != "" {
		return pr.Words(l).Worth + ", " + c
	}
	return pr.Words(l).Worth
}

// marker is a seat's numbered disc, as on the board.
func marker(b *strings.Builder, seat int, x, y, r float64) {
	c := boardpic.SeatColor(seat)
	ink := "#fff"
	if 299*int(c.R)+587*int(c.G)+114*int(c.B) > 150_000 {
		ink = "#2b2118"
	}
	fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="#fff" stroke-width="1.5"/><text x="%.1f" y="%.1f" font-size="%.0f" font-weight="bold" text-anchor="middle" fill="%s">%d</text>`,
		x, y, r, boardpic.SeatHex(seat), x, y+r*0.45, r*1.3, ink, seat+1)
}

// niceStep is a round step (1, 2, 2.5 or 5 times a power of ten) that
// cuts span into about n parts.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// chartDesc is the text alternative of the chart: each seat's net worth
// at the start, its highest and at the end.
func chartDesc(l string, pr present.Game, s views.Series, names []string) string {
	var parts []string
	for seat, w := range s.Worth {
		if len(w) == 0 {
			continue
		}
		top := w[0]
		for _, v := range w {
			top = max(top, v)
		}
		parts = append(parts, templates.Tf(l, "chart_desc_seat", views.NameFunc(names)(seat), pr.Money(l, top), pr.Money(l, w[len(w)-1])))
	}
	return templates.Tf(l, "chart_desc", pr.Words(l).Worth, s.Moves[len(s.Moves)-1]) + " " + strings.Join(parts, "; ") + "."
}

// clip shortens s to n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
