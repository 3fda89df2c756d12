package poly1305

import (
	"crypto/subtle"

	"github.com/tunelab/tunelab/internal/poly1305core"
)

// TagSize is the size in bytes of a Poly1305 authenticator.
const TagSize = 16

// Sum writes to out the authenticator of m under the one-time key, using
// the variant dispatch selects for len(m) bytes.
func Sum(out *[TagSize]byte, m []byte, key *[32]byte) {
	apiSum(slot.For(len(m)), out, m, key)
}

// Verify reports whether mac is the authenticator of m under key, in
// constant time with respect to mac and the computed tag.
func Verify(mac *[TagSize]byte, m []byte, key *[32]byte) bool {
	var tag [TagSize]byte
	Sum(&tag, m, key)
	return subtle.ConstantTimeCompare(tag[:], mac[:]) == 1
}

// A MAC computes a Poly1305 authenticator incrementally. Writes may split
// the message anywhere; each write's full blocks go to the variant
// dispatch selects for their length. A MAC must be used for one message
// only.
type MAC struct {
	st     state
	buf    [16]byte
	nbuf   int
	pow    powCache
	pick   func(n int) *asmVariant // nil: dispatch
	summed bool
}

// New returns a MAC computing an authenticator under the one-time key.
func New(key *[32]byte) *MAC {
	h := &MAC{}
	h.st.Init(key)
	return h
}

// Size returns TagSize.
func (h *MAC) Size() int { return TagSize }

// Write adds p to the message. It never returns an error; it panics when
// called after Sum or Verify, like x/crypto's MAC.
func (h *MAC) Write(p []byte) (int, error) {
	if h.summed {
		panic("poly1305: write to MAC after Sum or Verify")
	}
	n := len(p)
	if h.nbuf > 0 {
		k := copy(h.buf[h.nbuf:], p)
		h.nbuf += k
		p = p[k:]
		if h.nbuf < 16 {
			return n, nil
		}
		poly1305core.BlocksGeneric(&h.st.H, &h.st.R, h.buf[:], 1)
		h.nbuf = 0
	}
	if full := len(p) &^ 15; full > 0 {
		apiBlocks(h.impl(full), &h.st, p[:full], &h.pow)
		p = p[full:]
	}
	h.nbuf = copy(h.buf[:], p)
	return n, nil
}

// impl returns the variant for n bytes of blocks (nil: the generic code).
func (h *MAC) impl(n int) *asmVariant {
	if h.pick != nil {
		return h.pick(n)
	}
	return slot.For(n)
}

// Sum appends the authenticator of the message written so far to b.
// The MAC must not be written to afterwards.
func (h *MAC) Sum(b []byte) []byte {
	var tag [TagSize]byte
	st := h.st
	st.Finish(&tag, h.buf[:h.nbuf])
	h.summed = true
	return append(b, tag[:]...)
}

// Verify reports whether expected is the authenticator of the message
// written so far, in constant time.
func (h *MAC) Verify(expected []byte) bool {
	var tag [TagSize]byte
	st := h.st
	st.Finish(&tag, h.buf[:h.nbuf])
	h.summed = true
	return subtle.ConstantTimeCompare(tag[:], expected) == 1
}
