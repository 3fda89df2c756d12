package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// scalarRegs holds the radix 2^64 accumulator h = h0 + h1·2^64 + h2·2^128,
// the clamped key r = r0 + r1·2^64 (registers, or memory to leave
// registers for MULXQ's temporaries) and the pad bit (immediate or memory).
type scalarRegs struct {
	h0, h1, h2 GPVirtual
	r0, r1     Op
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
	g := scalarRegs{GP64(), GP64(), GP64(), Mem{Base: rp}, Mem{Base: rp, Disp: 8}, hb.Addr}
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

// mulModP emits h = h·r mod p (partially reduced).
func mulModP(s *spec, g scalarRegs) {
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
	MOVQ(g.r0, RAX)
	MULQ(g.h0)
	MOVQ(RAX, t0)
	MOVQ(RDX, t1)
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
	MOVQ(g.r1, RAX)
	MULQ(g.h1)
	ADDQ(RAX, t2)
	ADCQ(RDX, t3)
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
	ADDQ(t[2], g.h0)
	ADCQ(t[3], g.h1)
	ADCQ(Imm(0), g.h2)
	SHRQ(Imm(2), t[3], t[2])
	SHRQ(Imm(2), t[3])
	ADDQ(t[2], g.h0)
	ADCQ(t[3], g.h1)
	ADCQ(Imm(0), g.h2)
}
