package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// A prod44 holds the IFMA partial sums of a product in radix 2^44: lo[i]
// sums the low 52 bits of the products landing in limb i, hi[i] their bits
// 52..103, worth hi[i]·2^8 in limb i+1.
type prod44 struct {
	lo, hi []VecVirtual
}

// mulAcc44 adds a·r (r = power-table entry e) into p with
// VPMADD52LUQ/VPMADD52HUQ.
func (g *vecGen) mulAcc44(p prod44, a []VecVirtual, e int) {
	for i := 0; i < 3; i++ {
		for j := range a {
			VPMADD52LUQ(g.power(e, g.coef(i, j)), a[j], p.lo[i])
			VPMADD52HUQ(g.power(e, g.coef(i, j)), a[j], p.hi[i])
		}
	}
}

// zeroProd returns a product with hi zeroed and lo = init (zeroed if nil).
// Zeroing xors a defined register with itself: avo would treat a fresh
// register in the self-xor idiom as live from function entry.
func (g *vecGen) zeroProd(init []VecVirtual) prod44 {
	p := prod44{lo: init}
	if p.lo == nil {
		for i := 0; i < 3; i++ {
			z := g.vec()
			VPXORQ(g.mask, g.mask, z)
			p.lo = append(p.lo, z)
		}
	}
	for i := 0; i < 3; i++ {
		z := g.vec()
		VPXORQ(g.mask, g.mask, z)
		p.hi = append(p.hi, z)
	}
	return p
}

// body44 emits acc = acc·r^(L·u) + Σ_k m_k·r^(L·(u-1-k)) in radix 2^44:
// the last message vector initialises the low sums, the other message
// products follow, the loop-carried acc products come last.
func (g *vecGen) body44(hv []VecVirtual) {
	u := g.s.unroll()
	// hvFor is what message vector k of this iteration gets added: the
	// incoming h goes to vector 0 (lane 0), or with tail=vector to every
	// vector under its one-lane mask.
	hvFor := func(k int) []VecVirtual {
		if k == 0 || g.masked {
			return hv
		}
		return nil
	}
	mLast := g.msgLimbs(u-1, hvFor(u-1))
	if hv != nil && u == 1 {
		g.setAcc(mLast)
		return
	}
	p := g.zeroProd(mLast)
	for k := 0; k < u-1; k++ {
		g.mulAcc44(p, g.msgLimbs(k, hvFor(k)), k+1)
	}
	if hv == nil {
		Comment("p += acc·r^(L·u)")
		g.mulAcc44(p, g.acc, 0)
	}
	g.carry44(p)
}

// carry44 folds p into acc: x0 = lo0, x1 = lo1 + hi0·2^8,
// x2 = lo2 + hi1·2^8, and c = x2>>42 + hi2·2^10 (the multiple of 2^130)
// goes to limb 0 times 5; then limbs 0 -> 1 -> 2 are carried.
func (g *vecGen) carry44(p prod44) {
	Comment("carry p -> acc")
	a := g.acc
	t0, t1, t2 := g.vec(), g.vec(), g.vec()
	VPSLLQ(U8(8), p.hi[0], t0)
	VPADDQ(t0, p.lo[1], p.lo[1])
	VPSLLQ(U8(8), p.hi[1], t1)
	VPADDQ(t1, p.lo[2], p.lo[2])
	c := g.vec()
	VPSRLQ(U8(42), p.lo[2], c)
	VPSLLQ(U8(10), p.hi[2], t2)
	VPADDQ(t2, c, c)
	VPANDQ(g.mask42, p.lo[2], a[2])
	g.addTimes5(c, p.lo[0], p.lo[0])
	g.carryStep(p.lo[0], a[0], p.lo[1], 44)
	g.carryStep(p.lo[1], a[1], a[2], 44)
}

// final44 computes Σ_q acc_q·r^(L-order[q]), sums the lanes and stores the
// canonical h at hp.
func (g *vecGen) final44(hp GPVirtual) {
	Comment("epilogue: lane q times r^(L-order[q]), sum lanes")
	if g.s.pow == "reg" {
		g.loadPowers(g.s.unroll())
	}
	p := g.zeroProd(nil)
	g.mulAcc44(p, g.acc, g.s.unroll())
	var lo, hi [3]GPVirtual
	for i := 0; i < 3; i++ {
		lo[i] = g.hsum(p.lo[i])
		hi[i] = g.hsum(p.hi[i])
	}
	Comment("x1 += hi0<<8, x2 += hi1<<8, c = x2>>42 + hi2<<10; carry to 44-bit limbs")
	SHLQ(U8(8), hi[0])
	ADDQ(hi[0], lo[1])
	SHLQ(U8(8), hi[1])
	ADDQ(hi[1], lo[2])
	scalarCarry(lo[0], lo[1], 44)
	scalarCarry(lo[1], lo[2], 44)
	c := GP64()
	MOVQ(lo[2], c)
	SHRQ(U8(42), c)
	SHLQ(U8(10), hi[2])
	ADDQ(hi[2], c)
	m := GP64()
	MOVQ(U64(1<<42-1), m)
	ANDQ(m, lo[2])
	LEAQ(Mem{Base: c, Index: c, Scale: 4}, c)
	ADDQ(c, lo[0])
	scalarCarry(lo[0], lo[1], 44)
	scalarCarry(lo[1], lo[2], 44)
	h0, h1, h2 := GP64(), GP64(), GP64()
	packInto(h0, []GPVirtual{lo[0], lo[1]}, []int{0, 44})
	packInto(h1, []GPVirtual{lo[1], lo[2]}, []int{-20, 24})
	MOVQ(lo[2], h2)
	SHRQ(U8(40), h2)
	storeH(hp, h0, h1, h2)
}
