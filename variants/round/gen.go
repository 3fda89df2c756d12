package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// A gen emits one function: its tier, unroll, constants and the
// registers it keeps for the whole loop.
type gen struct {
	vecgen.Gen
	unroll int

	mult, m, twoG2 reg.VecVirtual // the γ2 constants, from the c parameter
	q              reg.VecVirtual // q in every lane, for centerMasked on AVX-512 (see loadQ)
}

// roundConsts broadcasts mult, m and 2γ2 from the array at cp (see
// kernels/mldsa: {mult, m, 2γ2, limit}).
func (g *gen) roundConsts(cp reg.GPVirtual) {
	g.mult = g.ISA.Splat32(operand.Mem{Base: cp, Disp: 0})
	g.m = g.ISA.Splat32(operand.Mem{Base: cp, Disp: 4})
	g.twoG2 = g.ISA.Splat32(operand.Mem{Base: cp, Disp: 8})
}

// loop emits the loop over the polynomial: body(u) for u < unroll per
// iteration, then each pointer advances by its step.
func (g *gen) loop(body func(u int), steps ...vecgen.Step) {
	vecgen.Loop("loop", 256/(g.ISA.Lanes(32)*g.unroll), g.unroll, body, steps...)
}

// at is the vector u of the current iteration of a 32-bit array at p.
func (g *gen) at(p reg.GPVirtual, u int) operand.Mem {
	return operand.Mem{Base: p, Disp: u * g.ISA.Bytes}
}

// highBits returns r1 of Decompose(x) for canonical x:
// r1 = (⌈x/128⌉·mult + 2^23) >> 24, and 0 where that is m.
func (g *gen) highBits(x reg.VecVirtual) reg.VecVirtual {
	t := g.ISA.Vec()
	VPADDD(g.Splat(127), x, t)
	VPSRLD(operand.U8(7), t, t)
	VPMULLD(g.mult, t, t)
	VPADDD(g.Splat(1<<23), t, t)
	VPSRLD(operand.U8(24), t, t)
	if g.ISA.EVEX() {
		k := K()
		VPCMPUD(operand.U8(1), g.m, t, k) // t < m
		VMOVDQU32_Z(t, k, t)
		return t
	}
	eq := g.ISA.Vec()
	VPCMPEQD(g.m, t, eq)
	VPANDN(t, eq, t)
	return t
}

// decompose returns (r1, r0) = Decompose(x) for canonical x, r0 centered:
// x − r1·2γ2, less q where that exceeds (q−1)/2.
func (g *gen) decompose(x reg.VecVirtual) (r1, r0 reg.VecVirtual) {
	r1 = g.highBits(x)
	r0 = g.ISA.Vec()
	VPMULLD(g.twoG2, r1, r0)
	VPSUBD(r0, x, r0)
	g.centerMasked(r0)
	return r1, r0
}

// loadQ loads q into g.q before the loop, on AVX-512, for centerMasked:
// an operation under an opmask computed from secret lanes takes register
// operands only, so that no memory access is masked by a secret (whose
// timing the constant-time check does not assume independent of the
// mask).
func (g *gen) loadQ() {
	if g.ISA.EVEX() {
		g.q = g.ISA.Load(g.Splat(q))
	}
}

// centerMasked subtracts q from the lanes of x above (q−1)/2 (on AVX-512
// a subtraction merge-masked by the comparison, from g.q: see loadQ).
func (g *gen) centerMasked(x reg.VecVirtual) {
	if g.ISA.EVEX() {
		k := K()
		VPCMPGTD(g.Splat((q-1)/2), x, k)
		VPSUBD(g.q, x, k, x)
		return
	}
	gt := g.ISA.Vec()
	VPCMPGTD(g.Splat((q-1)/2), x, gt)
	VPAND(g.Splat(q), gt, gt)
	VPSUBD(gt, x, x)
}

// canonSub returns a − b mod q for canonical a and b: the unsigned
// minimum of a − b and a − b + q.
func (g *gen) canonSub(a, b reg.VecVirtual) reg.VecVirtual { return g.canonOp(a, b, VPSUBD, VPADDD) }

// canonAdd returns a + b mod q for canonical a and b: the unsigned
// minimum of a + b and a + b − q.
func (g *gen) canonAdd(a, b reg.VecVirtual) reg.VecVirtual { return g.canonOp(a, b, VPADDD, VPSUBD) }

// canonOp returns the unsigned minimum of d = op(a, b) and fix(q, d).
func (g *gen) canonOp(a, b reg.VecVirtual, op, fix func(...operand.Op)) reg.VecVirtual {
	d, e := g.ISA.Vec(), g.ISA.Vec()
	op(b, a, d)
	fix(g.Splat(q), d, e)
	VPMINUD(e, d, d)
	return d
}

// maxInto folds x into the running unsigned maximum acc.
func maxInto(acc, x reg.VecVirtual) { VPMAXUD(x, acc, acc) }

// exceeds returns 1 in a fresh 32-bit register if some lane of acc is
// above limit (a register), else 0.
func (g *gen) exceeds(acc, limit reg.VecVirtual) reg.GPVirtual {
	b := GP8()
	if g.ISA.EVEX() {
		k := K()
		VPCMPUD(operand.U8(6), limit, acc, k) // acc > limit
		KORTESTW(k, k)
	} else {
		gt := g.ISA.Vec()
		VPCMPGTD(limit, acc, gt)
		VPTEST(gt, gt)
	}
	SETNE(b)
	r := GP32()
	MOVBLZX(b, r)
	return r
}

// splatGP broadcasts the 32-bit register r into a fresh vector.
func (g *gen) splatGP(r reg.GPVirtual) reg.VecVirtual {
	x := XMM()
	MOVD(r, x)
	v := g.ISA.Vec()
	VPBROADCASTD(x, v)
	return v
}

// storeBytes stores the low byte of every lane of the unroll vectors of
// one iteration (each below 256) at p, in lane order: VPMOVDB per vector
// on AVX-512; on AVX2 two packs and a dword permutation per four vectors.
func (g *gen) storeBytes(vs []reg.VecVirtual, p reg.GPVirtual) {
	if g.ISA.EVEX() {
		for u, v := range vs {
			VPMOVDB(v, operand.Mem{Base: p, Disp: 16 * u})
		}
		return
	}
	if len(vs)%4 != 0 {
		panic(fmt.Sprintf("avx2 byte stores take groups of four vectors, got %d", len(vs)))
	}
	for i := 0; i < len(vs); i += 4 {
		VMOVDQU(g.packBytes(vs[i:i+4]), operand.Mem{Base: p, Disp: 8 * i})
	}
}

// packBytes returns the low bytes of the 32 lanes of four AVX2 vectors
// (each below 256) in lane order.
func (g *gen) packBytes(vs []reg.VecVirtual) reg.VecVirtual {
	ab, cd := YMM(), YMM()
	VPACKUSDW(vs[1], vs[0], ab)
	VPACKUSDW(vs[3], vs[2], cd)
	VPACKUSWB(cd, ab, ab)
	idx := YMM()
	VMOVDQU(g.Lanes32(0, 4, 1, 5, 2, 6, 3, 7), idx)
	VPERMD(ab, idx, ab)
	return ab
}
