package dispatch

import "iter"

// An Entry is the tuned plan of one kernel on one CPU model, as exported
// from measurements (`tunelab export --format go` writes ztable.go).
type Entry struct {
	// Vendor is the CPUID vendor string; Family and Model are decoded as
	// by cpu.DecodeSignature. Together they are the dispatch key.
	Vendor        string
	Family, Model int
	// Uarch is the microarchitecture name, for readers of the table.
	Uarch string
	// Kernel is the dispatch name of the kernel, e.g. "keccak.x4".
	Kernel string
	// Features are the features the entry's sweep ran with (the result
	// file's features config, masks applied), in canonical order. One
	// model may have an entry per feature set (a VM may hide AVX-512).
	// Empty marks a legacy entry, exported before features were recorded.
	Features []string
	// Choices in increasing MaxSize order, the last unbounded (MaxSize 0).
	// Reason is ignored (Plan sets it).
	Choices []Choice
	// LegacyBase marks an entry of the fleet's legacy base
	// (results/fleet/legacy-base.json): measured by result files the
	// fleet does not hold, kept until a fleet file measures its CPU
	// again. ztable.go lists such entries apart (legacyBaseEntries).
	LegacyBase bool
}

// Legacy reports whether the entry has no recorded features.
func (e Entry) Legacy() bool { return len(e.Features) == 0 }

// A Default is the plan of one kernel for CPU models missing from the
// table that reach feature level Level (may be "") and have Features.
type Default struct {
	Level    string
	Features []string
	Kernel   string
	Choices  []Choice
}

// A Table is a dispatch table: per-model entries and feature-level
// defaults.
type Table struct {
	Entries  []Entry
	Defaults []Default
}

// Choices yields the kernel and the choices of every entry of t, then of
// every default, in table order.
func (t Table) Choices() iter.Seq2[string, []Choice] {
	return func(yield func(kernel string, cs []Choice) bool) {
		for _, e := range t.Entries {
			if !yield(e.Kernel, e.Choices) {
				return
			}
		}
		for _, d := range t.Defaults {
			if !yield(d.Kernel, d.Choices) {
				return
			}
		}
	}
}

// Compiled returns the table compiled into this binary (ztable.go): the
// entries measured by the fleet's result files, then those of its legacy
// base (LegacyBase set). The slices are shared; callers must not modify
// them.
func Compiled() Table {
	return Table{Entries: compiledEntries, Defaults: tableDefaults}
}

// compiledEntries are ztable.go's entries with the legacy base's marked.
var compiledEntries = joinLegacyBase(tableEntries, legacyBaseEntries)

// joinLegacyBase returns measured followed by legacy, each marked.
func joinLegacyBase(measured, legacy []Entry) []Entry {
	out := append(make([]Entry, 0, len(measured)+len(legacy)), measured...)
	for _, e := range legacy {
		e.LegacyBase = true
		out = append(out, e)
	}
	return out
}
