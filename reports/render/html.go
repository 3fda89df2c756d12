package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/loo"
)

// htmlStyle styles the page and its charts; chart text is 11px monospace
// (see charW).
const htmlStyle = `body{font-family:sans-serif;margin:2em;max-width:1300px;color:#222}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;vertical-align:top}
td.n{text-align:right;white-space:nowrap}tr.win td{background:#e6f5e6;font-weight:bold}code{font-size:12px}
.t td{font:12px monospace;text-align:right}.t td[colspan],.t td:last-child{text-align:left}
.note{margin:.2em 0 .6em}.flag,.no,h2.failed{color:#b00}.yes{color:#060}.meh{color:#a60}.toc li{margin:.15em 0}.toc a{margin-right:.4em}
details{margin:0 0 1.5em}summary{cursor:pointer;color:#444}h3 small{font-weight:normal;color:#666}
svg.chart{display:block;margin:.4em 0 .8em;font:11px monospace}.s{fill:#555}.v{fill:#333}
.lb text{text-anchor:end}.w{fill:#2ca02c}.c{fill:#6baed6}.x{fill:#999}.b{fill:#555}.n{fill:#f0b0b0}
.ef{fill:#1a9850}.es{fill:#d73027}.en{fill:#bbb}.e{stroke:#000;stroke-width:1.5}
.tk text{text-anchor:middle;fill:#555}.gr{stroke:#e6e6e6}.ax{stroke:#555}.one{stroke:#2ca02c;stroke-dasharray:3 2}.nz{fill:#fff3c4}.o{fill:#d62728}
.cb{stroke:#d62728;stroke-dasharray:4 3}.cbk{stroke:#aaa;stroke-dasharray:2 3}.cl{fill:#d62728}polyline{fill:none;stroke-width:2}`

// writeHTML writes a self-contained HTML report (inline SVG, no scripts,
// no network): the summary per CPU model, a table of contents, the
// cross-model heat maps, time per byte against size, knob effects, then
// each kernel/size group with its ratio chart and full table.
func (r report) writeHTML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tunelab report</title>\n<style>%s</style></head><body>\n", htmlStyle)
	fmt.Fprintf(bw, "<h1>tunelab report</h1>\n<p>%s.</p>\n", esc(r.summaryLine()))
	ids := r.anchors()
	r.writeFailuresHTML(bw)
	r.writeSummaryHTML(bw, ids)
	r.writeTOC(bw, ids)
	r.writeCrossHTML(bw)
	r.writeSizesHTML(bw)
	r.writeEffectsHTML(bw)
	for mi, m := range r.Set.Models {
		fmt.Fprintf(bw, "<h2 id=\"m%d\">%s</h2>\n", mi, esc(sectionTitle(m)))
		for _, g := range r.Groups {
			if g.Model == m {
				r.writeGroupHTML(bw, g, ids[g])
			}
		}
	}
	r.writeClassesHTML(bw)
	r.writeLayoutHTML(bw)
	r.writeMatrixHTML(bw)
	if r.looModels() {
		if err := writeLOOHTML(bw, loo.LeaveOneOutAll(r.Report, loo.Rules[0])); err != nil {
			return err
		}
	}
	for _, sec := range r.Sections {
		if err := sec(bw); err != nil {
			return err
		}
	}
	fmt.Fprintln(bw, "</body></html>")
	return bw.Flush()
}

// sectionTitle names a model in headings: its label (uarch, and the tag
// telling one feature set from another) and dispatch key.
func sectionTitle(m *reports.Model) string {
	if m.Uarch == "" {
		return m.Label()
	}
	return m.Label() + " (" + m.Key + ")"
}

// anchors returns the id of each group's section.
func (r report) anchors() map[*reports.Group]string {
	ids := make(map[*reports.Group]string, len(r.Groups))
	for i, g := range r.Groups {
		ids[g] = fmt.Sprintf("g%d", i)
	}
	return ids
}

// writeTOC links every section: per model, each kernel's sizes.
func (r report) writeTOC(w io.Writer, ids map[*reports.Group]string) {
	fmt.Fprintln(w, "<h2 id=\"contents\">Contents</h2>\n<ul class=\"toc\"><li><a href=\"#summary\">Summary</a></li>")
	if len(r.heatModels()) > 1 {
		fmt.Fprintln(w, "<li><a href=\"#cross\">Across CPU models</a></li>")
	}
	fmt.Fprintln(w, "<li><a href=\"#sizes\">Time per byte against message size</a></li><li><a href=\"#effects\">Knob effects</a></li>")
	for mi, m := range r.Set.Models {
		fmt.Fprintf(w, "<li><a href=\"#m%d\">%s</a><ul>\n", mi, esc(sectionTitle(m)))
		kernel := ""
		for _, g := range r.Groups {
			if g.Model != m {
				continue
			}
			if g.Kernel != kernel {
				if kernel != "" {
					fmt.Fprintln(w, "</li>")
				}
				kernel = g.Kernel
				fmt.Fprintf(w, "<li>%s: ", esc(kernel))
			}
			fmt.Fprintf(w, "<a href=\"#%s\">%s</a>", ids[g], esc(sizeOrAll(g)))
		}
		fmt.Fprintln(w, "</li></ul></li>")
	}
	fmt.Fprint(w, "<li><a href=\"#classes\">Size classes</a></li><li><a href=\"#layout\">Layout noise</a></li><li><a href=\"#matrix\">Cross-machine matrix</a></li>")
	if r.looModels() {
		fmt.Fprint(w, "<li><a href=\"#leave-one-out\">Leave-one-out: what an unmeasured CPU would lose</a></li>")
	}
	fmt.Fprintln(w, "</ul>")
}

// sizeOrAll names a group's size in links: "64 B", or "fixed size".
func sizeOrAll(g *reports.Group) string {
	if g.Size == 0 {
		return "fixed size"
	}
	return reports.SizeText(g.Kernel, g.Size)
}

// writeGroupHTML writes a group's section: decision, chart and table.
func (r report) writeGroupHTML(w io.Writer, g *reports.Group, id string) {
	fmt.Fprintf(w, "<h3 id=\"%s\">%s <small>%s</small></h3>\n<p class=\"note\">%s</p>\n", id, esc(reports.GroupTitle(g)), esc(g.Model.Label()), esc(g.Decision.Note))
	groupChartSVG(w, g)
	writeGroupTable(w, g)
}

// maxTableRows bounds the rows of a group's HTML table: the fastest
// ones, then every external reference and the generic variant; the text
// and Markdown reports list every variant.
const maxTableRows = 12

// writeGroupTable writes a group's fastest rows, its references and its
// generic variant, one column per knob, inside a collapsed <details>.
func writeGroupTable(w io.Writer, g *reports.Group) {
	rows, left := tableRows(g)
	cols := knobColumns(g)
	fmt.Fprintf(w, "<details><summary>table of %d of %d variants: median, 95%% interval, samples, time against the winner</summary>\n<table class=\"t\"><tr>", len(rows), len(g.Rows))
	for _, c := range cols {
		fmt.Fprintf(w, "<th>%s", esc(c))
	}
	fmt.Fprintln(w, "<th>median<th>95% CI<th>n<th>vs winner<th>note")
	for _, row := range rows {
		cls := ""
		if row.Variant == g.Decision.Winner {
			cls = " class=win"
		}
		fmt.Fprintf(w, "<tr%s>%s<td>%s<td>%s<td>%d<td>%s<td>%s\n", cls, knobCells(row, cols),
			reports.FormatNS(row.Stat.Median), row.Stat.PM(), row.Stat.N, esc(vsWinner(g, row)), esc(rowMark(g, row)))
	}
	fmt.Fprintln(w, "</table>")
	if left > 0 {
		fmt.Fprintf(w, "<p class=\"note\">%d slower variants are left out here; the text and Markdown reports list every variant.</p>\n", left)
	}
	fmt.Fprintln(w, "</details>")
}

// tableRows returns the rows of a group's HTML table in median order and
// how many were left out.
func tableRows(g *reports.Group) ([]*reports.Row, int) {
	var out []*reports.Row
	for i, r := range g.Rows {
		if i < maxTableRows || r.External() || r == g.Base || r.Variant == g.Decision.Winner {
			out = append(out, r)
		}
	}
	return out, len(g.Rows) - len(out)
}

// knobColumns returns the knob keys of a group's knob-named variants
// (not external), in order of first appearance.
func knobColumns(g *reports.Group) []string {
	var cols []string
	seen := map[string]bool{}
	for _, r := range g.Rows {
		if !knobNamed(r) {
			continue
		}
		for _, k := range variant.Knobs(r.Variant) {
			if !seen[k.Key] {
				seen[k.Key] = true
				cols = append(cols, k.Key)
			}
		}
	}
	return cols
}

// knobNamed reports whether a row is a variant named by key=value knobs.
func knobNamed(r *reports.Row) bool {
	if r.External() {
		return false
	}
	for _, k := range variant.Knobs(r.Variant) {
		if k.Value == "" {
			return false
		}
	}
	return true
}

// knobCells returns a row's cells under the knob columns: its value per
// knob, or its whole name across them when it is not knob-named.
func knobCells(r *reports.Row, cols []string) string {
	if len(cols) == 0 {
		return "<td>" + esc(r.Variant)
	}
	if !knobNamed(r) {
		return fmt.Sprintf("<td colspan=%d>%s", len(cols), esc(r.Variant))
	}
	var b strings.Builder
	for _, c := range cols {
		b.WriteString("<td>" + esc(resultfile.Knob(r.Variant, c)))
	}
	return b.String()
}

// vsWinner formats a row's time against the group's winner.
func vsWinner(g *reports.Group, r *reports.Row) string {
	if g.Decision.Winner == "" || r.Variant == g.Decision.Winner {
		return ""
	}
	return stats.FormatPct(r.VsWinner.Pct) + " " + stats.FormatPM(r.VsWinner.PM)
}

// writeCrossHTML writes the heat maps across CPU models (two or more).
func (r report) writeCrossHTML(w io.Writer) {
	models := r.heatModels()
	if len(models) < 2 {
		return
	}
	fmt.Fprintln(w, "<h2 id=\"cross\">Across CPU models</h2>\n<p>Each group's winner against its reference (the fastest external implementation measured, else the generic code): green = faster, red = slower, white = not significant.</p>")
	r.speedupMap(models).svg(w, "heat", "winner against reference per CPU model")
	if h := r.winnersMap(models); len(h.rows) > 0 {
		fmt.Fprintln(w, "<p>Every variant that wins a kernel and size on some model, on each model: its time against that model's winner there (green: the winner or not significantly slower; red: 25% slower or more). A green cell beside a red one is a gain on one CPU and a regression on another.</p>")
		h.svg(w, "heat", "winners across CPU models")
	}
}

// writeSizesHTML writes, per model, a time-per-byte chart of every kernel
// measured at two or more sizes, with its size classes marked.
func (r report) writeSizesHTML(w io.Writer) {
	fmt.Fprintln(w, "<h2 id=\"sizes\">Time per byte against message size</h2>\n<p>Per ISA tier (vector width of the variant's features) the best variant at each size, with the generic code and external references dashed; red dashes mark size-class boundaries, with each class's winning isa above it.</p>")
	drawn := 0
	for _, sc := range r.Classes {
		var groups []*reports.Group
		for _, g := range r.KernelGroups(sc.Model, sc.Kernel) {
			if g.Size > 0 {
				groups = append(groups, g)
			}
		}
		if len(groups) < 2 {
			continue
		}
		drawn++
		ss, unit := sizeSeries(groups)
		fmt.Fprintf(w, "<h3>%s <small>%s</small></h3>\n", esc(sc.Kernel), esc(sc.Model.Label()))
		sizeChartSVG(w, sc.Kernel+" "+unit+" on "+sc.Model.Label(), ss, unit, sc)
		if line := speedupLine(groups, r.Options.Alpha); line != "" {
			fmt.Fprintf(w, "<p class=\"note\">%s</p>\n", esc(line))
		}
	}
	if drawn == 0 {
		fmt.Fprintln(w, "<p>No kernel was measured at two or more sizes.</p>")
	}
}

// speedupLine states the winner's speed-up against the reference at each
// size, naming the reference where it changes: "winner against the
// fastest reference: 1.76× at 16 B (ext=stdblock) · 3.14× at 64 B
// (ext=stdctr) · 3.50× at 256 B".
func speedupLine(groups []*reports.Group, alpha float64) string {
	var parts []string
	ref := ""
	for _, g := range groups {
		s, ok := reports.GroupSpeedup(g)
		if !ok {
			continue
		}
		p := fmt.Sprintf("%s× at %s", reports.FormatSpeed(s.Speed()), reports.SizeText(g.Kernel, g.Size))
		if s.Delta.P >= alpha {
			p += " (n.s.)"
		}
		if s.Ref != ref {
			ref = s.Ref
			p += " (" + ref + ")"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return "winner against the fastest reference: " + strings.Join(parts, " · ")
}

func (r report) writeClassesHTML(w io.Writer) {
	fmt.Fprintln(w, "<h2 id=\"classes\">Size classes</h2>\n<table><tr><th>kernel</th><th>CPU model</th><th>classes</th></tr>")
	for _, sc := range r.Classes {
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td><td>%s</td></tr>\n", esc(sc.Kernel), esc(sc.Model.Label()), esc(describe(sc)))
	}
	fmt.Fprintln(w, "</table>")
}

func (r report) writeLayoutHTML(w io.Writer) {
	fmt.Fprintln(w, "<h2 id=\"layout\">Layout noise</h2>")
	if floors := r.floorModels(); len(floors) > 0 {
		fmt.Fprintln(w, "<p>Layout floor: the largest difference the sweep measured between byte-identical copies of one function at other addresses and loop offsets; a smaller margin is a tie unless the winner survives moving both variants.</p><ul>")
		for _, m := range floors {
			fmt.Fprintf(w, "<li>%s: %s</li>\n", esc(m.Label()), esc(m.LayoutFloorNote))
		}
		fmt.Fprintln(w, "</ul>")
	}
	if len(r.Layout) == 0 {
		fmt.Fprintln(w, "<p>No offset sweep (align=64+N) was measured.</p>")
		return
	}
	fmt.Fprintln(w, "<p>Differences smaller than a family's alignment sensitivity are marked “within layout noise” and do not make a winner.</p><ul>")
	for _, ln := range r.Layout {
		fmt.Fprintf(w, "<li>%s</li>\n", esc(ln.String()))
	}
	fmt.Fprintln(w, "</ul>")
}
