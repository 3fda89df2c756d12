package render

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
)

// effectChartSVG draws the knob effects of one CPU model: each effect's
// time ratio (1 + Pct) with its interval on a log axis centred on 1
// (left = the changed knob is faster), off-scale beyond farRatio/2.
// Effects whose interval excludes no change are drawn solid, green when
// faster and red when slower; the others are grey.
func effectChartSVG(w io.Writer, m *reports.Model, effects []*reports.KnobEffect) {
	if len(effects) == 0 {
		return
	}
	labels, values := make([]string, len(effects)), make([]string, len(effects))
	for i, e := range effects {
		labels[i] = fitText(fmt.Sprintf("%s=%s vs %s", e.Knob, e.To, e.From), maxLabelW)
		values[i] = fmt.Sprintf("%s %s (%s, %s)", stats.FormatPct(e.Pct), stats.FormatPM(e.PM), reports.Plural(e.Pairs, "pair"), reports.Plural(len(e.Kernels), "kernel"))
	}
	span := effectSpan(effects)
	labelW := maxTextW(labels) + 10
	ax := logAxis{lo: 1 / span, hi: span, x0: labelW, x1: labelW + plotW}
	d := &svgDoc{w: labelW + plotW + maxTextW(values) + 20, h: rowY(len(effects)) + 26}
	bottom := rowY(len(effects))
	gridLines(d, ax, ratioTicks(ax, 44), plotTop, bottom)
	d.line(ax.at(1), plotTop, ax.at(1), bottom, "ax")
	for i, e := range effects {
		drawEffect(d, ax, e, labels[i], values[i], rowY(i))
	}
	drawRatioAxis(d, ax, bottom+2, "time ratio after the change (log scale; left = faster)")
	d.write(w, "effects", "knob effects on "+m.Label())
}

// effectSpan returns the ratio the effect axis spans either way of 1:
// the effects and their intervals, at least 1.05 and at most farRatio/2.
func effectSpan(effects []*reports.KnobEffect) float64 {
	span := 1.05
	for _, e := range effects {
		r := 1 + e.Pct
		for _, v := range []float64{r, r - e.PM, r + e.PM} {
			if v > 0 && !math.IsInf(v, 0) {
				span = math.Max(span, math.Max(v, 1/v))
			}
		}
	}
	return niceUp(math.Min(span, farRatio/2))
}

// drawEffect draws one effect's row at y.
func drawEffect(d *svgDoc, ax logAxis, e *reports.KnobEffect, label, value string, y float64) {
	cl := "en"
	if e.Significant() {
		cl = map[bool]string{true: "ef", false: "es"}[e.Pct < 0]
	}
	d.open("", e.String()+" ("+strings.Join(e.Kernels, ", ")+")")
	d.text(ax.x0-6, y+10, "end", "", label)
	r := 1 + e.Pct
	x1, xr := ax.at(1), ax.at(r)
	d.rect(math.Min(x1, xr), y+3, math.Max(math.Abs(xr-x1), 1.5), 7, cl)
	switch {
	case r > ax.hi:
		d.printf(`<path class="o" d="M%s %sl7 4.5l-7 4.5z"/>`, num(ax.x1), num(y+2))
	case r < ax.lo:
		d.printf(`<path class="o" d="M%s %sl-7 4.5l7 4.5z"/>`, num(ax.x0), num(y+2))
	case !math.IsInf(e.PM, 0) && r-e.PM > 0:
		d.line(ax.at(r-e.PM), y+6.5, ax.at(r+e.PM), y+6.5, "e")
	}
	d.text(ax.x1+10, y+10, "", "v", value)
	d.close()
}
