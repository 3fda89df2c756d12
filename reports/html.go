package reports

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

const htmlStyle = `body{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:2px 8px;font-size:13px}
td.num{text-align:right}tr.win td{background:#e6f5e6;font-weight:bold}code{font-size:12px}
svg{display:block;margin:.5em 0 1.5em}svg text{font-size:11px}.lbl{font-family:monospace}
.whisker{stroke:#000;stroke-width:1.5}.axis{stroke:#555;stroke-width:1}.note{margin:.2em 0 1em}
.flag{color:#b00}`

// maxSeries bounds the number of lines in a cycles/byte chart.
const maxSeries = 10

// WriteHTML writes a self-contained HTML report (no scripts, no network)
// with tables and SVG charts.
func (r *Report) WriteHTML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tunelab report</title>\n<style>%s</style></head><body>\n", htmlStyle)
	fmt.Fprintf(bw, "<h1>tunelab report</h1>\n<p>%s.</p><p>Deltas are time relative to the reference (negative = faster); ± is a 95%% interval.</p>\n", esc(r.summaryLine()))
	for _, m := range r.Set.Models {
		fmt.Fprintf(bw, "<h2>%s</h2>\n", esc(modelTitle(m)))
		for _, g := range r.Groups {
			if g.Model == m {
				writeGroupHTML(bw, g)
			}
		}
		r.writePerByteHTML(bw, m)
	}
	r.writeClassesHTML(bw)
	r.writeLayoutHTML(bw)
	r.writeEffectsHTML(bw)
	r.writeMatrixHTML(bw)
	for _, sec := range r.Sections {
		if err := sec(bw); err != nil {
			return err
		}
	}
	fmt.Fprintln(bw, "</body></html>")
	return bw.Flush()
}

func writeGroupHTML(w io.Writer, g *Group) {
	fmt.Fprintf(w, "<h3>%s</h3>\n<table><tr><th>variant</th><th>median</th><th>95%% CI</th><th>n</th><th>vs generic</th><th>note</th></tr>\n", esc(groupTitle(g)))
	for _, row := range g.Rows {
		cls := ""
		if row.Variant == g.Decision.Winner {
			cls = ` class="win"`
		}
		fmt.Fprintf(w, "<tr%s><td><code>%s</code></td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%d</td><td>%s</td><td>%s</td></tr>\n",
			cls, esc(row.Variant), fmtNS(row.Stat.Median), row.Stat.PM(), row.Stat.N, esc(vsBase(row)), esc(rowMark(g, row)))
	}
	fmt.Fprintf(w, "</table>\n<p class=\"note\">%s</p>\n", esc(g.Decision.Note))
	barChartSVG(w, g)
}

// writePerByteHTML draws cycles per byte against size for each sized
// kernel measured at two or more sizes on model m.
func (r *Report) writePerByteHTML(w io.Writer, m *Model) {
	byKernel := map[string][]*Group{}
	for _, g := range r.Groups {
		if g.Model == m && g.Size > 0 {
			byKernel[g.Kernel] = append(byKernel[g.Kernel], g)
		}
	}
	for _, k := range sortedKeys(byKernel) {
		groups := byKernel[k]
		if len(groups) < 2 {
			continue
		}
		ss, unit := perByteSeries(groups)
		ss = pickSeries(ss, groups)
		fmt.Fprintf(w, "<h3>%s: %s against size</h3>\n", esc(k), unit)
		lineChartSVG(w, k+" "+unit+" on "+m.Label(), "size (bytes)", unit, ss)
	}
}

// pickSeries keeps at most maxSeries lines: winners, the generic variant
// and external references first, then the variants with the lowest mean.
func pickSeries(ss []series, groups []*Group) []series {
	if len(ss) <= maxSeries {
		return ss
	}
	keep := map[string]bool{}
	for _, g := range groups {
		keep[g.Decision.Winner] = true
	}
	score := func(s series) float64 {
		sum := 0.0
		for _, y := range s.ys {
			sum += y
		}
		return sum / float64(len(s.ys))
	}
	sort.SliceStable(ss, func(i, j int) bool {
		pi := keep[ss[i].name] || ss[i].name == "isa=generic" || strings.HasPrefix(ss[i].name, "ext=")
		pj := keep[ss[j].name] || ss[j].name == "isa=generic" || strings.HasPrefix(ss[j].name, "ext=")
		if pi != pj {
			return pi
		}
		return score(ss[i]) < score(ss[j])
	})
	return ss[:maxSeries]
}

func (r *Report) writeClassesHTML(w io.Writer) {
	fmt.Fprintln(w, "<h2>Size classes</h2>\n<table><tr><th>kernel</th><th>CPU model</th><th>classes</th></tr>")
	for _, sc := range r.Classes {
		desc := "no winner at any size"
		if len(sc.Classes) > 0 {
			desc = classRanges(sc.Classes)
		}
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n", esc(sc.Kernel), esc(sc.Model.Label()), esc(desc))
	}
	fmt.Fprintln(w, "</table>")
}

func (r *Report) writeLayoutHTML(w io.Writer) {
	if len(r.Layout) == 0 {
		return
	}
	fmt.Fprintln(w, "<h2>Layout noise</h2>\n<p>Differences smaller than a family's alignment sensitivity are marked “within layout noise” and do not make a winner.</p><ul>")
	for _, ln := range r.Layout {
		fmt.Fprintf(w, "<li>%s</li>\n", esc(ln.String()))
	}
	fmt.Fprintln(w, "</ul>")
}

func (r *Report) writeEffectsHTML(w io.Writer) {
	fmt.Fprintln(w, "<h2>Knob effects</h2>\n<p>Geometric mean over pairs of variants that differ only in the knob; darker bars: interval excludes 0.</p>")
	if len(r.Effects) > 0 {
		effectChartSVG(w, r.Effects)
	}
	fmt.Fprintln(w, "<table><tr><th>CPU model</th><th>knob</th><th>change</th><th>effect</th><th>95% CI</th><th>pairs</th><th>kernels</th></tr>")
	for _, e := range r.Effects {
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td><td>%s vs %s</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%d</td><td>%s</td></tr>\n",
			esc(e.Model.Label()), esc(e.Knob), esc(e.To), esc(e.From), pct(e.Pct), pm(e.PM), e.Pairs, esc(strings.Join(e.Kernels, ", ")))
	}
	fmt.Fprintln(w, "</table>")
}

func (r *Report) writeMatrixHTML(w io.Writer) {
	fmt.Fprintln(w, "<h2>Cross-machine matrix</h2>\n<p>rank/of and speed relative to the fastest on that model; W = wins, L = bottom half or significantly slower than the winner.</p>")
	for _, mk := range r.Matrix {
		fmt.Fprintf(w, "<h3>%s</h3>\n<table><tr><th>variant</th>", esc(mk.Kernel))
		for _, m := range mk.Models {
			fmt.Fprintf(w, "<th>%s</th>", esc(m.Label()))
		}
		fmt.Fprintln(w, "</tr>")
		for vi, v := range mk.Variants {
			fmt.Fprintf(w, "<tr><td><code>%s</code></td>", esc(v))
			for mi := range mk.Models {
				fmt.Fprintf(w, "<td class=\"num\">%s</td>", esc(matrixCell(mk.Cells[vi][mi])))
			}
			fmt.Fprintln(w, "</tr>")
		}
		fmt.Fprintln(w, "</table>")
		for _, f := range mk.Flags {
			fmt.Fprintf(w, "<p class=\"flag\">⚠ %s</p>\n", esc(f))
		}
	}
}
