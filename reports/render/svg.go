package render

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// Chart text is 11px monospace in whatever font the reader's browser
// takes for monospace, so that its size is known without a browser. The
// metrics below hold for the common ones, measured in Chromium's layout
// (getBBox) at 11px: DejaVu Sans Mono advances 0.602 em per glyph (6.62
// px), Noto Sans Mono, Liberation Mono and Nimbus Mono PS 0.600 em;
// ascenders reach 10 px above the baseline (12 px in Noto Sans Mono,
// whose ascent is 1.069 em) and descenders 3 px below it (4 px in Nimbus
// Mono PS). Layout reserves the largest of each, rounded up, and the
// browser test lays every chart out in each of these fonts.
const (
	charW       = 6.8  // the width of one glyph
	textAscent  = 12.5 // room above a baseline
	textDescent = 4.0  // room below a baseline
	lineH       = 17.0 // one line of text: textAscent + textDescent, rounded up
)

// baseline returns the baseline of a line of text whose box starts at top.
func baseline(top float64) float64 { return top + textAscent }

// textW returns the width a string takes in a chart.
func textW(s string) float64 { return float64(utf8.RuneCountInString(s)) * charW }

// fitText shortens s with "…" to at most maxW wide.
func fitText(s string, maxW float64) string {
	n := int(maxW / charW)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 2 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// wrapText breaks s into lines at most maxW wide, at spaces and after
// commas; a piece longer than a line is shortened with fitText.
func wrapText(s string, maxW float64) []string {
	var pieces []string
	for _, word := range strings.Fields(s) {
		parts := strings.SplitAfter(word, ",")
		for i, p := range parts {
			if i < len(parts)-1 || p != "" {
				pieces = append(pieces, p)
			}
		}
		pieces[len(pieces)-1] += " "
	}
	var lines []string
	cur := ""
	for _, p := range pieces {
		if cur != "" && textW(strings.TrimSpace(cur+p)) > maxW {
			lines, cur = append(lines, strings.TrimSpace(cur)), ""
		}
		cur += p
	}
	if cur = strings.TrimSpace(cur); cur != "" {
		lines = append(lines, cur)
	}
	for i, l := range lines {
		lines[i] = fitText(l, maxW)
	}
	return lines
}

// maxTextW returns the width of the widest string.
func maxTextW(ss []string) float64 {
	w := 0.0
	for _, s := range ss {
		w = math.Max(w, textW(s))
	}
	return w
}

// An svgDoc accumulates the elements of one chart; write emits it with
// a viewBox of its final size. Marks counts the data marks drawn (bars,
// points, cells), which a chart without data lacks.
type svgDoc struct {
	b     strings.Builder
	w, h  float64
	marks int
}

// printf appends formatted SVG markup.
func (d *svgDoc) printf(format string, a ...any) { fmt.Fprintf(&d.b, format, a...) }

// text appends a text element; anchor is "" (start), "middle" or "end".
func (d *svgDoc) text(x, y float64, anchor, class, s string) {
	d.b.WriteString(`<text x="` + num(x) + `" y="` + num(y) + `"`)
	if anchor != "" {
		d.b.WriteString(` text-anchor="` + anchor + `"`)
	}
	if class != "" {
		d.b.WriteString(` class="` + class + `"`)
	}
	d.b.WriteString(">" + esc(s) + "</text>")
}

// line appends a line from (x1,y1) to (x2,y2) as a path.
func (d *svgDoc) line(x1, y1, x2, y2 float64, class string) {
	switch {
	case x1 == x2:
		d.printf(`<path class="%s" d="M%s %sV%s"/>`, class, num(x1), num(y1), num(y2))
	case y1 == y2:
		d.printf(`<path class="%s" d="M%s %sH%s"/>`, class, num(x1), num(y1), num(x2))
	default:
		d.printf(`<path class="%s" d="M%s %sL%s %s"/>`, class, num(x1), num(y1), num(x2), num(y2))
	}
}

// rect appends a data mark rectangle.
func (d *svgDoc) rect(x, y, w, h float64, class string) {
	d.marks++
	d.printf(`<path class="%s" d="M%s %sh%sv%sh%sz"/>`, class, num(x), num(y), num(w), num(h), num(-w))
}

// open starts a group with a tooltip.
func (d *svgDoc) open(class, title string) {
	if class != "" {
		d.b.WriteString(`<g class="` + class + `">`)
	} else {
		d.b.WriteString("<g>")
	}
	d.b.WriteString("<title>" + esc(title) + "</title>")
}

func (d *svgDoc) close() { d.b.WriteString("</g>\n") }

// write emits the chart as an inline SVG element of class kind, labelled
// for screen readers.
func (d *svgDoc) write(w io.Writer, kind, label string) {
	wi, hi := int(math.Ceil(d.w)), int(math.Ceil(d.h))
	fmt.Fprintf(w, `<svg class="chart %s" data-marks="%d" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`+"\n",
		kind, d.marks, wi, hi, wi, hi, esc(label))
	io.WriteString(w, d.b.String())
	io.WriteString(w, "</svg>\n")
}

// num formats a coordinate: whole pixels, one decimal below 10.
func num(v float64) string {
	if math.Abs(v) >= 10 {
		return fmt.Sprintf("%.0f", v)
	}
	s := strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0")
	if s == "-0" {
		return "0"
	}
	return s
}

// A logAxis maps values in [lo, hi] to [x0, x1] on a log scale.
type logAxis struct{ lo, hi, x0, x1 float64 }

// at returns the position of v, clamped to the axis.
func (a logAxis) at(v float64) float64 {
	v = math.Min(math.Max(v, a.lo), a.hi)
	return a.x0 + (a.x1-a.x0)*math.Log(v/a.lo)/math.Log(a.hi/a.lo)
}

// niceRatios are the ratios axes end and tick at.
var niceRatios = []float64{0.25, 1.0 / 3, 0.5, 2.0 / 3, 0.8, 0.9, 0.95, 0.98, 0.99, 1, 1.01, 1.02, 1.05, 1.1, 1.2, 1.3, 1.5, 2, 3, 4}

// niceUp returns the smallest nice ratio >= v (the largest if none).
func niceUp(v float64) float64 {
	for _, r := range niceRatios {
		if r >= v-1e-9 {
			return r
		}
	}
	return niceRatios[len(niceRatios)-1]
}

// niceDown returns the largest nice ratio <= v (the smallest if none).
func niceDown(v float64) float64 {
	for i := len(niceRatios) - 1; i >= 0; i-- {
		if niceRatios[i] <= v+1e-9 {
			return niceRatios[i]
		}
	}
	return niceRatios[0]
}

// ratioTicks returns the nice ratios on axis a, at least minGap pixels
// apart, walking outwards from 1 (always a tick when it is on the axis).
func ratioTicks(a logAxis, minGap float64) []float64 {
	var up, down []float64
	for _, r := range niceRatios {
		if r >= a.lo-1e-9 && r <= a.hi+1e-9 {
			if r > 1 {
				up = append(up, r)
			} else if r < 1 {
				down = append([]float64{r}, down...)
			}
		}
	}
	var out []float64
	one := a.lo <= 1 && a.hi >= 1
	if one {
		out = append(out, 1)
	}
	for _, side := range [][]float64{up, down} {
		last := math.NaN()
		if one {
			last = a.at(1)
		}
		for _, r := range side {
			if x := a.at(r); math.IsNaN(last) || math.Abs(x-last) >= minGap {
				out, last = append(out, r), x
			}
		}
	}
	return out
}

// ratioLabel formats a ratio tick: "1×", "0.95×", "2×".
func ratioLabel(r float64) string {
	s := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", r), "0"), ".")
	return s + "×"
}

// finiteOr returns v, or alt when v is infinite or NaN.
func finiteOr(v, alt float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return alt
	}
	return v
}

func esc(s string) string { return html.EscapeString(s) }
