// Package align measures how the placement of a kernel's hot loop head
// within a 64-byte cache line affects its speed, warm (steady state) and
// cold (first call after the instruction cache and op-cache were evicted).
//
// A Set is one base variant's offset sweep: its siblings that differ only
// in the align knob (align=64 is offset 0, align=64+N offset N, plus
// align=none for the aligned-versus-unaligned comparison), each with the
// loop's achieved placement located in the running binary by asmmap.
// Bases lists a kernel's offset-sweep bases (typically one per ISA tier);
// DefaultBase picks one the host runs (TUNELAB_CPU masks applied),
// preferring dispatch's choice, then its ISA width, then the widest, and a
// base the host cannot run is an *UnrunnableError naming the missing
// features and a runnable base.
// Measure verifies every arm, then samples the arms interleaved in a fresh
// random order every round on a pinned thread: warm samples time many
// back-to-back calls, cold samples call Evict and time one call with
// RDTSCP. Analyze turns the samples into per-offset medians with 95%
// intervals (x/perf benchmath, AssumeNothing), the sensitivity (slowest
// over fastest offset median, with a simultaneous interval) and a
// Mann-Whitney U comparison of align=64 with align=none. WriteText,
// WriteSVG and WriteResults present the result as a table, a plot and a
// benchfmt file that `tunelab report` merges with sweep results.
package align

// Evict executes a code footprint several times larger than the L1
// instruction cache and the decoded-op cache, evicting both. It returns a
// value derived from the work so the call cannot be elided.
func Evict() uint64 { return evict() }

// EvictAvailable reports whether Evict really evicts (it is a no-op in
// purego builds and on other architectures).
func EvictAvailable() bool { return evictAvailable }
