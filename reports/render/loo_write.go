package render

import (
	"fmt"
	"html/template"
	"io"
	"text/tabwriter"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/loo"
)

// WriteLOOText writes the first evaluation's table per model, the rules
// of all evaluations compared, and, as its last line, the first
// evaluation's summary (LOOSummary.Line).
func WriteLOOText(w io.Writer, loos []*loo.Result) {
	main := loos[0]
	fmt.Fprintf(w, "Leave-one-out (rule %s): what a CPU like each, unmeasured, would lose. Per CPU model, the table is exported\n", main.Rule.Name)
	fmt.Fprintln(w, "without the results of its dispatch key; dispatch picks for its features; regret = pick's time / its own winner's - 1 (± 95% interval).")
	for _, lm := range main.Models {
		fmt.Fprintf(w, "\n%s [%s, %s]: table from %d other models; %s\n", lm.Model.Label(), lm.Model.Key, lm.Model.Level, lm.Others, lm.Summary.Figures())
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  kernel\tsize\tpick (knobs unlike its winner's)\tsource\tregret\t")
		for _, p := range lm.Picks {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t\n", p.Kernel, p.SizeCell(), reports.DiffLabel(p.Pick, p.Winner), p.Detail, p.RegretCell())
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "\nRules compared on the same files:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  rule\tregret\tvs %s, where the picks differ\tconsults\t\n", main.Rule.Name)
	for _, l := range loos {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t\n", l.Rule.Name, l.Summary.Figures(), pairedCell(l, main), looRuleDoc[l.Rule.Name])
	}
	tw.Flush()
	fmt.Fprintln(w, main.Summary.Line())
}

// pairedCell says how l's picks compare with main's where they differ:
// "-0.5% ±2.1% (geomean time ratio); lower regret on 43 picks, higher on
// 35 (sign test p=0.43)", or "-" for main itself.
func pairedCell(l, main *loo.Result) string {
	if l == main {
		return "-"
	}
	pr := l.Paired(main)
	if pr.Better+pr.Worse == 0 {
		return "no measured pick differs"
	}
	return fmt.Sprintf("%s %s (geomean time ratio); lower regret on %d picks, higher on %d (sign test %s)",
		stats.FormatPct(pr.Ratio), stats.FormatPM(pr.PM), pr.Better, pr.Worse, stats.FormatP(pr.P))
}

// writeLOOMarkdown writes the leave-one-out section of the Markdown
// report: the rules compared and the production rule's picks per model,
// text from result files escaped (mdText, mdCode).
func writeLOOMarkdown(w io.Writer, loos []*loo.Result) {
	main := loos[0]
	fmt.Fprintf(w, "\n## Leave-one-out: what a CPU like this, unmeasured, would lose\n\n")
	fmt.Fprintf(w, "Per CPU model, the dispatch table is exported without the results of its dispatch key and dispatch (rule %s) picks for its features; regret = the pick's time / the model's own winner's − 1 (± 95%% interval).\n\n", main.Rule.Name)
	fmt.Fprintf(w, "| rule | regret | vs %s, where the picks differ | consults |\n", main.Rule.Name)
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, l := range loos {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", l.Rule.Name, l.Summary.Figures(), pairedCell(l, main), looRuleDoc[l.Rule.Name])
	}
	for _, lm := range main.Models {
		fmt.Fprintf(w, "\n### %s (%s, %s): table from %d other models; %s\n\n", mdText(lm.Model.Label()), mdText(lm.Model.Key), mdText(lm.Model.Level), lm.Others, lm.Summary.Figures())
		fmt.Fprintln(w, "| kernel | size | pick (knobs unlike its winner's) | source | regret |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
		for _, p := range lm.Picks {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mdText(p.Kernel), p.SizeCell(), mdCode(reports.DiffLabel(p.Pick, p.Winner)), mdText(p.Detail), p.RegretCell())
		}
	}
	fmt.Fprintf(w, "\n%s\n", mdText(main.Summary.Line()))
}

// looHTML is the leave-one-out section of the HTML report.
var looHTML = template.Must(template.New("loo").Parse(`
<h2 id="leave-one-out">Leave-one-out: what a CPU like this, unmeasured, would lose</h2>
<p>Per CPU model, the dispatch table is exported without the results of its dispatch key and dispatch (rule {{.Main.Rule.Name}}) picks for its features; regret = the pick's time / the model's own winner's − 1 (± 95% interval).</p>
<table><tr><th>rule</th><th>regret</th><th>vs {{.Main.Rule.Name}}, where the picks differ</th><th>consults</th></tr>
{{range .Rules}}<tr><td>{{.Name}}</td><td>{{.Figures}}</td><td>{{.Paired}}</td><td>{{.Doc}}</td></tr>
{{end}}</table>
{{range .Main.Models}}<h3>{{.Model.Label}} ({{.Model.Key}}, {{.Model.Level}}): table from {{.Others}} other models; {{.Summary.Figures}}</h3>
<table><tr><th>kernel</th><th>size</th><th>pick (knobs unlike its winner's)</th><th>source</th><th>regret</th></tr>
{{range .Picks}}<tr><td>{{.Kernel}}</td><td>{{.SizeCell}}</td><td><code>{{.Diff}}</code></td><td>{{.Detail}}</td><td>{{.RegretCell}}</td></tr>
{{end}}</table>
{{end}}<p>{{.Main.Summary.Line}}</p>
`))

// writeLOOHTML writes the leave-one-out section of the HTML report.
func writeLOOHTML(w io.Writer, loos []*loo.Result) error {
	type rule struct{ Name, Figures, Paired, Doc string }
	data := struct {
		Main  *loo.Result
		Rules []rule
	}{Main: loos[0]}
	for _, l := range loos {
		data.Rules = append(data.Rules, rule{l.Rule.Name, l.Summary.Figures(), pairedCell(l, loos[0]), looRuleDoc[l.Rule.Name]})
	}
	return looHTML.Execute(w, data)
}

// looModels reports whether the report has the two known models that
// leave-one-out needs.
func (r report) looModels() bool {
	n := 0
	for _, m := range r.Set.Models {
		if !m.Unknown {
			n++
		}
	}
	return n >= 2
}

// looRuleDoc says in a few words what each rule consults for a CPU the
// table does not name.
var looRuleDoc = map[string]string{
	"nearest":  "the nearest measured CPU's entry (same features as far as the kernel's tabled variants use them; same vendor and family first, then most features in common), then the defaults",
	"features": "defaults keyed by features beyond the level (v4+ifma+vbmi, v4+ifma, v4+vbmi, v3+vaes), then the level defaults",
	"level":    "the feature-level defaults only",
}
