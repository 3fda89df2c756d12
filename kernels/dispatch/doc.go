// Package dispatch selects, per kernel and size class, the variant
// production code runs on the CPU that kernels/cpu identifies (its
// dispatch key, feature level and features, the TUNELAB_CPU mask
// applied).
//
// # Overrides: TUNELAB_DISPATCH
//
// TUNELAB_DISPATCH="keccak.x4=isa=avx2/rot=shift,poly1305=generic" forces
// a variant for every size of a kernel (entries split on ',', then on the
// first '='; "generic" means isa=generic). An override naming a variant the
// kernel does not offer, or one the (masked) CPU cannot run, is ignored with
// a one-time warning on stderr; one naming a kernel no tunelab package
// plans (a typo) is warned about too, in any binary. An override that
// applies says so once on stderr. Warnings quote the entry (%q), so that
// no control character reaches the terminal. In a lab binary (one that
// imports lab/all), which plans every kernel again once its lab
// variants are registered, override warnings wait for that final plan:
// an override naming a lab variant is applied, not reported as ignored.
//
// # Selection
//
// Plan resolves, per kernel: override, then the compiled table (ztable.go,
// written by `tunelab export --format go`) for this CPU's vendor, family and
// model, then the entries of the nearest measured CPUs (below), then the
// feature-level defaults, then the generic variant. A variant whose
// features the CPU lacks is never selected. Resolve is the same selection
// as a pure function of its inputs; ResolveRule with RuleDefaults skips
// the nearest CPUs (for leave-one-out comparisons).
//
// # Entries and feature sets
//
// A table entry records the features its sweep ran with, and one model may
// have an entry per feature set (a Zen 4 whose hypervisor hides AVX-512
// measures differently from one that does not). Of the entries for the
// CPU's model and a kernel, an entry is usable only if the CPU has every
// one of its features, masks applied (a TUNELAB_CPU mask counts as the
// CPU's feature set), and it was measured at the CPU's feature level (an
// AVX2-only sweep does not decide for the same model with AVX-512). Among
// the usable entries Resolve takes the one
// measured with exactly the CPU's feature set, else the closest subset
// (the one measured without the fewest of the CPU's features), else a
// legacy entry; the first listed among equals. A legacy entry is one with
// no recorded features (a table exported before they were recorded): it
// ranks below every feature-matched entry and is used choice by choice,
// each choice naming a variant the CPU cannot run skipped and its sizes
// left to the defaults, as for any entry. When no entry is usable, the
// nearest measured CPU's entry decides (below), else the defaults.
// KernelPlan.Entries and KernelPlan.Table say which entry
// was used and why.
//
// # CPUs the table does not name
//
// Where the CPU's own model has no usable entry for a kernel (most users
// run on a CPU nobody measured, and a VM's model number may name another
// CPU than its features), the kernel's plan comes from the entry of the
// nearest measured CPU that qualifies: one measured at the CPU's feature
// level and with exactly the CPU's features as far as the kernel's
// tabled variants use them (the features of the variants any entry or
// default of the table names for the kernel; a production binary links
// exactly those). Such an entry's choices all run here, and its sweep
// measured every tabled variant that runs here: features the kernel's
// variants do not use (avx512bf16 for Poly1305) do not matter, features
// they do use (avx512ifma) must match both ways. Among qualifying
// entries the nearest is the one of the same vendor and CPUID family,
// then the one with the most features in common with the CPU, then the
// first listed. The defaults decide only where no measured CPU
// qualifies. Defaults within a level are tried with the most features
// first, so that a default keyed by features beyond its level precedes
// the level's own. KernelPlan.Nearest says what Resolve made of each
// other model's entry.
package dispatch

// ztable.go is a function of the fleet's result files (results/fleet):
// go generate ./kernels/dispatch rebuilds it from exactly those files.
//go:generate go run ../../cmd/tunelab export --fleet ../../results/fleet --format go -o ztable.go
