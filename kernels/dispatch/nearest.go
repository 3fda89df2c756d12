package dispatch

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// A Rule says where Resolve looks for the sizes that the CPU's own table
// entry leaves open (all of them, for a CPU the table does not name).
type Rule int

const (
	// RuleNearest consults the entries of the nearest measured CPUs
	// (see the package comment), then the defaults. Plan uses it.
	RuleNearest Rule = iota
	// RuleDefaults goes from the CPU's own entry straight to the
	// defaults: the rule before nearest entries, kept so that
	// leave-one-out evaluations can compare the two.
	RuleDefaults
)

// String names the rule: "nearest" or "defaults".
func (r Rule) String() string {
	if r == RuleDefaults {
		return "defaults"
	}
	return "nearest"
}

// A NearStatus says what Resolve made of another CPU model's entry for
// the kernel (an entry keyed by another dispatch key than the CPU's).
type NearStatus struct {
	Key      string // the entry's dispatch key, e.g. "GenuineIntel/0x06/0xcf"
	Uarch    string
	Features []string // as recorded
	// Level is the feature level the entry was measured at.
	Level string
	// Qualifies: the entry was measured at the CPU's feature level and
	// with exactly the CPU's features as far as the kernel's tabled
	// variants use them (Missing and Unmeasured are empty).
	Qualifies bool
	// SameFamily: same vendor and CPUID family as the CPU.
	SameFamily bool
	// Shared counts the recorded features the CPU has (masks applied).
	Shared int
	// Missing are recorded features the CPU lacks that a tabled variant
	// of the kernel uses; Unmeasured are CPU features the entry was
	// measured without that a tabled variant uses.
	Missing, Unmeasured []string
	// Used marks the nearest qualifying entry, whose choices the plan
	// takes where the CPU's own entry leaves sizes open.
	Used bool
	// Why explains the status in one line.
	Why string
}

// label names the entry's CPU: "GenuineIntel/0x06/0xcf (Emerald Rapids)".
func (s NearStatus) label() string {
	if s.Uarch == "" {
		return s.Key
	}
	return s.Key + " (" + s.Uarch + ")"
}

// relevantFeatures returns the features the kernel's tabled variants use:
// those of the candidates that an entry or default of t names for the
// kernel. A production binary links exactly those variants and the lab
// registers them too, so both see the same set.
func (r *resolver) relevantFeatures(t Table) cpu.FeatureSet {
	var s cpu.FeatureSet
	for kernel, cs := range t.Choices() {
		if kernel != r.plan.Kernel {
			continue
		}
		for _, c := range cs {
			if st, ok := r.byName[c.Variant]; ok {
				fs, _ := cpu.SetOf(st.Features...)
				s |= fs
			}
		}
	}
	return s
}

// nearest returns the entries of other CPU models for the kernel that
// qualify, nearest first, and records the status of every entry with
// recorded features in r.plan.Nearest (qualifying ones first, in rank
// order, then the others in table order). An entry qualifies when it was
// measured at the CPU's feature level (as an entry of the CPU's own
// model must be) and with the CPU's features as far as the kernel's
// tabled variants use them: every choice it makes runs here, and it
// measured every tabled variant that runs here. Nearest is same vendor
// and CPUID family first, then the most features in common, then table
// order.
func (r *resolver) nearest(t Table) []Entry {
	rel, host := r.relevantFeatures(t), r.cpu.Features()
	type cand struct {
		s NearStatus
		e Entry
	}
	var qual []cand
	var other []NearStatus
	for _, e := range t.Entries {
		if e.Kernel != r.plan.Kernel || r.ownModel(e) || e.Legacy() {
			continue
		}
		set, _ := cpu.SetOf(e.Features...)
		s := NearStatus{
			Key: cpu.DispatchKey(e.Vendor, e.Family, e.Model), Uarch: e.Uarch, Features: slices.Clone(e.Features), Level: set.Level(),
			SameFamily: e.Vendor == r.cpu.Vendor && e.Family == r.cpu.Family,
			Shared:     (set & host).Len(),
			Missing:    (set &^ host & rel).Names(), Unmeasured: (host &^ set & rel).Names(),
		}
		s.Qualifies = s.Level == host.Level() && len(s.Missing) == 0 && len(s.Unmeasured) == 0
		if s.Qualifies {
			qual = append(qual, cand{s, e})
		} else {
			s.Why = r.nearWhyNot(s)
			other = append(other, s)
		}
	}
	slices.SortStableFunc(qual, func(a, b cand) int { return nearer(a.s, b.s) })
	var picked []Entry
	for i, q := range qual {
		q.s.Why = r.nearWhy(q.s, rel)
		if i > 0 {
			q.s.Why = "not used: " + qual[0].s.label() + " is nearer; " + q.s.Why
		}
		r.plan.Nearest = append(r.plan.Nearest, q.s)
		picked = append(picked, q.e)
	}
	r.plan.Nearest = append(r.plan.Nearest, other...)
	return picked
}

// nearer orders qualifying statuses: same vendor and family first, then
// more shared features.
func nearer(a, b NearStatus) int {
	if a.SameFamily != b.SameFamily {
		if a.SameFamily {
			return -1
		}
		return 1
	}
	return cmp.Compare(b.Shared, a.Shared)
}

// nearWhere is the detail of the choices taken from a nearest entry.
func nearWhere(s NearStatus) string { return "nearest " + s.label() }

// ownModel reports whether e is keyed by the CPU's dispatch key.
func (r *resolver) ownModel(e Entry) bool {
	return e.Vendor == r.cpu.Vendor && e.Family == r.cpu.Family && e.Model == r.cpu.Model
}

// nearWhy explains a qualifying entry: "[same vendor and family; the
// features kernel's tabled variants use: a b c; 35 features in common]".
func (r *resolver) nearWhy(s NearStatus, rel cpu.FeatureSet) string {
	family := "other vendor or family"
	if s.SameFamily {
		family = "same vendor and family"
	}
	used := "none"
	if names := (rel & r.cpu.Features()).Names(); len(names) > 0 {
		used = strings.Join(names, " ")
	}
	return fmt.Sprintf("nearest measured CPU %s [%s; measured with this host's features that %s's tabled variants use (%s); %d features in common]",
		s.label(), family, r.plan.Kernel, used, s.Shared)
}

// nearWhyNot explains why another model's entry does not qualify.
func (r *resolver) nearWhyNot(s NearStatus) string {
	if hl := r.cpu.Level(); s.Level != hl {
		return fmt.Sprintf("%s not used: measured at %s, this host is %s", s.label(), s.Level, hl)
	}
	if len(s.Missing) > 0 {
		return fmt.Sprintf("%s not used: measured with %s, which this host lacks", s.label(), strings.Join(s.Missing, ","))
	}
	return fmt.Sprintf("%s not used: measured without %s, which this host has (%s's tabled variants use them)",
		s.label(), strings.Join(s.Unmeasured, ","), r.plan.Kernel)
}

// nearSummary marks the nearest entry the plan used and says in one
// line what the other models' entries gave: the used one's explanation
// (used is true), or why none was used; "" when there are none.
func (r *resolver) nearSummary() (line string, used bool) {
	st := r.plan.Nearest
	if len(st) == 0 {
		return "", false
	}
	for i := range st {
		if st[i].Qualifies && slices.Contains(r.plan.Details, nearWhere(st[i])) {
			st[i].Used = true
			return st[i].Why, true
		}
	}
	if st[0].Qualifies {
		return st[0].Why + "; none of its choices runs here", false
	}
	level, lacks := 0, 0
	for _, s := range st {
		switch {
		case s.Level != r.cpu.Level():
			level++
		case len(s.Missing) > 0:
			lacks++
		}
	}
	return fmt.Sprintf("no measured CPU qualifies (%d measured at another feature level, %d with features this host lacks, %d without features it has that %s's tabled variants use)",
		level, lacks, len(st)-level-lacks, r.plan.Kernel), false
}
