package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// A vecGen emits one vector variant. The accumulator is split over the
// lanes: lane q holds a partial sum of the blocks order[q], order[q]+L, ...
// of every L-block vector. Per loop iteration of u = blocks/L vectors
// m_0..m_{u-1} it computes acc = acc·r^(L·u) + Σ_k m_k·r^(L·(u-1-k)), all
// products summed before one carry pass. The first iteration is peeled: it
// adds the incoming h to lane 0 of m_0 instead of multiplying acc. The
// epilogue multiplies lane q by r^(L-order[q]), sums the lanes and
// converts the result to the canonical radix 2^64 form.
//
// The power table (pw) holds u+1 entries of nl limbs of r^e followed by
// the ns multiples of its upper limbs by 2^(limbs·radix-130)·5, each limb
// one vector: entry 0 = r^(L·u) and entry k = r^(L·(u-k)) in every lane,
// entry u = r^(L-order[q]) in lane q (pow=mem). With pow=reg the table is
// compact (see loadPowers) and entries 0..u-1 live in registers.
type vecGen struct {
	s      *spec
	zmm    bool // 8 lanes in zmm, else 4 in ymm
	evex   bool // AVX-512 encodings (registers 16-31 usable)
	nl, ns int  // limbs and wrap-around multiples per power
	tab    GPVirtual
	mp     GPVirtual
	acc    []VecVirtual
	mask   VecVirtual // limb mask (2^26-1 or 2^44-1)
	hib    VecVirtual // pad bit 2^128 in the top limb
	mask42 VecVirtual // IFMA only: 2^42-1
	regs   [][]Op     // pow=reg: power components held in registers, by entry
	masked bool       // tail=vector: the first iteration is front-padded
	fm     GPVirtual  // tail=vector: pointer to the first iteration's masks
}

// consts is the read-only constant table shared by all variants.
var consts Mem

const (
	cMask26 = 0
	cHib26  = 8
	cMask44 = 16
	cMask42 = 24
	cHib44  = 32
	cHib26V = 64 // 2^24 in four lanes: a 256-bit memory operand (sched=late, addLoose)
)

func declareConsts() {
	if consts.Symbol.Name != "" {
		return
	}
	consts = GLOBL("p1305consts", RODATA|NOPTR)
	DATA(cMask26, U64(1<<26-1))
	DATA(cHib26, U64(1<<24))
	DATA(cMask44, U64(1<<44-1))
	DATA(cMask42, U64(1<<42-1))
	DATA(cHib44, U64(1<<40))
	for q := 0; q < 4; q++ {
		DATA(cHib26V+8*q, U64(1<<24))
	}
}

// textVector starts the block function of vector variant s (TEXT, doc
// comment, noescape pragma): its signature has the padding parameters
// where masked (tail=vector).
func textVector(s *spec, masked bool) {
	if masked {
		TEXT(s.fn(), NOSPLIT, "func(h *[3]uint64, pw *uint64, m []byte, pad int, fm *[8]uint16)")
		Doc("Poly1305 blocks, variant "+s.name()+"; len(m) is a non-zero multiple of 16, len(m)/16 + pad",
			"a multiple of the blocks per iteration: the first iteration reads pad virtual zero blocks",
			"before m (masked loads, no pad bit) with the masks fm (see maskedLimbs).")
	} else if s.tail == "vec4" {
		TEXT(s.fn(), NOSPLIT, "func(h *[3]uint64, pw *uint64, m []byte)")
		Doc("Poly1305 blocks, variant "+s.name()+"; len(m) is a multiple of 64 of at least the blocks",
			"per iteration times 16: whole iterations, then one 4-block vector at a time (tailStep).")
	} else {
		TEXT(s.fn(), NOSPLIT, "func(h *[3]uint64, pw *uint64, m []byte)")
		Doc("Poly1305 blocks, variant " + s.name() + "; len(m) is a non-zero multiple of the blocks per iteration times 16.")
	}
	Pragma("noescape")
}

// genVector emits the block function of vector variant s: the peeled
// first iteration taking in h, the loop over whole iterations (then
// single vectors, tail=vec4) and the final fold of the lanes into h.
func genVector(s *spec) {
	declareConsts()
	g := &vecGen{s: s, zmm: s.lanes == 8, evex: s.isa != "avx2", masked: s.tail == "vector"}
	textVector(s, g.masked)
	if s.radix == 26 {
		g.nl, g.ns = 5, 4
	} else {
		g.nl, g.ns = 3, 2
	}
	hp := GP64()
	Load(Param("h"), hp)
	g.tab = GP64()
	Load(Param("pw"), g.tab)
	g.mp = GP64()
	Load(Param("m").Base(), g.mp)
	n := GP64()
	Load(Param("m").Len(), n)
	if g.masked {
		Comment("start pad blocks before m; the masks keep those bytes unread")
		pad := GP64()
		Load(Param("pad"), pad)
		SHLQ(U8(4), pad)
		SUBQ(pad, g.mp)
		ADDQ(pad, n)
		g.fm = GP64()
		Load(Param("fm"), g.fm)
	}
	g.loadConsts()
	if s.pow == "reg" {
		for e := 0; e < s.unroll(); e++ {
			g.loadPowers(e)
		}
	}
	for i := 0; i < g.nl; i++ {
		g.acc = append(g.acc, g.vec())
	}
	hv := g.hIn(hp)
	chunk := U32(16 * s.blocks)
	Comment("first iteration: acc = (m_0 + h)·r^(L·(u-1)) + ... + m_{u-1}")
	g.body(hv)
	ADDQ(chunk, g.mp)
	SUBQ(chunk, n)
	if s.tail == "vec4" {
		g.loopThenSteps(n, chunk)
	} else {
		JZ(LabelRef("final"))
		s.align.Emit()
		Label("loop")
		g.body(nil)
		ADDQ(chunk, g.mp)
		SUBQ(chunk, n)
		JNZ(LabelRef("loop"))
	}
	Label("final")
	g.final(hp)
	VZEROUPPER()
	RET()
}

// loopThenSteps (tail=vec4) emits the loop over the n bytes left after
// the first iteration while a whole iteration remains, then one
// 4-block vector at a time (tailStep) until none is left.
func (g *vecGen) loopThenSteps(n GPVirtual, chunk U32) {
	CMPQ(n, chunk)
	JB(LabelRef("steps"))
	g.s.align.Emit()
	Label("loop")
	g.body(nil)
	ADDQ(chunk, g.mp)
	SUBQ(chunk, n)
	CMPQ(n, chunk)
	JAE(LabelRef("loop"))
	Label("steps")
	TESTQ(n, n)
	JZ(LabelRef("final"))
	Label("step")
	g.tailStep()
	ADDQ(U8(64), g.mp)
	SUBQ(U8(64), n)
	JNZ(LabelRef("step"))
}

func (g *vecGen) vec() VecVirtual {
	if g.zmm {
		return ZMM()
	}
	return YMM()
}

func (g *vecGen) loadConsts() {
	g.mask, g.hib = g.vec(), g.vec()
	if g.s.radix == 26 {
		VPBROADCASTQ(consts.Offset(cMask26), g.mask)
		VPBROADCASTQ(consts.Offset(cHib26), g.hib)
		return
	}
	g.mask42 = g.vec()
	VPBROADCASTQ(consts.Offset(cMask44), g.mask)
	VPBROADCASTQ(consts.Offset(cHib44), g.hib)
	VPBROADCASTQ(consts.Offset(cMask42), g.mask42)
}

// power returns limb c (0..nl-1: r_c; nl..: the wrap multiple of limb
// c-nl+1) of power entry e: a register (pow=reg, loaded by loadPowers) or
// the table in memory (pow=mem).
func (g *vecGen) power(e, c int) Op {
	if g.s.pow == "reg" {
		return g.regs[e][c]
	}
	return Mem{Base: g.tab, Disp: (e*(g.nl+g.ns) + c) * g.s.lanes * 8}
}

// loadPowers (pow=reg) reads the compact table: entry e < u as nl words
// at 8·(e·nl + c), broadcast to every lane, with the wrap multiples
// computed here; the lane powers of entry u as nl vectors at
// 8·(u·nl + c·L), read by the epilogue. Only radix 2^44 uses it.
func (g *vecGen) loadPowers(e int) {
	u, L := g.s.unroll(), g.s.lanes
	var comps []Op
	for c := 0; c < g.nl; c++ {
		v := g.vec()
		if e < u {
			VPBROADCASTQ(Mem{Base: g.tab, Disp: 8 * (e*g.nl + c)}, v)
		} else {
			g.load(Mem{Base: g.tab, Disp: 8 * (u*g.nl + c*L)}, v)
		}
		comps = append(comps, v)
	}
	for c := 1; c < g.nl; c++ {
		comps = append(comps, g.times20(comps[c].(VecVirtual)))
	}
	for len(g.regs) <= e {
		g.regs = append(g.regs, nil)
	}
	g.regs[e] = comps
}

// times20 returns 20·x = 16x + 4x.
func (g *vecGen) times20(x VecVirtual) VecVirtual {
	a, b := g.vec(), g.vec()
	VPSLLQ(U8(4), x, a)
	VPSLLQ(U8(2), x, b)
	VPADDQ(b, a, a)
	return a
}

// coef is the table component multiplying limb j of a into limb i of a·r:
// r_{i-j} when i >= j, else the wrap multiple of r_{i-j+nl}.
func (g *vecGen) coef(i, j int) int {
	if i >= j {
		return i - j
	}
	return g.nl - 1 + (i - j + g.nl)
}

// Vector instruction spellings that differ between VEX (AVX2) and EVEX
// (AVX-512, also needed for ymm registers 16-31).
func (g *vecGen) and(a, b, dst Op) {
	if g.evex {
		VPANDQ(a, b, dst)
	} else {
		VPAND(a, b, dst)
	}
}

func (g *vecGen) or(a, b, dst Op) {
	if g.evex {
		VPORQ(a, b, dst)
	} else {
		VPOR(a, b, dst)
	}
}

func (g *vecGen) load(m Mem, dst Op) {
	if g.evex {
		VMOVDQU64(m, dst)
	} else {
		VMOVDQU(m, dst)
	}
}

// hIn converts the canonical h (three words at hp) to limbs in lane 0 of
// fresh vectors, the other lanes zero.
func (g *vecGen) hIn(hp GPVirtual) []VecVirtual {
	Comment("h (radix 2^64) -> limbs in lane 0")
	h0, h1, h2 := GP64(), GP64(), GP64()
	MOVQ(Mem{Base: hp}, h0)
	MOVQ(Mem{Base: hp, Disp: 8}, h1)
	MOVQ(Mem{Base: hp, Disp: 16}, h2)
	var limbs []GPVirtual
	if g.s.radix == 26 {
		limbs = splitWords26(h0, h1, h2)
	} else {
		limbs = splitWords44(h0, h1, h2)
	}
	var out []VecVirtual
	for _, l := range limbs {
		v := g.vec()
		if g.masked {
			VPBROADCASTQ(l, v) // added under a one-lane mask
		} else {
			VMOVQ(l, v.AsX())
		}
		out = append(out, v)
	}
	return out
}

// field returns the bits [lo, lo+width) of the 192-bit (w0, w1, w2) as a
// new register (width < 64).
func field(w []GPVirtual, lo, width int) GPVirtual {
	r := GP64()
	k, sh := lo/64, lo%64
	MOVQ(w[k], r)
	if sh != 0 {
		SHRQ(U8(sh), r)
		if sh+width > 64 {
			t := GP64()
			MOVQ(w[k+1], t)
			SHLQ(U8(64-sh), t)
			ORQ(t, r)
		}
	}
	if width < 64 {
		m := GP64()
		MOVQ(U64(1<<width-1), m)
		ANDQ(m, r)
	}
	return r
}

// splitWords26 returns h as limbs of 26 bits, the top limb holding h >> 104.
func splitWords26(h0, h1, h2 GPVirtual) []GPVirtual {
	w := []GPVirtual{h0, h1, h2}
	out := []GPVirtual{field(w, 0, 26), field(w, 26, 26), field(w, 52, 26), field(w, 78, 26)}
	return append(out, topBits(h1, h2, 40))
}

// splitWords44 returns h as limbs of 44 bits, the top limb holding h >> 88.
func splitWords44(h0, h1, h2 GPVirtual) []GPVirtual {
	w := []GPVirtual{h0, h1, h2}
	return []GPVirtual{field(w, 0, 44), field(w, 44, 44), topBits(h1, h2, 24)}
}

// topBits returns (h1 >> sh) | (h2 << (64-sh)), all of h from bit 64+sh.
func topBits(h1, h2 GPVirtual, sh int) GPVirtual {
	r, t := GP64(), GP64()
	MOVQ(h1, r)
	SHRQ(U8(sh), r)
	MOVQ(h2, t)
	SHLQ(U8(64-sh), t)
	ORQ(t, r)
	return r
}

// msgLimbs loads message vector k of the current iteration (L blocks) and
// splits it into limbs with the pad bit set; hv, when non-nil, is added.
// In the first iteration of a tail=vector variant (hv non-nil) it defers
// to maskedLimbs.
func (g *vecGen) msgLimbs(k int, hv []VecVirtual) []VecVirtual {
	if g.masked && hv != nil {
		return g.maskedLimbs(k, hv)
	}
	Commentf("message vector %d -> limbs", k)
	half := g.s.lanes * 8
	a, b, lo, hi := g.vec(), g.vec(), g.vec(), g.vec()
	g.load(Mem{Base: g.mp, Disp: k * 2 * half}, a)
	g.load(Mem{Base: g.mp, Disp: k*2*half + half}, b)
	VPUNPCKLQDQ(b, a, lo)
	VPUNPCKHQDQ(b, a, hi)
	var m []VecVirtual
	if g.s.radix == 26 {
		m = g.split26(lo, hi)
	} else {
		m = g.split44(lo, hi)
	}
	for i := range hv {
		VPADDQ(hv[i], m[i], m[i])
	}
	return m
}

// maskedLimbs is msgLimbs for the front-padded first iteration (radix
// 2^44): the 16-bit words fm[4k..4k+3] are the qword masks of the two
// loads (blocks at or after the padding), the lanes that get the pad bit,
// and the one lane (if any, in this vector) where the block at the padding
// boundary sits, which gets the incoming h (hv, broadcast).
func (g *vecGen) maskedLimbs(k int, hv []VecVirtual) []VecVirtual {
	Commentf("message vector %d of the padded first iteration -> limbs", k)
	var ks [4]OpmaskVirtual
	for i := range ks {
		ks[i] = K()
		KMOVW(Mem{Base: g.fm, Disp: 2 * (4*k + i)}, ks[i])
	}
	half := g.s.lanes * 8
	a, b, lo, hi := g.vec(), g.vec(), g.vec(), g.vec()
	VMOVDQU64_Z(Mem{Base: g.mp, Disp: k * 2 * half}, ks[0], a)
	VMOVDQU64_Z(Mem{Base: g.mp, Disp: k*2*half + half}, ks[1], b)
	VPUNPCKLQDQ(b, a, lo)
	VPUNPCKHQDQ(b, a, hi)
	m0 := g.shrAnd(lo, 0, g.mask)
	m1 := g.funnel(lo, hi, 44)
	m2 := g.vec()
	VPSRLQ(U8(24), hi, m2)
	VPORQ(g.hib, m2, ks[2], m2)
	m := []VecVirtual{m0, m1, m2}
	for i := range hv {
		VPADDQ(hv[i], m[i], ks[3], m[i])
	}
	return m
}

// shrAnd returns (x >> sh) & mask (sh may be 0).
func (g *vecGen) shrAnd(x VecVirtual, sh int, mask VecVirtual) VecVirtual {
	t := g.vec()
	if sh == 0 {
		g.and(mask, x, t)
		return t
	}
	VPSRLQ(U8(sh), x, t)
	g.and(mask, t, t)
	return t
}

// funnel returns (lo>>sh | hi<<(64−sh)) & mask: the limb that starts at
// bit sh of lo and ends in hi.
func (g *vecGen) funnel(lo, hi VecVirtual, sh int) VecVirtual {
	m, t := g.vec(), g.vec()
	VPSRLQ(U8(sh), lo, m)
	VPSLLQ(U8(64-sh), hi, t)
	g.or(t, m, m)
	g.and(g.mask, m, m)
	return m
}

// split26: m0 = lo, m1 = lo>>26, m2 = lo>>52 | hi<<12, m3 = hi>>14 (each
// masked to 26 bits), m4 = hi>>40 | 2^24.
func (g *vecGen) split26(lo, hi VecVirtual) []VecVirtual {
	m0 := g.shrAnd(lo, 0, g.mask)
	m1 := g.shrAnd(lo, 26, g.mask)
	m2 := g.funnel(lo, hi, 52)
	m3 := g.shrAnd(hi, 14, g.mask)
	m4 := g.vec()
	VPSRLQ(U8(40), hi, m4)
	g.or(g.hib, m4, m4)
	return []VecVirtual{m0, m1, m2, m3, m4}
}

// split44: m0 = lo, m1 = lo>>44 | hi<<20 (masked to 44 bits),
// m2 = hi>>24 | 2^40.
func (g *vecGen) split44(lo, hi VecVirtual) []VecVirtual {
	m0 := g.shrAnd(lo, 0, g.mask)
	m1 := g.funnel(lo, hi, 44)
	m2 := g.vec()
	VPSRLQ(U8(24), hi, m2)
	g.or(g.hib, m2, m2)
	return []VecVirtual{m0, m1, m2}
}

// body emits one iteration; hv non-nil marks the peeled first iteration.
func (g *vecGen) body(hv []VecVirtual) {
	if g.s.radix == 26 {
		g.body26(hv)
	} else {
		g.body44(hv)
	}
}
