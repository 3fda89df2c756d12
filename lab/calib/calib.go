package calib

// BaseLen is the number of dependent additions per op of the generic
// variant and of the unperturbed amd64 variant (eps=0).
const BaseLen = 1000

// Chain returns x + n·BaseLen·k (mod 2^64), computed as n·BaseLen
// dependent additions by the generic reference.
func Chain(n int, x, k uint64) uint64 { return chainGeneric(n, x, k, BaseLen) }
