package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// signature is the Go signature of a variant's function.
func signature(nr int) string {
	if nr == 1 {
		return "func(a *[25]uint64)"
	}
	return fmt.Sprintf("func(a *[%d][25]uint64)", nr)
}

// buildVector emits a lane-sliced vector variant: lane i of all NR states
// in one register.
func buildVector(v variant) {
	attrs := NOSPLIT
	if v.regs == "spill" {
		attrs = 0 // the two state buffers exceed the nosplit stack limit
	}
	TEXT(v.symbol(), attrs, signature(v.nr))
	Doc(fmt.Sprintf("%s computes Keccak-f[1600] on %d state(s), variant %s.", v.symbol(), v.nr, v.name()))
	g := newVgen(v)
	a := reg.RDI
	Load(Param("a"), a)
	if v.regs == "all" {
		buildAll(g, a)
	} else {
		buildSpill(g, a)
	}
	VZEROUPPER()
	RET()
}

// loop emits the round loop: rounds(k) emits round k of an iteration of
// v.unroll rounds, tail the end-of-iteration fixups; rcPtr walks the
// replicated round-constant table of stride w bytes.
func loop(v variant, tab Mem, w int, rounds func(rc Mem, k int), tail func()) {
	rcPtr, end := reg.R8, reg.R9
	LEAQ(tab, rcPtr)
	LEAQ(tab.Offset(numRounds*w), end)
	v.align.Emit()
	Label("loop")
	for k := 0; k < v.unroll; k++ {
		rounds(Mem{Base: rcPtr}, k)
	}
	tail()
	ADDQ(U32(v.unroll*w), rcPtr)
	CMPQ(rcPtr, end)
	JNE(LabelRef("loop"))
}

// buildAll emits a variant with all 25 lane vectors in registers.
func buildAll(g *vgen, a reg.GPPhysical) {
	s := &allState{vgen: g}
	if g.v.nr == 1 {
		s.loadX1(a)
		loop(g.v, rcTable(g.w), g.w, roundOf(s), s.home)
		s.storeX1(a)
		return
	}
	scratch := AllocLocal(64)
	g.loadLanes(a, 0, scratch, func(i, r int) { s.lane[i] = r })
	s.home()
	loop(g.v, rcTable(g.w), g.w, roundOf(s), s.home)
	g.storeLanes(a, 0, scratch, func(i int) int { return s.lane[i] })
}

// loadX1 loads lane i of the single state at a into register i.
func (s *allState) loadX1(a reg.GPPhysical) {
	for i := 0; i < 25; i++ {
		s.p.take(i)
		s.load(i, stateLane(a, 0, i))
		s.lane[i] = i
	}
}

// storeX1 stores register i (lane i, at home) to the single state at a.
func (s *allState) storeX1(a reg.GPPhysical) {
	for i := 0; i < 25; i++ {
		s.store(s.lane[i], stateLane(a, 0, i))
	}
}

// buildSpill emits a variant whose state lives in stack buffers
// (ping-pong between rounds; an odd unroll swaps the pointers per
// iteration). AVX2 computes 8 states as two groups of 4 (group knob).
func buildSpill(g *vgen, a reg.GPPhysical) {
	switch g.v.group {
	case "interleave":
		buildInterleave(g, a)
	case "seq":
		buildSeq(g, a)
	default:
		spillPass(g, a, spillBuffers(g, 1, 25))
	}
}

// spillBuffers reserves a 64-byte aligned stack area for two buffers of
// lanes slots per group and returns the pointers to group 0's buffers;
// group j's are 2*j*lanes*w bytes further.
func spillBuffers(g *vgen, groups, lanes int) [2]reg.GPPhysical {
	local := AllocLocal(2*groups*lanes*g.w + 64)
	bufs := [2]reg.GPPhysical{reg.RSI, reg.RDX}
	LEAQ(local.Offset(63), bufs[0])
	ANDQ(I32(-64), bufs[0])
	LEAQ(Mem{Base: bufs[0], Disp: lanes * g.w}, bufs[1])
	return bufs
}

// spillPass permutes states 0..k-1 of a: into buffer 0, 24 rounds, back.
func spillPass(g *vgen, a reg.GPPhysical, bufs [2]reg.GPPhysical) {
	spillIn(g, a, 0, bufs[0], 0)
	s := newSpillState(g)
	s.parity(bufs[0])
	round := func(rc Mem, k int) { s.round(bufs[k%2], bufs[(k+1)%2], rc, k) }
	loop(g.v, rcTable(g.w), g.w, round, swapTail(g.v, bufs))
	g.p = newPool(map[bool]int{false: 16, true: 32}[g.evex])
	spillOut(g, a, 0, bufs[0], 0)
}

// buildSeq runs spillPass on each group of k states in turn (an outer
// loop advancing a; the round loop keeps its label).
func buildSeq(g *vgen, a reg.GPPhysical) {
	bufs := spillBuffers(g, 1, 25)
	end := reg.R11
	LEAQ(Mem{Base: a, Disp: 200 * g.v.nr}, end)
	Label("group")
	g.p = newPool(16)
	spillPass(g, a, bufs)
	ADDQ(U32(200*g.k), a)
	CMPQ(a, end)
	JNE(LabelRef("group"))
}

// buildInterleave computes each round of every group of k states in turn
// within one round loop, so the out-of-order core overlaps one group's
// round with the next's (they are independent). The groups share the 16
// registers; C[0..4] waits in the buffer's slots 25..29 while the other
// group's round runs.
func buildInterleave(g *vgen, a reg.GPPhysical) {
	n, stride := g.v.nr/g.k, 2*(25+cSlots)*g.w
	bufs := spillBuffers(g, n, 25+cSlots)
	for j := 0; j < n; j++ {
		spillIn(g, a, j*g.k, bufs[0], j*stride)
	}
	s := newSpillState(g)
	gs := make([]*spillState, n)
	for j := range gs {
		gs[j] = s.group(j * stride)
		gs[j].parity(bufs[0])
		gs[j].saveC(bufs[0])
	}
	round := func(rc Mem, k int) {
		src, dst := bufs[k%2], bufs[(k+1)%2]
		for _, s := range gs {
			s.loadC(src)
			s.round(src, dst, rc, k)
			s.saveC(dst)
		}
	}
	loop(g.v, rcTable(g.w), g.w, round, swapTail(g.v, bufs))
	g.p = newPool(16)
	for j := 0; j < n; j++ {
		spillOut(g, a, j*g.k, bufs[0], j*stride)
	}
}

// swapTail swaps the buffer pointers after an iteration of an odd number
// of rounds, so that every iteration starts from buffer 0.
func swapTail(v variant, bufs [2]reg.GPPhysical) func() {
	return func() {
		if v.unroll%2 == 1 {
			XCHGQ(bufs[0], bufs[1])
		}
	}
}

// spillIn transposes states first..first+k-1 of a into lane vectors in the
// buffer at base+off (lane i at off+i*w).
func spillIn(g *vgen, a reg.GPPhysical, first int, base reg.GPPhysical, off int) {
	at := func(i int) Mem { return Mem{Base: base, Disp: off + i*g.w} }
	g.loadLanes(a, first, at(24), func(i, r int) {
		g.store(r, at(i))
		g.p.release(r)
	})
}

// spillOut is the inverse of spillIn.
func spillOut(g *vgen, a reg.GPPhysical, first int, base reg.GPPhysical, off int) {
	at := func(i int) Mem { return Mem{Base: base, Disp: off + i*g.w} }
	g.storeLanes(a, first, at(24), func(i int) int {
		r := g.p.alloc()
		g.load(r, at(i))
		return r
	})
}
