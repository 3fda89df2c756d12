package keccak

import "sync"

// Permute applies Keccak-f[1600] (24 rounds) to the state a, lane (x, y)
// at a[x+5y].
func Permute(a *[25]uint64) {
	fn, ok := x1.Ready()
	if !ok {
		fn = x1.Fn()
	}
	fn(a)
}

// PermuteX2 applies Keccak-f[1600] to each of two independent states.
func PermuteX2(a *[2][25]uint64) {
	fn, ok := x2.Ready()
	if !ok {
		fn = x2.Fn()
	}
	fn(a)
}

// PermuteX4 applies Keccak-f[1600] to each of four independent states.
func PermuteX4(a *[4][25]uint64) {
	fn, ok := x4.Ready()
	if !ok {
		fn = x4.Fn()
	}
	fn(a)
}

// PermuteX8 applies Keccak-f[1600] to each of eight independent states.
func PermuteX8(a *[8][25]uint64) {
	fn, ok := x8.Ready()
	if !ok {
		fn = x8.Fn()
	}
	fn(a)
}

var registerOnce sync.Once

// RegisterVariants registers every generated variant with kernels/variant
// for the lab (tunelab, its workers, tests) and re-selects the variants the
// permutations dispatch to among all of them, so that TUNELAB_DISPATCH can
// force any variant. Production code need not call it: it then links only
// the variants its dispatch table can select. RegisterVariants is
// idempotent; call it before the permutations are used concurrently (from
// an init function). Without assembly (purego, or not amd64) it registers
// nothing.
func RegisterVariants() { registerOnce.Do(registerLab) }
