package render

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
)

// Group charts draw each variant's median time relative to the group's
// winner on a log axis, with its 95% interval as a whisker. The axis spans
// the candidates (see chartAxis); arms beyond it (the generic code,
// typically, and references far from the candidates) do not scale it:
// they are drawn as off-scale markers at its edge, annotated with their
// time and ratio.
const (
	rowH      = 17  // pixels per chart row: one line of text (lineH) and a gap
	plotW     = 380 // width of a chart's plotting area
	maxLabelW = 300 // labels beyond this are shortened (full name in <title>)
	maxBars   = 6   // candidates drawn per group; the table lists all
	farRatio  = 4.0 // ratios beyond farRatio or below 1/farRatio are off-scale
)

// A bar is one row of a group chart.
type bar struct {
	row              *reports.Row
	ratio, lo, hi    float64 // median and interval relative to the reference
	label, value, cl string
}

// groupChartSVG draws the ratio chart of a group (see the constants),
// relative to the fastest variant when there is no winner.
func groupChartSVG(w io.Writer, g *reports.Group) {
	ref, what := reports.RowOf(g, g.Decision.Winner), "winner"
	if ref == nil {
		ref, what = fastestRow(g), "fastest"
	}
	if ref == nil || ref.Stat.Median <= 0 {
		return
	}
	bars, rest := chartRows(g, ref, what)
	ax := chartAxis(bars)
	labels, values := make([]string, len(bars)), make([]string, len(bars))
	for i, b := range bars {
		labels[i], values[i] = b.label, b.value
	}
	labelW := math.Min(maxTextW(labels), maxLabelW) + 10
	valueW := maxTextW(values) + 10
	ax.x0, ax.x1 = labelW, labelW+plotW
	d := &svgDoc{w: labelW + plotW + valueW, h: rowY(len(bars)) + 26}
	if rest != "" {
		d.h += rowH
	}
	drawFrame(d, g, ax, len(bars))
	drawBars(d, ax, bars)
	drawRatioAxis(d, ax, rowY(len(bars))+2, "time relative to the "+what+" (log scale; right = slower)")
	if rest != "" {
		d.text(labelW, d.h-textDescent-1, "", "s", fitText(rest, d.w-labelW))
	}
	d.write(w, "bars", "time relative to the "+what+", "+reports.GroupTitle(g)+" on "+g.Model.Label())
}

// fastestRow returns the fastest row that is not an offset-sweep member.
func fastestRow(g *reports.Group) *reports.Row {
	for _, r := range g.Rows {
		if !r.OffsetSweep() {
			return r
		}
	}
	return nil
}

// chartRows picks the rows a group chart draws, fastest first: the
// maxBars fastest candidates, every external reference and the generic
// variant; rest describes the rows left out ("" if none).
func chartRows(g *reports.Group, ref *reports.Row, what string) ([]bar, string) {
	var out []bar
	n, left := 0, 0
	lo, hi := math.Inf(1), 0.0
	for _, r := range g.Rows {
		if r.OffsetSweep() {
			continue
		}
		ratio := r.Stat.Median / ref.Stat.Median
		if !r.External() && r != g.Base && r != ref {
			if n++; n > maxBars {
				left++
				lo, hi = math.Min(lo, ratio), math.Max(hi, ratio)
				continue
			}
		}
		out = append(out, newBar(g, r, ref, what))
	}
	if left == 0 {
		return out, ""
	}
	return out, fmt.Sprintf("+ %d slower variants (%s–%s) not drawn", left, ratioLabel(lo), ratioLabel(hi))
}

// newBar computes a row's ratios, label, value text and class.
func newBar(g *reports.Group, r, ref *reports.Row, what string) bar {
	m := ref.Stat.Median
	b := bar{row: r, ratio: r.Stat.Median / m, lo: finiteOr(r.Stat.Lo, r.Stat.Median) / m, hi: finiteOr(r.Stat.Hi, r.Stat.Median) / m}
	b.label = fitText(reports.DiffLabel(r.Variant, ref.Variant), maxLabelW)
	b.value = reports.FormatNS(r.Stat.Median) + " " + stats.FormatPct(b.ratio-1)
	switch {
	case r == ref:
		b.label, b.value, b.cl = what, reports.FormatNS(r.Stat.Median)+" "+r.Stat.PM(), "w"
	case r.External():
		b.cl = "x"
	case r == g.Base:
		b.cl = "b"
	case !r.Stat.OK:
		b.cl = "n"
	default:
		b.cl = "c"
	}
	if b.ratio >= 2 || b.ratio <= 0.5 {
		b.value = reports.FormatNS(r.Stat.Median) + " " + reports.FormatSpeed(b.ratio) + "×"
	}
	return b
}

// chartAxis spans the candidates' medians and the winner's interval,
// between nice ratios and at least 0.99–1.05. References and the generic
// variant widen it only when they lie within a quarter beyond that span;
// farther ones, like rows beyond farRatio, are drawn off-scale.
func chartAxis(bars []bar) logAxis {
	lo, hi := 0.99, 1.05
	for _, b := range bars {
		switch {
		case b.cl == "w":
			lo, hi = math.Min(lo, b.lo), math.Max(hi, b.hi)
		case b.cl == "c" || b.cl == "n":
			lo, hi = math.Min(lo, b.ratio), math.Max(hi, b.ratio)
		}
	}
	for _, b := range bars {
		if (b.cl == "x" || b.cl == "b") && b.ratio <= hi*1.25 && b.ratio >= lo/1.25 {
			lo, hi = math.Min(lo, b.ratio), math.Max(hi, b.ratio)
		}
	}
	return logAxis{lo: niceDown(math.Max(lo, 1/farRatio)), hi: niceUp(math.Min(hi, farRatio))}
}

// A chart's title line starts at titleTop; its plot area starts at
// plotTop, below the title's descenders.
const (
	titleTop = 1.0
	plotTop  = titleTop + lineH
)

// rowY returns the top of chart row i.
func rowY(i int) float64 { return plotTop + 3 + float64(i*rowH) }

// drawFrame draws the grid, the layout-noise band and the winner's line.
func drawFrame(d *svgDoc, g *reports.Group, ax logAxis, rows int) {
	top, bottom := plotTop, rowY(rows)
	if g.Noise > 0 {
		x0, x1 := ax.at(1/(1+g.Noise)), ax.at(1+g.Noise)
		d.printf(`<path class="nz" d="M%s %sh%sV%sh%sz"><title>layout noise ±%.1f%%: differences inside are not wins</title></path>`,
			num(x0), num(top), num(x1-x0), num(bottom), num(x0-x1), 100*g.Noise)
	}
	gridLines(d, ax, ratioTicks(ax, 44), top, bottom)
	d.line(ax.at(1), top, ax.at(1), bottom, "one")
}

// gridLines draws vertical grid lines at the ticks as one path.
func gridLines(d *svgDoc, ax logAxis, ticks []float64, top, bottom float64) {
	var p strings.Builder
	for _, t := range ticks {
		p.WriteString("M" + num(ax.at(t)) + " " + num(top) + "V" + num(bottom))
	}
	d.printf(`<path class="gr" d="%s"/>`, p.String())
}

// drawBars draws the rows in layers: labels with the full variant name
// as tooltip, bars with whiskers and off-scale arrows, values.
func drawBars(d *svgDoc, ax logAxis, bars []bar) {
	d.printf(`<g class="lb">`)
	for i, b := range bars {
		title := ""
		if b.label != b.row.Variant {
			title = "<title>" + esc(b.row.Variant) + "</title>"
		}
		d.printf(`<text x="%s" y="%s">%s%s</text>`, num(ax.x0-6), num(rowY(i)+10), esc(b.label), title)
	}
	d.printf("</g>\n")
	drawMarks(d, ax, bars)
	d.printf(`<g class="v">`)
	for i, b := range bars {
		d.text(ax.x1+10, rowY(i)+10, "", "", b.value)
	}
	d.printf("</g>\n")
}

// drawMarks draws each row's bar from 1 to its ratio (to the axis edge,
// with an arrow, when off-scale; a square for the reference row) and its
// interval's whisker; whiskers and arrows are one path each.
func drawMarks(d *svgDoc, ax logAxis, bars []bar) {
	var whiskers, arrows strings.Builder
	x1 := ax.at(1)
	for i, b := range bars {
		y, xr := rowY(i), ax.at(b.ratio)
		if b.cl == "w" {
			d.rect(x1-3, y+2, 6, 9, b.cl)
		} else {
			d.rect(math.Min(x1, xr), y+3, math.Max(math.Abs(xr-x1), 1.5), 7, b.cl)
		}
		switch {
		case b.ratio > ax.hi:
			arrows.WriteString("M" + num(ax.x1) + " " + num(y+2) + "l7 4.5l-7 4.5z")
		case b.ratio < ax.lo:
			arrows.WriteString("M" + num(ax.x0) + " " + num(y+2) + "l-7 4.5l7 4.5z")
		case b.row.Stat.OK:
			whiskers.WriteString("M" + num(ax.at(b.lo)) + " " + num(y+6.5) + "H" + num(ax.at(b.hi)))
		}
	}
	d.printf(`<path class="e" d="%s"/><path class="o" d="%s"/>`+"\n", whiskers.String(), arrows.String())
}

// drawRatioAxis draws tick labels below the plot at y and the axis title.
func drawRatioAxis(d *svgDoc, ax logAxis, y float64, title string) {
	d.line(ax.x0, y, ax.x1, y, "ax")
	d.printf(`<g class="tk">`)
	for _, t := range ratioTicks(ax, 44) {
		d.text(ax.at(t), baseline(y), "", "", ratioLabel(t))
	}
	d.printf("</g>")
	d.text(ax.x0, baseline(titleTop), "", "s", fitText(title, d.w-ax.x0))
}
