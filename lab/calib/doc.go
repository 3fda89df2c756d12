// Package calib is the calibration family: kernels with exactly known work
// that tunelab uses to measure its own measurement machinery.
//
// Kernel "calib" adds a constant k to a 64-bit accumulator x in one
// dependent chain. Variant "isa=generic" is the Go reference with chain
// length BaseLen; the generated amd64 variants "isa=amd64/eps=E/align=64"
// run a chain of BaseLen·(1+E/100) single-cycle ADDQ instructions per
// iteration, so eps=0 takes BaseLen core cycles per op and eps=1, 2, 5
// plant slowdowns of exactly 1%, 2% and 5%. Variants
// "isa=amd64/eps=0/align=64/copy=N" are byte-identical copies of the
// eps=0 chain at other addresses, and "isa=amd64/eps=0/align=64+N" the
// same chain with its loop head N bytes past a 64-byte line: they differ
// from eps=0 in placement only. `tunelab selftest` races them against
// each other to measure false-positive and detection rates and the
// host's layout floor.
//
// Contract: one op of a variant with chain length L maps x to x + L·k
// (mod 2^64), computed as L successive additions.
package calib
