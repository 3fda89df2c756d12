package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A SummaryRow is one line of a report's summary: the variant the winner
// rule picks for one size class of one kernel on one CPU model, how much
// faster it is than the reference a user would otherwise call, and
// whether the compiled dispatch table already selects it.
type SummaryRow struct {
	Model  *Model
	Kernel string
	// Class is the size class (Class.Sizes are its measured sizes); Label
	// names its range ("≤64 B", "65 B–16 KiB", "fixed size").
	Class Class
	Label string
	// Winner is the class's variant; Short keeps only the knobs that
	// matter (see ShortName).
	Winner, Short string
	// Speedups compares the winner with the reference at each measured
	// size of the class, smallest size first.
	Speedups []Speedup
	// Compiled is what the compiled dispatch table selects at the
	// class's sizes on this model.
	Compiled CompiledCheck
}

// A Speedup compares a group's winner with its reference: the fastest
// external implementation measured (ext=...), else the generic variant.
type Speedup struct {
	Size int
	// Ref is the reference's variant name; Refs counts the external
	// references measured (0: Ref is the generic variant).
	Ref  string
	Refs int
	// Delta is the reference's time relative to the winner: Speed() =
	// 1 + Delta.Pct is how many times as fast the winner is.
	Delta stats.Delta
}

// Speed returns how many times as fast as the reference the winner is.
func (s Speedup) Speed() float64 { return 1 + s.Delta.Pct }

// Interval returns the approximate 95% interval of Speed.
func (s Speedup) Interval() (lo, hi float64) {
	return s.Speed() - s.Delta.PM, s.Speed() + s.Delta.PM
}

// String formats the speed-up as "1.34× [1.31–1.37]" with "(n.s.)"
// when the difference is not significant at alpha.
func (s Speedup) String(alpha float64) string {
	lo, hi := s.Interval()
	out := fmt.Sprintf("%s× [%s–%s]", FormatSpeed(s.Speed()), FormatSpeed(lo), FormatSpeed(hi))
	if math.IsNaN(s.Delta.PM) || math.IsInf(s.Delta.PM, 0) {
		out = FormatSpeed(s.Speed()) + "× [interval unknown]"
	}
	if s.Delta.P >= alpha {
		out += " (n.s.)"
	}
	return out
}

// RefLabel names the reference: "ext=circl", "ext=circl (best of 2)" or
// "isa=generic (no external reference)".
func (s Speedup) RefLabel() string {
	switch {
	case s.Refs == 0:
		return s.Ref + " (no external reference)"
	case s.Refs > 1:
		return fmt.Sprintf("%s (best of %d)", s.Ref, s.Refs)
	}
	return s.Ref
}

// FormatSpeed formats a speed ratio with three significant digits.
func FormatSpeed(f float64) string {
	switch {
	case f >= 100:
		return fmt.Sprintf("%.0f", f)
	case f >= 10:
		return fmt.Sprintf("%.1f", f)
	}
	return fmt.Sprintf("%.2f", f)
}

// Summary returns one row per CPU model, kernel and size class with a
// winner, in the order of r.Classes (model, then kernel), and a row with
// no Winner for a kernel without a winner at any size.
func (r *Report) Summary() []*SummaryRow {
	var out []*SummaryRow
	for _, sc := range r.Classes {
		groups := r.KernelGroups(sc.Model, sc.Kernel)
		if len(sc.Classes) == 0 {
			out = append(out, &SummaryRow{Model: sc.Model, Kernel: sc.Kernel, Label: "all sizes"})
			continue
		}
		plan := compiledPlanFor(sc.Model, sc.Kernel, groups)
		for i, c := range sc.Classes {
			row := &SummaryRow{Model: sc.Model, Kernel: sc.Kernel, Class: c, Label: classLabel(sc.Kernel, sc.Classes, i), Winner: c.Variant}
			var in []*Group
			for _, g := range groups {
				if slices.Contains(c.Sizes, g.Size) {
					in = append(in, g)
				}
			}
			row.Short = ShortName(in, c.Variant, r.Options)
			row.Speedups = speedups(in)
			row.Compiled = plan.check(c, in, r.Options.Alpha)
			out = append(out, row)
		}
	}
	return out
}

// NoWinner lists the groups without a winner, "kernel size=N on model".
func (r *Report) NoWinner() []string {
	var out []string
	for _, g := range r.Groups {
		if g.Decision.Winner == "" {
			out = append(out, GroupTitle(g)+" on "+g.Model.Label())
		}
	}
	return out
}

// KernelGroups returns the groups of kernel measured on m, by size.
func (r *Report) KernelGroups(m *Model, kernel string) []*Group {
	var out []*Group
	for _, g := range r.Groups {
		if g.Model == m && g.Kernel == kernel {
			out = append(out, g)
		}
	}
	return out
}

// speedups compares each group's winner with its reference.
func speedups(groups []*Group) []Speedup {
	var out []Speedup
	for _, g := range groups {
		if s, ok := GroupSpeedup(g); ok {
			out = append(out, s)
		}
	}
	return out
}

// GroupSpeedup compares g's winner with its reference: the fastest
// external variant measured, else the generic one. ok is false when the
// group has no winner or no reference.
func GroupSpeedup(g *Group) (s Speedup, ok bool) {
	w := RowOf(g, g.Decision.Winner)
	if w == nil {
		return Speedup{}, false
	}
	var ref *Row
	n := 0
	for _, r := range g.Rows {
		if r.External() && r.Stat.N > 0 {
			n++
			if ref == nil {
				ref = r // rows are sorted fastest first
			}
		}
	}
	if ref == nil {
		ref = g.Base
	}
	if ref == nil || ref == w {
		return Speedup{}, false
	}
	return Speedup{Size: g.Size, Ref: ref.Variant, Refs: n, Delta: stats.Compare(ref.Stat, w.Stat)}, true
}

// classLabel names class i of kernel's classes cs: "fixed size" when
// every measured size is 0 (a fixed-size kernel), else its size range.
func classLabel(kernel string, cs []Class, i int) string {
	fixed := true
	for _, c := range cs {
		for _, size := range c.Sizes {
			fixed = fixed && size == 0
		}
	}
	c := cs[i]
	switch {
	case fixed:
		return "fixed size"
	case len(cs) == 1:
		return "all sizes"
	case i == 0:
		return "≤" + SizeText(kernel, c.MaxSize)
	case c.MaxSize == 0:
		return ">" + SizeText(kernel, cs[i-1].MaxSize)
	}
	return SizeText(kernel, cs[i-1].MaxSize+1) + "–" + SizeText(kernel, c.MaxSize)
}

// SizeText formats a size of kernel: in bytes ("64 B", "16 KiB"), or as
// a count of the kernel's unit when it is registered with a unit other
// than bytes ("4 streams").
func SizeText(kernel string, n int) string {
	if k := variant.LookupKernel(kernel); k != nil && k.Unit != "" && k.Unit != "B" {
		if n == 1 {
			return "1 " + k.Unit
		}
		return fmt.Sprintf("%d %ss", n, k.Unit)
	}
	return fmtBytes(n)
}

// fmtBytes formats a size as "64 B", "16 KiB" or "1 MiB" (binary units
// only when exact).
func fmtBytes(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// ShortName returns the winner's name with only the knobs that matter in
// groups: isa always; another knob only if a variant that differs from
// the winner in that knob alone is significantly slower (by more than the
// threshold) in one of the groups. A knob without such a measured
// alternative (rot=prol does not exist for AVX2) decided nothing and is
// left out. External and generic names are returned whole.
func ShortName(groups []*Group, winner string, opt Options) string {
	if resultfile.IsExternal(winner) || winner == variant.GenericName {
		return winner
	}
	var keep []string
	for _, k := range variant.Knobs(winner) {
		if k.Key == "isa" || knobMatters(groups, winner, k.Key, opt) {
			keep = append(keep, k.Key+"="+k.Value)
		}
	}
	return strings.Join(keep, "/")
}

// knobMatters reports whether changing knob key of winner alone makes it
// significantly slower in some group.
func knobMatters(groups []*Group, winner, key string, opt Options) bool {
	pattern := withKnob(winner, key, "*")
	for _, g := range groups {
		w := RowOf(g, winner)
		if w == nil {
			continue
		}
		for _, r := range g.Rows {
			if r == w || r.info.offsetSweep || !r.Stat.OK || withKnob(r.Variant, key, "*") != pattern {
				continue
			}
			if d := stats.Compare(r.Stat, w.Stat); d.Pct > 0 && d.Significant(opt.Alpha, opt.Threshold) {
				return true
			}
		}
	}
	return false
}

// DiffLabel returns the knobs of name that differ from winner's (or that
// winner lacks), joined by " "; the whole name when the two share no knob
// keys (external, generic) and "=" when they are equal.
func DiffLabel(name, winner string) string {
	if name == winner {
		return "="
	}
	wk := map[string]string{}
	for _, k := range variant.Knobs(winner) {
		wk[k.Key] = k.Value
	}
	var diff []string
	shared := false
	for _, k := range variant.Knobs(name) {
		v, ok := wk[k.Key]
		shared = shared || ok
		if !ok || v != k.Value {
			diff = append(diff, k.Key+"="+k.Value)
		}
	}
	if !shared || len(diff) == 0 {
		return name
	}
	return strings.Join(diff, " ")
}

// SummaryModels returns the models of rows in order of first appearance.
func SummaryModels(rows []*SummaryRow) []*Model {
	var out []*Model
	seen := map[*Model]bool{}
	for _, r := range rows {
		if !seen[r.Model] {
			seen[r.Model] = true
			out = append(out, r.Model)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}

// FormatNS formats a duration in nanoseconds with four significant digits.
func FormatNS(ns float64) string {
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

// GroupTitle names a group: "keccak.x4" or "poly1305 size=64".
func GroupTitle(g *Group) string {
	if g.Size == 0 {
		return g.Kernel
	}
	return fmt.Sprintf("%s size=%d", g.Kernel, g.Size)
}

// CompiledClass colours a compiled-table check: "yes" when it selects
// the winner, "no" when its choice was not measured or is significantly
// slower by more than the threshold, "meh" when it differs but costs
// nothing measurable; "" for an unknown host.
func (r *Report) CompiledClass(cc CompiledCheck) string {
	switch {
	case !cc.Known:
		return ""
	case cc.Selects:
		return "yes"
	case !cc.HasCost || cc.Cost.Pct > 0 && cc.Cost.Significant(r.Options.Alpha, r.Options.Threshold):
		return "no"
	}
	return "meh"
}
