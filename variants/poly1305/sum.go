package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Clamping masks of r (RFC 8439 section 2.5).
const (
	rMask0 = 0x0FFFFFFC0FFFFFFF
	rMask1 = 0x0FFFFFFC0FFFFFFC
)

// sumFn is the name of the one-shot MAC function of a scalar variant.
func (s *spec) sumFn() string { return "sum" + s.fn()[len("blocks"):] }

// genScalarSum emits func(out *[16]byte, m []byte, key *[32]byte), the
// whole MAC for short messages without Go overhead: clamp r, the block
// loop of the variant, the final partial block padded with a 1 byte, the
// constant-time reduction modulo p and the addition of s.
func genScalarSum(s *spec) {
	TEXT(s.sumFn(), NOSPLIT, "func(out *[16]byte, m []byte, key *[32]byte)")
	Doc("Poly1305 MAC of m under key, variant " + s.name() + ".")
	Pragma("noescape")
	kp, mp, n := GP64(), GP64(), GP64()
	Load(Param("key"), kp)
	Load(Param("m").Base(), mp)
	Load(Param("m").Len(), n)
	g := scalarRegs{h0: GP64(), h1: GP64(), h2: GP64(), hibit: Imm(1)}
	r0, r1 := clampR(kp)
	if s.red == "fused" {
		local := AllocLocal(16)
		MOVQ(r0, local)
		MOVQ(r1, local.Offset(8))
		g.r0, g.r1 = local, local.Offset(8)
		g.s1 = fiveQuarters(r1)
	} else if s.mul == "mulx" {
		local := AllocLocal(16)
		MOVQ(r0, local)
		MOVQ(r1, local.Offset(8))
		g.r0, g.r1 = local, local.Offset(8)
	} else {
		g.r0, g.r1 = r0, r1
	}
	XORQ(g.h0, g.h0)
	XORQ(g.h1, g.h1)
	XORQ(g.h2, g.h2)
	scalarLoop(s, g, mp, n, "tail")
	Label("tail")
	TESTQ(n, n)
	JZ(LabelRef("final"))
	lastBlock(s, g, mp, n)
	Label("final")
	finalize(g)
	RET()
}

// clampR loads r from the key and clamps it.
func clampR(kp GPVirtual) (GPVirtual, GPVirtual) {
	r0, r1, m := GP64(), GP64(), GP64()
	MOVQ(Mem{Base: kp}, r0)
	MOVQ(U64(rMask0), m)
	ANDQ(m, r0)
	MOVQ(Mem{Base: kp, Disp: 8}, r1)
	MOVQ(U64(rMask1), m)
	ANDQ(m, r1)
	return r0, r1
}

// lastBlock emits h = (h + b)·r for the 1..15 bytes at mp padded with a 1
// byte (no 2^128 bit), reading them backwards one byte at a time so no
// byte past the message is touched.
func lastBlock(s *spec, g scalarRegs, mp, n GPVirtual) {
	Comment("final partial block: b = bytes | 1 << (8·n)")
	lo, hi, t := GP64(), GP64(), GP64()
	MOVQ(U32(1), lo)
	XORQ(hi, hi)
	ADDQ(n, mp)
	Label("bytes")
	SHLQ(U8(8), lo, hi)
	SHLQ(U8(8), lo)
	MOVBQZX(Mem{Base: mp, Disp: -1}, t)
	XORQ(t, lo)
	DECQ(mp)
	DECQ(n)
	JNZ(LabelRef("bytes"))
	ADDQ(lo, g.h0)
	ADCQ(hi, g.h1)
	ADCQ(Imm(0), g.h2)
	mulModP(s, g)
}

// finalize emits tag = (h mod p) + s mod 2^128 and stores it: h < 2p, so
// h - p is kept (by CMOV, no branch) when it does not borrow.
func finalize(g scalarRegs) {
	Comment("h mod p in constant time, + s")
	t0, t1, t2 := GP64(), GP64(), GP64()
	MOVQ(g.h0, t0)
	MOVQ(g.h1, t1)
	MOVQ(g.h2, t2)
	SUBQ(I32(-5), t0)
	SBBQ(I32(-1), t1)
	SBBQ(U8(3), t2)
	CMOVQCC(t0, g.h0)
	CMOVQCC(t1, g.h1)
	kp, out := GP64(), GP64()
	Load(Param("key"), kp)
	ADDQ(Mem{Base: kp, Disp: 16}, g.h0)
	ADCQ(Mem{Base: kp, Disp: 24}, g.h1)
	Load(Param("out"), out)
	MOVQ(g.h0, Mem{Base: out})
	MOVQ(g.h1, Mem{Base: out, Disp: 8})
}
