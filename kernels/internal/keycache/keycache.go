// Package keycache holds what a lattice key precomputes from its public
// seed and encoding on first use, not when it is made: the matrix Â and a
// hash of the encoding (ML-KEM's H(ek), ML-DSA's tr). A key made to be
// used once, the common case (a key parsed to verify one signature or
// encapsulate once; a key pair generated to be stored), then allocates no
// matrix: its first use expands Â into the caller's scratch memory
// (Transient), beside the hash where it is not known yet. A key used
// again expands Â into memory of its own once (Own) and keeps it.
//
// Every method is safe for concurrent use: concurrent first uses may both
// expand into scratch memory, and every one of them gets the same matrix
// and hash.
package keycache

import (
	"sync"
	"sync/atomic"
)

// A Matrix is a key's matrix of polynomials of type P, expanded on use.
type Matrix[P any] struct {
	once     sync.Once
	expanded atomic.Bool
	uses     atomic.Int64
	own      []P
}

// Transient counts a use of the key and reports whether it is to expand
// the matrix into scratch memory: the key's first use, unless the matrix
// is in its own memory already.
func (m *Matrix[P]) Transient() bool {
	return !m.expanded.Load() && m.uses.Add(1) == 1
}

// Own returns the matrix in the key's own memory, the first time
// allocating n polynomials and filling them with expand.
func (m *Matrix[P]) Own(n int, expand func([]P)) []P {
	m.once.Do(func() {
		own := make([]P, n)
		expand(own)
		m.own = own
		m.expanded.Store(true)
	})
	return m.own
}

// A Digest is a key's hash of type D, set once.
type Digest[D any] struct {
	once sync.Once
	set  atomic.Bool
	d    D
}

// Known reports whether the hash is set.
func (h *Digest[D]) Known() bool { return h.set.Load() }

// Get returns the hash, the first time setting it to *batched, hashed by
// the caller beside other streams, or (batched nil) computing it with
// hash.
func (h *Digest[D]) Get(batched *D, hash func(*D)) *D {
	h.once.Do(func() {
		if batched != nil {
			h.d = *batched
		} else {
			hash(&h.d)
		}
		h.set.Store(true)
	})
	return &h.d
}

// Keep makes own the matrix in the key's own memory, for a key made with
// its matrix (key generation), before the key is shared.
func (m *Matrix[P]) Keep(own []P) {
	m.once.Do(func() {
		m.own = own
		m.expanded.Store(true)
	})
}
