package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// perVec returns the coefficients a 16-bit-lane vector of the tier holds.
func (g *gen) perVec() int { return g.ISA.Lanes(16) }

// buildEncode12 emits mlkem.encode12: ByteEncode_12 of canonical f.
func buildEncode12(g *gen) {
	dst, f := ptr(Param("dst")), ptr(Param("f"))
	per := g.perVec()
	for i := 0; i < 256; i += per {
		x := g.ISA.Load(mem(f, 2*i))
		g.mergeLanes(x, 12)
		g.storePacked(x, mem(dst, i*12/8), 12)
	}
	vecgen.End()
}

// buildDecode12 emits mlkem.decode12: ByteDecode_12 into f and 1 if every
// coefficient is below q (else 0), from a running maximum.
func buildDecode12(g *gen) {
	f, src := ptr(Param("f")), ptr(Param("src"))
	acc := g.ISA.Vec()
	g.ISA.XorQ(acc, acc, acc)
	lanes := g.ISA.Lanes(32)
	for i := 0; i < 256; i += 2 * lanes {
		a := g.gather(src, i, 12, 384)
		b := g.gather(src, i+lanes, 12, 384)
		VPMAXUD(a, acc, acc)
		VPMAXUD(b, acc, acc)
		g.ISA.Store(g.words(a, b), mem(f, 2*i))
	}
	ok := GP8()
	limit := g.loadConst(g.Splat(q - 1))
	if g.ISA.EVEX() {
		k := K()
		VPCMPUD(operand.U8(6), limit, acc, k) // acc > q − 1
		KORTESTW(k, k)
	} else {
		gt := YMM()
		VPCMPGTD(limit, acc, gt)
		VPTEST(gt, gt)
	}
	SETEQ(ok)
	r := GP32()
	MOVBLZX(ok, r)
	Store(r, ReturnIndex(0))
	vecgen.End()
}

// buildCompress emits mlkem.compress: ByteEncode_d(Compress_d(f)) for
// d = 1, 4, 5, 10, 11, one path per d.
func buildCompress(g *gen) {
	dst, f := ptr(Param("dst").Base()), ptr(Param("f"))
	d := ptr(Param("d"))
	branchOn(d, []int{10, 4, 11, 5, 1}, func(d int) {
		if d == 1 {
			g.compress1(dst, f)
			return
		}
		per, half := g.perVec(), g.perVec()/2
		for i := 0; i < 256; i += per {
			a, b := g.dwords(mem(f, 2*i)), g.dwords(mem(f, 2*(i+half)))
			g.compressLanes(a, d)
			g.compressLanes(b, d)
			x := g.words(a, b)
			g.mergeLanes(x, d)
			g.storePacked(x, mem(dst, i*d/8), d)
		}
	})
}

// compress1 emits Compress_1 and ByteEncode_1: bit i is 1 for
// 833 ≤ f[i] ≤ 2496 (where ⌊(2x + 1664)/q⌋ is 1), gathered from compare
// masks 32 coefficients at a time.
func (g *gen) compress1(dst, f reg.GPVirtual) {
	lo, hi := g.loadConst(g.Lanes16(832)), g.loadConst(g.Lanes16(2497))
	if g.ISA.EVEX() {
		for i := 0; i < 256; i += 32 {
			x := g.ISA.Load(mem(f, 2*i))
			k1, k2 := K(), K()
			VPCMPUW(operand.U8(6), lo, x, k1)     // x > 832
			VPCMPUW(operand.U8(1), hi, x, k1, k2) // and x < 2497
			r := GP32()
			KMOVD(k2, r)
			MOVL(r, mem(dst, i/8))
		}
		return
	}
	for i := 0; i < 256; i += 32 {
		a, b := YMM(), YMM()
		for j, x := range []reg.VecVirtual{a, b} {
			v := g.ISA.Load(mem(f, 2*(i+16*j)))
			t := YMM()
			VPCMPGTW(lo, v, t) // v > 832
			VPCMPGTW(v, hi, x) // 2497 > v
			VPAND(t, x, x)
		}
		VPACKSSWB(b, a, a)
		VPERMQ(operand.U8(0xd8), a, a)
		r := GP32()
		VPMOVMSKB(a, r)
		MOVL(r, mem(dst, i/8))
	}
}

// buildDecompress emits mlkem.decompress: Decompress_d(ByteDecode_d(src))
// = (y·q + 2^(d−1)) >> d for d = 1, 4, 5, 10, 11, one path per d.
func buildDecompress(g *gen) {
	f, src := ptr(Param("f")), ptr(Param("src").Base())
	d := ptr(Param("d"))
	branchOn(d, []int{10, 4, 11, 5, 1}, func(d int) {
		if d == 1 {
			g.decompress1(f, src)
			return
		}
		lanes := g.ISA.Lanes(32)
		qv := g.loadConst(g.Splat(q))
		for i := 0; i < 256; i += 2 * lanes {
			var ab [2]reg.VecVirtual
			for j := range ab {
				x := g.gather(src, i+j*lanes, d, 32*d)
				VPMULLD(qv, x, x)
				VPADDD(g.Splat(1<<(d-1)), x, x)
				VPSRLD(operand.U8(uint64(d)), x, x)
				ab[j] = x
			}
			g.ISA.Store(g.words(ab[0], ab[1]), mem(f, 2*i))
		}
	})
}

// decompress1 emits ByteDecode_1 and Decompress_1: bit i of src becomes 0
// or ⌈q/2⌋ = 1665, 16 (or 32) coefficients per broadcast of their bits.
func (g *gen) decompress1(f, src reg.GPVirtual) {
	per := g.perVec()
	var bits []uint16
	for i := range per {
		bits = append(bits, 1<<(i%16))
	}
	var b []byte
	for _, v := range bits {
		b = append(b, byte(v), byte(v>>8))
	}
	mask := g.loadConst(g.Consts.Bytes(b))
	half := g.loadConst(g.Lanes16(1665))
	for i := 0; i < 256; i += per {
		x := g.ISA.Vec()
		if g.ISA.EVEX() {
			// words 0-15 from the first two bytes, 16-31 from the next two
			hi := ZMM()
			VPBROADCASTW(mem(src, i/8), x)
			VPBROADCASTW(mem(src, i/8+2), hi)
			VINSERTI64X4(operand.U8(1), hi.AsY(), x, x)
			k := K()
			VPTESTMW(mask, x, k)
			VMOVDQU16_Z(half, k, x)
		} else {
			VPBROADCASTW(mem(src, i/8), x)
			VPAND(mask, x, x)
			VPCMPEQW(mask, x, x)
			VPAND(half, x, x)
		}
		g.ISA.Store(x, mem(f, 2*i))
	}
}

// dsaWidths are the widths of mldsa.pack and mldsa.unpack: η (3, 4), t1
// (10), t0 (13).
var dsaWidths = []int{10, 13, 4, 3}

// buildPack emits mldsa.pack: BitPack of base − sgn·w[i] in bits bits.
func buildPack(g *gen) {
	dst, w := ptr(Param("dst").Base()), ptr(Param("w"))
	bits := ptr(Param("bits"))
	base, sgn := g.param32("base"), g.param32("sgn")
	branchOn(bits, dsaWidths, func(b int) {
		lanes := g.ISA.Lanes(32)
		for i := 0; i < 256; i += 2 * lanes {
			var ab [2]reg.VecVirtual
			for j := range ab {
				x := g.ISA.Load(mem(w, 4*(i+j*lanes)))
				VPMULLD(sgn, x, x)
				v := g.ISA.Vec()
				VPSUBD(x, base, v)
				ab[j] = v
			}
			x := g.words(ab[0], ab[1])
			g.mergeLanes(x, b)
			g.storePacked(x, mem(dst, i*b/8), b)
		}
	})
}

// buildUnpack emits mldsa.unpack: w[i] = base − sgn·(field i of bits bits).
func buildUnpack(g *gen) {
	w, src := ptr(Param("w")), ptr(Param("src").Base())
	bits := ptr(Param("bits"))
	base, sgn := g.param32("base"), g.param32("sgn")
	branchOn(bits, dsaWidths, func(b int) {
		lanes := g.ISA.Lanes(32)
		for i := 0; i < 256; i += lanes {
			x := g.gather(src, i, b, 32*b)
			VPMULLD(sgn, x, x)
			v := g.ISA.Vec()
			VPSUBD(x, base, v)
			g.ISA.Store(v, mem(w, 4*i))
		}
	})
}

// param32 broadcasts the int32 parameter name into a fresh vector.
func (g *gen) param32(name string) reg.VecVirtual {
	r := GP32()
	Load(Param(name), r)
	x := XMM()
	MOVD(r, x)
	v := g.ISA.Vec()
	VPBROADCASTD(x, v)
	return v
}
