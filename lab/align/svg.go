package align

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
)

// Plot geometry in SVG user units.
const (
	plotW, plotH                   = 720, 400
	padL, padR, padT, padB float64 = 70, 20, 40, 50
)

// WriteSVG writes a self-contained SVG plot of median time per op against
// loop-head offset, with the 95% interval as a band; align=none is drawn as
// a dashed horizontal line with its own band.
func WriteSVG(w io.Writer, a *Analysis) error {
	pts := measured(a.Points)
	if len(pts) == 0 {
		return fmt.Errorf("align: no measured offsets to plot for %s", a.Kernel)
	}
	lo, hi := yRange(pts, a.None)
	sc := scale{lo: lo, hi: hi}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		plotW, plotH, plotW, plotH)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%d" height="%d" fill="white"/>`+"\n", plotW, plotH)
	text(&b, plotW/2, 16, "middle", fmt.Sprintf("%s, %s entry: median ns/op and 95%% interval by loop-head offset", a.Kernel, a.Entry))
	fmt.Fprintf(&b, `<text x="%d" y="31" text-anchor="middle" font-size="10">%s</text>`+"\n", plotW/2, escape(a.Base))
	sc.axes(&b, a)
	if a.None != nil && a.None.N > 0 {
		sc.noneLine(&b, a.None)
	}
	sc.band(&b, pts)
	sc.line(&b, pts)
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// measured returns the points with samples.
func measured(pts []Point) []Point {
	var out []Point
	for _, p := range pts {
		if p.N > 0 {
			out = append(out, p)
		}
	}
	return out
}

// yRange returns the y-axis range covering every finite interval bound,
// padded by 5%.
func yRange(pts []Point, none *Point) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	all := pts
	if none != nil && none.N > 0 {
		all = append(append([]Point(nil), pts...), *none)
	}
	for _, p := range all {
		for _, v := range []float64{p.Median, p.Lo, p.Hi} {
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	pad := max((hi-lo)*0.05, math.Abs(hi)*1e-3, 1e-9)
	return lo - pad, hi + pad
}

// A scale maps offsets (0..64) and times to plot coordinates.
type scale struct{ lo, hi float64 }

func (s scale) x(offset float64) float64 { return padL + offset/64*(plotW-padL-padR) }

func (s scale) y(v float64) float64 {
	v = math.Max(s.lo, math.Min(s.hi, v)) // clip infinite interval bounds
	return plotH - padB - (v-s.lo)/(s.hi-s.lo)*(plotH-padT-padB)
}

// axes draws the frame, ticks and labels.
func (s scale) axes(b *bytes.Buffer, a *Analysis) {
	x0, x1, y0, y1 := s.x(0), s.x(64), s.y(s.lo), s.y(s.hi)
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="black"/>`+"\n", x0, y1, x1-x0, y0-y1)
	for o := 0; o <= 64; o += 8 {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", s.x(float64(o)), y0, s.x(float64(o)), y0+5)
		text(b, s.x(float64(o)), y0+18, "middle", fmt.Sprint(o))
	}
	for i := 0; i <= 4; i++ {
		v := s.lo + (s.hi-s.lo)*float64(i)/4
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x0, s.y(v), x1, s.y(v))
		text(b, x0-6, s.y(v)+4, "end", fmtNum(v))
	}
	text(b, (x0+x1)/2, plotH-12, "middle", "loop head offset within the 64-byte line (bytes)")
	fmt.Fprintf(b, `<text x="16" y="%.1f" text-anchor="middle" transform="rotate(-90 16 %.1f)">%s</text>`+"\n",
		(y0+y1)/2, (y0+y1)/2, escape("ns/op ("+a.Entry+")"))
}

// band draws the offsets' interval band.
func (s scale) band(b *bytes.Buffer, pts []Point) {
	var poly []string
	for _, p := range pts {
		poly = append(poly, fmt.Sprintf("%.1f,%.1f", s.x(float64(p.Offset)), s.y(p.Hi)))
	}
	for i := len(pts) - 1; i >= 0; i-- {
		poly = append(poly, fmt.Sprintf("%.1f,%.1f", s.x(float64(pts[i].Offset)), s.y(pts[i].Lo)))
	}
	fmt.Fprintf(b, `<polygon points="%s" fill="#4a7fb5" fill-opacity="0.25" stroke="none"/>`+"\n", strings.Join(poly, " "))
}

// line draws the medians with a marker per offset.
func (s scale) line(b *bytes.Buffer, pts []Point) {
	var pl []string
	for _, p := range pts {
		pl = append(pl, fmt.Sprintf("%.1f,%.1f", s.x(float64(p.Offset)), s.y(p.Median)))
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="#1f4e79" stroke-width="1.5"/>`+"\n", strings.Join(pl, " "))
	for _, p := range pts {
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#1f4e79"><title>%s</title></circle>`+"\n",
			s.x(float64(p.Offset)), s.y(p.Median),
			escape(fmt.Sprintf("offset %s: %s ns/op [%s, %s], n=%d", p.Label, fmtNum(p.Median), fmtNum(p.Lo), fmtNum(p.Hi), p.N)))
	}
}

// noneLine draws align=none's median and interval across the plot.
func (s scale) noneLine(b *bytes.Buffer, p *Point) {
	x0, x1 := s.x(0), s.x(64)
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#c0504d" fill-opacity="0.12"/>`+"\n",
		x0, s.y(p.Hi), x1-x0, s.y(p.Lo)-s.y(p.Hi))
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#c0504d" stroke-dasharray="6 4"/>`+"\n",
		x0, s.y(p.Median), x1, s.y(p.Median))
	text(b, x1-4, s.y(p.Median)-4, "end", fmt.Sprintf("align=none (head%%64=%s): %s", placementOffset(p.Place), fmtNum(p.Median)))
}

func placementOffset(pl Placement) string {
	if pl.Err != "" {
		return "?"
	}
	return fmt.Sprint(pl.Offset)
}

func text(b *bytes.Buffer, x, y float64, anchor, s string) {
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="%s">%s</text>`+"\n", x, y, anchor, escape(s))
}

func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
