// Package align measures how the placement of a kernel's hot loop head
// within a 64-byte cache line affects its speed, warm (steady state) and
// cold (first call after the instruction cache and op-cache were evicted).
package align

// Evict executes a code footprint several times larger than the L1
// instruction cache and the decoded-op cache, evicting both. It returns a
// value derived from the work so the call cannot be elided.
func Evict() uint64 { return evict() }

// EvictAvailable reports whether Evict really evicts (it is a no-op in
// purego builds and on other architectures).
func EvictAvailable() bool { return evictAvailable }
