package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// A gen emits one function of a tier.
type gen struct {
	isa *vecgen.ISA
	c   *vecgen.Consts
}

// q is ML-KEM's modulus, qDSA ML-DSA's.
const (
	q    = 3329
	qDSA = 8380417
)

// splat returns the address of a vector of the tier with the 32-bit
// value v in every lane.
func (g *gen) splat(v uint32) operand.Mem {
	lanes := make([]uint32, g.isa.Lanes(32))
	for i := range lanes {
		lanes[i] = v
	}
	return g.c.Lanes32(lanes...)
}

// lanes32 returns the address of a vector of the tier repeating the
// 32-bit lanes p.
func (g *gen) lanes32(p ...uint32) operand.Mem {
	lanes := make([]uint32, g.isa.Lanes(32))
	for i := range lanes {
		lanes[i] = p[i%len(p)]
	}
	return g.c.Lanes32(lanes...)
}

// and, or and friends pick the tier's encoding of the bitwise
// operations (VPANDD on zmm).
func (g *gen) and(m operand.Op, x, dst reg.VecVirtual) {
	if g.isa.EVEX() {
		VPANDD(m, x, dst)
	} else {
		VPAND(m, x, dst)
	}
}

func (g *gen) or(a, x, dst reg.VecVirtual) {
	if g.isa.EVEX() {
		VPORD(a, x, dst)
	} else {
		VPOR(a, x, dst)
	}
}

// canonWords adds q to the negative 16-bit lanes of w.
func (g *gen) canonWords(w reg.VecVirtual) {
	m := g.isa.Vec()
	VPSRAW(operand.U8(15), w, m)
	g.and(g.splat(q<<16|q), m, m)
	VPADDW(m, w, w)
}

// pairToWords turns 32-bit lanes holding a pair of coefficients biased by
// 3, (a + 3) | (b + 3)<<16, into canonical int16 pairs.
func (g *gen) pairToWords(w reg.VecVirtual) {
	VPSUBW(g.splat(3<<16|3), w, w)
	g.canonWords(w)
}

// loop emits a counted loop of trips iterations with the label "loop"
// (or label), body(u) for u < unroll each, then the pointer steps.
func loop(label string, trips, unroll int, body func(u int), steps ...step) {
	n := GP64()
	MOVQ(operand.U64(uint64(trips)), n)
	Label(label)
	for u := range unroll {
		body(u)
	}
	for _, s := range steps {
		ADDQ(operand.U32(uint64(s.n)), s.p)
	}
	DECQ(n)
	JNZ(operand.LabelRef(label))
}

// A step is a pointer and its advance per loop iteration.
type step struct {
	p reg.GPVirtual
	n int
}

// ptr loads a pointer parameter.
func ptr(name string) reg.GPVirtual {
	r := GP64()
	Load(Param(name), r)
	return r
}

// buildCBD2 emits mlkem.cbd2: per input byte b (zero-extended to a dword
// lane), the bit-pair sums s = (b & 0x55) + (b>>1 & 0x55), then
// d = (s & 0x33) + 0x33 − (s>>2 & 0x33), whose nibbles are 3 + x − y for
// the byte's two coefficients; the low nibble goes to the low word, the
// high one to the high word.
func buildCBD2(g *gen, u int) {
	f, b := ptr("f"), ptr("b")
	lanes := g.isa.Lanes(32)
	loop("loop", 128/(lanes*u), u, func(i int) {
		x, t := g.isa.Vec(), g.isa.Vec()
		src := operand.Mem{Base: b, Disp: i * lanes}
		VPMOVZXBD(src, x)
		VPSRLD(operand.U8(1), x, t)
		g.and(g.splat(0x55), t, t)
		g.and(g.splat(0x55), x, x)
		VPADDD(t, x, x)
		VPSRLD(operand.U8(2), x, t)
		g.and(g.splat(0x33), t, t)
		g.and(g.splat(0x33), x, x)
		VPADDD(g.splat(0x33), x, x)
		VPSUBD(t, x, x)
		VPSLLD(operand.U8(12), x, t)
		g.and(g.splat(0xf0000), t, t)
		g.and(g.splat(0x0f), x, x)
		g.or(t, x, x)
		g.pairToWords(x)
		g.isa.Store(x, operand.Mem{Base: f, Disp: i * g.isa.Bytes})
	}, step{f, u * g.isa.Bytes}, step{b, u * lanes})
	VZEROUPPER()
	RET()
}

// buildCBD3 emits mlkem.cbd3: per pair of coefficients its 12 bits
// (bytes ⌊1.5m⌋ and the next, shifted by 4 for odd m) in a dword lane,
// the sums of bit triples f = Σ_k (x>>k & 0x249), the four fields spread
// to both words (f | f<<10) and each coefficient 3 + x − y of its two
// fields.
func buildCBD3(g *gen, u int) {
	f, b := ptr("f"), ptr("b")
	lanes := g.isa.Lanes(32)
	in := lanes * 3 / 2 // input bytes per vector
	var idx reg.VecVirtual
	if g.isa.EVEX() {
		var p []byte
		for m := range lanes {
			lo := byte(3 * m / 2)
			p = append(p, lo, lo+1, lo+1, lo+1)
		}
		idx = ZMM()
		VMOVDQU32(g.c.Bytes(p), idx)
	}
	var shuf []byte
	for lane := range 2 {
		for i := range 4 {
			lo := byte(3 * (4*lane + i) / 2)
			shuf = append(shuf, lo, lo+1, 0x80, 0x80)
		}
	}
	full := K()
	if g.isa.EVEX() {
		m := GP64()
		MOVQ(operand.U64(1<<in-1), m)
		KMOVQ(m, full)
	}
	loop("loop", 192/(in*u), u, func(i int) {
		x, t, s := g.isa.Vec(), g.isa.Vec(), g.isa.Vec()
		src := operand.Mem{Base: b, Disp: i * in}
		if g.isa.EVEX() {
			VMOVDQU8_Z(src, full, x)
			VPERMB(x, idx, x)
		} else {
			lo := XMM()
			VMOVQ(src, lo)
			VPINSRD(operand.U8(2), operand.Mem{Base: b, Disp: i*in + 8}, lo, lo)
			VINSERTI128(operand.U8(1), lo, lo.AsY(), x)
			VPSHUFB(g.c.Bytes(shuf), x, x)
		}
		VPSRLVD(g.lanes32(0, 4), x, x)
		g.and(g.splat(0x249), x, s)
		VPSRLD(operand.U8(1), x, t)
		g.and(g.splat(0x249), t, t)
		VPADDD(t, s, s)
		VPSRLD(operand.U8(2), x, t)
		g.and(g.splat(0x249), t, t)
		VPADDD(t, s, s)
		VPSLLD(operand.U8(10), s, t)
		g.or(t, s, s)
		VPSRLD(operand.U8(3), s, t)
		g.and(g.splat(0x00070007), s, s)
		g.and(g.splat(0x00070007), t, t)
		VPADDD(g.splat(0x00030003), s, s)
		VPSUBD(t, s, s)
		g.pairToWords(s)
		g.isa.Store(s, operand.Mem{Base: f, Disp: i * g.isa.Bytes})
	}, step{f, u * g.isa.Bytes}, step{b, u * in})
	VZEROUPPER()
	RET()
}

// A zform is one field width of expandmask: bits per field, γ1, and per
// field in a group of eight (AVX2, two 16-byte loads, the second from
// offset hi) or sixteen (AVX-512) its first byte and bit shift.
type zform struct {
	bits  int
	gamma uint32
	hi    int // AVX2: byte offset of the second 16-byte load
}

var zforms = []zform{{bits: 20, gamma: 1 << 19, hi: 4}, {bits: 18, gamma: 1 << 17, hi: 2}}

// field returns the first byte and shift of field k.
func (z zform) field(k int) (byte, uint32) { return byte(z.bits * k / 8), uint32(z.bits * k % 8) }

// buildExpandMask emits mldsa.expandmask: one loop per field width,
// chosen by the bits parameter (public).
func buildExpandMask(g *gen, u int) {
	y, yh, b := ptr("y"), ptr("yHat"), GP64()
	Load(Param("b").Base(), b)
	bits := GP64()
	Load(Param("bits"), bits)
	lanes := g.isa.Lanes(32)
	for zi, z := range zforms {
		if zi == 0 {
			CMPQ(bits, operand.U32(18))
			JEQ(operand.LabelRef("z18"))
		} else {
			Label("z18")
		}
		in := lanes * z.bits / 8 // input bytes per vector
		var shuf []byte
		var idx reg.VecVirtual
		var lm reg.Register
		if g.isa.EVEX() {
			var p []byte
			for k := range lanes {
				o, _ := z.field(k)
				p = append(p, o, o+1, o+2, o+2)
			}
			idx = ZMM()
			VMOVDQU32(g.c.Bytes(p), idx)
			lm = K()
			m := GP64()
			MOVQ(operand.U64(1<<in-1), m)
			KMOVQ(m, lm)
		} else {
			for lane := range 2 {
				for i := range 4 {
					o, _ := z.field(4*lane + i)
					o -= byte(lane * z.hi)
					shuf = append(shuf, o, o+1, o+2, 0x80)
				}
			}
		}
		var sh []uint32
		for k := range lanes {
			_, s := z.field(k)
			sh = append(sh, s)
		}
		label := "loop"
		if zi == 1 {
			label = "loop18"
		}
		loop(label, 256/(lanes*u), u, func(i int) {
			x := g.isa.Vec()
			src := operand.Mem{Base: b, Disp: i * in}
			if g.isa.EVEX() {
				VMOVDQU8_Z(src, lm, x)
				VPERMB(x, idx, x)
			} else {
				VMOVDQU(src, x.AsX())
				VINSERTI128(operand.U8(1), operand.Mem{Base: b, Disp: i*in + z.hi}, x, x)
				VPSHUFB(g.c.Bytes(shuf), x, x)
			}
			VPSRLVD(g.c.Lanes32(sh...), x, x)
			g.and(g.splat(1<<z.bits-1), x, x)
			v := g.isa.Load(g.splat(z.gamma))
			VPSUBD(x, v, v) // γ1 − field
			g.isa.Store(v, operand.Mem{Base: y, Disp: i * g.isa.Bytes})
			m := g.isa.Vec()
			VPSRAD(operand.U8(31), v, m)
			g.and(g.splat(qDSA), m, m)
			VPADDD(m, v, v)
			g.isa.Store(v, operand.Mem{Base: yh, Disp: i * g.isa.Bytes})
		}, step{y, u * g.isa.Bytes}, step{yh, u * g.isa.Bytes}, step{b, u * in})
		if zi == 0 {
			JMP(operand.LabelRef("done"))
		}
	}
	Label("done")
	VZEROUPPER()
	RET()
}
