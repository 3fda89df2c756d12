package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// buildMul emits one MulNTT function: h = f∘g, a loop over vectors.
// odd=load peels the last iteration, whose last vector must not read past
// the arrays (see pointwiseIFMA2), unless the loop runs once (unroll=16 on
// zmm), in which case the loop body holds that vector itself.
func buildMul(g *gen, sym string, k mulKnobs) {
	TEXT(sym, 0, fmt.Sprintf("func(h, a, b *[256]int%d)", g.f.ebits))
	Pragma("noescape")
	hp, fp, gp := Load(Param("h"), GP64()), Load(Param("a"), GP64()), Load(Param("b"), GP64())
	g.setup()
	m := &mulState{g: g, mul: k.mul, odd: k.odd}
	m.prepare()
	trips := g.slots / k.unroll
	peel := k.odd == oddLoad && trips > 1
	if peel {
		trips--
	}
	n := GP64()
	MOVQ(operand.U64(uint64(trips)), n)
	tp := GP64()
	if g.f.ebits == 16 {
		LEAQ(m.gamma.w, tp)
	}
	body := func(last bool) {
		for u := range k.unroll {
			off := u * g.isa.bytes
			h := m.vector(fp, gp, tp, off, last && u == k.unroll-1)
			g.store(h, operand.Mem{Base: hp, Disp: off})
		}
	}
	k.align.Emit()
	Label("loop")
	body(k.odd == oddLoad && !peel)
	step := operand.U32(uint64(k.unroll * g.isa.bytes))
	ADDQ(step, hp)
	ADDQ(step, fp)
	ADDQ(step, gp)
	if g.f.ebits == 16 {
		ADDQ(step, tp)
	}
	DECQ(n)
	JNZ(operand.LabelRef("loop"))
	if peel {
		body(true)
	}
	VZEROUPPER()
	RET()
}

// vector returns h's vector at byte offset off of the arrays; last marks
// the polynomial's last vector; tp points at this iteration's gamma
// vectors (ML-KEM).
func (m *mulState) vector(fp, gp, tp reg.Register, off int, last bool) reg.VecVirtual {
	if m.mul == prodIFMA2 {
		return m.pointwiseIFMA2(fp, gp, off, m.odd == oddShuf || last)
	}
	g := m.g
	f := g.load(operand.Mem{Base: fp, Disp: off})
	gv := g.load(operand.Mem{Base: gp, Disp: off})
	return m.product(f, gv, tp, off)
}

// mulState holds the loop-invariant constants of a MulNTT function.
type mulState struct {
	g     *gen
	r2    mulConst       // R² mod q: montMul by it multiplies by R
	gamma mulConst       // ML-KEM: per pair (R, gamma·R), one vector per slot
	qinv  reg.VecVirtual // ML-DSA: q⁻¹ in every lane
	swap  reg.VecVirtual // ML-KEM avx2: VPSHUFB pattern swapping pair halves
	gqOff int            // distance from the gamma table to its wq table
	mul   product        // mulKnobs.mul
	odd   oddLanes       // mulKnobs.odd
	// mu = floor(2^52/q) and 2^52 - q per qword (mul=ifma2)
	mu, negq reg.VecVirtual
}

// prepare loads the loop-invariant constants: R² for every field; for
// ML-DSA the Barrett constants (mul=ifma2) or q⁻¹, and the merge masks;
// for ML-KEM the odd-word mask (EVEX) or the VPSHUFB pair swap, and the
// gamma table.
func (m *mulState) prepare() {
	g, f := m.g, m.g.f
	m.r2 = g.mulConstOf(splatVals(g.lanes, f.center(f.rmod()*f.rmod())))
	if f.ebits == 32 {
		if m.mul == prodIFMA2 {
			// the odd-lane mask of the merging VPSHUFD, the Barrett
			// constants in registers
			g.kmask(0xAAAA, 32)
			m.mu = g.load(g.splat64(int64(1<<52) / f.q))
			m.negq = g.load(g.splat64(int64(1<<52) - f.q))
			return
		}
		m.qinv = g.load(g.splat(f.qinv()))
		if g.isa.evex {
			// the even-lane mask of montFinish32's merge
			g.kmask(0x5555, 32)
		}
		return
	}
	if g.isa.evex {
		g.kmask(0xAAAAAAAA, 16)
	} else {
		m.swap = g.load(g.byteShuffle())
	}
	m.gammaTable()
}

// gammaTable places ML-KEM's gamma table: one vector per slot, lanes
// (R, gamma_i·R) per pair i with gamma_i = root^(2·BitRev7(i)+1), stored
// contiguously (w vectors, then the wq vectors, w·q⁻¹ mod 2^16) so one
// pointer walks it.
func (m *mulState) gammaTable() {
	g, f := m.g, m.g.f
	var ws, wqs [][]int64
	for sl := 0; sl < g.slots; sl++ {
		w := make([]int64, g.lanes)
		for l := range w {
			i := (sl*g.lanes + l) / 2
			if l%2 == 0 {
				w[l] = f.center(f.rmod())
			} else {
				w[l] = f.mont(modexp(f.root, 2*brv7(i)+1, f.q))
			}
		}
		ws = append(ws, w)
	}
	for _, w := range ws {
		wq := make([]int64, len(w))
		for i, x := range w {
			wq[i] = f.signed(x * f.qinv())
		}
		wqs = append(wqs, wq)
	}
	m.gamma.w = g.consts.block(append(ws, wqs...), f.ebits, g.isa.bytes)
	m.gqOff = g.slots * g.isa.bytes
	m.gamma.max = f.q / 2
}

// brv7 is the 7-bit bit reversal of i.
func brv7(i int) int64 {
	r := 0
	for b := 0; b < 7; b++ {
		r |= (i >> b & 1) << (6 - b)
	}
	return int64(r)
}

// product returns f∘g for one vector; tp points at this iteration's gamma
// vectors (ML-KEM).
func (m *mulState) product(f, gv reg.VecVirtual, tp reg.Register, off int) reg.VecVirtual {
	if m.g.f.ebits == 16 {
		return m.baseCase(f, gv, tp, off)
	}
	if m.mul == prodIFMA {
		return m.pointwiseIFMA(f, gv)
	}
	return m.pointwise(f, gv)
}

// baseCase is FIPS 203 Algorithm 12 on 2-coefficient pairs:
// h0 = f0·g0 + f1·g1·gamma, h1 = f0·g1 + f1·g0. With fR = f·R,
// G1 = (g0, g1·gamma) and G2 = (g1, g0), VPMADDWD forms R·h0 and R·h1 as
// 32-bit sums, and a Montgomery reduction of each 32-bit lane yields h.
func (m *mulState) baseCase(f, gv reg.VecVirtual, tp reg.Register, off int) reg.VecVirtual {
	g := m.g
	fr := g.montMul(f, m.r2)
	gc := mulConst{w: operand.Mem{Base: tp, Disp: off}, wq: operand.Mem{Base: tp, Disp: off + m.gqOff}}
	g1 := g.montMul(gv, gc)
	g2 := g.vec()
	if g.isa.evex {
		VPROLD(operand.Imm(16), gv, g2)
	} else {
		VPSHUFB(m.swap, gv, g2)
	}
	e, o := g.vec(), g.vec()
	VPMADDWD(g1, fr, e)
	VPMADDWD(g2, fr, o)
	return m.montReduce32Pair(e, o)
}

// montReduce32Pair returns, in the even 16-bit lanes, the Montgomery
// reduction (x - m·q)/2^16 of each 32-bit lane x of e and, in the odd
// lanes, that of o: the low halves (L) and high halves (H) of e and o are
// interleaved first, so one VPMULLW/VPMULHW pair serves both:
// h = H - hi(q·lo(L·q⁻¹)).
func (m *mulState) montReduce32Pair(e, o reg.VecVirtual) reg.VecVirtual {
	g := m.g
	lo, hi := g.vec(), g.vec()
	VPSLLD(operand.Imm(16), o, lo)
	g.blendOdd(lo, e, lo, 16)
	VPSRLD(operand.Imm(16), e, hi)
	g.blendOdd(o, hi, hi, 16)
	VPMULLW(g.splat(g.f.qinv()), lo, lo)
	VPMULHW(g.q, lo, lo)
	VPSUBW(lo, hi, hi)
	g.condAddQ(hi)
	return hi
}

// pointwise is FIPS 204 Algorithm 45 on one vector: r = a·b·R⁻¹ by a
// variable Montgomery product, then r·R²·R⁻¹ = a·b.
func (m *mulState) pointwise(a, b reg.VecVirtual) reg.VecVirtual {
	g := m.g
	ao, bo := g.vec(), g.vec()
	VPSRLQ(operand.Imm(32), a, ao)
	VPSRLQ(operand.Imm(32), b, bo)
	VPMULDQ(b, a, a)
	VPMULDQ(bo, ao, ao)
	me, mo := g.vec(), g.vec()
	VPMULDQ(m.qinv, a, me)
	VPMULDQ(m.qinv, ao, mo)
	r := g.montFinish32(me, mo, a, ao)
	r = g.montMul(r, m.r2)
	g.condAddQ(r)
	return r
}

// byteShuffle is the VPSHUFB pattern swapping the two 16-bit halves of
// every 32-bit lane.
func (g *gen) byteShuffle() operand.Mem {
	v := make([]int64, g.lanes)
	for l := range v {
		b := (l ^ 1) * 2 % 16
		v[l] = int64(b | (b+1)<<8)
	}
	return g.consts.vector(v, 16, g.isa.bytes)
}

// pointwiseIFMA is FIPS 204 Algorithm 45 by Barrett reduction of the exact
// 46-bit products p = a·b (VPMULUDQ, even and odd lanes): t = floor(p·mu /
// 2^52) with mu = floor(2^52/q) (VPMADD52HUQ) is floor(p/q) or one less,
// so r = p - t·q lies in [0, 2q) and one conditional subtraction
// (VPMINUD(r, r-q)) makes it canonical.
func (m *mulState) pointwiseIFMA(a, b reg.VecVirtual) reg.VecVirtual {
	g := m.g
	mu := g.splat64(int64(1<<52) / g.f.q)
	ao, bo := g.vec(), g.vec()
	VPSRLQ(operand.Imm(32), a, ao)
	VPSRLQ(operand.Imm(32), b, bo)
	VPMULUDQ(b, a, a)
	VPMULUDQ(bo, ao, ao)
	var r [2]reg.VecVirtual
	for i, p := range []reg.VecVirtual{a, ao} {
		t := g.vec()
		VPXORQ(t, t, t)
		VPMADD52HUQ(mu, p, t)
		VPMULUDQ(g.q, t, t)
		VPSUBQ(t, p, p)
		r[i] = p
	}
	VPSLLQ(operand.Imm(32), r[1], r[1])
	g.blendOdd(r[1], r[0], r[0], 32)
	t := g.vec()
	VPSUBD(g.q, r[0], t)
	VPMINUD(t, r[0], r[0])
	return r[0]
}

// pointwiseIFMA2 is pointwiseIFMA in fewer vector instructions: the odd
// lanes reach the low dwords by VPSHUFD (shuffle) or by a load from 4
// bytes further on (VPMULUDQ reads only the low dword of each qword; the
// caller shuffles for the last vector, whose load would run 4 bytes past
// the array), the remainder is one VPMADD52LUQ by 2^52 - q
// (p + lo52(t·(2^52 - q)) = p - t·q + 2^52, whose low dword is r), and
// the odd remainders merge back by one masked VPSHUFD. Per vector: 6
// multiplies, 3 shuffles (loads: 1) and 2 ALU operations (pointwiseIFMA:
// 14 vector instructions), with mu and 2^52 - q in registers.
func (m *mulState) pointwiseIFMA2(fp, gp reg.Register, off int, shuffle bool) reg.VecVirtual {
	g := m.g
	a := g.load(operand.Mem{Base: fp, Disp: off})
	ao, p, po := g.vec(), g.vec(), g.vec()
	if shuffle {
		bo := g.vec()
		VPSHUFD(operand.Imm(0xF5), a, ao)
		VPSHUFD(operand.Imm(0xF5), operand.Mem{Base: gp, Disp: off}, bo)
		VPMULUDQ(bo, ao, po)
	} else {
		VMOVDQU64(operand.Mem{Base: fp, Disp: off + 4}, ao)
		VPMULUDQ(operand.Mem{Base: gp, Disp: off + 4}, ao, po)
	}
	VPMULUDQ(operand.Mem{Base: gp, Disp: off}, a, p)
	for _, x := range []reg.VecVirtual{p, po} {
		// zero t by a zero idiom with a live source (the same register as
		// both sources), which the register allocator sees as a pure write
		t := g.vec()
		VPXORQ(m.mu, m.mu, t)
		VPMADD52HUQ(m.mu, x, t)
		VPMADD52LUQ(m.negq, t, x)
	}
	VPSHUFD(operand.Imm(0xA0), po, g.kmask(0xAAAA, 32), p)
	t := g.vec()
	VPSUBD(g.q, p, t)
	VPMINUD(t, p, p)
	return p
}
