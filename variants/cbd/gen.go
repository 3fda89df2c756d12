package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// A gen emits one function of a tier.
type gen struct{ vecgen.Gen }

// q is ML-KEM's modulus, qDSA ML-DSA's.
const (
	q    = 3329
	qDSA = 8380417
)

// canonWords adds q to the negative 16-bit lanes of w.
func (g *gen) canonWords(w reg.VecVirtual) {
	m := g.ISA.Vec()
	VPSRAW(operand.U8(15), w, m)
	g.ISA.AndD(g.Splat(q<<16|q), m, m)
	VPADDW(m, w, w)
}

// pairToWords turns 32-bit lanes holding a pair of coefficients biased by
// 3, (a + 3) | (b + 3)<<16, into canonical int16 pairs.
func (g *gen) pairToWords(w reg.VecVirtual) {
	VPSUBW(g.Splat(3<<16|3), w, w)
	g.canonWords(w)
}

// buildCBD2 emits mlkem.cbd2: per input byte b (zero-extended to a dword
// lane), the bit-pair sums s = (b & 0x55) + (b>>1 & 0x55), then
// d = (s & 0x33) + 0x33 − (s>>2 & 0x33), whose nibbles are 3 + x − y for
// the byte's two coefficients; the low nibble goes to the low word, the
// high one to the high word.
func buildCBD2(g *gen, u int) {
	f, b := vecgen.Ptr("f"), vecgen.Ptr("b")
	lanes := g.ISA.Lanes(32)
	vecgen.Loop("loop", 128/(lanes*u), u, func(i int) {
		x, t := g.ISA.Vec(), g.ISA.Vec()
		src := operand.Mem{Base: b, Disp: i * lanes}
		VPMOVZXBD(src, x)
		VPSRLD(operand.U8(1), x, t)
		g.ISA.AndD(g.Splat(0x55), t, t)
		g.ISA.AndD(g.Splat(0x55), x, x)
		VPADDD(t, x, x)
		VPSRLD(operand.U8(2), x, t)
		g.ISA.AndD(g.Splat(0x33), t, t)
		g.ISA.AndD(g.Splat(0x33), x, x)
		VPADDD(g.Splat(0x33), x, x)
		VPSUBD(t, x, x)
		VPSLLD(operand.U8(12), x, t)
		g.ISA.AndD(g.Splat(0xf0000), t, t)
		g.ISA.AndD(g.Splat(0x0f), x, x)
		g.ISA.OrD(t, x, x)
		g.pairToWords(x)
		g.ISA.Store(x, operand.Mem{Base: f, Disp: i * g.ISA.Bytes})
	}, vecgen.Stride(f, u*g.ISA.Bytes), vecgen.Stride(b, u*lanes))
	vecgen.End()
}

// buildCBD3 emits mlkem.cbd3: per pair of coefficients its 12 bits
// (bytes ⌊1.5m⌋ and the next, shifted by 4 for odd m) in a dword lane,
// the sums of bit triples f = Σ_k (x>>k & 0x249), the four fields spread
// to both words (f | f<<10) and each coefficient 3 + x − y of its two
// fields.
func buildCBD3(g *gen, u int) {
	f, b := vecgen.Ptr("f"), vecgen.Ptr("b")
	lanes := g.ISA.Lanes(32)
	in := lanes * 3 / 2 // input bytes per vector
	var idx reg.VecVirtual
	if g.ISA.EVEX() {
		var p []byte
		for m := range lanes {
			lo := byte(3 * m / 2)
			p = append(p, lo, lo+1, lo+1, lo+1)
		}
		idx = ZMM()
		VMOVDQU32(g.Consts.Bytes(p), idx)
	}
	var shuf []byte
	for lane := range 2 {
		for i := range 4 {
			lo := byte(3 * (4*lane + i) / 2)
			shuf = append(shuf, lo, lo+1, 0x80, 0x80)
		}
	}
	full := K()
	if g.ISA.EVEX() {
		m := GP64()
		MOVQ(operand.U64(1<<in-1), m)
		KMOVQ(m, full)
	}
	vecgen.Loop("loop", 192/(in*u), u, func(i int) {
		x, t, s := g.ISA.Vec(), g.ISA.Vec(), g.ISA.Vec()
		src := operand.Mem{Base: b, Disp: i * in}
		if g.ISA.EVEX() {
			VMOVDQU8_Z(src, full, x)
			VPERMB(x, idx, x)
		} else {
			lo := XMM()
			VMOVQ(src, lo)
			VPINSRD(operand.U8(2), operand.Mem{Base: b, Disp: i*in + 8}, lo, lo)
			VINSERTI128(operand.U8(1), lo, lo.AsY(), x)
			VPSHUFB(g.Consts.Bytes(shuf), x, x)
		}
		VPSRLVD(g.Lanes32(0, 4), x, x)
		g.ISA.AndD(g.Splat(0x249), x, s)
		VPSRLD(operand.U8(1), x, t)
		g.ISA.AndD(g.Splat(0x249), t, t)
		VPADDD(t, s, s)
		VPSRLD(operand.U8(2), x, t)
		g.ISA.AndD(g.Splat(0x249), t, t)
		VPADDD(t, s, s)
		VPSLLD(operand.U8(10), s, t)
		g.ISA.OrD(t, s, s)
		VPSRLD(operand.U8(3), s, t)
		g.ISA.AndD(g.Splat(0x00070007), s, s)
		g.ISA.AndD(g.Splat(0x00070007), t, t)
		VPADDD(g.Splat(0x00030003), s, s)
		VPSUBD(t, s, s)
		g.pairToWords(s)
		g.ISA.Store(s, operand.Mem{Base: f, Disp: i * g.ISA.Bytes})
	}, vecgen.Stride(f, u*g.ISA.Bytes), vecgen.Stride(b, u*in))
	vecgen.End()
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

// A zloader holds what loading the fields of one vector of expandmask's
// input into dwords takes: on AVX-512 the VPERMB index and the opmask of
// the vector's input bytes; on AVX2 the VPSHUFB pattern of two 16-byte
// loads.
type zloader struct {
	idx  reg.VecVirtual
	lm   reg.Register
	shuf operand.Mem
}

// zloader sets up the loads of form z's fields, in input bytes per
// vector.
func (g *gen) zloader(z zform, in int) zloader {
	var zl zloader
	if !g.ISA.EVEX() {
		var shuf []byte
		for lane := range 2 {
			for i := range 4 {
				o, _ := z.field(4*lane + i)
				o -= byte(lane * z.hi)
				shuf = append(shuf, o, o+1, o+2, 0x80)
			}
		}
		zl.shuf = g.Consts.Bytes(shuf)
		return zl
	}
	var p []byte
	for k := range g.ISA.Lanes(32) {
		o, _ := z.field(k)
		p = append(p, o, o+1, o+2, o+2)
	}
	zl.idx = ZMM()
	VMOVDQU32(g.Consts.Bytes(p), zl.idx)
	zl.lm = K()
	m := GP64()
	MOVQ(operand.U64(1<<in-1), m)
	KMOVQ(m, zl.lm)
	return zl
}

// zload returns a fresh vector holding in its dwords the three bytes
// from which each field of the vector at src is shifted (see zloader).
func (g *gen) zload(zl zloader, z zform, src operand.Mem) reg.VecVirtual {
	x := g.ISA.Vec()
	if g.ISA.EVEX() {
		VMOVDQU8_Z(src, zl.lm, x)
		VPERMB(x, zl.idx, x)
	} else {
		VMOVDQU(src, x.AsX())
		VINSERTI128(operand.U8(1), src.Offset(z.hi), x, x)
		VPSHUFB(zl.shuf, x, x)
	}
	return x
}

// buildExpandMask emits mldsa.expandmask: one loop per field width,
// chosen by the bits parameter (public).
func buildExpandMask(g *gen, u int) {
	y, yh, b := vecgen.Ptr("y"), vecgen.Ptr("yHat"), GP64()
	Load(Param("b").Base(), b)
	bits := GP64()
	Load(Param("bits"), bits)
	lanes := g.ISA.Lanes(32)
	for zi, z := range zforms {
		if zi == 0 {
			CMPQ(bits, operand.U32(18))
			JEQ(operand.LabelRef("z18"))
		} else {
			Label("z18")
		}
		in := lanes * z.bits / 8 // input bytes per vector
		zl := g.zloader(z, in)
		var sh []uint32
		for k := range lanes {
			_, s := z.field(k)
			sh = append(sh, s)
		}
		label := "loop"
		if zi == 1 {
			label = "loop18"
		}
		vecgen.Loop(label, 256/(lanes*u), u, func(i int) {
			x := g.zload(zl, z, operand.Mem{Base: b, Disp: i * in})
			VPSRLVD(g.Lanes32(sh...), x, x)
			g.ISA.AndD(g.Splat(1<<z.bits-1), x, x)
			v := g.ISA.Load(g.Splat(z.gamma))
			VPSUBD(x, v, v) // γ1 − field
			g.ISA.Store(v, operand.Mem{Base: y, Disp: i * g.ISA.Bytes})
			m := g.ISA.Vec()
			VPSRAD(operand.U8(31), v, m)
			g.ISA.AndD(g.Splat(qDSA), m, m)
			VPADDD(m, v, v)
			g.ISA.Store(v, operand.Mem{Base: yh, Disp: i * g.ISA.Bytes})
		}, vecgen.Stride(y, u*g.ISA.Bytes), vecgen.Stride(yh, u*g.ISA.Bytes), vecgen.Stride(b, u*in))
		if zi == 0 {
			JMP(operand.LabelRef("done"))
		}
	}
	Label("done")
	vecgen.End()
}
