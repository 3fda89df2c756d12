package render

import (
	"fmt"
	"io"

	"github.com/tunelab/tunelab/reports"
)

// matrixTopRank is the rank up to which a variant appears in the HTML
// matrix tables (winners anywhere always do); the text report lists all.
const matrixTopRank = 3

// writeEffectsHTML writes one knob-effect chart per CPU model (the text
// and Markdown reports have the table).
func (r report) writeEffectsHTML(w io.Writer) {
	fmt.Fprintln(w, "<h2 id=\"effects\">Knob effects</h2>\n<p>Geometric mean over pairs of variants that differ only in the knob, across kernels and sizes, with a 95% interval; solid green/red: the interval excludes no change.</p>")
	if len(r.Effects) == 0 {
		fmt.Fprintln(w, "<p>No pairs of variants that differ in one knob.</p>")
		return
	}
	for _, m := range r.Set.Models {
		var es []*reports.KnobEffect
		for _, e := range r.Effects {
			if e.Model == m {
				es = append(es, e)
			}
		}
		if len(es) > 0 {
			fmt.Fprintf(w, "<h3>%s</h3>\n", esc(m.Label()))
			effectChartSVG(w, m, es)
		}
	}
}

// writeMatrixHTML writes the cross-machine matrix of kernels measured on
// two or more models, limited to variants that win somewhere or rank in
// the top matrixTopRank somewhere.
func (r report) writeMatrixHTML(w io.Writer) {
	fmt.Fprintln(w, "<h2 id=\"matrix\">Cross-machine matrix</h2>")
	shown := 0
	for _, mk := range r.Matrix {
		if len(mk.Models) < 2 {
			continue
		}
		if shown == 0 {
			fmt.Fprintf(w, "<p>rank/of and speed relative to the fastest on that model; W = wins, L = bottom half or significantly slower than the winner. Variants ranked below %d everywhere are in the text report.</p>\n", matrixTopRank)
		}
		shown++
		r.writeMatrixKernelHTML(w, mk)
	}
	if shown == 0 {
		fmt.Fprintln(w, "<p>No kernel was measured on two or more CPU models.</p>")
	}
}

func (r report) writeMatrixKernelHTML(w io.Writer, mk *reports.MatrixKernel) {
	fmt.Fprintf(w, "<h3>%s</h3>\n<table><tr><th>variant", esc(mk.Kernel))
	for _, m := range mk.Models {
		fmt.Fprintf(w, "<th>%s", esc(m.Label()))
	}
	fmt.Fprintln(w)
	for vi, v := range mk.Variants {
		if !topSomewhere(mk.Cells[vi]) {
			continue
		}
		fmt.Fprintf(w, "<tr><td><code>%s</code>", esc(v))
		for mi := range mk.Models {
			fmt.Fprintf(w, "<td class=\"n\">%s", esc(matrixCell(mk.Cells[vi][mi])))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "</table>")
	for _, f := range mk.Flags {
		fmt.Fprintf(w, "<p class=\"flag\">⚠ %s</p>\n", esc(f))
	}
}

// topSomewhere reports whether a variant wins or ranks in the top
// matrixTopRank on some model.
func topSomewhere(cells []*reports.MatrixCell) bool {
	for _, c := range cells {
		if c != nil && (c.Wins || c.Rank <= matrixTopRank) {
			return true
		}
	}
	return false
}
