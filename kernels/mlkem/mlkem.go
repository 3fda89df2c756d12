// Package mlkem implements the number-theoretic transform kernels of ML-KEM
// (FIPS 203) over Z_q[X]/(X^256+1), q = 3329: NTT (Algorithm 9), InvNTT
// (Algorithm 10) and MulNTT (Algorithm 11).
//
// Every implementation, the generic Go reference and each generated
// assembly variant alike, takes canonical coefficients in [0, q) and
// returns canonical coefficients in [0, q) in exactly the coefficient order
// FIPS 203 defines, bit for bit equal to the specification. The package
// registers the kernels "mlkem.ntt", "mlkem.invntt" and "mlkem.mulntt" with
// kernels/variant and calls the variant kernels/dispatch selects. A program
// that uses only this package links the generic code and the variants the
// compiled dispatch table can select; RegisterVariants adds every other
// generated variant for the lab.
//
// On those kernels and kernels/sha3 the package also implements ML-KEM
// (FIPS 203) itself, with the API of crypto/mlkem plus ML-KEM-512: key
// generation, encapsulation and decapsulation for ML-KEM-512, -768 and
// -1024; derandomized encapsulation for tests is in kernels/mlkem/mlkemtest.
package mlkem

import (
	"github.com/tunelab/tunelab/kernels/internal/polypack"
	"github.com/tunelab/tunelab/kernels/internal/polysample"
)

// Q is the ML-KEM modulus.
const Q = 3329

// NTT replaces f by its NTT representation (FIPS 203 Algorithm 9). The
// coefficients of f must be in [0, Q); the result is in [0, Q).
func NTT(f *[256]int16) {
	fn, ok := nttSlot.Ready()
	if !ok {
		fn = nttSlot.Fn()
	}
	fn(f)
}

// InvNTT replaces f by its inverse NTT (FIPS 203 Algorithm 10), including
// the final multiplication by 128⁻¹ = 3303. Coefficients in and out are in
// [0, Q).
func InvNTT(f *[256]int16) {
	fn, ok := invNTTSlot.Ready()
	if !ok {
		fn = invNTTSlot.Fn()
	}
	fn(f)
}

// MulNTT sets h to the product of f and g in the NTT domain (FIPS 203
// Algorithm 11, base-case multiplication of Algorithm 12). Coefficients in
// and out are in [0, Q). h may alias f or g.
func MulNTT(h, f, g *[256]int16) {
	fn, ok := mulNTTSlot.Ready()
	if !ok {
		fn = mulNTTSlot.Fn()
	}
	fn(h, f, g)
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
// It also registers the lab variants of the samplers and packings
// (kernels/internal/polysample, polypack) and of the matrix-vector
// kernels. The whole-operation kernels (mlkem768.keygen, ...) are the
// lab's: lab/operations.
func RegisterVariants() {
	kernels.RegisterLab(asmNTT(), asmInvNTT(), asmMulNTT())
	polysample.RegisterVariants()
	polypack.RegisterVariants()
	mulCacheSlot.AddLab(labSpecMulCacheSlot(), asmMulCache())
	matVecSlot.AddLab(labSpecMatVecSlot(), asmMatVec())
}
