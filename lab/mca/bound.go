package mca

import (
	"fmt"
	"html"
	"io"
	"text/tabwriter"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/reports"
)

// BoundFlag is the fraction of its bound below which a winner is flagged:
// it leaves more than 30% of the predicted throughput on the table.
const BoundFlag = 0.70

// A Bound puts a winner's measured cycles per op next to the throughput
// lower bound of its hot loop on the CPU model: llvm-mca's predicted
// cycles per loop iteration (resource pressure of its instruction mix on
// the model's ports) times the loop trips per op. Work outside the loop
// (setup, transposition, tails) is not in the bound, so Pct <= 100% means
// "this close to what the loop alone needs".
type Bound struct {
	Model, Kernel, Variant, MCPU string
	Size                         int
	BoundCycles, Measured        float64 // per op
	// Unit says what Measured counts: "est-core-cycles" (TSC ticks scaled
	// by the core/TSC ratio of a dependent-add chain) or, when the sweep
	// recorded no estimate, "tsc-cycles" (reference cycles: Pct is then
	// only indicative).
	Unit    string
	Pct     float64 // BoundCycles / Measured
	Flagged bool    // Pct < BoundFlag
}

// Bounds computes the bound of every group's winner that m has a
// prediction for on the llvm-mca model of the group's CPU.
func Bounds(r *reports.Report, m *Report) []Bound {
	var out []Bound
	for _, g := range r.Groups {
		if b, ok := groupBound(g, m); ok {
			out = append(out, b)
		}
	}
	return out
}

func groupBound(g *reports.Group, m *Report) (Bound, bool) {
	mcpu := MCPUForUarch(g.Model.Uarch)
	res := findResult(m.Results, g.Kernel, g.Decision.Winner)
	v := variant.Lookup(g.Kernel, g.Decision.Winner)
	if mcpu == "" || res == nil || v == nil || v.LoopTrips == nil {
		return Bound{}, false
	}
	p := res.For(mcpu)
	row := winnerPoint(g)
	if p == nil || row == nil {
		return Bound{}, false
	}
	b := Bound{Model: g.Model.Label(), Kernel: g.Kernel, Variant: g.Decision.Winner, MCPU: mcpu, Size: g.Size,
		BoundCycles: p.CyclesPerIter * v.LoopTrips(g.Size), Unit: "est-core-cycles"}
	switch {
	case len(row.Core) > 0:
		b.Measured = stats.Median(row.Core)
	case len(row.TSC) > 0:
		b.Measured, b.Unit = stats.Median(row.TSC), "tsc-cycles"
	default:
		return Bound{}, false
	}
	b.Pct = b.BoundCycles / b.Measured
	b.Flagged = b.Pct < BoundFlag
	return b, b.Measured > 0 && b.BoundCycles > 0
}

func winnerPoint(g *reports.Group) *reports.Point {
	for _, r := range g.Rows {
		if r.Variant == g.Decision.Winner {
			return r.Point
		}
	}
	return nil
}

// WriteBoundsText writes the bounds as a table.
func WriteBoundsText(w io.Writer, bs []Bound) error {
	fmt.Fprintf(w, "\nDistance to the bound (llvm-mca loop throughput x trips per op vs measured; flagged below %.0f%%)\n", 100*BoundFlag)
	if len(bs) == 0 {
		_, err := fmt.Fprintln(w, "  none: no winner has an llvm-mca prediction for its CPU model")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  model\tkernel\tsize\twinner\tmcpu\tbound/op\tmeasured/op\t% of bound\t")
	for _, b := range bs {
		flag := ""
		if b.Flagged {
			flag = "below 70%"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%s\t%.0f\t%.0f %s\t%.0f%%\t%s\n", b.Model, b.Kernel, b.Size, b.Variant, b.MCPU, b.BoundCycles, b.Measured, b.Unit, 100*b.Pct, flag)
	}
	return tw.Flush()
}

// BoundsHTML returns a report section writing the bounds as an HTML table.
func BoundsHTML(bs []Bound) func(io.Writer) error {
	return func(w io.Writer) error {
		fmt.Fprintf(w, "<h2 id=\"bounds\">Distance to the bound</h2>\n<p>llvm-mca's predicted loop throughput on the model times the loop trips per op, against the winner's measured cycles per op (estimated core cycles where the sweep recorded them). Flagged below %.0f%%.</p>\n<table><tr><th>model</th><th>kernel</th><th>size</th><th>winner</th><th>mcpu</th><th>bound/op</th><th>measured/op</th><th>%% of bound</th></tr>\n", 100*BoundFlag)
		for _, b := range bs {
			style := ""
			if b.Flagged {
				style = ` style="background:#fdd"`
			}
			fmt.Fprintf(w, "<tr%s><td>%s</td><td>%s</td><td>%d</td><td><code>%s</code></td><td>%s</td><td>%.0f</td><td>%.0f %s</td><td>%.0f%%</td></tr>\n",
				style, html.EscapeString(b.Model), html.EscapeString(b.Kernel), b.Size, html.EscapeString(b.Variant), b.MCPU, b.BoundCycles, b.Measured, b.Unit, 100*b.Pct)
		}
		_, err := fmt.Fprintln(w, "</table>")
		return err
	}
}
