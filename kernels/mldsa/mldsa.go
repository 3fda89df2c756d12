// Package mldsa implements the number-theoretic transform kernels of ML-DSA
// (FIPS 204) over Z_q[X]/(X^256+1), q = 8380417: NTT (Algorithm 41),
// InvNTT (Algorithm 42) and MulNTT (Algorithm 45).
//
// Every implementation, the generic Go reference and each generated
// assembly variant alike, takes canonical coefficients in [0, q) and
// returns canonical coefficients in [0, q) in exactly the coefficient order
// FIPS 204 defines, bit for bit equal to the specification. The package
// registers the kernels "mldsa.ntt", "mldsa.invntt" and "mldsa.mulntt" with
// kernels/variant and calls the variant kernels/dispatch selects. A program
// that uses only this package links the generic code and the variants the
// compiled dispatch table can select; RegisterVariants adds every other
// generated variant for the lab.
//
// On those kernels and kernels/sha3 the package also implements ML-DSA
// itself (FIPS 204): ML-DSA-44, -65 and -87 key generation from a seed,
// deterministic and hedged signing with a context string, and
// verification.
package mldsa

import (
	"github.com/tunelab/tunelab/kernels/internal/polypack"
	"github.com/tunelab/tunelab/kernels/internal/polysample"
)

// Q is the ML-DSA modulus.
const Q = 8380417

// NTT replaces w by its NTT representation (FIPS 204 Algorithm 41). The
// coefficients of w must be in [0, Q); the result is in [0, Q).
func NTT(w *[256]int32) {
	fn, ok := nttSlot.Ready()
	if !ok {
		fn = nttSlot.Fn()
	}
	fn(w)
}

// InvNTT replaces w by its inverse NTT (FIPS 204 Algorithm 42), including
// the final multiplication by 256⁻¹ = 8347681. Coefficients in and out are
// in [0, Q).
func InvNTT(w *[256]int32) {
	fn, ok := invNTTSlot.Ready()
	if !ok {
		fn = invNTTSlot.Fn()
	}
	fn(w)
}

// MulNTT sets c to the coefficient-wise product of a and b in the NTT
// domain (FIPS 204 Algorithm 45). Coefficients in and out are in [0, Q).
// c may alias a or b.
func MulNTT(c, a, b *[256]int32) {
	fn, ok := mulNTTSlot.Ready()
	if !ok {
		fn = mulNTTSlot.Fn()
	}
	fn(c, a, b)
}

// RegisterVariants registers every generated variant with kernels/variant
// for the lab (tunelab, its workers, tests) and chooses the implementation
// the functions above call again among all of them, so that
// TUNELAB_DISPATCH can force any variant. Production code need not call it
// and then links only the variants its dispatch table can select. It is
// idempotent; call it before the kernels run concurrently (lab/all
// calls it at init). Without assembly (purego, not amd64) it registers
// nothing new.
//
// It also registers the lab variants of the rounding kernels, of the
// samplers and packings (kernels/internal/polysample, polypack) and of
// the matrix-vector kernel. The whole-operation kernels (mldsa65.sign,
// ...) are the lab's: lab/operations.
func RegisterVariants() {
	kernels.RegisterLab(asmNTT(), asmInvNTT(), asmMulNTT())
	registerRoundLab()
	matVec.AddLab(labSpecMatVec(), asmMatVec())
	polysample.RegisterVariants()
	polypack.RegisterVariants()
}
