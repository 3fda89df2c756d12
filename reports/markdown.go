package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the report as Markdown tables, fit for a code-review
// comment.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# tunelab report\n\n%s.\n\nDeltas are time relative to the reference (negative = faster); ± is a 95%% interval.\n", r.summaryLine())
	r.writeSummaryMD(bw)
	var model *Model
	for _, g := range r.Groups {
		if g.Model != model {
			model = g.Model
			fmt.Fprintf(bw, "\n## %s\n", sectionTitle(model))
		}
		writeGroupMD(bw, g)
	}
	r.writeClassesMD(bw)
	r.writeLayoutMD(bw)
	r.writeEffectsMD(bw)
	r.writeMatrixMD(bw)
	if r.looModels() {
		writeLOOMarkdown(bw, r.LeaveOneOutAll(LOORules[0]))
	}
	return bw.Flush()
}

func writeGroupMD(w io.Writer, g *Group) {
	fmt.Fprintf(w, "\n### %s\n\n", groupTitle(g))
	fmt.Fprintln(w, "| variant | median | 95% CI | n | vs generic | note |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|---|")
	for _, row := range g.Rows {
		name := "`" + row.Variant + "`"
		if row.Variant == g.Decision.Winner {
			name = "**" + name + "**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s |\n", name, fmtNS(row.Stat.Median), row.Stat.PM(), row.Stat.N, vsBase(row), rowMark(g, row))
	}
	fmt.Fprintf(w, "\n%s\n", g.Decision.Note)
}

func (r *Report) writeClassesMD(w io.Writer) {
	fmt.Fprintf(w, "\n## Size classes\n\n| kernel | CPU model | classes |\n|---|---|---|\n")
	for _, sc := range r.Classes {
		desc := "no winner at any size"
		if len(sc.Classes) > 0 {
			desc = classRanges(sc.Classes)
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", sc.Kernel, sc.Model.Label(), desc)
	}
}

func (r *Report) writeLayoutMD(w io.Writer) {
	if floors := r.floorModels(); len(floors) > 0 {
		fmt.Fprintf(w, "\n## Layout floor\n\nThe largest difference the sweep measured between byte-identical copies of one function at other addresses and loop offsets; a smaller margin is a tie unless the winner survives moving both variants.\n\n")
		for _, m := range floors {
			fmt.Fprintf(w, "- %s: %s\n", m.Label(), m.LayoutFloorNote)
		}
	}
	if len(r.Layout) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Layout noise\n\nDifferences smaller than a family's alignment sensitivity are marked \"within layout noise\" and do not make a winner.\n\n")
	fmt.Fprintln(w, "| family | CPU model | sensitivity | measured on | offsets | fastest | slowest |")
	fmt.Fprintln(w, "|---|---|---:|---|---:|---|---|")
	for _, ln := range r.Layout {
		fmt.Fprintf(w, "| %s | %s | %.1f%% | %s `%s` | %d | align=%s | align=%s |\n",
			ln.Family, ln.Model.Label(), 100*ln.Sensitivity, ln.Kernel, ln.Sweep, ln.Offsets, ln.Fastest, ln.Slowest)
	}
}

func (r *Report) writeEffectsMD(w io.Writer) {
	fmt.Fprintf(w, "\n## Knob effects\n\nGeometric mean over pairs of variants that differ only in the knob.\n\n")
	fmt.Fprintln(w, "| CPU model | knob | change | effect | 95% CI | pairs | kernels |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---|")
	for _, e := range r.Effects {
		fmt.Fprintf(w, "| %s | %s | %s vs %s | %s | %s | %d | %s |\n",
			e.Model.Label(), e.Knob, e.To, e.From, pct(e.Pct), pm(e.PM), e.Pairs, strings.Join(e.Kernels, ", "))
	}
}

func (r *Report) writeMatrixMD(w io.Writer) {
	fmt.Fprintf(w, "\n## Cross-machine matrix\n\nrank/of and speed relative to the fastest on that model; W = wins, L = bottom half or significantly slower than the winner.\n")
	for _, mk := range r.Matrix {
		fmt.Fprintf(w, "\n### %s\n\n| variant |", mk.Kernel)
		for _, m := range mk.Models {
			fmt.Fprintf(w, " %s |", m.Label())
		}
		fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(mk.Models)))
		for vi, v := range mk.Variants {
			fmt.Fprintf(w, "| `%s` |", v)
			for mi := range mk.Models {
				fmt.Fprintf(w, " %s |", matrixCell(mk.Cells[vi][mi]))
			}
			fmt.Fprintln(w)
		}
		if len(mk.Flags) > 0 {
			fmt.Fprintln(w)
		}
		for _, f := range mk.Flags {
			fmt.Fprintf(w, "- ⚠ %s\n", f)
		}
	}
}
