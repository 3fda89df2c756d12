package poly1305

import (
	"bytes"
	"sync"
)

// RegisterVariants registers every generated variant with kernels/variant
// for the lab: the tunelab binary, its workers and tests call it, so that
// they can measure, verify and (with TUNELAB_DISPATCH) force any variant.
// Production code need not call it; it then links only the variants its
// dispatch table can select. RegisterVariants adds the variants the
// production set lacks and plans dispatch again among all; those are in
// lab/variants/poly1305, which the binary must import (lab/variants
// imports every such package). Calling it again does nothing. Call it
// before using the package concurrently (lab/all calls it from an init
// function). Under purego, or off amd64, there are no generated variants
// and it registers the generic one.
func RegisterVariants() { registerOnce.Do(func() { slot.AddLab(labSpec(), labImpls()) }) }

var registerOnce sync.Once

// sumCopy computes the MAC with lab variant v for the public API, on
// heap copies of m and key, so that none of its arguments escapes. Only
// a binary that called RegisterVariants gets here, when TUNELAB_DISPATCH
// forces a lab variant; the copies cost that binary an allocation and a
// copy of m per call, which measurements avoid by calling the variant
// directly (instances, sum).
func sumCopy(v *asmVariant, out *[16]byte, m []byte, key *[32]byte) {
	o, k := new([16]byte), new([32]byte)
	*k = *key
	labSum(v, o, bytes.Clone(m), k)
	*out = *o
}

// blocksCopy is apiBlocks for lab variant v on heap copies of st, m and
// pc, as sumCopy.
func blocksCopy(v *asmVariant, st *state, m []byte, pc *powCache) {
	s := new(state)
	*s = *st
	var c *powCache
	if pc != nil {
		c = new(powCache)
		*c = *pc
	}
	labBlocks(v, s, bytes.Clone(m), c)
	*st = *s
	if pc != nil {
		*pc = *c
	}
}
