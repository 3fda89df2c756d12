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
		for i := 0; i < 25; i++ {
			g.p.take(i)
			g.load(i, stateLane(a, 0, i))
			s.lane[i] = i
		}
		loop(g.v, rcTable(g.w), g.w, s.round, s.home)
		for i := 0; i < 25; i++ {
			g.store(i, stateLane(a, 0, i))
		}
		return
	}
	scratch := AllocLocal(64)
	g.loadLanes(a, scratch, func(i, r int) { s.lane[i] = r })
	s.home()
	loop(g.v, rcTable(g.w), g.w, s.round, s.home)
	g.storeLanes(a, scratch, func(i int) int { return s.lane[i] })
}

// buildSpill emits a variant whose state lives in two stack buffers
// (ping-pong between rounds; an odd unroll swaps the pointers per
// iteration).
func buildSpill(g *vgen, a reg.GPPhysical) {
	local := AllocLocal(2*25*g.w + 64)
	bufs := [2]reg.GPPhysical{reg.RSI, reg.RDX}
	LEAQ(local.Offset(63), bufs[0])
	ANDQ(I32(-64), bufs[0])
	LEAQ(Mem{Base: bufs[0], Disp: 25 * g.w}, bufs[1])
	lane24 := Mem{Base: bufs[0], Disp: 24 * g.w}
	g.loadLanes(a, lane24, func(i, r int) {
		g.store(r, Mem{Base: bufs[0], Disp: i * g.w})
		g.p.release(r)
	})
	s := newSpillState(g)
	s.parity(bufs[0])
	round := func(rc Mem, k int) { s.round(bufs[k%2], bufs[(k+1)%2], rc, k) }
	tail := func() {
		if g.v.unroll%2 == 1 {
			XCHGQ(bufs[0], bufs[1])
		}
	}
	loop(g.v, rcTable(g.w), g.w, round, tail)
	g.p = newPool(map[bool]int{false: 16, true: 32}[g.evex])
	g.storeLanes(a, lane24, func(i int) int {
		r := g.p.alloc()
		g.load(r, Mem{Base: bufs[0], Disp: i * g.w})
		return r
	})
}
