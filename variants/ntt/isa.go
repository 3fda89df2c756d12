package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// An isa is a vector width and instruction set.
type isa struct {
	name  string // knob value: "avx2" (ymm), "avx512vl" (ymm, EVEX) or "avx512" (zmm)
	bytes int    // vector size in bytes
	regs  int    // architectural vector registers
	evex  bool   // AVX-512 encodings: opmasks, VPERMI2*, VPBLENDM*, Y16-Y31/Z0-Z31
}

var (
	avx2     = &isa{name: "avx2", bytes: 32, regs: 16}
	avx512vl = &isa{name: "avx512vl", bytes: 32, regs: 32, evex: true}
	avx512   = &isa{name: "avx512", bytes: 64, regs: 32, evex: true}
)

// zmm reports whether vectors are 512 bits wide.
func (s *isa) zmm() bool { return s.bytes == 64 }

// A gen emits code for one field and isa into the current avo function.
type gen struct {
	f        *field
	isa      *isa
	lanes    int // coefficients per vector
	laneBits int
	slots    int // vectors per polynomial
	consts   *consts
	q        reg.VecVirtual // q in every lane
	masks    map[uint64]reg.OpmaskVirtual
	// idx caches permute index vectors in registers, keyed by their
	// address (each constant is its own symbol, so the whole operand);
	// idxBudget is how many registers may be spent on them.
	idx       map[operand.Mem]reg.VecVirtual
	idxBudget int
}

func newGen(f *field, s *isa, c *consts) *gen {
	g := &gen{f: f, isa: s, consts: c}
	g.lanes = s.bytes * 8 / f.ebits
	g.laneBits = trailing(g.lanes)
	g.slots = 256 / g.lanes
	return g
}

func (g *gen) vec() reg.VecVirtual {
	if g.isa.zmm() {
		return ZMM()
	}
	return YMM()
}

// load returns a fresh register holding m.
func (g *gen) load(m operand.Mem) reg.VecVirtual {
	r := g.vec()
	if g.isa.evex {
		VMOVDQU64(m, r)
	} else {
		VMOVDQU(m, r)
	}
	return r
}

func (g *gen) store(r reg.VecVirtual, m operand.Mem) {
	if g.isa.evex {
		VMOVDQU64(r, m)
	} else {
		VMOVDQU(r, m)
	}
}

// splat returns the constant-table address of a vector with c in every lane.
func (g *gen) splat(c int64) operand.Mem {
	v := make([]int64, g.lanes)
	for i := range v {
		v[i] = c
	}
	return g.consts.vector(v, g.f.ebits, g.isa.bytes)
}

// splat64 returns the constant-table address of a vector with the 64-bit
// value c in every qword.
func (g *gen) splat64(c int64) operand.Mem {
	v := make([]int64, g.lanes)
	for i := 0; i < len(v); i += 2 {
		v[i], v[i+1] = c&0xffffffff, c>>32
	}
	return g.consts.vector(v, 32, g.isa.bytes)
}

// setup loads q and, for AVX-512 with 32-bit lanes, the even-lane mask.
func (g *gen) setup() {
	g.q = g.load(g.splat(g.f.q))
	g.masks = map[uint64]reg.OpmaskVirtual{}
	g.idx = map[operand.Mem]reg.VecVirtual{}
	g.idxBudget = 0
}

// kmask returns an opmask register holding m for lanes of ebits bits,
// loaded once per function.
func (g *gen) kmask(m uint64, ebits int) reg.OpmaskVirtual {
	if k, ok := g.masks[m]; ok {
		return k
	}
	k := K()
	t := GP32()
	MOVL(operand.U32(m), t)
	if ebits == 32 {
		KMOVW(t, k)
	} else {
		KMOVD(t, k)
	}
	g.masks[m] = k
	return k
}

func (g *gen) add(a, b, dst reg.VecVirtual) {
	if g.f.ebits == 16 {
		VPADDW(b, a, dst)
	} else {
		VPADDD(b, a, dst)
	}
}

// sub computes dst = a - b.
func (g *gen) sub(a, b, dst reg.VecVirtual) {
	if g.f.ebits == 16 {
		VPSUBW(b, a, dst)
	} else {
		VPSUBD(b, a, dst)
	}
}

func (g *gen) sra(n uint64, a, dst reg.VecVirtual) {
	if g.f.ebits == 16 {
		VPSRAW(operand.Imm(n), a, dst)
	} else {
		VPSRAD(operand.Imm(n), a, dst)
	}
}

// A mulConst is a constant multiplier per lane in Montgomery use: w is the
// raw multiplier (the result is a·w·R⁻¹), wq = w·q⁻¹ mod R. For 32-bit
// lanes the odd forms hold the odd lanes' values in the even positions.
type mulConst struct {
	w, wq, wOdd, wqOdd operand.Mem
	max                int64 // largest |w|
}

// mulConstOf places the multiplier vector w (one value per lane) in the
// constant table.
func (g *gen) mulConstOf(w []int64) mulConst {
	f := g.f
	wq := make([]int64, len(w))
	var mc mulConst
	for i, x := range w {
		wq[i] = f.signed(x * f.qinv())
		mc.max = max(mc.max, x, -x)
	}
	mc.w = g.consts.vector(w, f.ebits, g.isa.bytes)
	mc.wq = g.consts.vector(wq, f.ebits, g.isa.bytes)
	if f.ebits == 32 {
		mc.wOdd = g.consts.vector(oddDown(w), f.ebits, g.isa.bytes)
		mc.wqOdd = g.consts.vector(oddDown(wq), f.ebits, g.isa.bytes)
	}
	return mc
}

// oddDown moves each odd lane's value into the even lane below it.
func oddDown(v []int64) []int64 {
	out := make([]int64, len(v))
	for i := 0; i < len(v); i += 2 {
		out[i], out[i+1] = v[i+1], v[i+1]
	}
	return out
}

// montMul returns a·w·R⁻¹ mod q in (-q, q) (Montgomery multiplication by a
// constant): hi(a·w) - hi(q·lo(a·wq)), exact because the low halves agree.
func (g *gen) montMul(a reg.VecVirtual, c mulConst) reg.VecVirtual {
	if g.f.ebits == 16 {
		lo, hi := g.vec(), g.vec()
		VPMULLW(c.wq, a, lo)
		VPMULHW(c.w, a, hi)
		VPMULHW(g.q, lo, lo)
		VPSUBW(lo, hi, hi)
		return hi
	}
	// m = lo32(a·wq) for all lanes with one VPMULLD; the odd lanes of a
	// and m are moved down for the VPMULDQs of the odd products.
	ao, me, mo, he := g.vec(), g.vec(), g.vec(), g.vec()
	VPSRLQ(operand.Imm(32), a, ao)
	VPMULLD(c.wq, a, me)
	VPMULDQ(c.w, a, he)
	VPMULDQ(c.wOdd, ao, ao)
	VPSRLQ(operand.Imm(32), me, mo)
	return g.montFinish32(me, mo, he, ao)
}

// montFinish32 completes 32-bit Montgomery products from the even and odd
// m = lo(a·wq) and h = a·w: r = (h - m·q)/2^32, recombined into one vector.
func (g *gen) montFinish32(me, mo, he, ho reg.VecVirtual) reg.VecVirtual {
	VPMULDQ(g.q, me, me)
	VPMULDQ(g.q, mo, mo)
	VPSUBQ(me, he, he)
	VPSUBQ(mo, ho, ho)
	if g.isa.evex {
		VMOVSHDUP(he, g.kmask(0x5555, 32), ho)
		return ho
	}
	VMOVSHDUP(he, he)
	VPBLENDD(operand.Imm(0xAA), ho, he, he)
	return he
}

// reduce is the Barrett-style reduction x - round(x/q)·q: for 16 bits
// t = ((x·20159) >> 16) >> 10, for 32 bits t = (x + 2^22) >> 23.
func (g *gen) reduce(x reg.VecVirtual) {
	t := g.vec()
	if g.f.ebits == 16 {
		VPMULHW(g.splat(20159), x, t)
		VPSRAW(operand.Imm(10), t, t)
		VPMULLW(g.q, t, t)
		VPSUBW(t, x, x)
		return
	}
	VPADDD(g.splat(1<<22), x, t)
	VPSRAD(operand.Imm(23), t, t)
	VPMULLD(g.q, t, t)
	VPSUBD(t, x, x)
}

// condAddQ adds q to the negative lanes of x: x += q & (x >> (ebits-1)).
func (g *gen) condAddQ(x reg.VecVirtual) {
	t := g.vec()
	g.sra(uint64(g.f.ebits-1), x, t)
	if g.isa.evex {
		VPANDD(g.q, t, t)
	} else {
		VPAND(g.q, t, t)
	}
	g.add(x, t, x)
}

// subtractChain brings 16-bit lanes with bounds b into [0, q) without
// multiplications: add a multiple of q to make them non-negative, then
// conditionally subtract 2^k·q for k = K..0 as unsigned minimum
// x = min(x, x - 2^k·q) (a lane below 2^k·q wraps and keeps x). It applies
// when the shifted range fits below 2^16.
func (g *gen) subtractChain(x reg.VecVirtual, b interval) bool {
	q := g.f.q
	c := int64(0)
	if b.lo < 0 {
		c = (-b.lo + q - 1) / q * q
	}
	hi := b.hi + c
	if hi >= 1<<16 {
		return false
	}
	if c != 0 {
		VPADDW(g.q16(c), x, x)
	}
	k := int64(1)
	for k*2*q <= hi {
		k *= 2
	}
	t := g.vec()
	for ; k >= 1; k /= 2 {
		VPSUBW(g.q16(k*q), x, t)
		VPMINUW(t, x, x)
	}
	return true
}

// q16 returns a splatted 16-bit constant as a memory operand.
func (g *gen) q16(c int64) operand.Mem { return g.splat(g.f.signed(c)) }

// canonical brings x with bounds b into [0, q) with as few steps as the
// bounds allow; byMin takes the last correction by an unsigned minimum
// (canonMin).
func (g *gen) canonical(x reg.VecVirtual, b interval, barrett, byMin bool) {
	q := g.f.q
	if barrett && g.f.ebits == 16 && (b.lo < 0 || b.hi >= 2*q) {
		// one Barrett reduction to [0, q], then the subtraction chain
		// finishes with one unsigned minimum
		g.reduce(x)
		b = g.f.reduceBound(b)
	}
	for {
		if byMin && g.canonMin(x, b) {
			return
		}
		switch {
		case b.lo >= 0 && b.hi < q:
			return
		case b.lo > -q && b.hi < q:
			g.condAddQ(x)
			return
		case b.lo >= 0 && b.hi < 2*q && g.f.ebits != 16:
			// (16-bit lanes take subtractChain's one unsigned minimum)
			g.sub(x, g.q, x)
			g.condAddQ(x)
			return
		}
		if g.f.ebits == 16 && g.subtractChain(x, b) {
			return
		}
		g.reduce(x)
		nb := g.f.reduceBound(b)
		if nb == b {
			panic(fmt.Sprintf("reduction makes no progress on %v", b))
		}
		b = nb
	}
}
