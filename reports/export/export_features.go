package export

import (
	"slices"

	"github.com/tunelab/tunelab/reports"
)

// FeatureKeys are the feature sets beyond a level that the "features"
// rule computes defaults for: a default for level plus Features is
// computed as a level default is, over the measured models that have
// them, and may use them.
var FeatureKeys = []struct {
	Level    string
	Features []string
}{
	{"x86-64-v4", []string{"avx512ifma", "avx512vbmi"}},
	{"x86-64-v4", []string{"avx512ifma"}},
	{"x86-64-v4", []string{"avx512vbmi"}},
	{"x86-64-v3", []string{"vaes"}},
}

// FeatureDefaults returns the defaults keyed by features beyond the
// level (FeatureKeys) of an analysed report (see featureDefaults).
func FeatureDefaults(r *reports.Report) []Default { return report{r}.featureDefaults() }

// featureDefaults computes a default per FeatureKeys entry and kernel,
// as levelDefault does for a level, over the models that reach the level
// and have the key's features; the default may use them. (Resolve tries
// a level's defaults with the most features first.)
func (r report) featureDefaults() []Default {
	var out []Default
	for _, key := range FeatureKeys {
		li := levelIndex(key.Level)
		var models []*reports.Model
		for _, m := range modelsAtLevel(r.Set.Models, li) {
			if m.Has(key.Features) {
				models = append(models, m)
			}
		}
		if len(models) == 0 {
			continue
		}
		allowed := append(slices.Clone(levels[li].features), key.Features...)
		for _, k := range r.kernels() {
			if d, ok := r.levelDefault(key.Level, allowed, models, k); ok {
				d.Features = sortedUnique(append(d.Features, key.Features...))
				out = append(out, d)
			}
		}
	}
	return out
}

// sortedUnique returns the strings of s sorted, each once.
func sortedUnique(s []string) []string {
	set := map[string]bool{}
	for _, x := range s {
		set[x] = true
	}
	return sortedKeys(set)
}

// levelIndex returns the index of the named level in levels.
func levelIndex(name string) int {
	for i, l := range levels {
		if l.name == name {
			return i
		}
	}
	return -1
}
