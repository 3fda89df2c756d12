package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// buildLowBits emits mldsa.lowbits: for each coefficient, r = w − cs2 mod
// q written back to w, r1 = HighBits(r) to the byte array r1, and a
// running maximum of |LowBits(r)|; it returns 1 if that maximum exceeds
// c[3], else 0.
func buildLowBits(g *gen) {
	p := vecgen.Ptrs("w", "cs2", "r1", "c")
	wp, sp, rp, cp := p[0], p[1], p[2], p[3]
	g.roundConsts(cp)
	g.loadQ()
	limit := g.ISA.Splat32(operand.Mem{Base: cp, Disp: 12})
	acc := g.ISA.Zero()
	var r1s []reg.VecVirtual
	g.loop(func(u int) {
		w, s := g.ISA.Load(g.at(wp, u)), g.ISA.Load(g.at(sp, u))
		r := g.canonSub(w, s)
		g.ISA.Store(r, g.at(wp, u))
		r1, r0 := g.decompose(r)
		VPABSD(r0, r0)
		maxInto(acc, r0)
		r1s = append(r1s, r1)
		if u == g.unroll-1 {
			g.storeBytes(r1s, rp)
			r1s = nil
		}
	}, vecgen.Stride(wp, g.unroll*g.ISA.Bytes), vecgen.Stride(sp, g.unroll*g.ISA.Bytes), vecgen.Stride(rp, g.unroll*g.ISA.Lanes(32)))
	Store(g.exceeds(acc, limit), ReturnIndex(0))
	vecgen.End()
}

// buildMakeHint emits mldsa.makehint: for each coefficient, the hint
// h = [HighBits(r + ct0 mod q) ≠ r1] as a byte, their count, and a
// running maximum of |ct0| (centered); it returns the count and 1 if the
// maximum exceeds c[3], else 0.
func buildMakeHint(g *gen) {
	p := vecgen.Ptrs("r", "ct0", "r1", "h", "c")
	rp, tp, r1p, hp, cp := p[0], p[1], p[2], p[3], p[4]
	g.roundConsts(cp)
	limit := g.ISA.Splat32(operand.Mem{Base: cp, Disp: 12})
	qv := g.ISA.Load(g.Splat(q))
	acc := g.ISA.Zero()
	var cnt, one reg.VecVirtual
	var count reg.GPVirtual
	if g.ISA.EVEX() {
		count = GP32()
		XORL(count, count)
		one = g.ISA.Load(g.Splat(1)) // the hints under the secret mask come from a register
	} else {
		cnt = g.ISA.Zero()
	}
	var hs []reg.VecVirtual
	lanes := g.ISA.Lanes(32)
	g.loop(func(u int) {
		r, t0 := g.ISA.Load(g.at(rp, u)), g.ISA.Load(g.at(tp, u))
		// |ct0| centered: min(ct0, q − ct0)
		neg := g.ISA.Vec()
		VPSUBD(t0, qv, neg)
		VPMINUD(neg, t0, neg)
		maxInto(acc, neg)
		hb := g.highBits(g.canonAdd(r, t0))
		r1 := g.ISA.Vec()
		r1m := operand.Mem{Base: r1p, Disp: u * lanes}
		VPMOVZXBD(r1m, r1)
		h := g.ISA.Vec()
		if g.ISA.EVEX() {
			k := K()
			VPCMPUD(operand.U8(4), r1, hb, k) // hb ≠ r1
			VMOVDQU32_Z(one, k, h)
			bits := GP32()
			KMOVW(k, bits)
			POPCNTL(bits, bits)
			ADDL(bits, count)
		} else {
			VPCMPEQD(r1, hb, h)
			VPANDN(g.Splat(1), h, h)
			VPADDD(h, cnt, cnt)
		}
		hs = append(hs, h)
		if u == g.unroll-1 {
			g.storeBytes(hs, hp)
			hs = nil
		}
	}, vecgen.Stride(rp, g.unroll*g.ISA.Bytes), vecgen.Stride(tp, g.unroll*g.ISA.Bytes),
		vecgen.Stride(r1p, g.unroll*lanes), vecgen.Stride(hp, g.unroll*lanes))
	if !g.ISA.EVEX() {
		count = sumLanes(cnt)
	}
	Store(count, ReturnIndex(0))
	Store(g.exceeds(acc, limit), ReturnIndex(1))
	vecgen.End()
}

// sumLanes returns the sum of the eight 32-bit lanes of an AVX2 vector.
func sumLanes(v reg.VecVirtual) reg.GPVirtual {
	hi, lo := XMM(), XMM()
	VEXTRACTI128(operand.U8(1), v, hi)
	VPADDD(hi, v.AsX(), lo)
	VPSHUFD(operand.U8(0x4e), lo, hi)
	VPADDD(hi, lo, lo)
	VPSHUFD(operand.U8(0xb1), lo, hi)
	VPADDD(hi, lo, lo)
	r := GP32()
	MOVD(lo, r)
	return r
}

// buildResponse emits mldsa.response: for each coefficient, z += cs1
// centered (z centered, cs1 canonical), and a running maximum of |z|; it
// returns 1 if that maximum exceeds limit, else 0.
func buildResponse(g *gen) {
	p := vecgen.Ptrs("z", "cs1")
	zp, sp := p[0], p[1]
	lim := GP32()
	Load(Param("limit"), lim)
	limit := g.splatGP(lim)
	g.loadQ()
	acc := g.ISA.Zero()
	g.loop(func(u int) {
		z, s := g.ISA.Load(g.at(zp, u)), g.ISA.Load(g.at(sp, u))
		g.centerMasked(s)
		VPADDD(s, z, z)
		g.ISA.Store(z, g.at(zp, u))
		VPABSD(z, z)
		maxInto(acc, z)
	}, vecgen.Stride(zp, g.unroll*g.ISA.Bytes), vecgen.Stride(sp, g.unroll*g.ISA.Bytes))
	Store(g.exceeds(acc, limit), ReturnIndex(0))
	vecgen.End()
}

// buildW1Pack4 emits mldsa.w1pack4: HighBits of each coefficient (m =
// 16), two per byte, the even coefficient in the low nibble. AVX2 packs
// 64 coefficients per iteration into bytes, pairs them with VPMADDUBSW by
// (1, 16) and packs the words; AVX-512 shifts the odd lanes by 4, ORs each
// pair within its quadword and narrows quadwords to bytes (VPMOVQB).
func buildW1Pack4(g *gen) {
	p := vecgen.Ptrs("dst", "w", "c")
	dp, wp, cp := p[0], p[1], p[2]
	g.roundConsts(cp)
	if g.ISA.EVEX() {
		g.loop(func(u int) {
			hb := g.highBits(g.ISA.Load(g.at(wp, u)))
			t := g.ISA.Vec()
			VPSLLVD(g.Lanes32(0, 4), hb, hb)
			VPSRLQ(operand.U8(32), hb, t)
			VPORD(t, hb, hb)
			VPMOVQB(hb, operand.Mem{Base: dp, Disp: 8 * u})
		}, vecgen.Stride(dp, 8*g.unroll), vecgen.Stride(wp, g.unroll*g.ISA.Bytes))
		vecgen.End()
		return
	}
	var hbs []reg.VecVirtual
	g.loop(func(u int) {
		hbs = append(hbs, g.highBits(g.ISA.Load(g.at(wp, u))))
		if u != g.unroll-1 {
			return
		}
		var words []reg.VecVirtual
		for i := 0; i < len(hbs); i += 4 {
			b := g.packBytes(hbs[i : i+4])
			VPMADDUBSW(g.Consts.Bytes(repeat([]byte{1, 16}, 32)), b, b)
			words = append(words, b)
		}
		for i := 0; i < len(words); i += 2 {
			VPACKUSWB(words[i+1], words[i], words[i])
			VPERMQ(operand.U8(0xd8), words[i], words[i])
			VMOVDQU(words[i], operand.Mem{Base: dp, Disp: 16 * i})
		}
		hbs = nil
	}, vecgen.Stride(dp, 4*g.unroll), vecgen.Stride(wp, g.unroll*g.ISA.Bytes))
	vecgen.End()
}

// repeat returns p repeated to n bytes.
func repeat(p []byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = p[i%len(p)]
	}
	return out
}

// buildPower2Round emits mldsa.power2round: per coefficient, with t in t0
// (canonical) and s2 centered in [−η, η], v = t + s2 mod q as the unsigned
// minimum of v, v + q and v − q, then t1 = (v + 2^12 − 1) >> 13 and
// t0 = v − t1·2^13.
func buildPower2Round(g *gen) {
	p := vecgen.Ptrs("t1", "t0", "s2")
	t1p, t0p, sp := p[0], p[1], p[2]
	g.loop(func(u int) {
		v, s := g.ISA.Load(g.at(t0p, u)), g.ISA.Load(g.at(sp, u))
		VPADDD(s, v, v)
		up, down := g.ISA.Vec(), g.ISA.Vec()
		VPADDD(g.Splat(q), v, up)
		VPSUBD(g.Splat(q), v, down)
		VPMINUD(up, v, v)
		VPMINUD(down, v, v)
		hi := g.ISA.Vec()
		VPADDD(g.Splat(1<<12-1), v, hi)
		VPSRLD(operand.U8(13), hi, hi)
		g.ISA.Store(hi, g.at(t1p, u))
		VPSLLD(operand.U8(13), hi, hi)
		VPSUBD(hi, v, v)
		g.ISA.Store(v, g.at(t0p, u))
	}, vecgen.Stride(t1p, g.unroll*g.ISA.Bytes), vecgen.Stride(t0p, g.unroll*g.ISA.Bytes), vecgen.Stride(sp, g.unroll*g.ISA.Bytes))
	vecgen.End()
}
