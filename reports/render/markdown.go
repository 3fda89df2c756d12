package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/loo"
)

// writeMarkdown writes the report as Markdown tables, fit for a code-review
// comment. Text from result files (models, kernels, variants, notes) is
// escaped as the HTML report escapes it (mdText, mdCode): a file cannot
// put HTML, links or table breaks into the comment.
func (r report) writeMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# tunelab report\n\n%s.\n\nDeltas are time relative to the reference (negative = faster); ± is a 95%% interval.\n", mdText(r.summaryLine()))
	r.writeFailuresMD(bw)
	r.writeSummaryMD(bw)
	r.eachGroup(func(m *reports.Model) { fmt.Fprintf(bw, "\n## %s\n", mdText(sectionTitle(m))) },
		func(g *reports.Group) { writeGroupMD(bw, g) })
	r.writeClassesMD(bw)
	r.writeLayoutMD(bw)
	r.writeEffectsMD(bw)
	r.writeMatrixMD(bw)
	if r.looModels() {
		writeLOOMarkdown(bw, loo.LeaveOneOutAll(r.Report, loo.Rules[0]))
	}
	return bw.Flush()
}

// mdReplacer escapes what Markdown (with inline HTML, as GitHub renders
// it) would interpret in a line of text: HTML as entities, as html.
// EscapeString does for the HTML report, then the characters that
// start code, emphasis, links and table cells with a backslash; line
// breaks become spaces.
var mdReplacer = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "|", `\|`, "~", `\~`,
	"\r", " ", "\n", " ",
)

// mdText escapes text from result files for a Markdown line or table cell.
func mdText(s string) string { return mdReplacer.Replace(s) }

// mdCode formats s as inline code when it is plain (letters, digits,
// spaces and =/._+,:-), else as escaped text: a code span shows its
// content literally, except a backtick or pipe that would end it.
func mdCode(s string) string {
	if s == "" || strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 =/._+,:-") != "" {
		return mdText(s)
	}
	return "`" + s + "`"
}

func writeGroupMD(w io.Writer, g *reports.Group) {
	fmt.Fprintf(w, "\n### %s\n\n", mdText(reports.GroupTitle(g)))
	fmt.Fprintln(w, "| variant | median | 95% CI | n | vs generic | note |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|---|")
	for _, row := range g.Rows {
		name := mdCode(row.Variant)
		if row.Variant == g.Decision.Winner {
			name = "**" + name + "**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s |\n", name, reports.FormatNS(row.Stat.Median), row.Stat.PM(), row.Stat.N, vsBase(row), rowMark(g, row))
	}
	fmt.Fprintf(w, "\n%s\n", mdText(g.Decision.Note))
}

func (r report) writeClassesMD(w io.Writer) {
	fmt.Fprintf(w, "\n## Size classes\n\n| kernel | CPU model | classes |\n|---|---|---|\n")
	for _, sc := range r.Classes {
		fmt.Fprintf(w, "| %s | %s | %s |\n", mdText(sc.Kernel), mdText(sc.Model.Label()), mdText(describe(sc)))
	}
}

func (r report) writeLayoutMD(w io.Writer) {
	if floors := r.floorModels(); len(floors) > 0 {
		fmt.Fprintf(w, "\n## Layout floor\n\nThe largest difference the sweep measured between byte-identical copies of one function at other addresses and loop offsets; a smaller margin is a tie unless the winner survives moving both variants.\n\n")
		for _, m := range floors {
			fmt.Fprintf(w, "- %s: %s\n", mdText(m.Label()), mdText(m.LayoutFloorNote))
		}
	}
	if len(r.Layout) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## Layout noise\n\nDifferences smaller than a family's alignment sensitivity are marked \"within layout noise\" and do not make a winner.\n\n")
	fmt.Fprintln(w, "| family | CPU model | sensitivity | measured on | offsets | fastest | slowest |")
	fmt.Fprintln(w, "|---|---|---:|---|---:|---|---|")
	for _, ln := range r.Layout {
		fmt.Fprintf(w, "| %s | %s | %.1f%% | %s %s | %d | %s | %s |\n",
			mdText(ln.Family), mdText(ln.Model.Label()), 100*ln.Sensitivity, mdText(ln.Kernel), mdCode(ln.Sweep), ln.Offsets,
			mdText("align="+ln.Fastest), mdText("align="+ln.Slowest))
	}
}

func (r report) writeEffectsMD(w io.Writer) {
	fmt.Fprintf(w, "\n## Knob effects\n\nGeometric mean over pairs of variants that differ only in the knob.\n\n")
	fmt.Fprintln(w, "| CPU model | knob | change | effect | 95% CI | pairs | kernels |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---|")
	for _, e := range r.Effects {
		fmt.Fprintf(w, "| %s | %s | %s vs %s | %s | %s | %d | %s |\n",
			mdText(e.Model.Label()), mdText(e.Knob), mdText(e.To), mdText(e.From), stats.FormatPct(e.Pct), stats.FormatPM(e.PM), e.Pairs, mdText(strings.Join(e.Kernels, ", ")))
	}
}

func (r report) writeMatrixMD(w io.Writer) {
	fmt.Fprintf(w, "\n## Cross-machine matrix\n\nrank/of and speed relative to the fastest on that model; W = wins, L = bottom half or significantly slower than the winner.\n")
	for _, mk := range r.Matrix {
		fmt.Fprintf(w, "\n### %s\n\n| variant |", mdText(mk.Kernel))
		for _, m := range mk.Models {
			fmt.Fprintf(w, " %s |", mdText(m.Label()))
		}
		fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(mk.Models)))
		for vi, v := range mk.Variants {
			fmt.Fprintf(w, "| %s |", mdCode(v))
			for mi := range mk.Models {
				fmt.Fprintf(w, " %s |", matrixCell(mk.Cells[vi][mi]))
			}
			fmt.Fprintln(w)
		}
		if len(mk.Flags) > 0 {
			fmt.Fprintln(w)
		}
		for _, f := range mk.Flags {
			fmt.Fprintf(w, "- ⚠ %s\n", mdText(f))
		}
	}
}
