package reports

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
)

// variantInfo is what the winner rule and the export need to know about a
// variant beyond its measurements.
type variantInfo struct {
	features    []string
	codeBytes   int
	external    bool
	offsetSweep bool // member of an align=64+N offset sweep with N > 0
	registered  bool
}

// infoOf looks the variant up in the registry (kernels/variant) and falls
// back to what its name says when it is not registered there.
func infoOf(kernel, name string) variantInfo {
	info := variantInfo{external: strings.HasPrefix(name, "ext="), offsetSweep: sweepOffset(name) > 0}
	if v := variant.Lookup(kernel, name); v != nil {
		info.registered = true
		info.features = append([]string(nil), v.Features...)
		info.codeBytes = codeBytes(v)
		info.external = info.external || v.External
		info.offsetSweep = info.offsetSweep || (v.OffsetSweep && sweepOffset(name) != 0)
		return info
	}
	info.features = featuresFromName(name)
	return info
}

// codeBytes is the size of v's generated function in this binary, from
// its line table: the one code-size measure the tie rule uses. A variant
// without a function there (Go code, synthetic test variants) has its
// registered CodeBytes.
func codeBytes(v *variant.Variant) int {
	if v.Symbol == "" {
		return v.CodeBytes
	}
	entry, end, err := asmmap.Func(v.Symbol)
	if err != nil {
		return v.CodeBytes
	}
	return int(end - entry)
}

// isaFeatures maps isa knob values to the CPU features they imply; it is
// used only for variants absent from the registry (e.g. results from another
// build of tunelab).
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
	isa := knobValue(name, "isa")
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

// knobValue returns the value of knob key in a variant name, or "".
func knobValue(name, key string) string {
	for _, k := range variant.Knobs(name) {
		if k.Key == key {
			return k.Value
		}
	}
	return ""
}

// sweepOffset returns N for an align=64+N variant, 0 for align=64 and -1
// for anything else.
func sweepOffset(name string) int {
	a := knobValue(name, "align")
	if a == "64" {
		return 0
	}
	rest, ok := strings.CutPrefix(a, "64+")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return -1
	}
	return n
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
