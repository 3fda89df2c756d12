package render

import (
	"fmt"
	"html"
	"io"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
)

// writeOperationsText writes the knob effects on whole operations.
func (r report) writeOperationsText(w io.Writer) error {
	es := r.OperationEffects()
	if len(es) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nKernel knobs in whole operations (each other value against the operation's winner, other knobs as the winner's)")
	var model *reports.Model
	for _, e := range es {
		if e.Model != model {
			model = e.Model
			fmt.Fprintf(w, "  %s\n", model.Label())
		}
		fmt.Fprintf(w, "    %s\n", e)
	}
	return nil
}

// operationsHTML writes the same as an HTML section.
func (r report) operationsHTML(w io.Writer) error {
	es := r.OperationEffects()
	if len(es) == 0 {
		return nil
	}
	fmt.Fprintln(w, `<h2 id="operations">Kernel knobs in whole operations</h2><p>Each other value of a composition knob against the operation's winner (other knobs as the winner's), next to the same choice's effect on the kernel alone. Deltas are time relative to the winner; ± is a 95% interval.</p><table><tr><th>model</th><th>operation</th><th>choice</th><th>kernel alone</th><th>whole operation</th></tr>`)
	for _, e := range es {
		kernel := "—"
		if e.HasKernel {
			kernel = fmt.Sprintf("%s: %s %s", e.Kernel, stats.FormatPct(e.KernelEffect.Pct), stats.FormatPM(e.KernelEffect.PM))
		}
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td><td>%s=%s vs %s</td><td>%s</td><td>%s</td></tr>\n", html.EscapeString(e.Model.Label()),
			html.EscapeString(e.Operation), e.Knob, html.EscapeString(e.Value), html.EscapeString(e.WinnerValue), html.EscapeString(kernel), html.EscapeString(e.Op.String()))
	}
	_, err := fmt.Fprintln(w, "</table>")
	return err
}
