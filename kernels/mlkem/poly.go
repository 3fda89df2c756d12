package mlkem

import (
	"unsafe"

	"github.com/tunelab/tunelab/kernels/internal/escape"
)

// Polynomial arithmetic of the whole operations, on canonical
// coefficients in [0, q) unless said otherwise. The transforms and the
// NTT-domain products are the dispatched kernels NTT, InvNTT and MulNTT;
// additions are done here, branch-free, four coefficients at a time.

// A poly is a polynomial of R_q (or of T_q, in the NTT domain), as the
// kernels take it.
type poly = [n]int16

// Lane-wise arithmetic on four coefficients at once, each in a 16-bit
// lane of a uint64 word: every lane stays below 2^16, so no carry or
// borrow crosses into the next.

// ones has 1 in every lane.
const ones = 0x0001_0001_0001_0001

// lanes returns f as the 64 words of four coefficients it is made of. The
// order of the lanes in a word is the machine's byte order, so only
// lane-wise operations may use it. Every polynomial of this package is
// 8-byte aligned (in heap-allocated keys and scratch, at multiples of 512
// bytes), and the word type holds no pointers.
func lanes(f *poly) *[n / 4]uint64 { return (*[n / 4]uint64)(unsafe.Pointer(f)) }

// subGE subtracts c from every lane of x that is ≥ c, for lanes below
// 2^15 and 0 < c ≤ 2^15: bit 15 of a lane of x + (2^15 − c) is set
// exactly when the lane is ≥ c.
func subGE(x, c uint64) uint64 {
	ge := (x + (1<<15-c)*ones) >> 15 & ones
	return x - ge*c
}

// addMod sets f to f + g.
func addMod(f, g *poly) {
	a, b := lanes(f), lanes(g)
	for i := range a {
		a[i] = subGE(a[i]+b[i], Q)
	}
}

// subFrom sets f to g − f.
func subFrom(f, g *poly) {
	a, b := lanes(f), lanes(g)
	for i := range a {
		a[i] = subGE(b[i]+Q*ones-a[i], Q)
	}
}

// The kernels are called through function values, so the compiler cannot
// see that they do not retain their arguments and would move every
// polynomial passed to them to the heap. They do not retain them (they
// transform in place and return), so the operations call them through
// the wrappers below, which hide the pointers from escape analysis
// (kernels/internal/escape): the operations' scratch stays on the stack.

// ntt is NTT on a polynomial that may stay on the stack.
func ntt(f *poly) { NTT(escape.Hide(f)) }

// invNTT is InvNTT on a polynomial that may stay on the stack.
func invNTT(f *poly) { InvNTT(escape.Hide(f)) }

// mulNTT is MulNTT on polynomials that may stay on the stack.
func mulNTT(h, f, g *poly) { MulNTT(escape.Hide(h), escape.Hide(f), escape.Hide(g)) }
