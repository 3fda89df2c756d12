package main

import (
	"fmt"
	"html"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tunelab/tunelab/reports"
)

// The report's constant-time section: the static check's status of every
// variant in the results, and of each summary row's winner and of what
// the compiled table selects (see lab/ct).

// ctRow is one summary row's constant-time status.
type ctRow struct {
	model, kernel, class, winner, status string
}

// ctSection is what the section shows.
type ctSection struct {
	rows   []ctRow
	counts map[string]int // status -> variants in the results
	notOK  []string       // "kernel variant: status" for findings and unchecked code
}

func newCTSection(rep *reports.Report) ctSection {
	s := ctSection{counts: map[string]int{}}
	seen := map[string]bool{}
	for _, g := range rep.Groups {
		for _, r := range g.Rows {
			key := g.Kernel + " " + r.Variant
			if seen[key] {
				continue
			}
			seen[key] = true
			st := reportCTState(g.Kernel, r.Variant)
			s.counts[ctBucket(st)]++
			if ctBucket(st) == "with findings" || st == "unchecked" {
				s.notOK = append(s.notOK, key+": "+st)
			}
		}
	}
	sort.Strings(s.notOK)
	for _, row := range rep.Summary() {
		if row.Winner == "" {
			continue
		}
		s.rows = append(s.rows, ctRow{model: sectionModel(row), kernel: row.Kernel, class: row.Label, winner: row.Short,
			status: reportCTState(row.Kernel, row.Winner)})
	}
	return s
}

func sectionModel(row *reports.SummaryRow) string {
	if row.Model == nil {
		return ""
	}
	return fmt.Sprintf("%s/%#02x/%#02x", row.Model.Vendor, row.Model.Family, row.Model.Model)
}

// ctBucket groups statuses for the counts.
func ctBucket(st string) string {
	switch {
	case st == "ok", st == "go", st == "unchecked", st == "not registered":
		return st
	}
	return "with findings"
}

func (s ctSection) countLine() string {
	var parts []string
	for _, b := range []string{"ok", "with findings", "go", "unchecked", "not registered"} {
		if n := s.counts[b]; n > 0 {
			label := b
			switch b {
			case "ok":
				label = "checked, no findings"
			case "go":
				label = "Go code (dynamic check only)"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, label))
		}
	}
	if len(parts) == 0 {
		return "no variants"
	}
	return strings.Join(parts, ", ")
}

const ctIntro = "Static constant-time check of the generated code (tunelab ct): secret-dependent branches, addresses and variable-latency instructions, from avo's instruction stream. A variant with a finding is never exported into a dispatch table."

func (s ctSection) writeText(w io.Writer) {
	fmt.Fprintf(w, "\nConstant time: %s\n  variants in these results: %s\n", ctIntro, s.countLine())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  model\tkernel\tclass\twinner\tconstant time")
	for _, r := range s.rows {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", r.model, r.kernel, r.class, r.winner, r.status)
	}
	tw.Flush()
	for _, n := range s.notOK {
		fmt.Fprintf(w, "  not constant-time clean: %s\n", n)
	}
}

func (s ctSection) writeMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "\n## Constant time\n\n%s\n\nVariants in these results: %s.\n\n| model | kernel | size class | winner | constant time |\n|---|---|---|---|---|\n", ctIntro, s.countLine())
	for _, r := range s.rows {
		fmt.Fprintf(w, "| %s | %s | %s | `%s` | %s |\n", r.model, r.kernel, r.class, r.winner, r.status)
	}
	for _, n := range s.notOK {
		fmt.Fprintf(w, "\nNot constant-time clean: %s\n", n)
	}
	return nil
}

func (s ctSection) writeHTML(w io.Writer) error {
	fmt.Fprintf(w, "<h2 id=\"constant-time\">Constant time</h2>\n<p>%s</p>\n<p>Variants in these results: %s.</p>\n", html.EscapeString(ctIntro), html.EscapeString(s.countLine()))
	fmt.Fprintln(w, "<table class=\"sum\"><tr><th>model<th>kernel<th>size class<th>winner<th>constant time")
	for _, r := range s.rows {
		cls := "yes"
		if r.status != "ok" && r.status != "go" {
			cls = "no"
		}
		fmt.Fprintf(w, "<tr><td>%s<td>%s<td class=\"n\">%s<td><code>%s</code><td class=\"%s\">%s\n", html.EscapeString(r.model),
			html.EscapeString(r.kernel), html.EscapeString(r.class), html.EscapeString(r.winner), cls, html.EscapeString(r.status))
	}
	fmt.Fprintln(w, "</table>")
	for _, n := range s.notOK {
		fmt.Fprintf(w, "<p class=\"note\">Not constant-time clean: %s</p>\n", html.EscapeString(n))
	}
	return nil
}
