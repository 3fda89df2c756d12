package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// scalarRegs holds the radix 2^64 accumulator h = h0 + h1·2^64 + h2·2^128,
// the clamped key r = r0 + r1·2^64 (registers, or memory to leave
// registers for MULXQ's temporaries), with red=fused s1 = 5·r1/4 (memory)
// and the pad bit (immediate or memory).
type scalarRegs struct {
	h0, h1, h2 GPVirtual
	r0, r1, s1 Op
	hibit      Op
}

// genScalar emits func(h *[3]uint64, r *[2]uint64, m []byte, hibit uint64):
// for each full block b of m, h = (h + b + hibit·2^128)·r mod p.
func genScalar(s *spec) {
	TEXT(s.fn(), NOSPLIT, "func(h *[3]uint64, r *[2]uint64, m []byte, hibit uint64)")
	Doc("Poly1305 blocks, variant " + s.name() + ".")
	Pragma("noescape")
	hp, rp, mp, n := GP64(), GP64(), GP64(), GP64()
	Load(Param("h"), hp)
	Load(Param("r"), rp)
	Load(Param("m").Base(), mp)
	Load(Param("m").Len(), n)
	hb, err := Param("hibit").Resolve()
	if err != nil {
		panic(err)
	}
	g := scalarRegs{h0: GP64(), h1: GP64(), h2: GP64(), r0: Mem{Base: rp}, r1: Mem{Base: rp, Disp: 8}, hibit: hb.Addr}
	if s.red == "fused" {
		g.s1 = fiveQuarters(g.r1)
	}
	MOVQ(Mem{Base: hp}, g.h0)
	MOVQ(Mem{Base: hp, Disp: 8}, g.h1)
	MOVQ(Mem{Base: hp, Disp: 16}, g.h2)
	scalarLoop(s, g, mp, n, "done")
	Label("done")
	Load(Param("h"), hp)
	MOVQ(g.h0, Mem{Base: hp})
	MOVQ(g.h1, Mem{Base: hp, Disp: 8})
	MOVQ(g.h2, Mem{Base: hp, Disp: 16})
	RET()
}

// scalarLoop emits the block loop over n bytes at mp: s.blocks blocks per
// iteration of the aligned loop "loop", then single blocks; it falls
// through (or jumps to done) with n < 16.
func scalarLoop(s *spec, g scalarRegs, mp, n GPVirtual, done string) {
	step := 16 * s.blocks
	CMPQ(n, U32(step))
	if s.blocks > 1 {
		JB(LabelRef("single"))
	} else {
		JB(LabelRef(done))
	}
	s.align.Emit()
	Label("loop")
	for i := 0; i < s.blocks; i++ {
		scalarBlock(s, g, Mem{Base: mp, Disp: 16 * i})
	}
	ADDQ(U32(step), mp)
	SUBQ(U32(step), n)
	CMPQ(n, U32(step))
	JAE(LabelRef("loop"))
	if s.blocks > 1 {
		Label("single")
		CMPQ(n, U8(16))
		JB(LabelRef(done))
		Label("loop1")
		scalarBlock(s, g, Mem{Base: mp})
		ADDQ(U8(16), mp)
		SUBQ(U8(16), n)
		CMPQ(n, U8(16))
		JAE(LabelRef("loop1"))
	}
}

// scalarBlock emits h = (h + b + hibit·2^128)·r mod p for the block at b.
func scalarBlock(s *spec, g scalarRegs, b Mem) {
	Comment("h += block")
	ADDQ(b, g.h0)
	ADCQ(b.Offset(8), g.h1)
	ADCQ(g.hibit, g.h2)
	mulModP(s, g)
}

// fiveQuarters stores s1 = r1 + r1>>2 = 5·r1/4 (r1 is a multiple of 4
// once clamped) in a stack slot and returns the slot.
func fiveQuarters(r1 Op) Mem {
	slot := AllocLocal(8)
	x, y := GP64(), GP64()
	MOVQ(r1, x)
	MOVQ(x, y)
	SHRQ(U8(2), y)
	ADDQ(y, x)
	MOVQ(x, slot)
	return slot
}

// mulModP emits h = h·r mod p (partially reduced).
func mulModP(s *spec, g scalarRegs) {
	if s.red == "fused" {
		mulFused(s, g)
		return
	}
	var t [4]GPVirtual
	if s.mul == "mulx" {
		t = mulMULX(g)
	} else {
		t = mulMULQ(g)
	}
	reduce(g, t)
}

// mulMULQ returns t = h·r as four words (t3 < 2^63): with h2 < 2^4 and
// r0, r1 < 2^60 (clamped), h2·r0 and h2·r1 fit a word.
func mulMULQ(g scalarRegs) [4]GPVirtual {
	Comment("t = h·r (MULQ)")
	t0, t1, t2, t3, x := GP64(), GP64(), GP64(), GP64(), GP64()
	mulq(g.r0, g.h0, t0, t1)
	MOVQ(g.r0, RAX)
	MULQ(g.h1)
	ADDQ(RAX, t1)
	ADCQ(Imm(0), RDX)
	MOVQ(g.r0, t2)
	IMULQ(g.h2, t2)
	ADDQ(RDX, t2)
	MOVQ(g.r1, RAX)
	MULQ(g.h0)
	ADDQ(RAX, t1)
	ADCQ(Imm(0), RDX)
	MOVQ(RDX, x)
	MOVQ(g.r1, t3)
	IMULQ(g.h2, t3)
	mulqAdd(g.r1, g.h1, t2, t3)
	ADDQ(x, t2)
	ADCQ(Imm(0), t3)
	return [4]GPVirtual{t0, t1, t2, t3}
}

// mulMULX returns t = h·r as four words using MULXQ and two independent
// carry chains (ADCXQ on CF, ADOXQ on OF):
// t1 = hi(h0r0) + lo(h0r1) + lo(h1r0), t2 = hi(h0r1) + hi(h1r0) + lo(h1r1),
// t3 = hi(h1r1), then t2:t3 += h2·r.
func mulMULX(g scalarRegs) [4]GPVirtual {
	Comment("t = h·r (MULXQ, ADCXQ/ADOXQ)")
	t0, t1, t2, t3 := GP64(), GP64(), GP64(), GP64()
	a, b, z := GP64(), GP64(), GP64()
	MOVQ(g.h0, RDX)
	MULXQ(g.r0, t0, t1) // h0·r0 -> t1:t0
	MULXQ(g.r1, a, t2)  // h0·r1 -> t2:a
	MOVQ(g.h1, RDX)
	MULXQ(g.r1, b, t3) // h1·r1 -> t3:b
	XORQ(z, z)         // CF = OF = 0
	ADCXQ(a, t1)
	ADOXQ(b, t2)
	MULXQ(g.r0, a, b) // h1·r0 -> b:a
	ADCXQ(b, t2)
	ADOXQ(z, t3)
	ADCXQ(z, t3)
	ADDQ(a, t1)
	ADCQ(Imm(0), t2)
	ADCQ(Imm(0), t3)
	Comment("t2:t3 += h2·r")
	MOVQ(g.r0, a)
	IMULQ(g.h2, a)
	MOVQ(g.r1, b)
	IMULQ(g.h2, b)
	ADDQ(a, t2)
	ADCQ(b, t3)
	return [4]GPVirtual{t0, t1, t2, t3}
}

// reduce sets h = t mod p partially: with c = t >> 130,
// h = (t mod 2^130) + 4c + c, since 2^130 ≡ 5.
func reduce(g scalarRegs, t [4]GPVirtual) {
	Comment("h = t mod 2^130 + 5·(t >> 130)")
	MOVQ(t[0], g.h0)
	MOVQ(t[1], g.h1)
	MOVQ(t[2], g.h2)
	ANDQ(Imm(3), g.h2)
	ANDQ(I32(-4), t[2])
	addH(g, t[2], t[3])
	SHRQ(Imm(2), t[3], t[2])
	SHRQ(Imm(2), t[3])
	addH(g, t[2], t[3])
}

// mulFused emits h = h·r mod p with the reduction fused into the
// products (red=fused). As r1 is a multiple of 4 (clamped),
// h1·r1·2^128 = h1·(r1/4)·2^130 ≡ h1·s1 and h2·r1·2^192 ≡ h2·s1·2^64 with
// s1 = 5·r1/4, so
//
//	h·r ≡ d0 + d1·2^64 + d2·2^128,  d0 = h0·r0 + h1·s1,
//	d1 = h0·r1 + h1·r0 + h2·s1,    d2 = h2·r0,
//
// four 64x64 multiplications, two small ones and one word (x = hi(d1) +
// d2) to fold. Bounds: r0, r1 < 2^60 (clamped), s1 < 2^60.33, and h2 <= 9
// (h2 < 8 on entry plus a block and its carry; 4 after a fold), so
// h2·s1 < 2^63.5 and h2·r0 < 2^63.2; d0 < 2^125.2 and d1 < 2^125.01 fit
// two words, x < 2^61.01 + 2^63.2 + 1 < 2^63.45 fits one, and so does
// 5·(x >> 2) < 2^63.78.
func mulFused(s *spec, g scalarRegs) {
	var d0lo, d0hi, d1lo, d1hi GPVirtual
	if s.mul == "mulx" {
		d0lo, d0hi, d1lo, d1hi = fusedMULX(g)
	} else {
		d0lo, d0hi, d1lo, d1hi = fusedMULQ(g)
	}
	Comment("d1 += h2·s1; h1 = hi(d0) + lo(d1), x = hi(d1) + h2·r0 + carry")
	a := GP64()
	MOVQ(g.s1, a)
	IMULQ(g.h2, a)
	ADDQ(a, d1lo)
	ADCQ(Imm(0), d1hi)
	IMULQ(g.r0, g.h2)
	ADDQ(d1lo, d0hi)
	ADCQ(g.h2, d1hi)
	fold(g, d0lo, d0hi, d1hi)
}

// fusedMULQ returns d0 = h0·r0 + h1·s1 and the first two terms of
// d1 = h0·r1 + h1·r0 as (lo, hi) words, with MULQ.
func fusedMULQ(g scalarRegs) (d0lo, d0hi, d1lo, d1hi GPVirtual) {
	Comment("d0 = h0·r0 + h1·s1, d1 = h0·r1 + h1·r0 (MULQ)")
	d0lo, d0hi, d1lo, d1hi = GP64(), GP64(), GP64(), GP64()
	mulq(g.r0, g.h0, d0lo, d0hi)
	mulqAdd(g.s1, g.h1, d0lo, d0hi)
	mulq(g.r1, g.h0, d1lo, d1hi)
	mulqAdd(g.r0, g.h1, d1lo, d1hi)
	return
}

// mulq sets hi:lo = a·b with MULQ (through RAX and RDX).
func mulq(a, b Op, lo, hi GPVirtual) {
	MOVQ(a, RAX)
	MULQ(b)
	MOVQ(RAX, lo)
	MOVQ(RDX, hi)
}

// mulqAdd adds a·b to hi:lo with MULQ.
func mulqAdd(a, b Op, lo, hi GPVirtual) {
	MOVQ(a, RAX)
	MULQ(b)
	ADDQ(RAX, lo)
	ADCQ(RDX, hi)
}

// addH adds lo + hi·2^64 to h, carrying into h2.
func addH(g scalarRegs, lo, hi Op) {
	ADDQ(lo, g.h0)
	ADCQ(hi, g.h1)
	ADCQ(Imm(0), g.h2)
}

// fusedMULX is fusedMULQ with MULXQ (no flags written, free choice of
// destination registers).
func fusedMULX(g scalarRegs) (d0lo, d0hi, d1lo, d1hi GPVirtual) {
	Comment("d0 = h0·r0 + h1·s1, d1 = h0·r1 + h1·r0 (MULXQ)")
	d0lo, d0hi, d1lo, d1hi = GP64(), GP64(), GP64(), GP64()
	a, b := GP64(), GP64()
	MOVQ(g.h0, RDX)
	MULXQ(g.r0, d0lo, d0hi)
	MULXQ(g.r1, d1lo, d1hi)
	MOVQ(g.h1, RDX)
	MULXQ(g.s1, a, b)
	ADDQ(a, d0lo)
	ADCQ(b, d0hi)
	MULXQ(g.r0, a, b)
	ADDQ(a, d1lo)
	ADCQ(b, d1hi)
	return
}

// fold sets h = lo + mid·2^64 + (x mod 4)·2^128 + 5·(x >> 2), which is
// lo + mid·2^64 + x·2^128 mod p (2^130 ≡ 5): 5·(x >> 2) is
// (x & ^3) + (x >> 2). The result has h2 <= 4.
func fold(g scalarRegs, lo, mid, x GPVirtual) {
	Comment("h = lo + mid·2^64 + (x & 3)·2^128 + 5·(x >> 2)")
	MOVQ(lo, g.h0)
	MOVQ(mid, g.h1)
	MOVQ(x, g.h2)
	ANDQ(Imm(3), g.h2)
	c := GP64()
	MOVQ(x, c)
	SHRQ(Imm(2), c)
	ANDQ(I32(-4), x)
	ADDQ(c, x)
	addH(g, x, Imm(0))
}
