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
	isa    *vecgen.ISA
	unroll int
	c      *vecgen.Consts

	mult, m, twoG2 reg.VecVirtual // the γ2 constants, from the c parameter
	q              reg.VecVirtual // q in every lane, for centerMasked on AVX-512 (see loadQ)
}

// vec returns the address of a constant vector of the tier with v in
// every 32-bit lane.
func (g *gen) vec(v uint32) operand.Mem {
	lanes := make([]uint32, g.isa.Lanes(32))
	for i := range lanes {
		lanes[i] = v
	}
	return g.c.Lanes32(lanes...)
}

// pattern returns the address of a constant vector of the tier repeating
// the 32-bit lanes p.
func (g *gen) pattern(p ...uint32) operand.Mem {
	lanes := make([]uint32, g.isa.Lanes(32))
	for i := range lanes {
		lanes[i] = p[i%len(p)]
	}
	return g.c.Lanes32(lanes...)
}

// begin loads the pointer parameters into registers, at the start of the
// function (TEXT and the noescape pragma come from famgen's Builder).
func (g *gen) begin(ptrs ...string) []reg.GPVirtual {
	var out []reg.GPVirtual
	for _, p := range ptrs {
		r := GP64()
		Load(Param(p), r)
		out = append(out, r)
	}
	return out
}

// roundConsts broadcasts mult, m and 2γ2 from the array at cp (see
// kernels/mldsa: {mult, m, 2γ2, limit}).
func (g *gen) roundConsts(cp reg.GPVirtual) {
	g.mult = g.isa.Splat32(operand.Mem{Base: cp, Disp: 0})
	g.m = g.isa.Splat32(operand.Mem{Base: cp, Disp: 4})
	g.twoG2 = g.isa.Splat32(operand.Mem{Base: cp, Disp: 8})
}

// A step is a pointer and the bytes it advances per loop iteration.
type step struct {
	p reg.GPVirtual
	n int
}

// loop emits the loop over the polynomial: body(u) for u < unroll per
// iteration, then each pointer advances by its step.
func (g *gen) loop(body func(u int), steps ...step) {
	trips := 256 / (g.isa.Lanes(32) * g.unroll)
	n := GP64()
	MOVQ(operand.U64(uint64(trips)), n)
	Label("loop")
	for u := range g.unroll {
		body(u)
	}
	for _, s := range steps {
		ADDQ(operand.U32(uint64(s.n)), s.p)
	}
	DECQ(n)
	JNZ(operand.LabelRef("loop"))
}

// at is the vector u of the current iteration of a 32-bit array at p.
func (g *gen) at(p reg.GPVirtual, u int) operand.Mem {
	return operand.Mem{Base: p, Disp: u * g.isa.Bytes}
}

// highBits returns r1 of Decompose(x) for canonical x:
// r1 = (⌈x/128⌉·mult + 2^23) >> 24, and 0 where that is m.
func (g *gen) highBits(x reg.VecVirtual) reg.VecVirtual {
	t := g.isa.Vec()
	VPADDD(g.vec(127), x, t)
	VPSRLD(operand.U8(7), t, t)
	VPMULLD(g.mult, t, t)
	VPADDD(g.vec(1<<23), t, t)
	VPSRLD(operand.U8(24), t, t)
	if g.isa.EVEX() {
		k := K()
		VPCMPUD(operand.U8(1), g.m, t, k) // t < m
		VMOVDQU32_Z(t, k, t)
		return t
	}
	eq := g.isa.Vec()
	VPCMPEQD(g.m, t, eq)
	VPANDN(t, eq, t)
	return t
}

// decompose returns (r1, r0) = Decompose(x) for canonical x, r0 centered:
// x − r1·2γ2, less q where that exceeds (q−1)/2.
func (g *gen) decompose(x reg.VecVirtual) (r1, r0 reg.VecVirtual) {
	r1 = g.highBits(x)
	r0 = g.isa.Vec()
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
	if g.isa.EVEX() {
		g.q = g.isa.Load(g.vec(q))
	}
}

// centerMasked subtracts q from the lanes of x above (q−1)/2 (on AVX-512
// a subtraction merge-masked by the comparison, from g.q: see loadQ).
func (g *gen) centerMasked(x reg.VecVirtual) {
	if g.isa.EVEX() {
		k := K()
		VPCMPGTD(g.vec((q-1)/2), x, k)
		VPSUBD(g.q, x, k, x)
		return
	}
	gt := g.isa.Vec()
	VPCMPGTD(g.vec((q-1)/2), x, gt)
	VPAND(g.vec(q), gt, gt)
	VPSUBD(gt, x, x)
}

// canonSub returns a − b mod q for canonical a and b: the unsigned
// minimum of a − b and a − b + q.
func (g *gen) canonSub(a, b reg.VecVirtual) reg.VecVirtual {
	d, e := g.isa.Vec(), g.isa.Vec()
	VPSUBD(b, a, d)
	VPADDD(g.vec(q), d, e)
	VPMINUD(e, d, d)
	return d
}

// canonAdd returns a + b mod q for canonical a and b: the unsigned
// minimum of a + b and a + b − q.
func (g *gen) canonAdd(a, b reg.VecVirtual) reg.VecVirtual {
	d, e := g.isa.Vec(), g.isa.Vec()
	VPADDD(b, a, d)
	VPSUBD(g.vec(q), d, e)
	VPMINUD(e, d, d)
	return d
}

// maxInto folds x into the running unsigned maximum acc.
func maxInto(acc, x reg.VecVirtual) { VPMAXUD(x, acc, acc) }

// exceeds returns 1 in a fresh 32-bit register if some lane of acc is
// above limit (a register), else 0.
func (g *gen) exceeds(acc, limit reg.VecVirtual) reg.GPVirtual {
	b := GP8()
	if g.isa.EVEX() {
		k := K()
		VPCMPUD(operand.U8(6), limit, acc, k) // acc > limit
		KORTESTW(k, k)
	} else {
		gt := g.isa.Vec()
		VPCMPGTD(limit, acc, gt)
		VPTEST(gt, gt)
	}
	SETNE(b)
	r := GP32()
	MOVBLZX(b, r)
	return r
}

// zero returns a fresh zeroed vector register.
func (g *gen) zero() reg.VecVirtual {
	z := g.isa.Vec()
	if g.isa.EVEX() {
		VPXORD(z, z, z)
	} else {
		VPXOR(z, z, z)
	}
	return z
}

// splatGP broadcasts the 32-bit register r into a fresh vector.
func (g *gen) splatGP(r reg.GPVirtual) reg.VecVirtual {
	x := XMM()
	MOVD(r, x)
	v := g.isa.Vec()
	VPBROADCASTD(x, v)
	return v
}

// storeBytes stores the low byte of every lane of the unroll vectors of
// one iteration (each below 256) at p, in lane order: VPMOVDB per vector
// on AVX-512; on AVX2 two packs and a dword permutation per four vectors.
func (g *gen) storeBytes(vs []reg.VecVirtual, p reg.GPVirtual) {
	if g.isa.EVEX() {
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
	VMOVDQU(g.c.Lanes32(0, 4, 1, 5, 2, 6, 3, 7), idx)
	VPERMD(ab, idx, ab)
	return ab
}

// end finishes the function.
func end() {
	VZEROUPPER()
	RET()
}
