package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// complemented is the lane complementing pattern P (Keccak implementation
// overview, section 2.2): these lanes are kept complemented between rounds
// so that chi needs fewer NOTs.
var complemented = map[int]bool{1: true, 2: true, 8: true, 12: true, 17: true, 20: true}

// scalarState computes a round row by row in general-purpose registers,
// from buffer src into buffer dst (the state itself and a stack buffer):
// D[0..4] and B[0..4] (which first hold C[0..4]) and one temporary. With
// regs=acc, C[x] of the columns in accCols lives in its own register
// (acc[x]), accumulated as chi writes each row, so that theta loads only
// the other columns.
type scalarState struct {
	v     variant
	d, b  [5]reg.GPPhysical
	t     reg.GPPhysical
	acc   [5]reg.GPPhysical // regs=acc: the parity register of column x, or nil
	rcPtr Mem               // stack slot holding the round-constant pointer
	mask  [25]bool
}

// accCols are the columns whose parities regs=acc accumulates: the two
// registers left once D, B, a temporary and the state pointer are taken
// (RSI, freed by addressing the stack buffer from SP, and RBP; R15 is
// avoided: dynamically linked code clobbers it on global accesses).
var accCols = map[int]reg.GPPhysical{0: reg.RSI, 1: reg.RBP}

func newScalarState(v variant, rcPtr Mem) *scalarState {
	s := &scalarState{v: v, rcPtr: rcPtr, t: reg.R14,
		d: [5]reg.GPPhysical{reg.RAX, reg.RBX, reg.RCX, reg.RDX, reg.R8},
		b: [5]reg.GPPhysical{reg.R9, reg.R10, reg.R11, reg.R12, reg.R13}}
	if v.comp == "on" {
		for i := range s.mask {
			s.mask[i] = complemented[i]
		}
	}
	if v.regs == "acc" {
		for x, r := range accCols {
			s.acc[x] = r
		}
	}
	return s
}

// at addresses lane i of the buffer at buf.
func at(buf Mem, i int) Mem { return buf.Offset(8 * i) }

// scalarBufs returns the buffers a scalar permutation ping-pongs between:
// the state at RDI and the stack buffer local (25 lanes), through RSI
// (which an odd unroll swaps with RDI) or, with regs=acc, from SP.
func scalarBufs(v variant, local Mem) [2]Mem {
	if v.regs == "acc" {
		return [2]Mem{{Base: reg.RDI}, local}
	}
	LEAQ(local, reg.RSI)
	return [2]Mem{{Base: reg.RDI}, {Base: reg.RSI}}
}

// parity loads C[x] = A[x,0] ^ ... ^ A[x,4] of buffer src into r.
func parity(src Mem, x int, r reg.GPPhysical) {
	MOVQ(at(src, x), r)
	for y := 1; y < 5; y++ {
		XORQ(at(src, lane(x, y)), r)
	}
}

// c returns the register holding C[x] in theta.
func (s *scalarState) c(x int) reg.GPPhysical {
	if r := s.acc[x%5]; r != nil {
		return r
	}
	return s.b[x%5]
}

// theta: C[x] = A[x,0] ^ ... ^ A[x,4] (in B, or accumulated in acc[x]);
// D[x] = C[x-1] ^ (C[x+1] <<< 1).
func (s *scalarState) theta(src Mem) {
	for x := 0; x < 5; x++ {
		if s.acc[x] == nil {
			parity(src, x, s.b[x])
		}
	}
	for x := 0; x < 5; x++ {
		if s.v.rot == "rorx" {
			RORXQ(U8(63), s.c(x+1), s.d[x]) // <<< 1 into a new register: no copy
		} else {
			MOVQ(s.c(x+1), s.d[x])
			ROLQ(U8(1), s.d[x])
		}
		XORQ(s.c(x+4), s.d[x])
	}
}

// colParity reports whether column x holds an odd number of complemented
// lanes (then C[x], as computed, is complemented).
func (s *scalarState) colParity(x int) bool {
	p := false
	for y := 0; y < 5; y++ {
		p = p != s.mask[lane(x, y)]
	}
	return p
}

// rhoPi loads row y of B: B[x,y] = (A[x+3y,x] ^ D[x+3y]) <<< r[x+3y,x] and
// returns which B lanes are complemented.
func (s *scalarState) rhoPi(src Mem, y int) (q [5]bool) {
	for x := 0; x < 5; x++ {
		i := piSource(x, y)
		MOVQ(at(src, i), s.b[x])
		XORQ(s.d[i%5], s.b[x])
		if rho[i] != 0 {
			ROLQ(U8(rho[i]), s.b[x])
		}
		q[x] = s.mask[i] != s.colParity((i+4)%5) != s.colParity((i+1)%5)
	}
	return q
}

// chi writes row y: A[x,y] = B[x,y] ^ (^B[x+1,y] & B[x+2,y]), taking
// complemented inputs q and producing complemented outputs per mask; lane
// (0,0) is written last so that B[3] is free for iota's table pointer.
// Accumulated parities (regs=acc) take the lanes as stored.
func (s *scalarState) chi(dst Mem, y int, q [5]bool, k int) {
	for _, x := range []int{1, 2, 3, 4, 0} {
		s.chiLane(x, q, s.mask[lane(x, y)])
		if x == 0 && y == 0 {
			s.iota(k)
		}
		MOVQ(s.t, at(dst, lane(x, y)))
		switch {
		case s.acc[x] == nil:
		case y == 0:
			MOVQ(s.t, s.acc[x])
		default:
			XORQ(s.t, s.acc[x])
		}
	}
}

// chiLane computes t = stored A[x,y] from stored B lanes whose complement
// flags are q, so that t is complemented iff out. With u = stored B, ^B[x+1]
// & B[x+2] is u1 & u2, ^(u1 | u2), u1 & ^u2 or ^u1 & u2 depending on q[x+1],
// q[x+2]; the remaining complement is folded into a final NOT.
func (s *scalarState) chiLane(x int, q [5]bool, out bool) {
	b0, b1, b2 := s.b[x], s.b[(x+1)%5], s.b[(x+2)%5]
	if s.v.chi == "andn" { // chi=andn runs with comp=off: q and out are all false
		ANDNQ(b2, b1, s.t) // t = ^B1 & B2
		XORQ(b0, s.t)
		return
	}
	q0, q1, q2 := q[x], q[(x+1)%5], q[(x+2)%5]
	flip := false // t holds the complement of ^B1 & B2
	switch {
	case q1 && !q2:
		MOVQ(b1, s.t)
		ANDQ(b2, s.t)
	case !q1 && q2:
		MOVQ(b1, s.t)
		ORQ(b2, s.t)
		flip = true
	default:
		// both or neither complemented: one NOT either way; choose the
		// form whose complement cancels the output's.
		flip = q0 != out
		first, second := b1, b2 // ^u1 & u2 (q = 0,0) or ^(u1 & ^u2) = ^u1 | u2 (q = 1,1)
		if q1 != flip {
			first, second = b2, b1 // u1 & ^u2 (q = 1,1) or ^(^u1 & u2) = u1 | ^u2 (q = 0,0)
		}
		MOVQ(first, s.t)
		NOTQ(s.t)
		if flip {
			ORQ(second, s.t)
		} else {
			ANDQ(second, s.t)
		}
	}
	XORQ(b0, s.t)
	if q0 != flip != out {
		NOTQ(s.t)
	}
}

// iota: A[0,0] ^= RC[round].
func (s *scalarState) iota(k int) {
	MOVQ(s.rcPtr, s.b[3])
	XORQ(Mem{Base: s.b[3], Disp: 8 * k}, s.t)
}

func (s *scalarState) round(src, dst Mem, k int) {
	s.theta(src)
	for y := 0; y < 5; y++ {
		s.chi(dst, y, s.rhoPi(src, y), k)
	}
}

// complement NOTs the lanes of P in buf (on entry and exit).
func (s *scalarState) complement(buf Mem) {
	for i := 0; i < 25; i++ {
		if s.mask[i] {
			NOTQ(at(buf, i))
		}
	}
}

// buildScalar emits a single-state variant in general-purpose registers.
func buildScalar(v variant) {
	TEXT(v.symbol(), NOSPLIT, signature(1))
	Doc(fmt.Sprintf("%s computes Keccak-f[1600] on one state, variant %s.", v.symbol(), v.name()))
	Load(Param("a"), reg.RDI)
	local := AllocLocal(25*8 + 8)
	bufs := scalarBufs(v, local)
	s := newScalarState(v, local.Offset(200))
	s.complement(bufs[0])
	s.permute(bufs)
	s.complement(bufs[0])
	RET()
}

// permute emits the round loop: 24 rounds ping-ponging between the state
// buffer bufs[0] and the scratch buffer bufs[1], ending in bufs[0] (24 is
// even; an odd unroll swaps the pointers per iteration). Every
// general-purpose register but bufs is clobbered. Accumulated parities
// (regs=acc) are loaded before the first round.
func (s *scalarState) permute(bufs [2]Mem) {
	v := s.v
	LEAQ(rcTable(8), s.t)
	MOVQ(s.t, s.rcPtr)
	for x, r := range s.acc {
		if r != nil {
			parity(bufs[0], x, r)
		}
	}
	v.align.Emit()
	Label("loop")
	for k := 0; k < v.unroll; k++ {
		s.round(bufs[k%2], bufs[(k+1)%2], k)
	}
	if v.unroll%2 == 1 {
		XCHGQ(bufs[0].Base, bufs[1].Base)
	}
	MOVQ(s.rcPtr, s.t)
	ADDQ(U32(8*v.unroll), s.t)
	MOVQ(s.t, s.rcPtr)
	LEAQ(rcTable(8).Offset(8*numRounds), s.b[0])
	CMPQ(s.t, s.b[0])
	JNE(LabelRef("loop"))
}
