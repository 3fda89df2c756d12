//go:build !amd64 || purego

package poly1305

import "github.com/tunelab/tunelab/kernels/variant"

// asmVariant is empty: this build has no generated variants, every
// implementation's Fn is nil.
type asmVariant struct{}

// powCache is unused without assembly.
type powCache struct{}

// prodImpls returns no generated variants: the generic code only.
func prodImpls() []variant.Impl[*asmVariant] { return nil }

// labImpls returns nil: there are no lab variants to register.
func labImpls() []variant.Impl[*asmVariant] { return nil }

// InLab is false: there are no lab variants.
func (v *asmVariant) InLab() bool { return false }

// prodSum is never called: no implementation has generated code.
func prodSum(v *asmVariant, out *[16]byte, m []byte, key *[32]byte) {
	panic("poly1305: no assembly variants in this build")
}

// prodBlocks is never called: no implementation has generated code.
func prodBlocks(v *asmVariant, st *state, m []byte, pc *powCache) {
	panic("poly1305: no assembly variants in this build")
}

// prodRun is never called: no implementation has generated code.
func prodRun(v *asmVariant, n int, out *[16]byte, m []byte, key *[32]byte) {
	panic("poly1305: no assembly variants in this build")
}

// The lab wrappers are the production ones, never called either: there
// are no lab variants.
var labSum, labBlocks, labRun = prodSum, prodBlocks, prodRun
