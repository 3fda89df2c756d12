package export

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/reports/tablesrc"
)

// GoSource returns the table as the Go source of
// kernels/dispatch/ztable.go, formatted by tablesrc.FormatTable: entries
// with the features they were measured with (legacy entries without), and
// defaults whose Features are only the features beyond their level. It
// refuses a table Validate refuses, as JSON does, and tablesrc refuses
// any text not of the shapes tunelab writes.
func (t *Table) GoSource() ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("refusing to write an invalid dispatch table:\n%w", err)
	}
	entries, defaults := t.DispatchTable()
	src, err := tablesrc.FormatTable(entries, defaults, t.GeneratedFrom)
	if err != nil {
		return nil, fmt.Errorf("generating dispatch table: %w", err)
	}
	return src, nil
}

// DispatchTable converts the table to kernels/dispatch's types.
func (t *Table) DispatchTable() ([]dispatch.Entry, []dispatch.Default) {
	var entries []dispatch.Entry
	for _, e := range t.Entries {
		de := dispatch.Entry{Vendor: e.CPU.Vendor, Family: e.CPU.Family, Model: e.CPU.Model,
			Uarch: e.Uarch, Kernel: e.Kernel, Choices: dispatchChoices(e.Choices), LegacyBase: e.LegacyBase}
		if !e.legacy && len(e.Features) > 0 {
			de.Features = e.Features
		}
		entries = append(entries, de)
	}
	var defaults []dispatch.Default
	for _, d := range t.Defaults {
		defaults = append(defaults, dispatch.Default{Level: d.Level, Features: beyondLevel(d.Level, d.Features),
			Kernel: d.Kernel, Choices: dispatchChoices(d.Choices)})
	}
	return entries, defaults
}

// FromDispatch converts a kernels/dispatch table (as tablesrc.ParseTable
// reads it from a ztable.go) generated from sources: entries without
// features are legacy entries, and defaults list their level's features
// along with the ones beyond it. There is no evidence.
func FromDispatch(dt dispatch.Table, sources []string) *Table {
	t := &Table{Schema: 1, GeneratedFrom: append([]string{}, sources...), Entries: []Entry{}, Defaults: []Default{}}
	for _, e := range dt.Entries {
		t.Entries = append(t.Entries, Entry{CPU: CPU{e.Vendor, e.Family, e.Model}, Uarch: e.Uarch, Kernel: e.Kernel,
			Features: append([]string{}, e.Features...), Choices: fromDispatchChoices(e.Choices), legacy: e.Legacy(),
			LegacyBase: e.LegacyBase})
	}
	for _, d := range dt.Defaults {
		t.Defaults = append(t.Defaults, Default{Level: d.Level, Features: WithLevel(d.Level, d.Features),
			Kernel: d.Kernel, Choices: fromDispatchChoices(d.Choices)})
	}
	return t
}

func fromDispatchChoices(cs []dispatch.Choice) []Choice {
	out := make([]Choice, len(cs))
	for i, c := range cs {
		out[i] = Choice{MaxSize: c.MaxSize, Variant: c.Variant}
	}
	return out
}

// WithLevel returns fs plus the features level needs, sorted: beyondLevel's
// inverse.
func WithLevel(level string, fs []string) []string {
	set := map[string]bool{}
	for _, f := range fs {
		set[f] = true
	}
	for _, l := range levels {
		if l.name == level {
			for _, f := range l.features {
				set[f] = true
			}
		}
	}
	return sortedKeys(set)
}
