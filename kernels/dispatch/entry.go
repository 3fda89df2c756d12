package dispatch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// How a table entry's features match the CPU's (masks applied), as in
// EntryStatus.Match.
const (
	// MatchExact: the entry was measured with the CPU's feature set.
	MatchExact = "exact"
	// MatchSubset: the CPU has every feature the entry was measured with,
	// and more, at the same feature level (an entry of a lower level is
	// not used: the defaults of the host's level decide).
	MatchSubset = "subset"
	// MatchLegacy: the entry has no recorded features.
	MatchLegacy = "legacy"
)

// An EntryStatus says what Resolve made of one table entry for the CPU's
// dispatch key and the kernel.
type EntryStatus struct {
	Uarch    string
	Features []string // as recorded; empty for a legacy entry
	// Match is MatchExact, MatchSubset or MatchLegacy; "" when the CPU
	// lacks (or masks) a feature the entry was measured with.
	Match string
	// Missing are the entry's features the CPU lacks, masks or does not
	// know; Extra are the CPU's features the entry was measured without.
	Missing, Extra []string
	// Used marks the entry whose choices the plan starts from.
	Used bool
	// LegacyBase marks an entry of the fleet's legacy base (see
	// Entry.LegacyBase).
	LegacyBase bool
	// Why explains the status in one line, e.g. "table
	// AuthenticAMD/0x19/0x11 (Zen 4) [features exact]" or "entry for this
	// model skipped: measured with avx512f,avx512bw, which this host lacks".
	Why string
}

// legacyRank ranks legacy entries below every feature-matched one.
var legacyRank = cpu.KnownFeatures().Len() + 1

// entry picks the table entry for the CPU's dispatch key and the kernel
// and records the status of every entry for them. Usable entries are
// those whose every feature the CPU has, at the CPU's feature level; the
// pick is the exact match,
// else the subset measured without the fewest of the CPU's features,
// else a legacy entry; the first listed among equals. It returns the
// entry and the detail of its choices.
func (r *resolver) entry(entries []Entry) (Entry, string, bool) {
	var picked *Entry
	best, bestRank := -1, 0
	seen := map[cpu.FeatureSet]bool{}
	for i := range entries {
		e := &entries[i]
		if !r.forKernel(e) {
			continue
		}
		s, set, rank := r.classify(e)
		switch {
		case rank < 0:
		case seen[set]:
			s.Why = "duplicate of an earlier entry with the same features; ignored"
			r.note("table: duplicate entry for %s %s ignored", r.cpu.Key(), e.Kernel)
		default:
			seen[set] = true
			if picked == nil || rank < bestRank {
				picked, best, bestRank = e, len(r.plan.Entries), rank
			}
		}
		r.plan.Entries = append(r.plan.Entries, s)
	}
	if picked == nil {
		return Entry{}, "", false
	}
	r.use(best)
	return *picked, r.entryWhere, true
}

// forKernel reports whether e is an entry for the CPU's model and the
// kernel being resolved.
func (r *resolver) forKernel(e *Entry) bool {
	return e.Vendor == r.cpu.Vendor && e.Family == r.cpu.Family && e.Model == r.cpu.Model && e.Kernel == r.plan.Kernel
}

// use marks status best as used, sets r.entryWhere and explains why the
// other usable entries were not used.
func (r *resolver) use(best int) {
	st := r.plan.Entries
	b := &st[best]
	uarch := b.Uarch
	if uarch == "" {
		uarch = r.cpu.Uarch()
	}
	r.entryWhere = fmt.Sprintf("table %s (%s) [%s]", r.cpu.Key(), uarch, matchLabel(b.Match))
	if b.LegacyBase {
		r.entryWhere += " [legacy base: not measured by a fleet file]"
	}
	b.Used, b.Why = true, r.entryWhere+matchWhy(*b)
	for i := range st {
		if i != best && st[i].Why == "" {
			st[i].Why = fmt.Sprintf("entry for this model not used: [%s]%s ranks below [%s]",
				matchLabel(st[i].Match), withoutExtra(st[i]), matchLabel(b.Match))
		}
	}
}

// classify returns the status of an entry for the CPU, its feature set
// and its rank (lower is better; -1 for unusable).
func (r *resolver) classify(e *Entry) (EntryStatus, cpu.FeatureSet, int) {
	s := EntryStatus{Uarch: e.Uarch, Features: slices.Clone(e.Features), LegacyBase: e.LegacyBase}
	if e.Legacy() {
		s.Match = MatchLegacy
		return s, 0, legacyRank
	}
	set, _ := cpu.SetOf(e.Features...)
	host := r.cpu.Features()
	if s.Missing = r.cpu.Missing(e.Features...); len(s.Missing) > 0 {
		s.Why = "entry for this model skipped: measured with " + strings.Join(s.Missing, ",") + ", which this host lacks"
		return s, set, -1
	}
	s.Extra = (host &^ set).Names()
	s.Match = MatchExact
	if len(s.Extra) > 0 {
		s.Match = MatchSubset
	}
	if lv, hl := set.Level(), host.Level(); lv != hl {
		// A wider ISA tier than the sweep ran with (e.g. a Zen 4 with
		// AVX-512 against its VM's AVX2 entry): the sweep never measured
		// the variants this host can run best, so the defaults decide.
		s.Match = ""
		s.Why = fmt.Sprintf("entry for this model skipped: measured at %s, below this host's %s", lv, hl)
		return s, set, -1
	}
	return s, set, len(s.Extra)
}

// matchLabel is the bracketed label of a match in plan details.
func matchLabel(match string) string {
	switch match {
	case MatchExact:
		return "features exact"
	case MatchSubset:
		return "features subset"
	}
	return "features not recorded"
}

// matchWhy is what a used entry's explanation adds to its label.
func matchWhy(s EntryStatus) string {
	switch s.Match {
	case MatchSubset:
		return ": measured without " + strings.Join(s.Extra, ",") + ", which this host has"
	case MatchLegacy:
		return ": legacy entry, used where its variants run here"
	}
	return ""
}

// withoutExtra names the host features a subset entry was measured
// without, " (measured without a,b)", or "".
func withoutExtra(s EntryStatus) string {
	if len(s.Extra) == 0 {
		return ""
	}
	return " (measured without " + strings.Join(s.Extra, ",") + ")"
}

// summarize sets the plan's one-line account of the table lookup, once
// its choices are set: the own model's entry used, else why none was,
// then what the nearest measured CPUs gave, and what was used instead.
func (r *resolver) summarize() {
	kp := r.plan
	near, nearUsed := r.nearSummary()
	var parts []string
	sep := "; using "
	for _, s := range kp.Entries {
		if !s.Used {
			parts = append(parts, s.Why)
			continue
		}
		if slices.Contains(kp.Details, r.entryWhere) {
			kp.Table = s.Why
			return
		}
		parts, sep = []string{s.Why + "; none of its choices runs here"}, ", using "
		break
	}
	if near != "" {
		parts, sep = append(parts, near), "; using "
	}
	switch {
	case len(parts) == 0:
	case nearUsed:
		kp.Table = strings.Join(parts, "; ")
	default:
		kp.Table = strings.Join(parts, "; ") + sep + kp.Details[0]
	}
}
