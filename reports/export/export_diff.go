package export

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// Diff says what t changes against old, the table it replaces: one line
// per entry and default added, replaced (other choices) or dropped,
// grouped by kernel, then a count line; "no changes" when there are
// none. Entries are identified by CPU model, kernel and feature set,
// defaults by kernel and feature level.
func (t *Table) Diff(old *Table) []string {
	var lines []string
	added, replaced, dropped := 0, 0, 0
	note := func(kind *int, format string, a ...any) {
		*kind++
		lines = append(lines, fmt.Sprintf(format, a...))
	}
	oldE, newE := entriesByID(old.Entries), entriesByID(t.Entries)
	for _, id := range unionKeys(oldE, newE) {
		o, n := oldE[id], newE[id]
		switch {
		case o == nil:
			note(&added, "entry added: %s: %s%s", entryLabel(n), choicesText(n.Choices), legacyMark(n))
		case n == nil:
			note(&dropped, "entry dropped: %s (was %s)", entryLabel(o), choicesText(o.Choices))
		case !slices.Equal(o.Choices, n.Choices):
			note(&replaced, "entry replaced: %s: %s (was %s)", entryLabel(n), choicesText(n.Choices), choicesText(o.Choices))
		}
	}
	oldD, newD := defaultsByID(old.Defaults), defaultsByID(t.Defaults)
	for _, id := range unionKeys(oldD, newD) {
		o, n := oldD[id], newD[id]
		switch {
		case o == nil:
			note(&added, "default added: %s: %s", id, choicesText(n.Choices))
		case n == nil:
			note(&dropped, "default dropped: %s (was %s)", id, choicesText(o.Choices))
		case !slices.Equal(o.Choices, n.Choices):
			note(&replaced, "default replaced: %s: %s (was %s)", id, choicesText(n.Choices), choicesText(o.Choices))
		}
	}
	if len(lines) == 0 {
		return []string{"no changes"}
	}
	return append(lines, fmt.Sprintf("%d added, %d replaced, %d dropped", added, replaced, dropped))
}

func entriesByID(es []Entry) map[string]*Entry {
	m := map[string]*Entry{}
	for i := range es {
		m[es[i].Kernel+" "+es[i].id()] = &es[i]
	}
	return m
}

func defaultsByID(ds []Default) map[string]*Default {
	m := map[string]*Default{}
	for i := range ds {
		m[ds[i].Kernel+" "+ds[i].Level] = &ds[i]
	}
	return m
}

// unionKeys returns the keys of a and b, sorted (by kernel first: the
// keys start with it).
func unionKeys[V any](a, b map[string]V) []string {
	keys := sortedKeys(a)
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// entryLabel names an entry: kernel, model and feature level.
func entryLabel(e *Entry) string {
	level := "legacy"
	if len(e.Features) > 0 {
		level, _ = cpu.FeatureLevel(e.Features)
	}
	return fmt.Sprintf("%s on %s (%s, %s)", e.Kernel, e.Key(), e.Uarch, level)
}

func legacyMark(e *Entry) string {
	if e.LegacyBase {
		return " [legacy base]"
	}
	return ""
}

// choicesText writes choices as "≤64: A, B".
func choicesText(cs []Choice) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		if c.MaxSize == 0 {
			parts[i] = c.Variant
		} else {
			parts[i] = fmt.Sprintf("≤%d: %s", c.MaxSize, c.Variant)
		}
	}
	return strings.Join(parts, ", ")
}
