package render

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/reports"
)

// describe describes the classes as classRanges does, or says that no
// size has a winner.
func describe(sc *reports.SizeClasses) string {
	if len(sc.Classes) == 0 {
		return "no winner at any size"
	}
	return reports.ClassRanges(sc.Classes)
}

// eachGroup calls group for every group in report order, calling heading
// first whenever a group's CPU model differs from the previous group's.
func (r report) eachGroup(heading func(*reports.Model), group func(*reports.Group)) {
	var model *reports.Model
	for _, g := range r.Groups {
		if g.Model != model {
			model = g.Model
			heading(model)
		}
		group(g)
	}
}

// rowMark returns the annotations of a row in a group table.
func rowMark(g *reports.Group, r *reports.Row) string {
	var m []string
	if r.Variant == g.Decision.Winner {
		m = append(m, "winner")
	}
	if r.External() {
		m = append(m, "external")
	}
	if r.OffsetSweep() {
		m = append(m, "offset sweep")
	}
	if !r.Stat.OK {
		m = append(m, "too few samples")
	}
	if r.LayoutNoise {
		m = append(m, "within layout noise")
	}
	return strings.Join(m, ", ")
}

// vsBase formats the comparison with the generic variant.
func vsBase(r *reports.Row) string {
	if !r.HasBase {
		return ""
	}
	return r.VsBase.String()
}

// matrixCell formats a matrix cell as "1/9 1.00 W".
func matrixCell(c *reports.MatrixCell) string {
	if c == nil {
		return "—"
	}
	s := fmt.Sprintf("%d/%d %.2f", c.Rank, c.Of, c.Speed)
	if c.Wins {
		s += " W"
	}
	if c.Loses() {
		s += " L"
	}
	return s
}

// summaryLine describes the inputs and the rule.
func (r report) summaryLine() string {
	kernels := map[string]bool{}
	for _, g := range r.Groups {
		kernels[g.Kernel] = true
	}
	return fmt.Sprintf("%d files, %d CPU models, %d kernels; %s (variants measured in the same rounds: signed-rank test and Hodges–Lehmann interval of the per-round ratios; otherwise Mann-Whitney U; a 95%% interval needs %d samples; race-eliminated, excluded and external variants never win)",
		len(r.Set.Files), len(r.Set.Models), len(kernels), r.RuleLine(), r.MinSamples)
}
