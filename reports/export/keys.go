package export

import "sort"

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
