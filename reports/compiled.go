package reports

import (
	"fmt"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/catalog"
)

// A CompiledCheck says what the dispatch table compiled into this binary
// (kernels/dispatch, ztable.go) selects for a summary row's size class on
// the row's CPU model with the features its results recorded.
type CompiledCheck struct {
	// Known is false for results without host identity: there is no
	// model to resolve a plan for.
	Known bool
	// Operation marks a whole operation (variant.Kernel.Operation): it
	// has no table entries of its own; the entries of the kernels it
	// composes decide what runs.
	Operation bool
	// Selects reports whether the plan picks the class's winner at every
	// measured size of the class.
	Selects bool
	// Variant is the plan's choice at Size, the first measured size where
	// it differs from the winner (the class's smallest size when it does
	// not); Reason is its dispatch.Reason* and Detail explains it, e.g.
	// "table AuthenticAMD/0x19/0x01 (Zen 3) [features exact]".
	Variant, Reason, Detail string
	Size                    int
	// Cost is the table's choice's time against the winner at Size when
	// it does not select the winner and the choice was measured there.
	Cost    stats.Delta
	HasCost bool
	winner  string
	alpha   float64
}

// String says in a few words whether the table selects the winner:
// "yes (table)", "no: default selects keys=regs (+4.1% ±0.9%)" (the
// knobs of the choice that differ from the winner, and what it costs
// where measured) or "—" (unknown host).
func (c CompiledCheck) String() string {
	switch {
	case c.Operation:
		return "— (operation: its kernels' entries decide)"
	case !c.Known:
		return "—"
	case c.Selects:
		return "yes (" + c.Reason + ")"
	}
	s := "no: " + c.Reason + " selects " + DiffLabel(c.Variant, c.winner)
	if c.Reason == dispatch.ReasonGeneric {
		s = "no: generic fallback"
	}
	switch {
	case !c.HasCost:
		s += " (not measured)"
	case c.Cost.Significant(c.alpha, 0):
		s += fmt.Sprintf(" (%s %s)", stats.FormatPct(c.Cost.Pct), stats.FormatPM(c.Cost.PM))
	default:
		s += fmt.Sprintf(" (%s %s, n.s.)", stats.FormatPct(c.Cost.Pct), stats.FormatPM(c.Cost.PM))
	}
	return s
}

// compiledTable returns the table Summary checks winners against: the
// compiled one (a variable for tests).
var compiledTable = dispatch.Compiled

// A compiledPlan is the compiled table's plan of one kernel on one model.
type compiledPlan struct {
	ok, operation bool
	kp            dispatch.KernelPlan
}

// compiledPlanFor resolves kernel's plan with the compiled table on a
// synthetic CPU with model m's identity and recorded features (names
// kernels/cpu does not know are left out). The candidates are the
// kernel's registered variants plus the variants measured in groups.
func compiledPlanFor(m *Model, kernel string, groups []*Group) compiledPlan {
	if k := catalog.LookupKernel(kernel); k != nil && k.Operation {
		return compiledPlan{operation: true}
	}
	if m.Unknown {
		return compiledPlan{}
	}
	mc := &cpu.CPU{Arch: "amd64", Vendor: m.Vendor, Family: m.Family, Model: m.Model}
	known, _ := cpu.CanonicalFeatures(m.Features)
	if err := mc.SetFeatures(known...); err != nil {
		return compiledPlan{}
	}
	kp := dispatch.Resolve(mc, compiledTable(), "", kernel, DispatchCandidates(kernel, groups))
	return compiledPlan{ok: len(kp.Choices) > 0, kp: kp}
}

// DispatchCandidates lists what a production binary could dispatch to for
// kernel: the generic variant, the catalog's dispatchable variants, and
// any other variant measured in groups (results of another build), each
// with its required features.
func DispatchCandidates(kernel string, groups []*Group) []dispatch.Candidate {
	cands := []dispatch.Candidate{{Name: variant.GenericName}}
	seen := map[string]bool{variant.GenericName: true}
	add := func(name string, fs []string, preferred bool) {
		if !seen[name] {
			seen[name] = true
			cands = append(cands, dispatch.Candidate{Name: name, Features: fs, Preferred: preferred})
		}
	}
	for _, v := range catalog.Variants(kernel) {
		if !v.External && !v.OffsetSweep {
			add(v.Name, v.Features, v.Preferred)
		}
	}
	for _, g := range groups {
		for _, r := range g.Rows {
			if !r.info.external && !r.info.offsetSweep {
				add(r.Variant, r.info.features, false)
			}
		}
	}
	return cands
}

// check compares the plan with class c's winner at c's measured sizes;
// groups are the kernel's groups on the model, for the cost of a
// choice that is not the winner.
func (p compiledPlan) check(c Class, groups []*Group, alpha float64) CompiledCheck {
	if !p.ok || len(c.Sizes) == 0 {
		return CompiledCheck{Operation: p.operation}
	}
	out := CompiledCheck{Known: true, Selects: true, winner: c.Variant, alpha: alpha}
	for i, size := range c.Sizes {
		at := dispatch.ForSize(p.kp.Choices, size)
		ch := p.kp.Choices[at]
		if i == 0 || (out.Selects && ch.Variant != c.Variant) {
			out.Variant, out.Reason, out.Detail, out.Size = ch.Variant, ch.Reason, p.kp.Details[at], size
		}
		out.Selects = out.Selects && ch.Variant == c.Variant
	}
	if !out.Selects {
		out.Cost, out.HasCost = choiceCost(groups, out.Size, out.Variant, c.Variant)
	}
	return out
}

// choiceCost compares variant with winner in the group of size.
func choiceCost(groups []*Group, size int, variant, winner string) (stats.Delta, bool) {
	for _, g := range groups {
		if g.Size != size {
			continue
		}
		r, w := RowOf(g, variant), RowOf(g, winner)
		if r == nil || w == nil {
			return stats.Delta{}, false
		}
		return stats.Compare(r.Stat, w.Stat), true
	}
	return stats.Delta{}, false
}
