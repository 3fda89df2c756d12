//go:build !amd64 || purego

package poly1305

// asmVariant is empty: this build has no generated variants, every
// implementation's Fn is nil.
type asmVariant struct{}

// powCache is unused without assembly.
type powCache struct{}

// platformImpls returns no generated variants: the generic code only.
func platformImpls() []*impl { return nil }

// labImpls returns nil: there are no lab variants to register.
func labImpls(prod []*impl) []*impl { return nil }

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
