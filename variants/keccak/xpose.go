package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// stateLane addresses lane i of state k in the state-major input a[k][i].
func stateLane(a reg.GPPhysical, k, i int) Mem { return Mem{Base: a, Disp: 200*k + 8*i} }

// unpack: dst = [a0, b0, a2, b2, ...] (lo) or [a1, b1, a3, b3, ...] (hi).
func (g *vgen) unpack(hi bool, dst, a, b int) {
	if hi {
		VPUNPCKHQDQ(g.r(b), g.r(a), g.r(dst))
	} else {
		VPUNPCKLQDQ(g.r(b), g.r(a), g.r(dst))
	}
}

// blocks combines 128-bit blocks: for ymm dst = [a.lo, b.lo] (hi: [a.hi, b.hi]);
// for zmm dst = [a.b0, a.b2, b.b0, b.b2] (hi: [a.b1, a.b3, b.b1, b.b3]).
func (g *vgen) blocks(hi bool, dst, a, b int) {
	switch {
	case g.w == 64:
		VSHUFI64X2(U8(map[bool]uint8{false: 0x88, true: 0xdd}[hi]), g.r(b), g.r(a), g.r(dst))
	case g.evex:
		VSHUFI64X2(U8(map[bool]uint8{false: 0x0, true: 0x3}[hi]), g.r(b), g.r(a), g.r(dst))
	default:
		VPERM2I128(U8(map[bool]uint8{false: 0x20, true: 0x31}[hi]), g.r(b), g.r(a), g.r(dst))
	}
}

// pair applies op to (a, b) giving lo and hi results, and releases a and b.
func (g *vgen) pair(op func(hi bool, dst, a, b int), a, b int) (lo, hi int) {
	lo, hi = g.p.alloc(), g.p.alloc()
	op(false, lo, a, b)
	op(true, hi, a, b)
	g.p.release(a, b)
	return lo, hi
}

// transpose transposes the NR x NR matrix of 64-bit elements whose rows are
// in registers in (released) and returns the registers holding its rows
// after transposition. Applied to per-state rows it yields lane vectors and
// vice versa (a transpose is its own inverse).
func (g *vgen) transpose(in []int) []int {
	switch len(in) {
	case 2:
		o0, o1 := g.pair(g.unpack, in[0], in[1])
		return []int{o0, o1}
	case 4:
		t0, t1 := g.pair(g.unpack, in[0], in[1])
		t2, t3 := g.pair(g.unpack, in[2], in[3])
		o0, o2 := g.pair(g.blocks, t0, t2)
		o1, o3 := g.pair(g.blocks, t1, t3)
		return []int{o0, o1, o2, o3}
	}
	var t [8]int
	for m := 0; m < 4; m++ {
		t[2*m], t[2*m+1] = g.pair(g.unpack, in[2*m], in[2*m+1])
	}
	var o [8]int
	for odd := 0; odd < 2; odd++ {
		v0, v1 := g.pair(g.blocks, t[odd], t[2+odd])
		v2, v3 := g.pair(g.blocks, t[4+odd], t[6+odd])
		o[odd], o[4+odd] = g.pair(g.blocks, v0, v2)
		o[2+odd], o[6+odd] = g.pair(g.blocks, v1, v3)
	}
	return o[:]
}

// loadLanes brings states first..first+k-1 of the state-major input into
// lane vectors; put receives lane i in register r (and owns r). Gathers
// load all 25 lanes; otherwise lanes 0..23 go through the transpose
// network or 128-bit inserts, and lane 24 through loadLane24.
func (g *vgen) loadLanes(a reg.GPPhysical, first int, scratch Mem, put func(i, r int)) {
	switch g.v.xpose {
	case "gather":
		g.gatherLanes(a, first, put)
		return
	case "insert":
		g.insertLanes(a, first, put)
	default:
		g.networkLoad(a, first, put)
	}
	g.loadLane24(a, first, scratch, put)
}

// networkLoad brings lanes 0..23 into lane vectors through the transpose
// network, NR rows of NR lanes at a time.
func (g *vgen) networkLoad(a reg.GPPhysical, first int, put func(i, r int)) {
	nr := g.k
	for i := 0; i+nr <= 24; i += nr {
		rows := make([]int, nr)
		for k := range rows {
			rows[k] = g.p.alloc()
			g.load(rows[k], stateLane(a, first+k, i))
		}
		for j, r := range g.transpose(rows) {
			put(i+j, r)
		}
	}
}

// loadLane24 brings lane 24 of states first..first+k-1 into a lane vector:
// on AVX2 with 64-bit loads and unpacks (and VINSERTI128 for ymm), else
// through scratch (8 bytes per state), where one wide load of four
// narrow stores cannot be store-forwarded.
func (g *vgen) loadLane24(a reg.GPPhysical, first int, scratch Mem, put func(i, r int)) {
	if !g.evex {
		put(24, g.gatherLane24(a, first))
		return
	}
	for k := 0; k < g.k; k++ {
		MOVQ(stateLane(a, first+k, 24), reg.R10)
		MOVQ(reg.R10, scratch.Offset(8*k))
	}
	r := g.p.alloc()
	g.load(r, scratch)
	put(24, r)
}

// insertLanes builds lanes 0..23 of four states two at a time: a 128-bit
// load of states 0 and 1 with VINSERTI128 of states 2 and 3 above them
// gives [s0[i], s0[i+1], s2[i], s2[i+1]] and [s1[i], s1[i+1], s3[i],
// s3[i+1]], and one unpack each gives lanes i and i+1. That is one
// shuffle per lane where the network needs two (AVX2, ymm only).
func (g *vgen) insertLanes(a reg.GPPhysical, first int, put func(i, r int)) {
	for i := 0; i < 24; i += 2 {
		var pair [2]int
		for k := range pair {
			r := g.p.alloc()
			VMOVDQU(stateLane(a, first+k, i), g.r(r).AsX())
			VINSERTI128(U8(1), stateLane(a, first+k+2, i), g.r(r), g.r(r))
			pair[k] = r
		}
		lo, hi := g.pair(g.unpack, pair[0], pair[1])
		put(i, lo)
		put(i+1, hi)
	}
}

// extractLanes is the inverse of insertLanes: one unpack per lane pair
// half, then 128-bit stores of the low halves and VEXTRACTI128 stores of
// the high halves.
func (g *vgen) extractLanes(a reg.GPPhysical, first int, get func(i int) int) {
	for i := 0; i < 24; i += 2 {
		l0 := get(i)
		l1 := get(i + 1)
		lo, hi := g.pair(g.unpack, l0, l1)
		for k, r := range [2]int{lo, hi} {
			VMOVDQU(g.r(r).AsX(), stateLane(a, first+k, i))
			VEXTRACTI128(U8(1), g.r(r), stateLane(a, first+k+2, i))
			g.p.release(r)
		}
	}
}

// storeLanes is the inverse of loadLanes (through the network, or
// extracts for xpose=insert); get returns the register of lane i, which
// storeLanes then owns.
func (g *vgen) storeLanes(a reg.GPPhysical, first int, scratch Mem, get func(i int) int) {
	if g.v.xpose == "insert" {
		g.extractLanes(a, first, get)
	} else {
		g.networkStore(a, first, get)
	}
	r := get(24)
	if !g.evex {
		g.scatterLane24(a, first, r)
		return
	}
	g.store(r, scratch)
	g.p.release(r)
	for k := 0; k < g.k; k++ {
		MOVQ(scratch.Offset(8*k), reg.R10)
		MOVQ(reg.R10, stateLane(a, first+k, 24))
	}
}

// networkStore transposes lanes 0..23 back to states through the
// transpose network, NR lanes at a time.
func (g *vgen) networkStore(a reg.GPPhysical, first int, get func(i int) int) {
	nr := g.k
	for i := 0; i+nr <= 24; i += nr {
		ls := make([]int, nr)
		for j := range ls {
			ls[j] = get(i + j)
		}
		for k, r := range g.transpose(ls) {
			g.store(r, stateLane(a, first+k, i))
			g.p.release(r)
		}
	}
}

// gatherLanes loads lane i of states first..first+k-1 with one VPGATHERQQ
// per lane (indices 0, 200, 400, ... bytes from state first).
func (g *vgen) gatherLanes(a reg.GPPhysical, first int, put func(i, r int)) {
	idx := g.p.alloc()
	if g.evex {
		VMOVDQU64(gatherIdx, g.r(idx))
	} else {
		VMOVDQU(gatherIdx, g.r(idx))
	}
	for i := 0; i < 25; i++ {
		dst := g.p.alloc()
		m := Mem{Base: a, Index: g.r(idx), Scale: 1, Disp: 200*first + 8*i}
		if g.evex {
			KXNORW(reg.K1, reg.K1, reg.K1)
			VPGATHERQQ(m, reg.K1, g.r(dst))
		} else {
			mask := g.p.alloc()
			VPCMPEQQ(g.r(mask), g.r(mask), g.r(mask))
			VPGATHERQQ(g.r(mask), m, g.r(dst))
			g.p.release(mask)
		}
		put(i, dst)
	}
	g.p.release(idx)
}

// gatherLane24 returns a register holding lane 24 of states first..
// first+k-1 (k = 2 or 4, AVX2): pairs of 64-bit loads joined by
// VPUNPCKLQDQ, the pairs by VINSERTI128.
func (g *vgen) gatherLane24(a reg.GPPhysical, first int) int {
	pair := func(k int) int {
		lo, hi := g.p.alloc(), g.p.alloc()
		VMOVQ(stateLane(a, first+k, 24), g.r(lo).AsX())
		VMOVQ(stateLane(a, first+k+1, 24), g.r(hi).AsX())
		VPUNPCKLQDQ(g.r(hi).AsX(), g.r(lo).AsX(), g.r(lo).AsX())
		g.p.release(hi)
		return lo
	}
	r := pair(0)
	if g.k == 4 {
		up := pair(2)
		VINSERTI128(U8(1), g.r(up).AsX(), g.r(r), g.r(r))
		g.p.release(up)
	}
	return r
}

// scatterLane24 stores lane 24 from register r (released) to states
// first..first+k-1: VMOVQ and VPEXTRQ of each 128-bit half, the upper
// half taken out by VEXTRACTI128 (AVX2).
func (g *vgen) scatterLane24(a reg.GPPhysical, first, r int) {
	halves := []int{r}
	if g.k == 4 {
		up := g.p.alloc()
		VEXTRACTI128(U8(1), g.r(r), g.r(up).AsX())
		halves = append(halves, up)
	}
	for h, x := range halves {
		VMOVQ(g.r(x).AsX(), stateLane(a, first+2*h, 24))
		VPEXTRQ(U8(1), g.r(x).AsX(), stateLane(a, first+2*h+1, 24))
		g.p.release(x)
	}
}
