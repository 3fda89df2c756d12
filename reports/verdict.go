package reports

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
)

// FindGroup returns the report's group of kernel at size measured on the
// model with dispatch key key ("" matches any model), or nil.
func (r *Report) FindGroup(key, kernel string, size int) *Group {
	for _, g := range r.Groups {
		if (key == "" || g.Model.Key == key) && g.Kernel == kernel && g.Size == size {
			return g
		}
	}
	return nil
}

// VerdictLines states the group's decision in a few lines, as the sweep
// prints it after racing and the report explains it: the winner with its
// median and 95% interval; the runner-up or the tie partner with the
// margin; each external reference and the generic baseline relative to
// the winner (time ratio, negative = the winner is faster than nothing).
func (g *Group) VerdictLines() []string {
	d := g.Decision
	w := RowOf(g, d.Winner)
	if w == nil {
		return []string{d.Note}
	}
	kind := map[DecisionKind]string{Significant: "significant", Tie: "tie: simpler kept", Only: "only candidate"}[d.Kind]
	lines := []string{fmt.Sprintf("winner     %-40s %s [%s, %s] n=%d (%s)", w.Variant, FormatNS(w.Stat.Median), FormatNS(w.Stat.Lo), FormatNS(w.Stat.Hi), w.Stat.N, kind)}
	if o := RowOf(g, d.Other); o != nil {
		what := "runner-up"
		if d.Kind == Tie {
			what = "tied with"
		}
		lines = append(lines, fmt.Sprintf("%-10s %-40s %s n=%d", what, o.Variant, d.Delta, o.Stat.N))
	}
	for _, r := range g.Rows {
		if r.External() || r.Variant == variant.GenericName {
			lines = append(lines, referenceLine(r, w))
		}
	}
	if n := g.eliminatedCount(); n > 0 {
		lines = append(lines, fmt.Sprintf("%-10s %d variants the race eliminated are not candidates", "eliminated", n))
	}
	return lines
}

// referenceLine compares a reference row (external or generic) with the
// winner: "reference ext=sha3 +15.2% ±0.8%, p<0.001 (winner 1.15x as fast)".
func referenceLine(r, w *Row) string {
	what := "reference"
	if !r.External() {
		what = "baseline"
	}
	d := stats.Compare(r.Stat, w.Stat)
	speed := fmt.Sprintf("winner %.2fx as fast", 1+d.Pct)
	return fmt.Sprintf("%-10s %-40s %s (%s) n=%d", what, r.Variant, d, speed, r.Stat.N)
}

// eliminatedCount returns how many rows the race eliminated.
func (g *Group) eliminatedCount() int {
	n := 0
	for _, r := range g.Rows {
		if r.Point.Eliminated {
			n++
		}
	}
	return n
}

// RuleLine describes the decision rule a report applied, and the rules
// its files' runs recorded when they differ.
func (r *Report) RuleLine() string {
	line := "decision rule: " + r.Options.String()
	var other []string
	for _, rule := range r.Set.Rules {
		if rule != r.Options.String() {
			other = append(other, rule)
		}
	}
	if len(other) > 0 {
		line += "; runs recorded " + strings.Join(other, " | ")
	}
	return line
}
