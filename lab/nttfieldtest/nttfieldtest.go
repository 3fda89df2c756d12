// Package nttfieldtest holds the tests the NTT kernel families
// (kernels/mlkem and kernels/mldsa) share: every function here is the body
// of one test, fuzz target or benchmark, generic over the coefficient type,
// and each family's *_test.go files call it with their Field.
//
// A family's test files keep what is specific to its field (the zeta
// tables against math/big, the lane bounds of its Montgomery and Barrett
// arithmetic) and keep the test names: APIUnderMasks reruns the calling
// package's TestAPI and ProductionInit its TestProductionInit in
// subprocesses, and FuzzVariants must be called from a fuzz target of the
// calling package. Each family's TestMain calls Main, so that the tests see
// every generated variant.
//
// A lab package, it reaches kernels/internal/nttfield only through what
// the families register in kernels/variant (a variant's Verify is
// nttfield's comparison with the generic code) and through the
// polynomials and inputs nttfield takes from internal/polyvec.
package nttfieldtest

import (
	"math/big"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/variant"
)

// unary and binary are nttfield's Unary (an in-place NTT or InvNTT) and
// Binary (a MulNTT product h = f∘g).
type (
	unary[E polyvec.Elem]  = func(*polyvec.Poly[E])
	binary[E polyvec.Elem] = func(h, f, g *polyvec.Poly[E])
)

// A Field describes one family's kernels to the shared tests.
type Field[E polyvec.Elem] struct {
	// Prefix names the kernels: "mlkem" stands for "mlkem.ntt",
	// "mlkem.invntt" and "mlkem.mulntt".
	Prefix string
	// Q is the modulus.
	Q E

	// NTT, InvNTT and MulNTT are the generic references.
	NTT, InvNTT unary[E]
	MulNTT      binary[E]

	// AsmNTT, AsmInvNTT and AsmMulNTT are the assembly variant tables,
	// the lab's: every generated variant (empty without assembly).
	AsmNTT, AsmInvNTT []variant.Impl[unary[E]]
	AsmMulNTT         []variant.Impl[binary[E]]

	// ProdNTT, ProdInvNTT and ProdMulNTT are the production tables: the
	// variants the compiled dispatch table can select (empty without
	// assembly).
	ProdNTT, ProdInvNTT []variant.Impl[unary[E]]
	ProdMulNTT          []variant.Impl[binary[E]]

	// APINTT, APIInvNTT and APIMulNTT are the public functions, which call
	// the variant dispatch chose.
	APINTT, APIInvNTT unary[E]
	APIMulNTT         binary[E]
}

// Kernel returns the registered name of the kernel op ("ntt", "invntt" or
// "mulntt").
func (fd Field[E]) Kernel(op string) string { return fd.Prefix + "." + op }

// unaryKernel is one in-place transform of a Field.
type unaryKernel[E polyvec.Elem] struct {
	op       string
	ref, api unary[E]
	impls    []variant.Impl[unary[E]]
}

// unaries returns NTT and InvNTT.
func (fd Field[E]) unaries() []unaryKernel[E] {
	return []unaryKernel[E]{
		{"ntt", fd.NTT, fd.APINTT, fd.AsmNTT},
		{"invntt", fd.InvNTT, fd.APIInvNTT, fd.AsmInvNTT},
	}
}

// Center returns the representative of x mod q in [-q/2, q/2].
func Center[T ~int32 | ~int64](x, q T) T {
	x %= q
	if x < 0 {
		x += q
	}
	if x > q/2 {
		x -= q
	}
	return x
}

// PowMod returns b^e mod q, computed with math/big.
func PowMod(b, e, q int64) int64 {
	return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), big.NewInt(q)).Int64()
}
