package reports

import (
	"sort"
	"strings"
)

// A Failure is a variant that a sweep excluded from its race because it
// failed verification against the generic code or crashed. Reports open
// with them: a variant that computes wrong results on a CPU matters more
// than which variant is fastest there.
type Failure struct {
	Model   *Model // nil when the run recorded no result at all
	Group   string // "kernel" or "kernel/size=N"
	Variant string
	Reason  string // the sweep's words: the first mismatch, or the crash
	Runs    int    // runs that excluded it (with this reason, the first)
}

// failures returns one Failure per model, group and variant that some run
// excluded, with the reason of the first such run read.
func (rd *reader) failures() []*Failure {
	type key struct{ model, group, variant string }
	byKey := map[key]*Failure{}
	var out []*Failure
	for _, k := range rd.sortedExclusions() {
		var m *Model
		if st := rd.runs[k.run]; st != nil {
			m = st.model
		}
		fk := key{modelKey(m), k.group, k.label}
		if f := byKey[fk]; f != nil {
			f.Runs++
			continue
		}
		f := &Failure{Model: m, Group: k.group, Variant: k.label, Reason: shortReason(rd.why[k], k.group, k.label), Runs: 1}
		byKey[fk] = f
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ma, mb := modelKey(a.Model), modelKey(b.Model); ma != mb {
			return ma < mb
		}
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		return a.Variant < b.Variant
	})
	return out
}

// shortReason drops the kernel and variant name that the sweep's reason
// repeats ("verify mismatch: poly1305 isa=...: mismatch on ..."): the
// report prints them in columns of their own.
func shortReason(reason, group, label string) string {
	kernel, _, _ := strings.Cut(group, "/")
	return strings.Replace(reason, kernel+" "+label+": ", "", 1)
}

// sortedExclusions returns the excluded contenders in the order their
// runs were first read, then by group and label.
func (rd *reader) sortedExclusions() []verdictKey {
	ks := make([]verdictKey, 0, len(rd.why))
	for k := range rd.why {
		ks = append(ks, k)
	}
	id := func(run string) int {
		if st := rd.runs[run]; st != nil {
			return st.id
		}
		return len(rd.runNames)
	}
	sort.Slice(ks, func(i, j int) bool {
		if a, b := id(ks[i].run), id(ks[j].run); a != b {
			return a < b
		}
		if ks[i].group != ks[j].group {
			return ks[i].group < ks[j].group
		}
		return ks[i].label < ks[j].label
	})
	return ks
}

func modelKey(m *Model) string {
	if m == nil {
		return ""
	}
	return m.ID()
}
