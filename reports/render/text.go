package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/loo"
)

// writeText writes the plain-text report.
func (r report) writeText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "tunelab report: %s\n", r.summaryLine())
	fmt.Fprintln(bw, "Deltas are time relative to the reference (negative = faster); ± is a 95% interval.")
	fmt.Fprintln(bw)
	r.writeFailuresText(bw)
	r.writeSummaryText(bw)
	r.eachGroup(func(m *reports.Model) { fmt.Fprintf(bw, "\n== %s ==\n", sectionTitle(m)) },
		func(g *reports.Group) { writeGroupText(bw, g) })
	r.writeSectionsText(bw)
	return bw.Flush()
}

func writeGroupText(w io.Writer, g *reports.Group) {
	fmt.Fprintf(w, "\n%s\n", reports.GroupTitle(g))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  variant\tmedian\tCI\tn\tvs generic\t")
	for _, row := range g.Rows {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\n", row.Variant, reports.FormatNS(row.Stat.Median), row.Stat.PM(), row.Stat.N, vsBase(row), rowMark(g, row))
	}
	tw.Flush()
	fmt.Fprintf(w, "  -> %s\n", g.Decision.Note)
}

func (r report) writeSectionsText(w io.Writer) {
	fmt.Fprintln(w, "\nSize classes")
	for _, sc := range r.Classes {
		fmt.Fprintf(w, "  %s on %s: %s\n", sc.Kernel, sc.Model.Label(), describe(sc))
	}
	if floors := r.floorModels(); len(floors) > 0 {
		fmt.Fprintln(w, "\nLayout floor (largest difference between byte-identical copies at other addresses, measured by the sweep)")
		for _, m := range floors {
			fmt.Fprintf(w, "  %s: %s\n", m.Label(), m.LayoutFloorNote)
		}
	}
	if len(r.Layout) > 0 {
		fmt.Fprintln(w, "\nLayout noise (alignment sensitivity from offset sweeps)")
		for _, ln := range r.Layout {
			fmt.Fprintf(w, "  %s\n", ln)
		}
	}
	fmt.Fprintln(w, "\nKnob effects")
	if len(r.Effects) == 0 {
		fmt.Fprintln(w, "  none (no pairs of variants that differ in one knob)")
	}
	for _, e := range r.Effects {
		fmt.Fprintf(w, "  %s%s\n", e, sigMark(e))
	}
	r.writeMatrixText(w)
	if r.looModels() {
		fmt.Fprintln(w)
		WriteLOOText(w, loo.LeaveOneOutAll(r.Report, loo.Rules[0]))
	}
}

func sigMark(e *reports.KnobEffect) string {
	if e.Significant() {
		return ""
	}
	return " (interval includes 0)"
}

func (r report) writeMatrixText(w io.Writer) {
	fmt.Fprintln(w, "\nCross-machine matrix (rank/of, relative speed; W = wins, L = bottom half or significantly slower)")
	for _, mk := range r.Matrix {
		fmt.Fprintf(w, "\n%s\n", mk.Kernel)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		labels := make([]string, len(mk.Models))
		for i, m := range mk.Models {
			labels[i] = m.Label()
		}
		fmt.Fprintf(tw, "  variant\t%s\t\n", strings.Join(labels, "\t"))
		for vi, v := range mk.Variants {
			cells := make([]string, len(mk.Models))
			for mi := range mk.Models {
				cells[mi] = matrixCell(mk.Cells[vi][mi])
			}
			fmt.Fprintf(tw, "  %s\t%s\t\n", v, strings.Join(cells, "\t"))
		}
		tw.Flush()
		for _, f := range mk.Flags {
			fmt.Fprintf(w, "  ! %s\n", f)
		}
	}
}

// floorModels returns the models whose runs recorded a layout floor.
func (r report) floorModels() []*reports.Model {
	var out []*reports.Model
	for _, m := range r.Set.Models {
		if m.LayoutFloorNote != "" {
			out = append(out, m)
		}
	}
	return out
}
