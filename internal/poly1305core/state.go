// Package poly1305core holds what kernels/poly1305 and the lab's
// generated variants (lab/variants/poly1305) share: the state of one
// message and the generic field arithmetic that starts and finishes every
// MAC (State, BlocksGeneric), and on amd64 the record of a generated
// variant (Variant), the power-table cache and helpers its wrappers use,
// and the hooks (Lab) through which kernels/poly1305 runs the variants
// only the lab links. Neither package imports the other: the families'
// tests import the lab package, which therefore cannot import the family.
package poly1305core

import (
	"encoding/binary"
	"math/bits"
)

// A State is the accumulator and key of one message.
type State struct {
	H [3]uint64 // canonical accumulator, see kernels/poly1305's package comment
	R [2]uint64 // clamped r
	S [2]uint64
}

// Clamping masks of r (RFC 8439 section 2.5).
const (
	RMask0 = 0x0FFFFFFC0FFFFFFF
	RMask1 = 0x0FFFFFFC0FFFFFFC
)

// Init starts a message under the one-time key.
func (st *State) Init(key *[32]byte) {
	st.H = [3]uint64{}
	st.R[0] = binary.LittleEndian.Uint64(key[0:8]) & RMask0
	st.R[1] = binary.LittleEndian.Uint64(key[8:16]) & RMask1
	st.S[0] = binary.LittleEndian.Uint64(key[16:24])
	st.S[1] = binary.LittleEndian.Uint64(key[24:32])
}

// BlocksGeneric adds the full blocks of m to h, each with hibit·2^128:
// h = (h + block)·r mod p (partially reduced, h[2] < 8).
func BlocksGeneric(h *[3]uint64, r *[2]uint64, m []byte, hibit uint64) {
	h0, h1, h2 := h[0], h[1], h[2]
	for len(m) >= 16 {
		var c uint64
		h0, c = bits.Add64(h0, binary.LittleEndian.Uint64(m[0:8]), 0)
		h1, c = bits.Add64(h1, binary.LittleEndian.Uint64(m[8:16]), c)
		h2 += c + hibit
		h0, h1, h2 = MulReduce(h0, h1, h2, r[0], r[1])
		m = m[16:]
	}
	h[0], h[1], h[2] = h0, h1, h2
}

// MulReduce returns (h0 + h1·2^64 + h2·2^128)·(r0 + r1·2^64) partially
// reduced modulo p, for h2 < 2^4 and r0, r1 < 2^60: the product t has
// t >> 130 = c and h = (t mod 2^130) + 4c + c since 2^130 ≡ 5.
func MulReduce(h0, h1, h2, r0, r1 uint64) (uint64, uint64, uint64) {
	hi00, t0 := bits.Mul64(h0, r0)
	hi10, lo10 := bits.Mul64(h1, r0)
	hi01, lo01 := bits.Mul64(h0, r1)
	hi11, lo11 := bits.Mul64(h1, r1)
	var c uint64
	t1, c := bits.Add64(hi00, lo10, 0)
	t2, _ := bits.Add64(hi10, h2*r0, c) // h2·r0 < 2^64, no carry out: t < 2^190
	t1, c = bits.Add64(t1, lo01, 0)
	t2, c2 := bits.Add64(t2, hi01, c)
	t3 := hi11 + c2
	t2, c = bits.Add64(t2, lo11, 0)
	t3 += h2*r1 + c
	// h = t mod 2^130 + (t >> 130)·4 + (t >> 130)
	n0, n1, n2 := t0, t1, t2&3
	cc0, cc1 := t2&^3, t3
	n0, c = bits.Add64(n0, cc0, 0)
	n1, c = bits.Add64(n1, cc1, c)
	n2 += c
	cc0, cc1 = cc0>>2|cc1<<62, cc1>>2
	n0, c = bits.Add64(n0, cc0, 0)
	n1, c = bits.Add64(n1, cc1, c)
	n2 += c
	return n0, n1, n2
}

// Finish adds the final partial block (len(tail) < 16, padded with a 1
// byte, no 2^128 bit) with the generic code, reduces h modulo p in
// constant time, adds s and writes the tag.
func (st *State) Finish(out *[16]byte, tail []byte) {
	if len(tail) > 0 {
		var b [16]byte
		copy(b[:], tail)
		b[len(tail)] = 1
		BlocksGeneric(&st.H, &st.R, b[:], 0)
	}
	h0, h1, _ := reduceFull(st.H)
	var c uint64
	h0, c = bits.Add64(h0, st.S[0], 0)
	h1, _ = bits.Add64(h1, st.S[1], c)
	binary.LittleEndian.PutUint64(out[0:8], h0)
	binary.LittleEndian.PutUint64(out[8:16], h1)
}

// reduceFull returns h mod p for a partially reduced h (h[2] < 8): one
// fold of h >> 130, then a constant-time conditional subtraction of p.
func reduceFull(h [3]uint64) (uint64, uint64, uint64) {
	h0, h1, h2 := h[0], h[1], h[2]
	c := (h2 >> 2) * 5
	h2 &= 3
	var k uint64
	h0, k = bits.Add64(h0, c, 0)
	h1, k = bits.Add64(h1, 0, k)
	h2 += k
	// t = h - p = h + 5 - 2^130; keep t when it does not borrow.
	t0, b := bits.Sub64(h0, 0xFFFFFFFFFFFFFFFB, 0)
	t1, b := bits.Sub64(h1, 0xFFFFFFFFFFFFFFFF, b)
	t2, b := bits.Sub64(h2, 3, b)
	keep := b - 1 // all ones when h >= p
	return h0 ^ (keep & (h0 ^ t0)), h1 ^ (keep & (h1 ^ t1)), h2 ^ (keep & (h2 ^ t2))
}
