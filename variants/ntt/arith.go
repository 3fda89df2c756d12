package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Arithmetic of the mul and canon knob values added for the AVX2 tier:
// Shoup multiplication by a constant for 32-bit lanes (mul=shoup), the
// canonicalization by exact division of biased lanes for the ML-KEM NTT
// (canon=exact) and conditional corrections by unsigned minimum
// (canon=min).

// shoupConstOf places the Shoup multiplier of the zetas z (one per lane,
// any representative): w = z centered, w' = round(w·2^32/q); the odd
// forms hold the odd lanes' values in the even positions (VPMULDQ reads
// the low dword of each qword).
func (g *gen) shoupConstOf(z []int64) mulConst {
	f := g.f
	w, wq := make([]int64, len(z)), make([]int64, len(z))
	var mc mulConst
	for i, x := range z {
		w[i] = f.center(x)
		wq[i] = shoupQuotient(w[i], f.q)
		mc.max = max(mc.max, w[i], -w[i])
	}
	mc.w = g.consts.vector(w, f.ebits, g.isa.bytes)
	mc.wq = g.consts.vector(wq, f.ebits, g.isa.bytes)
	mc.wOdd = g.consts.vector(oddDown(w), f.ebits, g.isa.bytes)
	mc.wqOdd = g.consts.vector(oddDown(wq), f.ebits, g.isa.bytes)
	return mc
}

// shoupQuotient is round(w·2^32/q) = floor((2·w·2^32 + q) / 2q).
func shoupQuotient(w, q int64) int64 {
	n, d := w<<33+q, 2*q
	r := n / d
	if n%d != 0 && n < 0 {
		r--
	}
	return r
}

// shoupMul returns r ≡ a·w (mod q) for 32-bit lanes (Shoup's method with
// a signed quotient): t = hi32(a·w') on the even and odd lanes (two
// VPMULDQ, the odd lanes moved down and the even high halves moved back
// by VMOVSHDUP, merged by VPBLENDD), r = lo32(a·w) - lo32(t·q) (two
// VPMULLD, VPSUBD). Eight instructions, four multiplies (the Montgomery
// product montMul: eleven, five). r lies in shoupBound.
func (g *gen) shoupMul(a reg.VecVirtual, c mulConst) reg.VecVirtual {
	if g.f.ebits != 32 || g.isa.evex {
		panic("shoupMul: 32-bit lanes on avx2 only")
	}
	ao, te, to, r := g.vec(), g.vec(), g.vec(), g.vec()
	VMOVSHDUP(a, ao)
	VPMULDQ(c.wq, a, te)
	VPMULDQ(c.wqOdd, ao, to)
	VMOVSHDUP(te, te)
	VPBLENDD(operand.Imm(0xAA), to, te, te)
	VPMULLD(c.w, a, r)
	VPMULLD(g.q, te, te)
	VPSUBD(te, r, r)
	return r
}

// shoupBound bounds shoupMul's result for inputs in a: with
// w' = w·2^32/q + e (|e| ≤ 1/2) and t = a·w'/2^32 - p (0 ≤ p < 1),
// r = a·w - t·q = q·p - q·a·e/2^32, so -q|a|/2^33 < r < q + q|a|/2^33.
func (f *field) shoupBound(a interval) interval {
	d := (f.q*a.abs())>>33 + 1
	return interval{-d, f.q + d}
}

// canonMin brings 32- or 16-bit lanes x with bounds b, within (-q, q) or
// [0, 2q), into [0, q) by one unsigned minimum: min(x, x+q) for
// (-q, q) (a negative x is above 2^(ebits-1) unsigned, x+q below q);
// min(x, x-q) for [0, 2q). It reports whether b allowed it.
func (g *gen) canonMin(x reg.VecVirtual, b interval) bool {
	q := g.f.q
	t := g.vec()
	switch {
	case b.lo >= 0 && b.hi < q:
		return true
	case b.lo > -q && b.hi < q:
		g.add(x, g.q, t)
	case b.lo >= 0 && b.hi < 2*q:
		g.sub(x, g.q, t)
	default:
		return false
	}
	if g.f.ebits == 16 {
		VPMINUW(t, x, x)
	} else {
		VPMINUD(t, x, x)
	}
	return true
}

// The ML-KEM NTT's canon=exact: the two coefficients f[0] and f[1] get a
// bias c (a multiple of q) before the first layer. A butterfly passes its
// first input's bias to both outputs (x ± t), and the chain of first
// inputs behind output k ends at f[k mod 2], so every output carries c,
// while no biased value is ever multiplied (a multiplied operand has an
// index bit set below the layers done, which f[0] and f[1] and the
// outputs of their chains do not). The outputs x + c lie in [0, 2^16) as
// unsigned lanes, where floor(u/q) is exact by VPMULHUW and a shift:
// floor(u·40318/2^27) (40318·q = 2^27 + 894 and 894·2^16 < 2^27), so
// u - floor(u/q)·q is canonical in four instructions, two multiplies
// (Barrett and a subtraction: six).
const (
	exactBias  = 8 // c = 8q
	exactMul   = 40318
	exactShift = 11
)

// biasLanes adds the bias c to the lanes of x that lanes marks.
func (g *gen) biasLanes(x reg.VecVirtual, lanes []bool) {
	v := make([]int64, g.lanes)
	for l, on := range lanes {
		if on {
			v[l] = exactBias * g.f.q
		}
	}
	VPADDW(g.consts.vector(v, 16, g.isa.bytes), x, x)
}

// canonExact brings 16-bit lanes holding x + c, for x in b and bias c,
// into [0, q).
func (g *gen) canonExact(x reg.VecVirtual, b interval, c int64) {
	if c%g.f.q != 0 || b.lo+c < 0 || b.hi+c >= 1<<16 {
		panic(fmt.Sprintf("canon=exact: bias %d does not bring %v into [0, 2^16)", c, b))
	}
	t := g.vec()
	VPMULHUW(g.splat(exactMul), x, t)
	VPSRLW(operand.Imm(exactShift), t, t)
	VPMULLW(g.q, t, t)
	VPSUBW(t, x, x)
}
