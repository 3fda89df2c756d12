package render

import (
	"io"

	"github.com/tunelab/tunelab/reports"
)

// A report is a *reports.Report with this package's writers as methods.
type report struct{ *reports.Report }

// WriteText writes the plain-text report of r: failures, the summary,
// then per CPU model and kernel every variant and the decision.
func WriteText(w io.Writer, r *reports.Report) error { return report{r}.writeText(w) }

// WriteSummaryText writes the summary of r alone, as plain text.
func WriteSummaryText(w io.Writer, r *reports.Report) { report{r}.writeSummaryText(w) }

// WriteMarkdown writes the report of r as Markdown.
func WriteMarkdown(w io.Writer, r *reports.Report) error { return report{r}.writeMarkdown(w) }

// WriteHTML writes the report of r as one HTML page with inline SVG
// charts, then r.Sections.
func WriteHTML(w io.Writer, r *reports.Report) error { return report{r}.writeHTML(w) }

// WriteOperationsText writes the knob effects of r on whole operations
// as plain text.
func WriteOperationsText(w io.Writer, r *reports.Report) error {
	return report{r}.writeOperationsText(w)
}

// OperationsHTML returns a section for r.Sections that writes the knob
// effects of r on whole operations.
func OperationsHTML(r *reports.Report) func(io.Writer) error { return report{r}.operationsHTML }
