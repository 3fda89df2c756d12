//go:build !amd64 || purego

package poly1305

// powCache is unused without assembly.
type powCache struct{}

// platformImpls returns no generated variants: the generic code only.
func platformImpls() []*impl { return nil }

// asmBlocks is never called: no implementation has an assembly id.
func asmBlocks(id int, st *state, m []byte, pc *powCache) {
	panic("poly1305: no assembly variants in this build")
}

// asmSum is never called: no implementation has an assembly id.
func asmSum(id int, out *[16]byte, m []byte, key *[32]byte) bool {
	panic("poly1305: no assembly variants in this build")
}
