package main

import (
	"fmt"
	"math/big"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// ML-DSA's row product (see the command's documentation) and the code
// generation both schemes use (gen).

// q is the ML-DSA modulus.
const q = 8380417

// Montgomery constants for R = 2^32, computed from first principles:
// qinv = q⁻¹ mod 2^32 and r2 = 2^64 mod q, with r2·qinv mod 2^32 for
// Shoup's quotient.
var (
	qinv, r2, r2qinv uint32
)

func init() {
	Q := big.NewInt(q)
	two32 := new(big.Int).Lsh(big.NewInt(1), 32)
	qinv = uint32(new(big.Int).ModInverse(Q, two32).Uint64())
	r2 = uint32(new(big.Int).Mod(new(big.Int).Lsh(big.NewInt(1), 64), Q).Uint64())
	r2qinv = r2 * qinv
}

// A gen emits one function of a tier.
type gen struct{ vecgen.Gen }

// build emits one row product: per iteration unroll vectors of
// coefficients; per vector the l products summed in 64 bits (even and
// odd lanes apart), one Montgomery reduction, the product by R² and the
// canonicalization.
func build(g *gen, unroll int) {
	p := vecgen.Ptrs("acc", "a", "v", "l")
	acc, a, v, l := p[0], p[1], p[2], p[3]
	qv := g.ISA.Load(g.Splat(q))
	qi := g.ISA.Load(g.Splat(qinv))
	step := g.ISA.Bytes * unroll
	vecgen.Loop("loop", 1024/step, unroll, func(u int) {
		off := u * g.ISA.Bytes
		even, odd := g.ISA.Vec(), g.ISA.Vec()
		// j = 0 initializes the sums; then a loop over the other terms.
		x, y := g.ISA.Load(operand.Mem{Base: a, Disp: off}), g.ISA.Load(operand.Mem{Base: v, Disp: off})
		VPMULDQ(y, x, even)
		VPSRLQ(operand.U8(32), x, x)
		VPSRLQ(operand.U8(32), y, y)
		VPMULDQ(y, x, odd)
		pa, pv := GP64(), GP64()
		LEAQ(operand.Mem{Base: a, Disp: off + 1024}, pa)
		LEAQ(operand.Mem{Base: v, Disp: off + 1024}, pv)
		terms(u, l, func() {
			x, y = g.ISA.Load(operand.Mem{Base: pa}), g.ISA.Load(operand.Mem{Base: pv})
			p := g.ISA.Vec()
			VPMULDQ(y, x, p)
			VPADDQ(p, even, even)
			VPSRLQ(operand.U8(32), x, x)
			VPSRLQ(operand.U8(32), y, y)
			VPMULDQ(y, x, p)
			VPADDQ(p, odd, odd)
			ADDQ(operand.U32(1024), pa)
			ADDQ(operand.U32(1024), pv)
		})
		r := g.reduce(even, odd, qv, qi)
		r = g.timesR2(r, qv)
		m := g.ISA.Vec()
		VPSRAD(operand.U8(31), r, m)
		g.ISA.AndD(qv, m, m)
		VPADDD(m, r, r)
		g.ISA.Store(r, operand.Mem{Base: acc, Disp: off})
	}, vecgen.Stride(acc, step), vecgen.Stride(a, step), vecgen.Stride(v, step))
	vecgen.End()
}

// terms emits the loop over the terms of sum u after the first: count − 1
// runs of body (labels term<u> and sum<u>), none where count is 1.
func terms(u int, count reg.GPVirtual, body func()) {
	j := GP64()
	MOVQ(count, j)
	inner, last := fmt.Sprintf("term%d", u), fmt.Sprintf("sum%d", u)
	DECQ(j)
	JZ(operand.LabelRef(last))
	Label(inner)
	body()
	DECQ(j)
	JNZ(operand.LabelRef(inner))
	Label(last)
}

// reduce returns the Montgomery reductions of the 64-bit sums in even
// (lanes 0, 2, ...) and odd (lanes 1, 3, ..., in the even positions), as
// dwords in order: t = low32(s)·q⁻¹, (s − t·q)/2^32 in (−q, q).
func (g *gen) reduce(even, odd, qv, qi reg.VecVirtual) reg.VecVirtual {
	for _, s := range []reg.VecVirtual{even, odd} {
		t := g.ISA.Vec()
		VPMULDQ(qi, s, t)
		VPMULDQ(qv, t, t)
		VPSUBQ(t, s, s)
	}
	return g.merge(even, odd)
}

// merge returns the high dwords of even's qwords in the even lanes and
// odd's in the odd lanes.
func (g *gen) merge(even, odd reg.VecVirtual) reg.VecVirtual {
	r := g.ISA.Vec()
	VMOVSHDUP(even, r)
	if g.ISA.EVEX() {
		k := K()
		m := GP32()
		MOVL(operand.U32(0xaaaa), m)
		KMOVW(m, k)
		VMOVDQA32(odd, k, r)
	} else {
		VPBLENDD(operand.U8(0xaa), odd, r, r)
	}
	return r
}

// timesR2 returns x·R²·2^−32 = x·2^32 mod q (in (−q, q)) for x in
// (−q, q): Montgomery with the quotient t = x·(R²·q⁻¹) mod 2^32 from one
// VPMULLD, (x·R² − t·q)/2^32 from the even and odd 64-bit products.
func (g *gen) timesR2(x, qv reg.VecVirtual) reg.VecVirtual {
	t := g.ISA.Vec()
	VPMULLD(g.Splat(r2qinv), x, t)
	xo, to := g.ISA.Vec(), g.ISA.Vec()
	VPSRLQ(operand.U8(32), x, xo)
	VPSRLQ(operand.U8(32), t, to)
	r2v := g.ISA.Load(g.Splat(r2))
	VPMULDQ(r2v, x, x)
	VPMULDQ(r2v, xo, xo)
	VPMULDQ(qv, t, t)
	VPMULDQ(qv, to, to)
	VPSUBQ(t, x, x)
	VPSUBQ(to, xo, xo)
	return g.merge(x, xo)
}
