package export

import (
	"maps"
	"slices"
)

// sortedKeys returns the keys of m, sorted; empty, not nil, for an empty
// map (JSON writes [], not null).
func sortedKeys[V any](m map[string]V) []string {
	return append([]string{}, slices.Sorted(maps.Keys(m))...)
}
