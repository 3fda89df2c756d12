package reports

import (
	"fmt"
	"sort"

	"github.com/tunelab/tunelab/harness/resultfile"
)

// A LayoutNoise is the alignment sensitivity of a kernel family on a CPU
// model, measured from an offset sweep (variants differing only in
// align=64+N): the slowest offset's median over the fastest's, minus one.
// It is the largest such ratio over the family's sweeps on that model.
type LayoutNoise struct {
	Model       *Model
	Family      string
	Sensitivity float64
	// Where the largest sensitivity was measured.
	Kernel           string
	Size             int
	Sweep            string // the sweep's variant pattern, align=*
	Offsets          int
	Fastest, Slowest string
}

// layoutNoise finds every measured offset sweep and keeps the largest
// sensitivity per (model, family).
func layoutNoise(groups []*Group) []*LayoutNoise {
	best := map[string]*LayoutNoise{}
	for _, g := range groups {
		for pattern, rows := range sweeps(g) {
			ln := sweepNoise(g, pattern, rows)
			key := g.Model.ID() + "\x00" + ln.Family
			if old := best[key]; old == nil || ln.Sensitivity > old.Sensitivity {
				best[key] = ln
			}
		}
	}
	out := make([]*LayoutNoise, 0, len(best))
	for _, k := range sortedKeys(best) {
		out = append(out, best[k])
	}
	return out
}

// sweeps returns the offset sweeps within a group: sets of at least two
// rows with enough samples that differ only in align=64+N and include a
// member with N > 0.
func sweeps(g *Group) map[string][]*Row {
	all := map[string][]*Row{}
	for _, r := range g.Rows {
		if resultfile.SweepOffset(r.Variant) >= 0 && r.Stat.OK {
			p := withKnob(r.Variant, "align", "*")
			all[p] = append(all[p], r)
		}
	}
	out := map[string][]*Row{}
	for p, rows := range all {
		hasOffset := false
		for _, r := range rows {
			hasOffset = hasOffset || resultfile.SweepOffset(r.Variant) > 0
		}
		if len(rows) >= 2 && hasOffset {
			out[p] = rows
		}
	}
	return out
}

func sweepNoise(g *Group, pattern string, rows []*Row) *LayoutNoise {
	sorted := append([]*Row(nil), rows...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Stat.Median < sorted[j].Stat.Median })
	lo, hi := sorted[0], sorted[len(sorted)-1]
	return &LayoutNoise{
		Model: g.Model, Family: family(g.Kernel), Sensitivity: hi.Stat.Median/lo.Stat.Median - 1,
		Kernel: g.Kernel, Size: g.Size, Sweep: pattern, Offsets: len(rows),
		Fastest: resultfile.Knob(lo.Variant, "align"), Slowest: resultfile.Knob(hi.Variant, "align"),
	}
}

// noiseFor returns the layout sensitivity that applies to a group: that of
// its kernel's family on its model, 0 if none was measured.
func noiseFor(layout []*LayoutNoise, g *Group) float64 {
	f := family(g.Kernel)
	for _, ln := range layout {
		if ln.Model == g.Model && ln.Family == f {
			return ln.Sensitivity
		}
	}
	return 0
}

// String describes the sensitivity and where it was measured.
func (ln *LayoutNoise) String() string {
	where := ln.Kernel
	if ln.Size > 0 {
		where = fmt.Sprintf("%s size=%d", ln.Kernel, ln.Size)
	}
	return fmt.Sprintf("%s on %s: %.1f%% (%s %s, %d offsets, fastest align=%s, slowest align=%s)",
		ln.Family, ln.Model.Label(), 100*ln.Sensitivity, where, ln.Sweep, ln.Offsets, ln.Fastest, ln.Slowest)
}
