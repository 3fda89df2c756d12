package reports

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/catalog"
)

// variantInfo is what the winner rule and the export need to know about a
// variant beyond its measurements: what the result files recorded of it
// (their variant lines), else what its name says. Never what the binary
// that reads the files has linked: the same files give the same
// decisions in every build.
type variantInfo struct {
	features    []string
	codeBytes   int // 0: unknown
	external    bool
	offsetSweep bool // member of an align=64+N offset sweep with N > 0
	// recorded says that a file recorded the variant (features and code
	// size are measured); otherwise they are derived from its name.
	recorded bool
}

// variantKey keys the recorded info of a kernel's variant.
func variantKey(kernel, name string) string { return kernel + " " + name }

// info returns what the set's files recorded of kernel's variant name,
// else what today's catalog of variants has of it (lab/catalog: the same
// in every build), else what its name says (featuresFromName; code size
// unknown).
func (s *Set) info(kernel, name string) variantInfo {
	offset := resultfile.SweepOffset(name)
	info := variantInfo{external: resultfile.IsExternal(name), offsetSweep: offset > 0}
	if v, ok := s.variants[variantKey(kernel, name)]; ok {
		info.recorded = true
		info.features = v.Features
		info.codeBytes = v.CodeBytes
		info.external = info.external || v.External
		info.offsetSweep = info.offsetSweep || (v.OffsetSweep && offset != 0)
		return info
	}
	if e := catalog.Lookup(kernel, name); e != nil {
		info.features = e.Features
		info.codeBytes = e.CodeBytes
		info.external = info.external || e.External
		info.offsetSweep = info.offsetSweep || (e.OffsetSweep && offset != 0)
		return info
	}
	info.features = featuresFromName(name)
	return info
}

// noteVariant merges what a file recorded of a variant into the set:
// files of different builds may disagree (a code size), so the merge is
// conservative and independent of the order of the files: the union of
// features, the largest code size, any flag set.
func (s *Set) noteVariant(v *resultfile.VariantInfo) {
	if s.variants == nil {
		s.variants = map[string]*resultfile.VariantInfo{}
	}
	k := variantKey(v.Kernel, v.Label)
	have, ok := s.variants[k]
	if !ok {
		c := *v
		c.Features = slices.Clone(v.Features)
		s.variants[k] = &c
		if v.Operation {
			s.noteOperation(v.Kernel)
		}
		return
	}
	have.Features = sortedUnion(have.Features, v.Features)
	have.CodeBytes = max(have.CodeBytes, v.CodeBytes)
	have.External = have.External || v.External
	have.OffsetSweep = have.OffsetSweep || v.OffsetSweep
	if v.Operation && !have.Operation {
		have.Operation = true
		s.noteOperation(v.Kernel)
	}
}

// noteOperation records that a file recorded kernel as a whole operation.
func (s *Set) noteOperation(kernel string) {
	if s.operations == nil {
		s.operations = map[string]bool{}
	}
	s.operations[kernel] = true
}

// IsOperation reports whether kernel is a whole operation (never
// dispatched itself): as its files recorded, else as today's catalog
// has it.
func (s *Set) IsOperation(kernel string) bool {
	if s.operations[kernel] {
		return true
	}
	k := catalog.LookupKernel(kernel)
	return k != nil && k.Operation
}

// sortedUnion returns the sorted union of two sorted lists.
func sortedUnion(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// isaFeatures maps isa knob values to the CPU features they imply; it is
// used only for variants neither a result file nor the catalog knows
// (other tools' files, variants gone since).
var isaFeatures = map[string][]string{
	"generic":  nil,
	"scalar":   nil,
	"amd64":    nil,
	"bmi2":     {"bmi2"},
	"adx":      {"adx", "bmi2"},
	"aesni":    {"aes"},
	"aes":      {"aes"},
	"avx":      {"avx"},
	"avx2":     {"avx", "avx2"},
	"vaes":     {"avx", "avx2", "vaes"},
	"avx512":   {"avx512f"},
	"avx512vl": {"avx512f", "avx512vl"},
	"ifma":     {"avx512f", "avx512ifma", "avx512vl"},
}

// featuresFromName guesses the features a variant needs from its isa knob:
// exact table entries first, then prefixes (avx512*, vaes*, ifma*).
func featuresFromName(name string) []string {
	isa := resultfile.Knob(name, "isa")
	if fs, ok := isaFeatures[isa]; ok {
		return fs
	}
	for _, prefix := range []string{"ifma", "vaes", "avx512vl", "avx512", "avx2"} {
		if strings.HasPrefix(isa, prefix) {
			return isaFeatures[prefix]
		}
	}
	if isa == "" {
		return nil
	}
	return []string{isa}
}

// withKnob returns name with knob key's value replaced by value ("*" makes
// a pattern that groups names differing only in that knob).
func withKnob(name, key, value string) string {
	ks := variant.Knobs(name)
	parts := make([]string, len(ks))
	for i, k := range ks {
		if k.Key == key {
			k.Value = value
		}
		parts[i] = k.Key + "=" + k.Value
	}
	return strings.Join(parts, "/")
}

// simpler reports whether variant a is simpler than b: fewer required
// features, then smaller code (unknown size counts as larger), then name.
func simpler(a, b variantInfo, an, bn string) bool {
	if len(a.features) != len(b.features) {
		return len(a.features) < len(b.features)
	}
	ca, cb := a.codeBytes, b.codeBytes
	if ca != cb && ca > 0 && cb > 0 {
		return ca < cb
	}
	if (ca > 0) != (cb > 0) {
		return ca > 0
	}
	return an < bn
}

// valueLess orders knob values: "none" and "generic" first, then numbers
// numerically, then strings.
func valueLess(a, b string) bool {
	if ra, rb := baseValue(a), baseValue(b); ra || rb {
		return ra && !rb || ra && rb && a < b
	}
	na, ea := strconv.ParseFloat(a, 64)
	nb, eb := strconv.ParseFloat(b, 64)
	if ea == nil && eb == nil && na != nb {
		return na < nb
	}
	if (ea == nil) != (eb == nil) {
		return ea == nil
	}
	return a < b
}

// sortedKeys returns the keys of m, sorted; empty, not nil, for an empty
// map (JSON writes [], not null).
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// baseValue reports whether a knob value is a natural reference point.
func baseValue(v string) bool { return v == "none" || v == "generic" }

// Simpler reports whether the variant of row a is simpler than b's:
// fewer required features, then smaller code (unknown size counts as
// larger), then name.
func Simpler(a, b *Row) bool { return simpler(a.info, b.info, a.Variant, b.Variant) }

// VariantFeatures returns the CPU features kernel's variant name requires,
// as the set's files recorded them (else today's catalog, else its name).
func (s *Set) VariantFeatures(kernel, name string) []string { return s.info(kernel, name).features }
