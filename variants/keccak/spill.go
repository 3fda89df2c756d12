package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// spillState keeps the state in two stack buffers (lane i at off+i*w) and
// computes a round row by row in 16 registers: D[0..4], B[0..4], the
// column parities C[0..4] of the next round, accumulated as rows are
// written, and one temporary. Two groups of states (AVX2, 8 states) share
// the registers; their buffers differ by off.
type spillState struct {
	*vgen
	d, b, c [5]int
	t       int
	off     int // displacement of this group's buffers from the buffer pointers
}

func newSpillState(g *vgen) *spillState {
	s := &spillState{vgen: g}
	for i := 0; i < 5; i++ {
		s.d[i], s.b[i], s.c[i] = g.p.alloc(), g.p.alloc(), g.p.alloc()
	}
	s.t = g.p.alloc()
	return s
}

func (s *spillState) at(buf reg.GPPhysical, i int) Mem { return Mem{Base: buf, Disp: s.off + i*s.w} }

// group returns the state of the group whose buffers are off bytes from
// the buffer pointers; it shares s's registers.
func (s *spillState) group(off int) *spillState {
	t := *s
	t.off = off
	return &t
}

// cSlots is the number of lane slots a buffer has for C[0..4] while the
// other group's round runs (after the 25 lanes).
const cSlots = 5

// saveC parks C[0..4] in slots 25..29 of buf.
func (s *spillState) saveC(buf reg.GPPhysical) {
	for x := 0; x < 5; x++ {
		s.store(s.c[x], s.at(buf, 25+x))
	}
}

// loadC restores C[0..4] from slots 25..29 of buf.
func (s *spillState) loadC(buf reg.GPPhysical) {
	for x := 0; x < 5; x++ {
		s.load(s.c[x], s.at(buf, 25+x))
	}
}

// parity computes C[x] = A[x,0] ^ ... ^ A[x,4] from the buffer (before the loop).
func (s *spillState) parity(buf reg.GPPhysical) {
	for x := 0; x < 5; x++ {
		s.load(s.c[x], s.at(buf, x))
		for y := 1; y < 5; y++ {
			s.xor(s.c[x], s.c[x], s.at(buf, lane(x, y)))
		}
	}
}

// theta: D[x] = C[x-1] ^ (C[x+1] <<< 1); A[x,y] ^= D[x] is applied as
// lanes are loaded in rhoPi. B[0..4] are free here: rot=shufb+add takes
// a zero and a sign mask from them (rol1).
func (s *spillState) theta() {
	if s.v.rot == "shufb+add" {
		s.xor(s.b[0], s.b[0], s.b[0])
	}
	for x := 0; x < 5; x++ {
		if s.v.rot == "shufb+add" {
			s.rol1(s.d[x], s.c[(x+1)%5], s.b[0], s.b[1+x%4])
		} else {
			s.rolT(s.d[x], s.c[(x+1)%5], 1)
		}
		s.xor(s.d[x], s.d[x], s.c[(x+4)%5])
	}
}

// rhoPi loads row y of B: B[x,y] = (A[x+3y,x] ^ D[x+3y]) <<< r[x+3y,x].
// The lane's load is the XOR's memory operand, or with load=split an
// instruction of its own.
func (s *spillState) rhoPi(src reg.GPPhysical, y int) {
	for x := 0; x < 5; x++ {
		i := piSource(x, y)
		if s.v.load == "split" {
			s.load(s.b[x], s.at(src, i))
			s.xor(s.b[x], s.b[x], s.d[i%5])
		} else {
			s.xor(s.b[x], s.d[i%5], s.at(src, i))
		}
		s.rolT(s.b[x], s.b[x], rho[i])
	}
}

// rolT: dst = src <<< n, using the spare temporary t for shift-or.
// rot=shufb (and shufb+add) rotates by a multiple of 8 with one byte
// shuffle; rot=shufb+add rotates by 1 as (src + src) | (src >> 63), one
// shift instead of two.
func (s *spillState) rolT(dst, src, n int) {
	switch {
	case n == 0 || s.v.rot == "prol":
		s.rol(dst, src, n)
		return
	case n%8 == 0 && avx2Rot(s.v.rot):
		VPSHUFB(byteRotMask(n), s.r(src), s.r(dst))
		return
	case n == 1 && s.v.rot == "shufb+add":
		VPSRLQ(U8(63), s.r(src), s.r(s.t))
		VPADDQ(s.r(src), s.r(src), s.r(dst))
		s.or(dst, dst, s.t)
		return
	}
	VPSRLQ(U8(64-n), s.r(src), s.r(s.t))
	VPSLLQ(U8(n), s.r(src), s.r(dst))
	s.or(dst, dst, s.t)
}

// chi writes row y: A[x,y] = B[x,y] ^ (^B[x+1,y] & B[x+2,y]); iota is
// applied to lane (0,0); the next round's C[x] accumulates the row.
func (s *spillState) chi(dst reg.GPPhysical, y int, rcTable Mem, k int) {
	for x := 0; x < 5; x++ {
		b1, b2 := s.b[(x+1)%5], s.b[(x+2)%5]
		if s.v.chi == "ternlog" {
			s.mov(s.t, s.b[x])
			s.tern(ternChi, s.t, b1, b2)
		} else {
			s.andn(s.t, b1, b2)
			s.xor(s.t, s.t, s.b[x])
		}
		if x == 0 && y == 0 {
			s.iota(rcTable, k)
		}
		s.store(s.t, s.at(dst, lane(x, y)))
		if y == 0 {
			s.mov(s.c[x], s.t)
		} else {
			s.xor(s.c[x], s.c[x], s.t)
		}
	}
}

// iota: A[0,0] ^= RC[round].
func (s *spillState) iota(rcTable Mem, k int) {
	s.xor(s.t, s.t, rcTable.Offset(k*s.w))
}

// round computes one round from buffer src into buffer dst.
func (s *spillState) round(src, dst reg.GPPhysical, rcTable Mem, k int) {
	s.theta()
	for y := 0; y < 5; y++ {
		s.rhoPi(src, y)
		s.chi(dst, y, rcTable, k)
	}
}
