package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/reports"
)

// summaryIntro explains the summary's columns.
const summaryIntro = "Per CPU model, kernel and size class: the variant the winner rule picks (only the knobs that matter; the full name is in the kernel's section), " +
	"how many times as fast it is as the reference a user would otherwise call (the fastest external implementation measured, else the generic code) with a 95% interval, " +
	"and whether the dispatch table compiled into this tunelab already selects it for this model and feature set."

// modelHeading names a model with its feature level and the features
// beyond it that dispatch knows.
func modelHeading(m *reports.Model) string {
	if m.Unknown {
		return sectionTitle(m)
	}
	level, extras := cpu.FeatureLevel(m.Features)
	s := sectionTitle(m) + ", " + level
	if len(extras) > 0 {
		s += " + " + strings.Join(extras, " ")
	}
	return s
}

// refCell names the reference at a row's first measured size;
// speedupCells names it again at any size where it differs.
func refCell(ss []reports.Speedup) string {
	if len(ss) == 0 {
		return "—"
	}
	return ss[0].RefLabel()
}

// speedupCells formats a row's speed-ups, one per size ("64 B: 1.63×
// [1.60–1.66]" when the class has several sizes); esc escapes the
// reference's label (text from result files) for the output format.
func speedupCells(row *reports.SummaryRow, alpha float64, esc func(string) string) []string {
	var out []string
	for _, s := range row.Speedups {
		c := s.String(alpha)
		if s.Ref != row.Speedups[0].Ref {
			c += " vs " + esc(s.RefLabel())
		}
		if len(row.Class.Sizes) > 1 {
			c = reports.SizeText(row.Kernel, s.Size) + ": " + c
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		out = append(out, "—")
	}
	return out
}

// writeSummaryHTML writes the summary tables, one per model.
func (r report) writeSummaryHTML(w io.Writer, ids map[*reports.Group]string) {
	rows := r.Summary()
	fmt.Fprintf(w, "<h2 id=\"summary\">Summary</h2>\n<p>%s</p>\n", esc(summaryIntro))
	for _, m := range reports.SummaryModels(rows) {
		fmt.Fprintf(w, "<h3>%s</h3>\n<table class=\"sum\"><tr><th>kernel<th>size class<th>winner (knobs that matter)<th>reference<th>speed-up [95%%]<th>compiled table selects it?\n", esc(modelHeading(m)))
		for _, row := range rows {
			if row.Model == m {
				r.writeSummaryRowHTML(w, row, ids)
			}
		}
		fmt.Fprintln(w, "</table>")
	}
	if nw := r.NoWinner(); len(nw) > 0 {
		fmt.Fprintf(w, "<p class=\"note\">No winner (too few samples): %s.</p>\n", esc(strings.Join(nw, "; ")))
	}
}

func (r report) writeSummaryRowHTML(w io.Writer, row *reports.SummaryRow, ids map[*reports.Group]string) {
	link := esc(row.Kernel)
	if g := r.classGroup(row); g != nil {
		link = fmt.Sprintf("<a href=\"#%s\">%s</a>", ids[g], link)
	}
	if row.Winner == "" {
		fmt.Fprintf(w, "<tr><td>%s<td>%s<td colspan=\"4\">no winner at any size\n", link, esc(row.Label))
		return
	}
	cells := speedupCells(row, r.Options.Alpha, plainText)
	for i, c := range cells {
		cells[i] = esc(c)
		if s := row.Speedups; i < len(s) && s[i].Speed() < 1 && s[i].Delta.P < r.Options.Alpha {
			cells[i] = "<span class=\"no\">" + cells[i] + "</span>"
		}
	}
	cc := row.Compiled
	cls := r.CompiledClass(cc)
	title := cc.Detail
	if !cc.Selects && cc.Known {
		title = cc.Variant + ": " + cc.Detail
	}
	fmt.Fprintf(w, "<tr><td>%s<td class=\"n\">%s<td><code title=\"%s\">%s</code><td>%s<td class=\"n\">%s<td class=\"%s\" title=\"%s\">%s\n",
		link, esc(row.Label), esc(row.Winner), esc(row.Short), esc(refCell(row.Speedups)), strings.Join(cells, "<br>"),
		cls, esc(title), esc(cc.String()))
}

// classGroup returns the group of a summary row's largest measured size.
func (r report) classGroup(row *reports.SummaryRow) *reports.Group {
	size := 0
	if n := len(row.Class.Sizes); n > 0 {
		size = row.Class.Sizes[n-1]
	}
	for _, g := range r.Groups {
		if g.Model == row.Model && g.Kernel == row.Kernel && (g.Size == size || size == 0) {
			return g
		}
	}
	return nil
}

// plainText leaves text as it is (for plain-text output).
func plainText(s string) string { return s }

// writeSummaryMD writes the summary as Markdown tables, text from result
// files escaped (mdText, mdCode).
func (r report) writeSummaryMD(w io.Writer) {
	rows := r.Summary()
	fmt.Fprintf(w, "\n## Summary\n\n%s\n", summaryIntro)
	for _, m := range reports.SummaryModels(rows) {
		fmt.Fprintf(w, "\n### %s\n\n| kernel | size class | winner (knobs that matter) | reference | speed-up [95%%] | compiled table selects it? |\n|---|---|---|---|---:|---|\n", mdText(modelHeading(m)))
		for _, row := range rows {
			if row.Model != m {
				continue
			}
			if row.Winner == "" {
				fmt.Fprintf(w, "| %s | %s | no winner at any size | | | |\n", mdText(row.Kernel), row.Label)
				continue
			}
			cells := speedupCells(row, r.Options.Alpha, mdText)
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", mdText(row.Kernel), row.Label, mdCode(row.Short), mdText(refCell(row.Speedups)),
				strings.Join(cells, "<br>"), mdText(row.Compiled.String()))
		}
	}
	if nw := r.NoWinner(); len(nw) > 0 {
		fmt.Fprintf(w, "\nNo winner (too few samples): %s.\n", mdText(strings.Join(nw, "; ")))
	}
}

// writeSummaryText writes the summary as plain-text tables, one line per
// size class (and a continuation line per further measured size).
func (r report) writeSummaryText(w io.Writer) {
	rows := r.Summary()
	fmt.Fprintln(w, "Summary: winner per size class (knobs that matter), speed-up against the reference with 95% interval, and what the compiled dispatch table selects")
	for _, m := range reports.SummaryModels(rows) {
		fmt.Fprintf(w, "\n  %s\n", modelHeading(m))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  kernel\tclass\twinner\treference\tspeed-up [95%]\tcompiled table")
		for _, row := range rows {
			if row.Model == m {
				r.writeSummaryRowText(tw, row)
			}
		}
		tw.Flush()
	}
	if nw := r.NoWinner(); len(nw) > 0 {
		fmt.Fprintf(w, "  no winner (too few samples): %s\n", strings.Join(nw, "; "))
	}
}

func (r report) writeSummaryRowText(tw io.Writer, row *reports.SummaryRow) {
	if row.Winner == "" {
		fmt.Fprintf(tw, "  %s\t%s\tno winner at any size\n", row.Kernel, row.Label)
		return
	}
	for i, c := range speedupCells(row, r.Options.Alpha, plainText) {
		if i == 0 {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", row.Kernel, row.Label, row.Short, refCell(row.Speedups), c, row.Compiled)
		} else {
			fmt.Fprintf(tw, "  \t\t\t\t%s\n", c)
		}
	}
}
