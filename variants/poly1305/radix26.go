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
	u := g.s.unroll()
	if hv != nil && u == 1 {
		m := g.msgLimbs(0, hv)
		for i := range m {
			g.mov(m[i], g.acc[i])
		}
		return
	}
	d := make([]VecVirtual, 5)
	if hv == nil && !g.evex {
		Comment("d = acc·r^(L·u)")
		g.mulAcc26(d, g.acc, 0)
	}
	for k := 0; k < u; k++ {
		var h []VecVirtual
		if k == 0 {
			h = hv
		}
		m := g.msgLimbs(k, h)
		if k == u-1 {
			for i := range m {
				addInto(d, i, m[i])
			}
			continue
		}
		g.mulAcc26(d, m, k+1)
	}
	if hv == nil && g.evex {
		Comment("d += acc·r^(L·u)")
		g.mulAcc26(d, g.acc, 0)
	}
	g.carry26(d)
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
