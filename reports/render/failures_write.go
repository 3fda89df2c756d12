package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/tunelab/tunelab/reports"
)

// modelName labels a failure's model for the reports.
func modelName(f *reports.Failure) string {
	if f.Model == nil {
		return "unknown CPU"
	}
	return f.Model.Label()
}

// runsNote says how many runs excluded the variant when more than one.
func runsNote(f *reports.Failure) string {
	if f.Runs < 2 {
		return ""
	}
	return fmt.Sprintf(" (excluded by %d runs)", f.Runs)
}

// failuresHeading counts the failures for the first line of a section.
func (r report) failuresHeading() string {
	n := len(r.Set.Failures)
	noun := "variants"
	if n == 1 {
		noun = "variant"
	}
	return fmt.Sprintf("FAILED: %d %s failed verification or crashed (never measured, never a winner)", n, noun)
}

// writeFailuresText writes the failures above the summary.
func (r report) writeFailuresText(w io.Writer) {
	if len(r.Set.Failures) == 0 {
		return
	}
	fmt.Fprintln(w, r.failuresHeading())
	for _, f := range r.Set.Failures {
		fmt.Fprintf(w, "  %s  %s  %s: %s%s\n", modelName(f), f.Group, f.Variant, oneLine(f.Reason), runsNote(f))
	}
	fmt.Fprintln(w)
}

// writeFailuresMD writes the failures as a Markdown section.
func (r report) writeFailuresMD(w io.Writer) {
	if len(r.Set.Failures) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## %s\n\n| CPU | kernel | variant | first mismatch or crash |\n|---|---|---|---|\n", mdText(r.failuresHeading()))
	for _, f := range r.Set.Failures {
		fmt.Fprintf(w, "| %s | %s | %s | %s%s |\n", mdText(modelName(f)), mdCode(f.Group), mdCode(f.Variant), mdText(f.Reason), mdText(runsNote(f)))
	}
}

// writeFailuresHTML writes the failures as an HTML section.
func (r report) writeFailuresHTML(w io.Writer) {
	if len(r.Set.Failures) == 0 {
		return
	}
	fmt.Fprintf(w, "<h2 id=\"failures\" class=\"failed\">%s</h2>\n<table>\n<tr><th>CPU</th><th>kernel</th><th>variant</th><th>first mismatch or crash</th></tr>\n", esc(r.failuresHeading()))
	for _, f := range r.Set.Failures {
		fmt.Fprintf(w, "<tr><td>%s</td><td><code>%s</code></td><td><code>%s</code></td><td>%s%s</td></tr>\n",
			esc(modelName(f)), esc(f.Group), esc(f.Variant), esc(f.Reason), esc(runsNote(f)))
	}
	fmt.Fprintln(w, "</table>")
}

// oneLine folds line breaks so that a reason stays on its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
