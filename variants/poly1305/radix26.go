package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// mulAcc26 adds a·r (r = power-table entry e) into d, limb by limb:
// d_i += Σ_j a_j·coef(i, j) with VPMULUDQ (32x32 -> 64 bits). A nil d_i is
// initialised with its first product.
func (g *vecGen) mulAcc26(d []VecVirtual, a []VecVirtual, e int) {
	for i := range d {
		for j := range a {
			p := g.vec()
			VPMULUDQ(g.power(e, g.coef(i, j)), a[j], p)
			addInto(d, i, p)
		}
	}
}

// addInto sets d[i] += x, or d[i] = x when d[i] is still nil.
func addInto(d []VecVirtual, i int, x VecVirtual) {
	if d[i] == nil {
		d[i] = x
		return
	}
	VPADDQ(x, d[i], d[i])
}

// body26 emits acc = acc·r^(L·u) + Σ_k m_k·r^(L·(u-1-k)) in radix 2^26. With
// AVX2 (16 registers) the acc products come first so acc dies before the
// message limbs are live; with AVX-512 the message products come first and
// the acc products, on the loop-carried path, last.
func (g *vecGen) body26(hv []VecVirtual) {
	switch g.s.sched {
	case "late":
		g.body26late(hv)
		return
	case "comp":
		g.body26comp(hv)
		return
	}
	u := g.s.unroll()
	if hv != nil && u == 1 {
		g.setAcc(g.msgLimbs(0, hv))
		return
	}
	d := make([]VecVirtual, 5)
	if !g.evex {
		g.accTerm(d, hv, "d = acc·r^(L·u)", g.mulAcc26)
	}
	for k := 0; k < u; k++ {
		m := g.msgLimbs(k, firstOnly(k, hv))
		if k == u-1 {
			for i := range m {
				addInto(d, i, m[i])
			}
			continue
		}
		g.mulAcc26(d, m, k+1)
	}
	if g.evex {
		g.accTerm(d, hv, "d += acc·r^(L·u)", g.mulAcc26)
	}
	g.carry26(d)
}

// body26late emits the sched=late iteration (AVX2, u >= 2):
// d = Σ_{k<u-1} m_k·r^(L·(u-1-k)), each message vector split and
// multiplied one limb at a time (streamMul), so that acc, d, the mask and
// the limb in flight fit the 16 ymm registers; then d += m_{u-1} in loose
// limbs (addLoose); then the loop-carried d += acc·r^(L·u), last, so that
// the carry of one iteration overlaps the message work of the next.
func (g *vecGen) body26late(hv []VecVirtual) {
	u := g.s.unroll()
	d := make([]VecVirtual, 5)
	for k := 0; k < u-1; k++ {
		g.streamMul(d, k, firstOnly(k, hv), k+1)
	}
	g.addLoose(d, u-1)
	g.accTerm(d, hv, "d += acc·r^(L·u)", g.mulAcc26)
	g.carry26(d)
}

// body26comp emits the sched=comp iteration (AVX2, u >= 2): the acc
// products first, then each message vector's, every product set formed
// by mulComp (one register load per power component instead of a memory
// operand per product: 9 loads for 25 products); then m_{u-1} in loose
// limbs (addLoose) and the carry.
func (g *vecGen) body26comp(hv []VecVirtual) {
	u := g.s.unroll()
	d := make([]VecVirtual, 5)
	g.accTerm(d, hv, "d = acc·r^(L·u), by power component", g.mulComp)
	for k := 0; k < u-1; k++ {
		Commentf("message vector %d -> limbs, times its power by component", k)
		g.mulComp(d, g.splitVector(k, firstOnly(k, hv)), k+1)
	}
	g.addLoose(d, u-1)
	g.carry26(d)
}

// accTerm emits the loop-carried products acc·r^(L·u) into d by mul
// (mulAcc26 or mulComp), under the comment c, in every iteration but the
// peeled first (hv non-nil), whose h comes in with message vector 0.
func (g *vecGen) accTerm(d, hv []VecVirtual, c string, mul func(d, a []VecVirtual, e int)) {
	if hv == nil {
		Comment(c)
		mul(d, g.acc, 0)
	}
}

// setAcc sets acc to the limbs m: the whole first iteration of one
// message vector, h included.
func (g *vecGen) setAcc(m []VecVirtual) {
	for i := range m {
		g.mov(m[i], g.acc[i])
	}
}

// firstOnly returns hv for message vector k = 0 and nil for the others:
// the incoming h (hv non-nil in the peeled first iteration) joins the
// first vector only.
func firstOnly(k int, hv []VecVirtual) []VecVirtual {
	if k == 0 {
		return hv
	}
	return nil
}

// tailStep (tail=vec4) emits acc = acc·r^L + m for the L=4 blocks at mp:
// power entry u-1 is r^(L·(u-(u-1))) = r^L in every lane, and the 4-lane
// accumulator advances by one vector as it does by u in an iteration.
func (g *vecGen) tailStep() {
	Comment("one vector: d = acc·r^L + m (loose limbs)")
	d := make([]VecVirtual, 5)
	if g.s.sched == "comp" {
		g.mulComp(d, g.acc, g.s.unroll()-1)
	} else {
		g.mulAcc26(d, g.acc, g.s.unroll()-1)
	}
	g.addLoose(d, 0)
	g.carry26(d)
}

// mulComp adds a·r (r = power-table entry e) into d one power component
// at a time: component c is loaded into a register once and multiplied
// by every limb a_j it meets (coef(i, j) = c), the product going to d_i.
func (g *vecGen) mulComp(d []VecVirtual, a []VecVirtual, e int) {
	for c := 0; c < g.nl+g.ns; c++ {
		r := g.vec()
		VMOVDQU(g.power(e, c), r)
		for i := range d {
			for j := range a {
				if g.coef(i, j) == c {
					p := g.vec()
					VPMULUDQ(r, a[j], p)
					addInto(d, i, p)
				}
			}
		}
	}
}

// msgSource returns a function giving, once each, the 64-bit words of
// message vector k in lane order (0, 2, 1, 3): "lo" (block bytes 0..7)
// and "hi" (8..15) by VPUNPCK{L,H}QDQ of the vector's two 32-byte halves
// and, for split=mid, "mid" (bytes 6..13) by a load at +6 and a VPBLENDD
// of qwords 1 and 3 from a load at +30, both inside the vector's 64 bytes
// (block q's bytes 6..13 are at 16q+6: lanes 0 and 2 of the first, 1 and 3
// of the second).
func (g *vecGen) msgSource(k int) func(word string) VecVirtual {
	base := 64 * k
	a, b := g.vec(), g.vec()
	VMOVDQU(Mem{Base: g.mp, Disp: base}, a)
	VMOVDQU(Mem{Base: g.mp, Disp: base + 32}, b)
	return func(word string) VecVirtual {
		x := g.vec()
		switch word {
		case "lo":
			VPUNPCKLQDQ(b, a, x)
		case "hi":
			VPUNPCKHQDQ(b, a, x)
		default:
			VMOVDQU(Mem{Base: g.mp, Disp: base + 6}, x)
			VPBLENDD(U8(0xcc), Mem{Base: g.mp, Disp: base + 30}, x, x)
		}
		return x
	}
}

// splitVector returns the exact 26-bit limbs of message vector k (the pad
// bit in limb 4), plus hv when non-nil: split26 of lo and hi, or with
// split=mid m2 = mid>>4 and m3 = mid>>30 (masked), which saves the
// shift-and-or that joins lo and hi for m2.
func (g *vecGen) splitVector(k int, hv []VecVirtual) []VecVirtual {
	src := g.msgSource(k)
	lo, hi := src("lo"), src("hi")
	var m []VecVirtual
	if g.s.split == "mid" {
		mid := src("mid")
		m4 := g.vec()
		VPSRLQ(U8(40), hi, m4)
		VPOR(g.hib, m4, m4)
		m = []VecVirtual{g.shrAnd(lo, 0, g.mask), g.shrAnd(lo, 26, g.mask),
			g.shrAnd(mid, 4, g.mask), g.shrAnd(mid, 30, g.mask), m4}
	} else {
		m = g.split26(lo, hi)
	}
	for i := range hv {
		VPADDQ(hv[i], m[i], m[i])
	}
	return m
}

// streamMul adds m_k·r (r = power entry e) into d, limb by limb: each
// 26-bit limb m_j (plus hv_j in the first iteration) is extracted, then
// multiplied into d_0..d_4 with the power components as memory operands.
// Limbs as in splitVector; the pad bit comes from memory, the registers
// being taken.
func (g *vecGen) streamMul(d []VecVirtual, k int, hv []VecVirtual, e int) {
	Commentf("message vector %d: limb by limb into d", k)
	src := g.msgSource(k)
	mul := func(j int, m VecVirtual) {
		if hv != nil {
			VPADDQ(hv[j], m, m)
		}
		for i := range d {
			p := g.vec()
			VPMULUDQ(g.power(e, g.coef(i, j)), m, p)
			addInto(d, i, p)
		}
	}
	lo := src("lo")
	mul(0, g.shrAnd(lo, 0, g.mask))
	mul(1, g.shrAnd(lo, 26, g.mask))
	var hi VecVirtual
	if g.s.split == "mid" {
		mid := src("mid")
		mul(2, g.shrAnd(mid, 4, g.mask))
		mul(3, g.shrAnd(mid, 30, g.mask))
		hi = src("hi")
	} else {
		hi = src("hi")
		m2, t := g.vec(), g.vec()
		VPSRLQ(U8(52), lo, m2)
		VPSLLQ(U8(12), hi, t)
		VPOR(t, m2, m2)
		VPAND(g.mask, m2, m2)
		mul(2, m2)
		mul(3, g.shrAnd(hi, 14, g.mask))
	}
	m4 := g.vec()
	VPSRLQ(U8(40), hi, m4)
	VPOR(consts.Offset(cHib26V), m4, m4)
	mul(4, m4)
}

// addLoose adds message vector k, unmultiplied (power r^0), to d in loose
// limbs: d0 += lo & (2^26-1), d1 += lo>>26 (< 2^38), d2 += (hi<<12) &
// (2^26-1), d3 += hi>>14 (< 2^50), d4 += 2^24 (the pad bit): the value of
// the 26-bit limbs in 6 operations instead of 11. These limbs never reach
// VPMULUDQ (which reads 32 bits); they only enlarge the 64-bit sums, whose
// bound carry26 gives, and the carry that follows normalises them.
func (g *vecGen) addLoose(d []VecVirtual, k int) {
	Commentf("message vector %d (r^0): loose limbs into d", k)
	src := g.msgSource(k)
	lo, hi := src("lo"), src("hi")
	t := g.vec()
	VPAND(g.mask, lo, t)
	VPADDQ(t, d[0], d[0])
	VPSRLQ(U8(26), lo, lo)
	VPADDQ(lo, d[1], d[1])
	t2 := g.vec()
	VPSLLQ(U8(12), hi, t2)
	VPAND(g.mask, t2, t2)
	VPADDQ(t2, d[2], d[2])
	VPSRLQ(U8(14), hi, hi)
	VPADDQ(hi, d[3], d[3])
	VPADDQ(consts.Offset(cHib26V), d[4], d[4])
}

// mov copies a vector register.
func (g *vecGen) mov(src, dst VecVirtual) {
	if g.evex {
		VMOVDQA64(src, dst)
	} else {
		VMOVDQA(src, dst)
	}
}

// carry26 reduces the 64-bit sums d into acc with limbs below 2^26 (limb 1
// slightly above), folding the carry out of limb 4 into limb 0 times 5.
//
// Bounds (why one carry per iteration, and only one, is needed, up to 8
// vectors of 4 blocks per iteration): VPMULUDQ reads the low 32 bits of
// each limb, so every limb it multiplies must be below 2^32; acc and the
// message limbs are below 2^27.33 (26-bit limbs, acc limbs 1 and 4 up to
// 2^26 + 2^13, the pad bit in limb 4, the first iteration's h limbs below
// 2^26 with the top one below 2^27 since h < 2^131), the power components
// below 2^29.33 (limbs below 2^26, the top one below 2^27 as powers are
// below 2^131, wrap multiples 5·r_c). A product is then below 2^56.66, and
// a sum d_i takes 5 per vector, 5u <= 40 of them (u <= 8 vectors, blocks
// <= 32), below 2^61.99, plus the loose limbs of the unmultiplied vector
// (below 2^50, addLoose) and the carries in (below 2^38): d_i < 2^62.1, so
// the 64-bit lanes never wrap. A carry c = d_i >> 26 is below 2^36.1 and
// 5c below 2^38.5, so after the chain limb 0 (or 3, ilv) is below 2^38.6
// and the final step leaves limbs 1 and 4 below 2^26 + 2^12.6: back below
// 2^27.33, closing the induction. Skipping the carry of an iteration
// instead (lazy reduction across iterations) is impossible: d_i is about
// 2^56 after one iteration, far above the 32 bits VPMULUDQ reads; the
// headroom of the 64-bit sums goes into summing 8 vectors' products
// (blocks=32) and the loose limbs per carry instead.
func (g *vecGen) carry26(d []VecVirtual) {
	Commentf("carry (%s) d -> acc", g.s.carry)
	if g.s.carry == "ilv" {
		g.carry26ilv(d)
		return
	}
	for i := 0; i < 4; i++ {
		g.carryStep(d[i], g.acc[i], d[i+1], 26)
	}
	c := g.vec()
	VPSRLQ(U8(26), d[4], c)
	g.and(g.mask, d[4], g.acc[4])
	g.addTimes5(c, g.acc[0], g.acc[0])
	g.carryStep(g.acc[0], g.acc[0], g.acc[1], 26)
}

// carryStep sets dst = x & mask and next += x >> sh.
func (g *vecGen) carryStep(x, dst, next VecVirtual, sh int) {
	c := g.vec()
	VPSRLQ(U8(sh), x, c)
	g.and(g.mask, x, dst)
	VPADDQ(c, next, next)
}

// addTimes5 sets dst = x + 5c.
func (g *vecGen) addTimes5(c, x, dst VecVirtual) {
	t := g.vec()
	VPSLLQ(U8(2), c, t)
	VPADDQ(c, t, t)
	VPADDQ(t, x, dst)
}

// carry26ilv runs two interleaved carry chains, 0->1->2->3 and
// 3->4->0->1, halving the dependent path.
func (g *vecGen) carry26ilv(d []VecVirtual) {
	a := g.acc
	g.carryStep(d[0], a[0], d[1], 26)
	g.carryStep(d[3], a[3], d[4], 26)
	g.carryStep(d[1], a[1], d[2], 26)
	c := g.vec()
	VPSRLQ(U8(26), d[4], c)
	g.and(g.mask, d[4], a[4])
	g.addTimes5(c, a[0], a[0])
	g.carryStep(d[2], a[2], a[3], 26)
	g.carryStep(a[0], a[0], a[1], 26)
	g.carryStep(a[3], a[3], a[4], 26)
}

// final26 computes Σ_q acc_q·r^(L-order[q]), sums the lanes and stores the
// canonical h at hp.
func (g *vecGen) final26(hp GPVirtual) {
	Comment("epilogue: lane q times r^(L-order[q]), sum lanes")
	d := make([]VecVirtual, 5)
	g.mulAcc26(d, g.acc, g.s.unroll())
	w := make([]GPVirtual, 5)
	for i := range d {
		w[i] = g.hsum(d[i])
	}
	Comment("carry the lane sums to 26-bit limbs (twice), pack to radix 2^64")
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < 4; i++ {
			scalarCarry(w[i], w[i+1], 26)
		}
		if pass == 0 {
			c := GP64()
			MOVQ(w[4], c)
			SHRQ(U8(26), c)
			ANDQ(U32(1<<26-1), w[4])
			LEAQ(Mem{Base: c, Index: c, Scale: 4}, c)
			ADDQ(c, w[0])
		}
	}
	h0, h1, h2 := GP64(), GP64(), GP64()
	packInto(h0, []GPVirtual{w[0], w[1], w[2]}, []int{0, 26, 52})
	packInto(h1, []GPVirtual{w[2], w[3], w[4]}, []int{-12, 14, 40})
	MOVQ(w[4], h2)
	SHRQ(U8(24), h2)
	storeH(hp, h0, h1, h2)
}

// scalarCarry sets next += x >> sh and x &= 2^sh-1.
func scalarCarry(x, next GPVirtual, sh int) {
	c, m := GP64(), GP64()
	MOVQ(x, c)
	SHRQ(U8(sh), c)
	ADDQ(c, next)
	MOVQ(U64(1<<sh-1), m)
	ANDQ(m, x)
}

// packInto sets dst = OR of ws[i] shifted left by shs[i] (right when
// negative).
func packInto(dst GPVirtual, ws []GPVirtual, shs []int) {
	XORQ(dst, dst)
	for i, w := range ws {
		t := GP64()
		MOVQ(w, t)
		switch {
		case shs[i] > 0:
			SHLQ(U8(shs[i]), t)
		case shs[i] < 0:
			SHRQ(U8(-shs[i]), t)
		}
		ORQ(t, dst)
	}
}

func storeH(hp, h0, h1, h2 GPVirtual) {
	MOVQ(h0, Mem{Base: hp})
	MOVQ(h1, Mem{Base: hp, Disp: 8})
	MOVQ(h2, Mem{Base: hp, Disp: 16})
}

// hsum returns the sum of the 64-bit lanes of v in a general register.
func (g *vecGen) hsum(v VecVirtual) GPVirtual {
	if g.zmm {
		t := ZMM()
		VSHUFI64X2(U8(0x4e), v, v, t)
		VPADDQ(t, v, v)
		t2 := ZMM()
		VSHUFI64X2(U8(0xb1), v, v, t2)
		VPADDQ(t2, v, v)
		t3 := ZMM()
		VPSHUFD(U8(0x4e), v, t3)
		VPADDQ(t3, v, v)
	} else {
		t := YMM()
		VPERMQ(U8(0x4e), v, t)
		VPADDQ(t, v, v)
		t2 := YMM()
		VPSHUFD(U8(0x4e), v, t2)
		VPADDQ(t2, v, v)
	}
	r := GP64()
	VMOVQ(v.AsX(), r)
	return r
}

// final emits the epilogue for the variant's radix.
func (g *vecGen) final(hp GPVirtual) {
	if g.s.radix == 26 {
		g.final26(hp)
	} else {
		g.final44(hp)
	}
}
