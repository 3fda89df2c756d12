package render

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/reports"
)

// A lineSeries is one polyline of a size chart: the best variant of one
// ISA tier, the generic variant or one external reference, per size.
type lineSeries struct {
	name, color string
	dashed      bool
	pts         []linePoint
}

// A linePoint is one measured size of a series.
type linePoint struct {
	size    int
	y       float64 // time per byte
	variant string
}

// tierColors colour ISA tiers by vector width: scalar, 128, 256, 512.
var tierColors = map[int]string{0: "#8c564b", 128: "#ff7f0e", 256: "#1f77b4", 512: "#2ca02c"}

// extColors colour external references and the generic variant.
var extColors = []string{"#111", "#9467bd", "#e377c2", "#17becf"}

// tierName names an ISA tier by the vector width of its features.
func tierName(width int) string {
	if width == 0 {
		return "best scalar"
	}
	return fmt.Sprintf("best %d-bit", width)
}

// sizeSeries returns, for a sized kernel's groups on one model, the best
// variant of each ISA tier (kernels/variant.TierWidth of its features)
// per size, then the generic variant and each external reference; y is
// TSC cycles per unit when every row has TSC samples, else ns per unit
// (the kernel's registered unit, else bytes). Offset-sweep members and
// variants excluded from the race (crashed, failed verification) are
// left out.
func sizeSeries(groups []*reports.Group) (ss []*lineSeries, unit string) {
	tsc := allTSC(groups)
	name, per := unitOf(groups[0].Kernel)
	unit = "ns/" + name
	if tsc {
		unit = "TSC cycles/" + name
	}
	byKey := map[string]*lineSeries{}
	for _, g := range groups {
		for _, r := range g.Rows {
			if r.OffsetSweep() || r.Point.Excluded || g.Size <= 0 {
				continue
			}
			key, s := seriesKey(r)
			if byKey[key] == nil {
				byKey[key] = s
			}
			addPoint(byKey[key], g.Size, perUnit(r, per(g.Size), tsc), r.Variant)
		}
	}
	ext := 0
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		s := byKey[k]
		if s.color == "" {
			s.color, ext = extColors[ext%len(extColors)], ext+1
		}
		ss = append(ss, s)
	}
	return ss, unit
}

// allTSC reports whether every row of groups has TSC samples.
func allTSC(groups []*reports.Group) bool {
	for _, g := range groups {
		for _, r := range g.Rows {
			if len(r.Point.TSC) == 0 {
				return false
			}
		}
	}
	return true
}

// seriesKey returns the series a row belongs to (sortable: tiers first,
// widest last among them, then generic, then external references) and a
// new, empty series for it.
func seriesKey(r *reports.Row) (string, *lineSeries) {
	switch {
	case r.External():
		return "2 " + r.Variant, &lineSeries{name: r.Variant, dashed: true}
	case r.Variant == variant.GenericName:
		return "1 generic", &lineSeries{name: r.Variant, color: "#7f7f7f", dashed: true}
	}
	w := variant.TierWidth(r.Features())
	return fmt.Sprintf("0 %04d", w), &lineSeries{name: tierName(w), color: tierColors[w]}
}

// unitOf returns the unit of work of a kernel and how many units an op
// of a size performs: the registered unit, else bytes.
func unitOf(kernel string) (string, func(int) float64) {
	if k := variant.LookupKernel(kernel); k != nil && k.Unit != "" && k.UnitsPerOp != nil {
		return k.Unit, k.UnitsPerOp
	}
	return "byte", func(n int) float64 { return float64(n) }
}

// perUnit returns a row's median time per unit of work.
func perUnit(r *reports.Row, units float64, tsc bool) float64 {
	v := r.Stat.Median
	if tsc {
		v = stats.Summarize(r.Point.TSC).Median
	}
	return v / units
}

// addPoint keeps the fastest variant of a series at each size.
func addPoint(s *lineSeries, size int, y float64, name string) {
	if y <= 0 || math.IsNaN(y) {
		return
	}
	if n := len(s.pts); n > 0 && s.pts[n-1].size == size {
		if y < s.pts[n-1].y {
			s.pts[n-1] = linePoint{size, y, name}
		}
		return
	}
	s.pts = append(s.pts, linePoint{size, y, name})
}

// Size chart layout: plot area position and size, legend swatch.
// A size chart's plot area is sizeW by sizeH at (sizeL, sizeT): below
// the title line and the line of class labels; legend lines are legendH
// apart.
const (
	sizeL, sizeT, sizeW, sizeH = 64.0, plotTop + lineH + 4, 440.0, 200.0
	legendH                    = 17.0
)

// offScale is how far above every other series a series must lie to be
// left off a size chart (and named in its legend with its range).
const offScale = 8

// sizeChartSVG draws time per byte against message size on log axes,
// one line per series, with the size classes' boundaries dashed and each
// class's winning isa written above its range. A series more than
// offScale times slower than all others (the generic code, typically)
// does not scale the axis: the legend gives its range instead.
func sizeChartSVG(w io.Writer, title string, ss []*lineSeries, unit string, sc *reports.SizeClasses) {
	drawn, legend := splitOffScale(ss)
	xa, ya, ok := sizeAxes(drawn)
	if !ok {
		return
	}
	d := &svgDoc{w: sizeL + sizeW + 30 + maxTextW(legend), h: sizeT + sizeH + 34}
	d.h = math.Max(d.h, sizeT+float64(len(ss))*legendH+10)
	drawSizeGrid(d, xa, ya, unit, sc.Kernel)
	drawClassBounds(d, xa, sc.Classes)
	for _, s := range drawn {
		drawSeries(d, xa, ya, s, sc.Kernel)
	}
	for i, s := range ss {
		y := sizeT + float64(i)*legendH
		d.printf(`<path fill="%s" d="M%s %sh10v10h-10z"/>`, s.color, num(sizeL+sizeW+14), num(y))
		d.text(sizeL+sizeW+28, y+9, "", "", legend[i])
	}
	d.write(w, "lines", title)
}

// splitOffScale returns the series to draw and the legend text of every
// series: its name, with its range for one left off the scale.
func splitOffScale(ss []*lineSeries) (drawn []*lineSeries, legend []string) {
	legend = make([]string, len(ss))
	for i, s := range ss {
		lo, hi := seriesRange(s)
		rest := 0.0
		for _, o := range ss {
			if o != s {
				_, ohi := seriesRange(o)
				rest = math.Max(rest, ohi)
			}
		}
		legend[i] = s.name
		if rest > 0 && lo > offScale*rest {
			legend[i] += fmt.Sprintf(" (off scale: %s–%s)", fmtG(lo), fmtG(hi))
			continue
		}
		drawn = append(drawn, s)
	}
	return drawn, legend
}

// seriesRange returns the smallest and largest y of a series.
func seriesRange(s *lineSeries) (lo, hi float64) {
	lo = math.Inf(1)
	for _, p := range s.pts {
		lo, hi = math.Min(lo, p.y), math.Max(hi, p.y)
	}
	return lo, hi
}

// fmtG formats a tick or range value with three significant digits,
// without exponents for values up to a million.
func fmtG(v float64) string {
	if v >= 1000 && v < 1e6 {
		return fmt.Sprintf("%.0f", v)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// sizeAxes returns the log axes of a size chart: sizes (padded) and
// time per byte (1-2-5 ends).
func sizeAxes(ss []*lineSeries) (xa, ya logAxis, ok bool) {
	minX, maxX, minY, maxY := math.Inf(1), 0.0, math.Inf(1), 0.0
	for _, s := range ss {
		for _, p := range s.pts {
			minX, maxX = math.Min(minX, float64(p.size)), math.Max(maxX, float64(p.size))
			minY, maxY = math.Min(minY, p.y), math.Max(maxY, p.y)
		}
	}
	if maxX <= minX || maxY <= 0 {
		return xa, ya, false
	}
	xa = logAxis{lo: minX / 1.3, hi: maxX * 1.3, x0: sizeL, x1: sizeL + sizeW}
	ya = logAxis{lo: step125(minY, false), hi: step125(maxY, true), x0: sizeT + sizeH, x1: sizeT}
	return xa, ya, true
}

// step125 rounds v down (or up) to a 1-2-5 value.
func step125(v float64, up bool) float64 {
	e := math.Pow(10, math.Floor(math.Log10(v)))
	steps := []float64{1, 2, 5, 10}
	if up {
		for _, s := range steps {
			if s*e >= v*(1-1e-9) {
				return s * e
			}
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i]*e <= v*(1+1e-9) {
			return steps[i] * e
		}
	}
	return e
}

// drawSizeGrid draws both axes with their ticks, grid and titles.
func drawSizeGrid(d *svgDoc, xa, ya logAxis, unit, kernel string) {
	bottom := sizeT + sizeH
	d.line(sizeL, bottom, sizeL+sizeW, bottom, "ax")
	d.line(sizeL, sizeT, sizeL, bottom, "ax")
	last := math.Inf(-1)
	for s := math.Exp2(math.Ceil(math.Log2(xa.lo))); s <= xa.hi; s *= 2 {
		if x := xa.at(s); x-last >= 52 {
			d.line(x, sizeT, x, bottom, "gr")
			d.text(x, bottom+13, "middle", "s", reports.SizeText(kernel, int(s)))
			last = x
		}
	}
	last = math.Inf(1)
	for _, v := range ticks125(ya.lo, ya.hi) {
		if y := ya.at(v); last-y >= 16 {
			d.line(sizeL, y, sizeL+sizeW, y, "gr")
			d.text(sizeL-4, y+4, "end", "s", fmtG(v))
			last = y
		}
	}
	d.text(sizeL, baseline(titleTop), "", "s", fitText(unit+" (log) against size (log)", d.w-sizeL))
	d.text(sizeL+sizeW/2, bottom+13+lineH, "middle", "s", "size")
}

// ticks125 lists the 1-2-5 values in [lo, hi].
func ticks125(lo, hi float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			if v := m * math.Pow(10, e); v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				out = append(out, v)
			}
		}
	}
	return out
}

// drawClassBounds marks the boundaries between size classes (red where
// the winning isa changes, grey where only other knobs do) and writes
// each run of classes with one isa above its range.
func drawClassBounds(d *svgDoc, xa logAxis, cs []reports.Class) {
	left := xa.x0
	for i, c := range cs {
		if i+1 < len(cs) {
			x := xa.at(math.Sqrt(float64(c.MaxSize) * float64(cs[i+1].MinSize)))
			if classISA(cs[i+1].Variant) == classISA(c.Variant) {
				d.line(x, sizeT, x, sizeT+sizeH, "cbk")
				continue
			}
			d.line(x, sizeT-4, x, sizeT+sizeH, "cb")
			drawClassLabel(d, classISA(c.Variant), left, x)
			left = x
			continue
		}
		drawClassLabel(d, classISA(c.Variant), left, xa.x1)
	}
}

// drawClassLabel writes a class label centred over [left, right].
func drawClassLabel(d *svgDoc, label string, left, right float64) {
	if label = fitText(label, right-left); label != "" {
		d.text((left+right)/2, baseline(plotTop), "middle", "cl", label)
	}
}

// classISA is what a class label shows of its winner: its isa knob, or
// the whole name when it has none.
func classISA(name string) string {
	if isa := resultfile.Knob(name, "isa"); isa != "" {
		return isa
	}
	return name
}

// drawSeries draws a series' polyline and its points with tooltips.
func drawSeries(d *svgDoc, xa, ya logAxis, s *lineSeries, kernel string) {
	pts := make([]string, len(s.pts))
	for i, p := range s.pts {
		pts[i] = num(xa.at(float64(p.size))) + "," + num(ya.at(p.y))
	}
	dash := ""
	if s.dashed {
		dash = ` stroke-dasharray="5 3"`
	}
	d.printf(`<g stroke="%s" fill="%s" class="sr"><polyline points="%s"%s/>`, s.color, s.color, strings.Join(pts, " "), dash)
	for _, p := range s.pts {
		d.marks++
		d.printf(`<circle cx="%s" cy="%s" r="2.5"><title>%s: %.3g at %s</title></circle>`,
			num(xa.at(float64(p.size))), num(ya.at(p.y)), esc(p.variant), p.y, reports.SizeText(kernel, p.size))
	}
	d.printf("</g>\n")
}
