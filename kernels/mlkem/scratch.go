package mlkem

import "sync"

// A scratch holds the temporaries of one operation. The kernels take
// their polynomials through function values, so a polynomial they see
// lives on the heap; operations take a scratch from a pool instead of
// allocating.
type scratch struct {
	noise    [2*maxK + 1]poly // s, e (key generation); y, e1, e2 (encryption)
	u        [maxK]poly       // NTT(u') in decryption
	acc, tmp poly

	xofOut [maxK * maxK][xofBytes]byte
	xofIn  [maxK * maxK][34]byte // ρ || j || i
	prfOut [2*maxK + 1][prfMax]byte
	prfIn  [2*maxK + 1][33]byte // seed || N

	outs, ins [maxK * maxK][]byte      // the streams of one multi-stream call
	gIn       [64]byte                 // the input of G
	ct        [CiphertextSize1024]byte // the re-encryption in decapsulation
	h         hasher
}

var scratchPool = sync.Pool{New: func() any { return &scratch{h: newHasher()} }}

// getScratch returns a scratch from the pool.
func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// release wipes what may be secret in sc and returns it to the pool. The
// matrix streams are public and left as they are.
func (sc *scratch) release() {
	clear(sc.noise[:])
	clear(sc.u[:])
	clear(sc.acc[:])
	clear(sc.tmp[:])
	clear(sc.prfOut[:])
	clear(sc.prfIn[:])
	clear(sc.gIn[:])
	clear(sc.ct[:])
	sc.h.wipe()
	scratchPool.Put(sc)
}
