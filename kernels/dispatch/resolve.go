package dispatch

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// genericName is variant.GenericName (not imported, to keep kernels/variant
// free to import this package); a test checks they agree.
const genericName = "isa=generic"

// Reasons a choice was made, as in Choice.Reason.
const (
	ReasonOverride = "override"
	ReasonTable    = "table"
	// ReasonNearest marks a choice taken from the entry of the nearest
	// measured CPU (another model; see RuleNearest).
	ReasonNearest = "nearest"
	ReasonDefault = "default"
	// ReasonPreferred marks the generator's declared default of a kernel
	// no table entry or default covers (Candidate.Preferred).
	ReasonPreferred = "preferred"
	ReasonGeneric   = "generic"
	// ReasonPackage marks a choice its package made where the plan fell
	// back to generic (see Fallback).
	ReasonPackage = "package"
)

// A KernelPlan records how a kernel's plan was resolved, for
// `tunelab dispatch`.
type KernelPlan struct {
	Kernel string
	// Choices is the plan Plan returned; Details[i] explains Choices[i]
	// (e.g. "table GenuineIntel/0x06/0xcf (Emerald Rapids)").
	Choices []Choice
	Details []string
	// Candidates are the variants the kernel offered.
	Candidates []CandidateStatus
	// Entries are the table entries for the CPU's dispatch key and the
	// kernel, in table order, with what Resolve made of each. Nearest are
	// the other models' entries for the kernel with recorded features
	// (RuleNearest): the qualifying ones nearest first, then the others.
	// Table says in one line which entry was used and why, or why none
	// was and what was used instead ("" when the table has no entry for
	// the kernel on any model, or an override decided).
	Entries []EntryStatus
	Nearest []NearStatus
	Table   string
	// Notes say what the table or defaults named that was skipped or
	// normalized; Warnings are problems with the override (printed to
	// stderr once by Plan).
	Notes    []string
	Warnings []string
	// OwnDefault, set by Fallback, says why the kernel's package runs
	// its own default wherever the plan has no entry of this CPU's
	// ("" when it takes other CPUs' choices like any kernel).
	OwnDefault string
}

// A CandidateStatus is a candidate with the features the CPU lacks.
type CandidateStatus struct {
	Candidate
	Missing []string
}

// Runnable reports whether the CPU has every feature the candidate needs.
func (s CandidateStatus) Runnable() bool { return len(s.Missing) == 0 }

// pick is a choice with its explanation.
type pick struct {
	Choice
	detail string
}

// resolver holds the inputs of one Resolve call.
type resolver struct {
	cpu    *cpu.CPU
	rule   Rule
	byName map[string]CandidateStatus
	plan   *KernelPlan
	// entryWhere is the detail of the used table entry's choices.
	entryWhere string
}

// Resolve selects the plan of kernel among cands on cpu with RuleNearest:
// the override variant if it is a runnable candidate, else the table
// entry for cpu's dispatch key that best matches cpu's features (masks
// applied; see the package comment), else the entries of the nearest
// measured CPUs that qualify, else the applicable defaults (highest level
// first, then the most features, then table order), else the generic
// variant. Choices naming unknown or
// unrunnable variants or negative sizes are skipped; unsorted choices are
// sorted; of two with the same bound the first listed wins. Sizes a tier
// leaves uncovered (its unbounded choice skipped) fall to the next tier.
// override may be "" (none) or "generic". Resolve is a pure function.
func Resolve(cpu *cpu.CPU, table Table, override, kernel string, cands []Candidate) KernelPlan {
	return ResolveRule(cpu, table, RuleNearest, override, kernel, cands)
}

// ResolveRule is Resolve with the given rule for the sizes cpu's own
// entry leaves open.
func ResolveRule(cpu *cpu.CPU, table Table, rule Rule, override, kernel string, cands []Candidate) KernelPlan {
	kp := KernelPlan{Kernel: kernel}
	r := resolver{cpu: cpu, rule: rule, byName: map[string]CandidateStatus{}, plan: &kp}
	r.addCandidates(cands)
	if p, ok := r.override(override); ok {
		kp.set([]pick{p})
		return kp
	}
	tiers := r.tableTiers(table)
	if p, ok := r.preferred(); ok {
		tiers = append(tiers, []pick{p})
	}
	tiers = append(tiers, []pick{{Choice{0, genericName, ReasonGeneric}, "generic: no table entry or default covers these sizes"}})
	kp.set(fold(tiers))
	r.summarize()
	return kp
}

func (kp *KernelPlan) set(picks []pick) {
	for _, p := range picks {
		kp.Choices = append(kp.Choices, p.Choice)
		kp.Details = append(kp.Details, p.detail)
	}
}

func (r *resolver) note(format string, a ...any) {
	r.plan.Notes = append(r.plan.Notes, fmt.Sprintf(format, a...))
}

func (r *resolver) addCandidates(cands []Candidate) {
	for _, c := range cands {
		if _, dup := r.byName[c.Name]; dup {
			r.note("candidate %q listed twice; first kept", c.Name)
			continue
		}
		c.Features = slices.Clone(c.Features)
		s := CandidateStatus{Candidate: c, Missing: r.cpu.Missing(c.Features...)}
		r.byName[c.Name] = s
		r.plan.Candidates = append(r.plan.Candidates, s)
	}
	if _, ok := r.byName[genericName]; !ok {
		r.note("candidates lack %s; it is still the fallback", genericName)
	}
}

// preferred returns the choice of the runnable preferred candidate with
// the most features (the first listed of equals), for the sizes no table
// entry or default covers; false if there is none.
func (r *resolver) preferred() (pick, bool) {
	var best *CandidateStatus
	for i, c := range r.plan.Candidates {
		if c.Preferred && c.Runnable() && (best == nil || len(c.Features) > len(best.Features)) {
			best = &r.plan.Candidates[i]
		}
	}
	if best == nil {
		return pick{}, false
	}
	return pick{Choice{0, best.Name, ReasonPreferred}, "preferred: the generator's declared default, no table entry or default covers these sizes"}, true
}

// override returns the forced choice, or a warning and false.
func (r *resolver) override(v string) (pick, bool) {
	if v == "" {
		return pick{}, false
	}
	if v == "generic" {
		v = genericName
	}
	c, ok := r.byName[v]
	entry := r.plan.Kernel + "=" + v
	switch {
	case !ok:
		r.warn("%s entry %q ignored: %s has no variant %q among the %d this binary links "+
			"(a production binary links only the variants its compiled table can select; the tunelab binary links them all)",
			EnvDispatch, entry, r.plan.Kernel, v, len(r.byName))
	case !c.Runnable():
		r.warn("%s entry %q ignored: %q needs %s, missing or masked on this CPU",
			EnvDispatch, entry, v, strings.Join(c.Missing, " "))
	default:
		return pick{Choice{0, v, ReasonOverride}, "override " + EnvDispatch}, true
	}
	return pick{}, false
}

func (r *resolver) warn(format string, a ...any) {
	r.plan.Warnings = append(r.plan.Warnings, fmt.Sprintf(format, a...))
}

// tableTiers returns the choices of the table entry picked for the CPU
// (if any), then (RuleNearest) those of each qualifying entry of another
// model, nearest first, then each applicable default's, each normalized.
func (r *resolver) tableTiers(t Table) [][]pick {
	var tiers [][]pick
	if e, where, ok := r.entry(t.Entries); ok {
		tiers = append(tiers, r.normalize(e.Choices, ReasonTable, where))
	}
	if r.rule == RuleNearest {
		near := r.nearest(t)
		for i, e := range near {
			tiers = append(tiers, r.normalize(e.Choices, ReasonNearest, nearWhere(r.plan.Nearest[i])))
		}
	}
	for _, d := range r.defaults(t.Defaults) {
		where := "default " + d.Level
		if d.Level == "" {
			where = "default"
		}
		if len(d.Features) > 0 {
			where += " [" + strings.Join(d.Features, " ") + "]"
		}
		tiers = append(tiers, r.normalize(d.Choices, ReasonDefault, where))
	}
	return tiers
}

// defaults returns the kernel's defaults that apply to the CPU, highest
// level first, then the most features (a default keyed by features beyond
// its level before the level's own), then table order.
func (r *resolver) defaults(all []Default) []Default {
	have := cpu.LevelRank(r.cpu.Level())
	var out []Default
	for i, d := range all {
		if d.Kernel != r.plan.Kernel {
			continue
		}
		rank := cpu.LevelRank(d.Level)
		if rank < 0 {
			r.note("default %d: unknown level %q, skipped", i, d.Level)
			continue
		}
		if rank <= have && r.cpu.Has(d.Features...) {
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b Default) int {
		return cmp.Or(cpu.LevelRank(b.Level)-cpu.LevelRank(a.Level), len(b.Features)-len(a.Features))
	})
	return out
}

// bound orders choices: MaxSize, with 0 (unbounded) last.
func bound(c Choice) int {
	if c.MaxSize == 0 {
		return math.MaxInt
	}
	return c.MaxSize
}

// normalize keeps the usable choices of one tier, sorted by bound, one per
// bound, with reason and detail set.
func (r *resolver) normalize(choices []Choice, reason, where string) []pick {
	if len(choices) == 0 {
		r.note("%s: no choices", where)
	}
	var kept []pick
	for i, c := range choices {
		if why := r.unusable(c); why != "" {
			r.note("%s: choice %d (%s) skipped: %s", where, i, c.Variant, why)
			continue
		}
		kept = append(kept, pick{Choice{c.MaxSize, c.Variant, reason}, where})
	}
	less := func(a, b pick) int { return cmp.Compare(bound(a.Choice), bound(b.Choice)) }
	if !slices.IsSortedFunc(kept, less) {
		r.note("%s: size classes out of order; sorted", where)
		slices.SortStableFunc(kept, less)
	}
	return r.dedupe(kept, where)
}

// unusable says why a choice cannot be used, "" if it can.
func (r *resolver) unusable(c Choice) string {
	s, ok := r.byName[c.Variant]
	switch {
	case c.MaxSize < 0:
		return fmt.Sprintf("negative max size %d", c.MaxSize)
	case !ok:
		return fmt.Sprintf("%s has no variant %q", r.plan.Kernel, c.Variant)
	case !s.Runnable():
		return "needs " + strings.Join(s.Missing, " ") + ", missing or masked on this CPU"
	}
	return ""
}

// dedupe keeps the first of sorted picks with equal bounds.
func (r *resolver) dedupe(sorted []pick, where string) []pick {
	var out []pick
	for _, p := range sorted {
		if n := len(out); n > 0 && bound(out[n-1].Choice) == bound(p.Choice) {
			r.note("%s: size class %s listed twice; kept %s, dropped %s",
				where, sizeLabel(p.MaxSize), out[n-1].Variant, p.Variant)
			continue
		}
		out = append(out, p)
	}
	return out
}

// fold overlays tiers: each tier covers the sizes above what the tiers
// before it covered, until a choice is unbounded. Adjacent classes with the
// same variant and explanation are merged.
func fold(tiers [][]pick) []pick {
	var out []pick
	for _, tier := range tiers {
		for _, p := range tier {
			if n := len(out); n > 0 && bound(p.Choice) <= bound(out[n-1].Choice) {
				continue
			}
			if n := len(out); n > 0 && out[n-1].Variant == p.Variant && out[n-1].detail == p.detail {
				out = out[:n-1]
			}
			out = append(out, p)
			if p.MaxSize == 0 {
				return out
			}
		}
	}
	return out
}

func sizeLabel(max int) string {
	if max == 0 {
		return "unbounded"
	}
	return fmt.Sprintf("<=%d", max)
}
