package mca

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"strings"
	"text/tabwriter"
)

// A Report is the whole output of `tunelab mca`: predictions per variant
// and CPU model, and their reconciliation with this host's measurements.
type Report struct {
	MCPUs      []string
	Host       string `json:"host_mcpu"`
	Results    []*Result
	Reconciled []Comparison `json:",omitempty"`
}

// WriteText writes rankings per kernel and CPU model, skipped variants and
// the reconciliation table.
func (r *Report) WriteText(w io.Writer) error {
	for _, kernel := range kernelsOf(r.Results) {
		rs := resultsOf(r.Results, kernel)
		for _, mcpu := range r.MCPUs {
			writeRanking(w, kernel, mcpu, rs)
		}
		writeSkipped(w, rs)
	}
	if len(r.Reconciled) > 0 {
		writeReconciled(w, r.Host, r.Reconciled)
	}
	return nil
}

func writeRanking(w io.Writer, kernel, mcpu string, rs []*Result) {
	ranked := Rank(rs, mcpu)
	if len(ranked) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s on %s (predicted, llvm-mca)\n", kernel, mcpu)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tvariant\tcost\tx best\tcycles/iter\tIPC\tbottleneck\tunmodelled")
	for _, x := range ranked {
		c, unit := Cost(x.Pred)
		fmt.Fprintf(tw, "%d\t%s\t%.1f %s\t%.2f\t%.1f\t%.2f\t%s\t%s\n", x.Rank, x.Result.Variant, c, unit,
			x.Relative, x.Pred.CyclesPerIter, x.Pred.IPC, x.Pred.Bottleneck, strings.Join(x.Pred.Unsupported, "; "))
	}
	tw.Flush()
}

func writeSkipped(w io.Writer, rs []*Result) {
	for _, r := range rs {
		if r.Skipped != "" {
			fmt.Fprintf(w, "skipped %s %s: %s\n", r.Kernel, r.Variant, r.Skipped)
		}
		if r.Warning != "" {
			fmt.Fprintf(w, "warning %s %s: %s\n", r.Kernel, r.Variant, r.Warning)
		}
		for _, p := range r.Predictions {
			if p.Prediction == nil && !strings.Contains(p.Skipped, " lacks ") {
				fmt.Fprintf(w, "skipped %s %s on %s: %s\n", r.Kernel, r.Variant, p.MCPU, p.Skipped)
			}
		}
	}
}

func writeReconciled(w io.Writer, host string, cs []Comparison) {
	fmt.Fprintf(w, "\npredicted (%s) against measured on this host, per loop iteration (measured in TSC reference cycles)\n", host)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\tvariant\tsize\tpredicted\tmeasured\tmeasured/predicted\tflag")
	agree := 0
	for _, c := range cs {
		flag := ""
		if c.Flagged {
			flag = "DISAGREE >25%"
		} else {
			agree++
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%.1f\t%.2f\t%s\n", c.Kernel, c.Variant, c.Size, c.PredictedPerIter, c.MeasuredPerIter, c.Ratio, flag)
	}
	tw.Flush()
	fmt.Fprintf(w, "agreement within 25%%: %d of %d variants\n", agree, len(cs))
}

func kernelsOf(rs []*Result) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rs {
		if !seen[r.Kernel] {
			seen[r.Kernel] = true
			out = append(out, r.Kernel)
		}
	}
	return out
}

func resultsOf(rs []*Result, kernel string) []*Result {
	var out []*Result
	for _, r := range rs {
		if r.Kernel == kernel {
			out = append(out, r)
		}
	}
	return out
}

// WriteHTML writes the report as an HTML fragment (a section of the HTML
// report): one ranking table per kernel and CPU model, then the
// reconciliation with this host's measurements.
func (r *Report) WriteHTML(w io.Writer) error {
	esc := html.EscapeString
	fmt.Fprintf(w, "<h2>Static prediction (llvm-mca)</h2>\n<p>Loop bodies extracted from the tunelab binary; host model %s.</p>\n", esc(r.Host))
	for _, kernel := range kernelsOf(r.Results) {
		rs := resultsOf(r.Results, kernel)
		for _, mcpu := range r.MCPUs {
			ranked := Rank(rs, mcpu)
			if len(ranked) == 0 {
				continue
			}
			fmt.Fprintf(w, "<h3>%s on %s</h3>\n<table><tr><th>rank</th><th>variant</th><th>cost</th><th>× best</th><th>IPC</th><th>bottleneck</th><th>unmodelled</th></tr>\n", esc(kernel), esc(mcpu))
			for _, x := range ranked {
				c, unit := Cost(x.Pred)
				fmt.Fprintf(w, "<tr><td>%d</td><td><code>%s</code></td><td class=\"num\">%.1f %s</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f</td><td>%s</td><td>%s</td></tr>\n",
					x.Rank, esc(x.Result.Variant), c, unit, x.Relative, x.Pred.IPC, esc(x.Pred.Bottleneck), esc(strings.Join(x.Pred.Unsupported, "; ")))
			}
			fmt.Fprintln(w, "</table>")
		}
	}
	if len(r.Reconciled) > 0 {
		fmt.Fprintf(w, "<h3>Predicted (%s) against measured, cycles per loop iteration</h3>\n<table><tr><th>kernel</th><th>variant</th><th>size</th><th>predicted</th><th>measured (TSC)</th><th>ratio</th><th>flag</th></tr>\n", esc(r.Host))
		for _, c := range r.Reconciled {
			flag := ""
			if c.Flagged {
				flag = "disagree &gt;25%"
			}
			fmt.Fprintf(w, "<tr><td>%s</td><td><code>%s</code></td><td class=\"num\">%d</td><td class=\"num\">%.1f</td><td class=\"num\">%.1f</td><td class=\"num\">%.2f</td><td>%s</td></tr>\n",
				esc(c.Kernel), esc(c.Variant), c.Size, c.PredictedPerIter, c.MeasuredPerIter, c.Ratio, flag)
		}
		fmt.Fprintln(w, "</table>")
	}
	return nil
}

// ReadReport reads a report written by `tunelab mca --json`.
func ReadReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading mca report: %w", err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a `tunelab mca --json` report: %w", path, err)
	}
	return &r, nil
}
