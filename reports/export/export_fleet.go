package export

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// cpuID identifies the CPU an entry was measured on: dispatch key and
// feature set.
func (e *Entry) cpuID() string { return e.Key() + " [" + strings.Join(e.Features, ",") + "]" }

// AddLegacyBase adds the entries of base, an earlier table whose result
// files the fleet does not hold, to t, exported from the fleet's files:
// each marked LegacyBase, except the entries of a CPU (dispatch key and
// feature set) that t measures, which are dropped (a file measures that
// CPU again). base's defaults are not used (t's are measured). source
// names base in GeneratedFrom. It returns one note per CPU kept and per
// CPU dropped.
func (t *Table) AddLegacyBase(base *Table, source string) []string {
	measured := map[string]bool{}
	for _, e := range t.Entries {
		measured[e.cpuID()] = true
	}
	kept, dropped := map[string]int{}, map[string]int{}
	for _, e := range base.Entries {
		level, _ := cpu.FeatureLevel(e.Features)
		label := e.Key() + " (" + e.Uarch + ", " + level + ")"
		if measured[e.cpuID()] {
			dropped[label]++
			continue
		}
		e.LegacyBase = true
		t.Entries = append(t.Entries, e)
		kept[label]++
	}
	t.sortEntries()
	t.GeneratedFrom = append(t.GeneratedFrom, source)
	var notes []string
	for _, m := range sortedKeys(kept) {
		notes = append(notes, fmt.Sprintf("legacy base: %d entries of %s kept (no fleet file measures it)", kept[m], m))
	}
	for _, m := range sortedKeys(dropped) {
		notes = append(notes, fmt.Sprintf("legacy base: %d entries of %s dropped (a fleet file measures it; remove them from the legacy base)", dropped[m], m))
	}
	return notes
}

// NameSources rewrites GeneratedFrom as "DIGEST NAME" lines for the
// result files the table was exported from, NAME being name(path) of
// each (e.g. its path from the module root), sorted by name; other
// sources are kept after them.
func (t *Table) NameSources(name func(path string) string) {
	var named, other []string
	for _, s := range t.GeneratedFrom {
		if p, ok := t.paths[s]; ok {
			named = append(named, s+" "+name(p))
		} else {
			other = append(other, s)
		}
	}
	slices.SortFunc(named, func(a, b string) int { return strings.Compare(afterDigest(a), afterDigest(b)) })
	t.GeneratedFrom = append(named, other...)
}

// afterDigest returns a source line after its digest.
func afterDigest(s string) string {
	_, rest, _ := strings.Cut(s, " ")
	return rest
}
