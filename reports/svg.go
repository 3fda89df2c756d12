package reports

import (
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"
)

// palette colours series in line charts.
var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

const (
	svgLabelW = 300 // width reserved for bar labels
	svgPlotW  = 420
	svgBarH   = 16
)

// barChartSVG draws one bar per variant of a group (offset-sweep members
// left out): the median, with a whisker for the 95% interval.
func barChartSVG(w io.Writer, g *Group) {
	var rows []*Row
	max := 0.0
	for _, r := range g.Rows {
		if r.info.offsetSweep {
			continue
		}
		rows = append(rows, r)
		max = math.Max(max, finiteOr(r.Stat.Hi, r.Stat.Median))
	}
	if max <= 0 {
		max = 1
	}
	h := len(rows)*(svgBarH+4) + 30
	fmt.Fprintf(w, `<svg class="bars" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="%s">`+"\n",
		svgLabelW+svgPlotW+80, h, esc(groupTitle(g)+" on "+g.Model.Label()))
	x := func(v float64) float64 { return svgLabelW + svgPlotW*v/max }
	for i, r := range rows {
		y := float64(i*(svgBarH+4) + 4)
		fmt.Fprintf(w, `<text x="%d" y="%.0f" text-anchor="end" class="lbl">%s</text>`, svgLabelW-6, y+12, esc(r.Variant))
		fmt.Fprintf(w, `<rect x="%d" y="%.0f" width="%.1f" height="%d" fill="%s"><title>%s %s %s</title></rect>`,
			svgLabelW, y, x(r.Stat.Median)-svgLabelW, svgBarH, barColor(g, r), esc(r.Variant), fmtNS(r.Stat.Median), r.Stat.PM())
		if r.Stat.OK {
			fmt.Fprintf(w, `<line x1="%.1f" x2="%.1f" y1="%.0f" y2="%.0f" class="whisker"/>`, x(r.Stat.Lo), x(r.Stat.Hi), y+8, y+8)
		}
		fmt.Fprintf(w, `<text x="%.1f" y="%.0f" class="val">%s</text>`+"\n", x(finiteOr(r.Stat.Hi, r.Stat.Median))+4, y+12, fmtNS(r.Stat.Median))
	}
	axisY := len(rows)*(svgBarH+4) + 8
	fmt.Fprintf(w, `<line x1="%d" x2="%d" y1="%d" y2="%d" class="axis"/><text x="%d" y="%d" class="val">0</text><text x="%d" y="%d" class="val" text-anchor="end">%s per op</text>`+"\n",
		svgLabelW, svgLabelW+svgPlotW, axisY, axisY, svgLabelW, axisY+14, svgLabelW+svgPlotW, axisY+14, fmtNS(max))
	fmt.Fprintln(w, "</svg>")
}

func finiteOr(v, alt float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return alt
	}
	return v
}

func barColor(g *Group, r *Row) string {
	switch {
	case r.Variant == g.Decision.Winner:
		return "#2ca02c"
	case r.info.external:
		return "#aaaaaa"
	case !r.Stat.OK:
		return "#f0c0c0"
	}
	return "#6baed6"
}

// A series is one polyline of a line chart.
type series struct {
	name string
	xs   []float64
	ys   []float64
}

// lineChartSVG draws series on a log2 x axis and a linear y axis from 0.
func lineChartSVG(w io.Writer, title, xLabel, yLabel string, ss []series) {
	const W, H, L, B, T = 520, 260, 60, 40, 20
	minX, maxX, maxY := math.Inf(1), math.Inf(-1), 0.0
	for _, s := range ss {
		for i := range s.xs {
			minX, maxX, maxY = math.Min(minX, s.xs[i]), math.Max(maxX, s.xs[i]), math.Max(maxY, s.ys[i])
		}
	}
	if len(ss) == 0 {
		return
	}
	if maxX <= minX {
		maxX = minX * 2
	}
	if maxY <= 0 {
		maxY = 1
	}
	px := func(v float64) float64 {
		return L + (W-L-10)*(math.Log2(v)-math.Log2(minX))/(math.Log2(maxX)-math.Log2(minX))
	}
	py := func(v float64) float64 { return H - B - (H-B-T)*v/maxY }
	legendH := 16 * len(ss)
	fmt.Fprintf(w, `<svg class="lines" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="%s">`+"\n", W+320, H+max(0, legendH-H+20), esc(title))
	fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="axis"/><line x1="%d" y1="%d" x2="%d" y2="%d" class="axis"/>`+"\n", L, H-B, W-10, H-B, L, T, L, H-B)
	fmt.Fprintf(w, `<text x="%d" y="%d" class="val" text-anchor="middle">%s</text><text x="12" y="%d" class="val" transform="rotate(-90 12 %d)" text-anchor="middle">%s</text>`+"\n",
		(W+L)/2, H-6, esc(xLabel), (H-B+T)/2, (H-B+T)/2, esc(yLabel))
	fmt.Fprintf(w, `<text x="%d" y="%d" class="val" text-anchor="end">%.3g</text><text x="%d" y="%d" class="val" text-anchor="end">0</text>`+"\n", L-4, T+4, maxY, L-4, H-B)
	for _, x := range tickSizes(minX, maxX) {
		fmt.Fprintf(w, `<text x="%.1f" y="%d" class="val" text-anchor="middle">%g</text>`, px(x), H-B+14, x)
	}
	for i, s := range ss {
		c := palette[i%len(palette)]
		pts := make([]string, len(s.xs))
		for j := range s.xs {
			pts[j] = fmt.Sprintf("%.1f,%.1f", px(s.xs[j]), py(s.ys[j]))
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s size=%g: %.3g</title></circle>`, px(s.xs[j]), py(s.ys[j]), c, esc(s.name), s.xs[j], s.ys[j])
		}
		fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(pts, " "), c)
		fmt.Fprintf(w, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" class="lbl">%s</text>`+"\n", W+4, T+16*i, c, W+18, T+16*i+9, esc(s.name))
	}
	fmt.Fprintln(w, "</svg>")
}

// tickSizes returns the powers of two between lo and hi (at most 8).
func tickSizes(lo, hi float64) []float64 {
	var out []float64
	for x := math.Exp2(math.Ceil(math.Log2(lo))); x <= hi; x *= 2 {
		out = append(out, x)
	}
	for len(out) > 8 {
		var half []float64
		for i := 0; i < len(out); i += 2 {
			half = append(half, out[i])
		}
		out = half
	}
	return out
}

// effectChartSVG draws knob effects as bars from 0 with interval whiskers;
// the axis is clipped to ±clip.
func effectChartSVG(w io.Writer, effects []*KnobEffect) {
	const clip = 0.5
	half := float64(svgPlotW) / 2
	x := func(v float64) float64 { return svgLabelW + half + half*math.Max(-1, math.Min(1, v/clip)) }
	h := len(effects)*(svgBarH+4) + 30
	fmt.Fprintf(w, `<svg class="effects" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" aria-label="knob effects">`+"\n", svgLabelW+svgPlotW+80, h)
	for i, e := range effects {
		y := float64(i*(svgBarH+4) + 4)
		label := fmt.Sprintf("%s=%s vs %s (%s)", e.Knob, e.To, e.From, e.Model.Label())
		color := "#6baed6"
		if e.Significant() {
			color = "#3182bd"
		}
		x0, x1 := x(0), x(e.Pct)
		fmt.Fprintf(w, `<text x="%d" y="%.0f" text-anchor="end" class="lbl">%s</text>`, svgLabelW-6, y+12, esc(label))
		fmt.Fprintf(w, `<rect x="%.1f" y="%.0f" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`, math.Min(x0, x1), y, math.Abs(x1-x0), svgBarH, color, esc(e.String()))
		if !math.IsInf(e.PM, 0) {
			fmt.Fprintf(w, `<line x1="%.1f" x2="%.1f" y1="%.0f" y2="%.0f" class="whisker"/>`, x(e.Pct-e.PM), x(e.Pct+e.PM), y+8, y+8)
		}
		fmt.Fprintln(w)
	}
	axisY := len(effects)*(svgBarH+4) + 8
	fmt.Fprintf(w, `<line x1="%.1f" x2="%.1f" y1="0" y2="%d" class="axis"/><text x="%d" y="%d" class="val">-%.0f%%</text><text x="%.1f" y="%d" class="val" text-anchor="middle">0 (faster ←  → slower)</text><text x="%d" y="%d" class="val" text-anchor="end">+%.0f%%</text>`+"\n",
		x(0), x(0), axisY, svgLabelW, axisY+14, 100*clip, x(0), axisY+14, svgLabelW+svgPlotW, axisY+14, 100*clip)
	fmt.Fprintln(w, "</svg>")
}

// perByteSeries returns, for a sized kernel on one model, one series per
// variant of TSC cycles per byte (ns per byte when no TSC was recorded).
func perByteSeries(groups []*Group) (ss []series, unit string) {
	byVariant := map[string]*series{}
	unit = "tsc-cycles/byte"
	for _, g := range groups {
		for _, r := range g.Rows {
			if len(r.Point.TSC) == 0 {
				unit = "ns/byte"
			}
		}
	}
	for _, g := range groups {
		for _, r := range g.Rows {
			if r.info.offsetSweep || g.Size == 0 {
				continue
			}
			v := r.Stat.Median
			if unit == "tsc-cycles/byte" {
				v = Summarize(r.Point.TSC).Median
			}
			s := byVariant[r.Variant]
			if s == nil {
				s = &series{name: r.Variant}
				byVariant[r.Variant] = s
			}
			s.xs = append(s.xs, float64(g.Size))
			s.ys = append(s.ys, v/float64(g.Size))
		}
	}
	for _, k := range sortedKeys(byVariant) {
		ss = append(ss, *byVariant[k])
	}
	sort.SliceStable(ss, func(i, j int) bool { return len(ss[i].xs) > len(ss[j].xs) })
	return ss, unit
}

func esc(s string) string { return html.EscapeString(s) }
