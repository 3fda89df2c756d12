package main

import (
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The fused absorb kernels (the multi-block entry point of SHA-3
// intrinsics): for each single-state variant, a function that absorbs
// every full rate-byte block of a message, XORing the block into the
// state and applying that variant's permutation, with the state loaded
// once before the first block and stored once after the last.
//
// The rate is a runtime value (any multiple of 8 below 200; SHA-3 and
// SHAKE use 72, 104, 136, 144, 168). One copy per rate would multiply the
// variants by five for a saving of a few compares per block, so the lane
// XORs are one chain that leaves after lane rate/8 - 1 (general-purpose
// and xmm lanes), or five masked row loads whose masks are computed once
// per call (zmm rows; masked-off qwords are neither read nor faulted on).
// Offset-sweep copies get no absorb kernel: alignment is swept on the
// permutations, whose loop is the same.

// absorbKernel is the dispatch name of the kernel the absorb variants
// implement: a whole SHA3-256 of an n-byte message.
const absorbKernel = "sha3.256"

// maxLanes is the number of lanes a block can cover: the rate is below
// the 200-byte state.
const maxLanes = 24

// absorbSignature is the Go signature of every absorb function.
const absorbSignature = "func(a *[25]uint64, data []byte, rate int)"

// absorbSpace returns the variants that get an absorb function: every
// single-state variant but offset-sweep copies, in generation order.
func absorbSpace(vs []variant) []variant {
	var out []variant
	for _, v := range vs {
		if v.nr == 1 && !v.sweep {
			out = append(out, v)
		}
	}
	return out
}

// absorbSymbol is the absorb function of v: "absorbX1_" and v's knobs.
func absorbSymbol(v variant) string {
	return "absorbX1" + strings.TrimPrefix(v.symbol(), "keccakX1")
}

// buildAbsorb emits the absorb function of single-state variant v.
func buildAbsorb(v variant) {
	TEXT(absorbSymbol(v), NOSPLIT, absorbSignature)
	Doc(fmt.Sprintf("%s absorbs every full rate-byte block of data into a, applying Keccak-f[1600] after each, "+
		"with the permutation of variant %s.", absorbSymbol(v), v.name()))
	byLayout(v, absorbScalar, absorbZmmRows, absorbXmmLanes)
}

// absorbArgs loads data's base, data's length and the rate into
// registers and jumps to "done" unless data holds a full block.
func absorbArgs(data, left, rate reg.GPPhysical) {
	Load(Param("data").Base(), data)
	Load(Param("data").Len(), left)
	Load(Param("rate"), rate)
	CMPQ(left, rate)
	JB(LabelRef("done"))
}

// xorLanes emits A[i] ^= block lane i for i = 0 .. rate/8-1, one lane by
// xor(i), leaving the chain for label "xored" once rate (bytes, in a
// register) is covered.
func xorLanes(rate reg.GPPhysical, xor func(i int)) {
	for i := 0; i < maxLanes; i++ {
		xor(i)
		if i+1 < maxLanes {
			CMPQ(rate, U32(8*(i+1)))
			JEQ(LabelRef("xored"))
		}
	}
	Label("xored")
}

// nextBlock advances past the block just absorbed: data += rate,
// left -= rate (registers or stack slots).
func nextBlock(data, left Op, rate reg.GPPhysical) {
	ADDQ(rate, data)
	SUBQ(rate, left)
}

// absorbScalar emits the general-purpose-register absorb. Every register
// but the two buffer pointers is clobbered by a permutation, so the data
// pointer, the bytes left and the rate wait in stack slots between
// blocks; the state stays in its buffer (a), complemented (comp=on) from
// before the first block to after the last: XORing data into a
// complemented lane yields the complement of the XOR.
func absorbScalar(v variant) {
	local := AllocLocal(25*8 + 4*8)
	s := newScalarState(v, local.Offset(200))
	data, left, rate := local.Offset(208), local.Offset(216), local.Offset(224)
	Load(Param("a"), reg.RDI)
	absorbArgs(reg.RAX, reg.RBX, reg.RCX)
	MOVQ(reg.RAX, data)
	MOVQ(reg.RBX, left)
	MOVQ(reg.RCX, rate)
	bufs := scalarBufs(v, local)
	s.complement(bufs[0])
	Label("block")
	MOVQ(data, reg.RAX)
	MOVQ(rate, reg.RCX)
	xorLanes(reg.RCX, func(i int) {
		MOVQ(Mem{Base: reg.RAX, Disp: 8 * i}, reg.RDX)
		XORQ(reg.RDX, at(bufs[0], i))
	})
	nextBlock(reg.RAX, left, reg.RCX)
	MOVQ(reg.RAX, data)
	s.permute(bufs)
	MOVQ(left, reg.RAX)
	CMPQ(reg.RAX, rate)
	JAE(LabelRef("block"))
	s.complement(bufs[0])
	Label("done")
	RET()
}

// absorbXmmLanes emits the AVX-512 absorb with lane i in xmm register i: a
// block lane is loaded into a free register and XORed in.
func absorbXmmLanes(v variant) {
	g := newVgen(v)
	s := &allState{vgen: g}
	a, data, left, rate := reg.RDI, reg.RSI, reg.RDX, reg.RCX
	Load(Param("a"), a)
	absorbArgs(data, left, rate)
	s.loadX1(a)
	Label("block")
	t := g.p.alloc()
	xorLanes(rate, func(i int) {
		g.load(t, Mem{Base: data, Disp: 8 * i})
		g.xor(i, i, t)
	})
	g.p.release(t)
	nextBlock(data, left, rate)
	loop(g.v, rcTable(g.w), g.w, roundOf(s), s.home)
	CMPQ(left, rate)
	JAE(LabelRef("block"))
	s.storeX1(a)
	VZEROUPPER()
	Label("done")
	RET()
}

// absorbZmmRows emits the AVX-512 absorb with the five rows in zmm
// registers: row y of a block (lanes 5y..5y+4) is one masked load.
func absorbZmmRows(v variant) {
	a, data, left, rate := reg.RDI, reg.RSI, reg.RDX, reg.RBX
	Load(Param("a"), a)
	absorbArgs(data, left, rate)
	s := newRowState()
	s.loadConstants()
	masks := rowMasks(rate)
	s.load(a)
	Label("block")
	s.xorBlock(data, masks)
	nextBlock(data, left, rate)
	loop(v, rowRC, 64, roundOf(s), s.home)
	CMPQ(left, rate)
	JAE(LabelRef("block"))
	s.store(a)
	VZEROUPPER()
	Label("done")
	RET()
}

// rowMasks computes, in five registers, the lanes of each row a block of
// rate bytes covers: with m = 2^(rate/8) - 1 (bit i for lane i), row y's
// mask is (m >> 5y) & 0x1f.
func rowMasks(rate reg.GPPhysical) [5]reg.GPPhysical {
	ms := [5]reg.GPPhysical{reg.R10, reg.R11, reg.R12, reg.R13, reg.R14}
	MOVQ(rate, reg.RCX)
	SHRQ(U8(3), reg.RCX)
	MOVL(U32(1), reg.EAX)
	SHLQ(reg.CL, reg.RAX)
	DECQ(reg.RAX)
	for y, m := range ms {
		MOVQ(reg.RAX, m)
		if y > 0 {
			SHRQ(U8(5*y), m)
		}
		ANDQ(U8(0x1f), m)
	}
	return ms
}

// xorBlock: R[y] ^= (block lanes 5y..5y+4), each row loaded under its
// mask (K5) with the lanes beyond the rate zeroed and never read.
func (s *rowState) xorBlock(data reg.GPPhysical, masks [5]reg.GPPhysical) {
	for y := 0; y < 5; y++ {
		KMOVW(masks[y].As32(), reg.K5)
		VMOVDQU64_Z(Mem{Base: data, Disp: 40 * y}, reg.K5, z(s.t1))
		VPXORQ(z(s.t1), z(s.row[y]), z(s.row[y]))
	}
}
