package export

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/reports/tablesrc"
)

// maxTableBytes bounds a dispatch table read to merge (the compiled one
// is tens of kilobytes).
const maxTableBytes = 16 << 20

// ReadTable reads an earlier dispatch table to merge new measurements
// into: the Go source of a ztable.go (a path ending in .go) or the JSON
// that Table.JSON writes. Its entries without features are legacy
// entries.
func ReadTable(path string) (*Table, error) {
	data, err := resultfile.ReadSmall(path, maxTableBytes)
	if err != nil {
		return nil, fmt.Errorf("reading dispatch table: %w", err)
	}
	var t *Table
	if strings.HasSuffix(path, ".go") {
		t, err = tableFromGo(data)
	} else {
		t, err = tableFromJSON(data)
	}
	if err != nil {
		return nil, fmt.Errorf("reading dispatch table %s: %w", path, err)
	}
	return t, nil
}

func tableFromGo(src []byte) (*Table, error) {
	dt, sources, err := tablesrc.ParseTable(src)
	if err != nil {
		return nil, err
	}
	return FromDispatch(dt, sources), nil
}

// tableFromJSON decodes a schema 1 table. JSON does not carry a default's
// level; it is the level its features reach (as FromReport computed them).
func tableFromJSON(data []byte) (*Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	if t.Schema != 1 {
		return nil, fmt.Errorf("schema %d, want 1", t.Schema)
	}
	for i := range t.Entries {
		e := &t.Entries[i]
		features, unknown := cpu.CanonicalFeatures(e.Features)
		if len(unknown) > 0 {
			return nil, fmt.Errorf("entry %s %s: features %v unknown to kernels/cpu", e.Key(), e.Kernel, unknown)
		}
		e.Features, e.legacy = features, len(features) == 0
	}
	for i := range t.Defaults {
		t.Defaults[i].Level, _ = cpu.FeatureLevel(t.Defaults[i].Features)
	}
	t.GeneratedFrom = nonNil(t.GeneratedFrom)
	t.Entries, t.Defaults = nonNil(t.Entries), nonNil(t.Defaults)
	return &t, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// AssumeFeatures records features as the feature set of the legacy entries
// of the CPU model with dispatch key key (e.g. "GenuineIntel/0x06/0xcf"),
// for tables exported before features were recorded. It is an error if
// a feature is unknown or no legacy entry has that key.
func (t *Table) AssumeFeatures(key string, features []string) error {
	known, unknown := cpu.CanonicalFeatures(features)
	if len(unknown) > 0 || len(known) == 0 {
		return fmt.Errorf("assuming features for %s: want known features, got unknown %v", key, unknown)
	}
	n := 0
	for i := range t.Entries {
		if e := &t.Entries[i]; e.legacy && e.Key() == key {
			e.Features, e.legacy = known, false
			n++
		}
	}
	if n == 0 {
		return fmt.Errorf("assuming features for %s: no legacy entry has that dispatch key (legacy: %s)", key, t.legacyKeys())
	}
	return nil
}

// legacyKeys lists the dispatch keys of legacy entries, or "none".
func (t *Table) legacyKeys() string {
	var keys []string
	for _, e := range t.Entries {
		if e.legacy && !slices.Contains(keys, e.Key()) {
			keys = append(keys, e.Key())
		}
	}
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

// Merge merges base, an earlier table, into t, exported from result
// files. t's entries replace base's entries of the same CPU model, kernel
// and feature set; base's other entries are kept. A default aggregates
// every model measured at its level, which base's measurements are not
// here to redo: t's default of a kernel and level replaces base's (it was
// measured with the current variants, which base's may predate), and
// base's defaults of the kernels and levels t lacks are kept.
// GeneratedFrom lists base's sources, then t's. Merge returns a note per
// model whose legacy entries were kept and one on the defaults dropped.
func (t *Table) Merge(base *Table) []string {
	fresh := map[string]bool{}
	for _, e := range t.Entries {
		fresh[e.id()] = true
	}
	for _, e := range base.Entries {
		if !fresh[e.id()] {
			t.Entries = append(t.Entries, e)
		}
	}
	t.sortEntries()
	from := slices.Clone(base.GeneratedFrom)
	for _, s := range t.GeneratedFrom {
		if !slices.Contains(from, s) {
			from = append(from, s)
		}
	}
	t.GeneratedFrom = nonNil(from)
	notes := t.mergeDefaults(base.Defaults)
	if keys := t.legacyKeys(); keys != "none" {
		notes = append(notes, "entries of "+keys+" have no recorded features; kept as legacy entries")
	}
	return notes
}

// mergeDefaults keeps base's defaults for the kernels and feature levels
// t has none for; where t has one, measured now with the current variant
// set, it replaces base's. It returns a note naming the replaced ones.
func (t *Table) mergeDefaults(base []Default) []string {
	fresh := map[string]bool{}
	for _, d := range t.Defaults {
		fresh[d.Kernel+" "+d.Level] = true
	}
	var replaced []string
	for _, d := range base {
		if key := d.Kernel + " " + d.Level; fresh[key] {
			replaced = append(replaced, key)
			continue
		}
		t.Defaults = append(t.Defaults, d)
	}
	t.Defaults = nonNil(t.Defaults)
	if len(replaced) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d defaults of the base table replaced by the result files' measurements: %s",
		len(replaced), strings.Join(replaced, ", "))}
}
