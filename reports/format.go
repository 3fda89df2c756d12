package reports

import (
	"fmt"
	"strings"
)

// fmtNS formats a duration in nanoseconds with four significant digits.
func fmtNS(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.4gs", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.4gms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.4gµs", ns/1e3)
	}
	return fmt.Sprintf("%.4gns", ns)
}

// groupTitle names a group: "keccak.x4" or "poly1305 size=64".
func groupTitle(g *Group) string {
	if g.Size == 0 {
		return g.Kernel
	}
	return fmt.Sprintf("%s size=%d", g.Kernel, g.Size)
}

// describe describes the classes as classRanges does, or says that no
// size has a winner.
func (sc *SizeClasses) describe() string {
	if len(sc.Classes) == 0 {
		return "no winner at any size"
	}
	return classRanges(sc.Classes)
}

// eachGroup calls group for every group in report order, calling heading
// first whenever a group's CPU model differs from the previous group's.
func (r *Report) eachGroup(heading func(*Model), group func(*Group)) {
	var model *Model
	for _, g := range r.Groups {
		if g.Model != model {
			model = g.Model
			heading(model)
		}
		group(g)
	}
}

// classRanges describes size classes as "≤64 B: X; 65–1024 B: Y; >1024 B: Z".
func classRanges(cs []Class) string {
	if len(cs) == 1 && cs[0].MinSize == 0 {
		return "all sizes: " + cs[0].Variant
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = classRange(cs, i) + ": " + c.Variant
	}
	return strings.Join(parts, "; ")
}

func classRange(cs []Class, i int) string {
	c := cs[i]
	switch {
	case len(cs) == 1:
		return "all sizes"
	case i == 0:
		return fmt.Sprintf("≤%d B", c.MaxSize)
	case c.MaxSize == 0:
		return fmt.Sprintf(">%d B", cs[i-1].MaxSize)
	}
	return fmt.Sprintf("%d–%d B", cs[i-1].MaxSize+1, c.MaxSize)
}

// rowMark returns the annotations of a row in a group table.
func rowMark(g *Group, r *Row) string {
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
func vsBase(r *Row) string {
	if !r.HasBase {
		return ""
	}
	return r.VsBase.String()
}

// matrixCell formats a matrix cell as "1/9 1.00 W".
func matrixCell(c *MatrixCell) string {
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
func (r *Report) summaryLine() string {
	kernels := map[string]bool{}
	for _, g := range r.Groups {
		kernels[g.Kernel] = true
	}
	return fmt.Sprintf("%d files, %d CPU models, %d kernels; %s (variants measured in the same rounds: signed-rank test and Hodges–Lehmann interval of the per-round ratios; otherwise Mann-Whitney U; a 95%% interval needs %d samples; race-eliminated, excluded and external variants never win)",
		len(r.Set.Files), len(r.Set.Models), len(kernels), r.ruleLine(), r.MinSamples)
}
