package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// q is ML-KEM's modulus; compressMul is ⌈2^35/q⌉: ⌊N·compressMul/2^35⌋ =
// ⌊N/q⌋ for every N < 2^23 (the error 2492·N/(q·2^35) stays below 1/q).
const (
	q           = 3329
	compressMul = (1<<35 + q - 1) / q
)

// A gen emits one function of a tier.
type gen struct{ vecgen.Gen }

// ptr loads a pointer parameter (or a slice's base).
func ptr(p gotypes.Component) reg.GPVirtual {
	r := GP64()
	Load(p, r)
	return r
}

// mem is the byte at offset off of the array at p.
func mem(p reg.GPVirtual, off int) operand.Mem { return operand.Mem{Base: p, Disp: off} }

// mergeLanes packs the values of x, each below 2^w in a 16-bit lane, so
// that every 128-bit lane holds its eight values' 8w bits from bit 0, in
// order: word pairs to dwords (VPMADDWD by 1, 2^w), dword pairs to
// qwords (the high dword shifted down by 32 − 2w), qword pairs across the
// lane (the high qword shifted up by 4w into both halves). w ≤ 14.
func (g *gen) mergeLanes(x reg.VecVirtual, w int) {
	VPMADDWD(g.Splat(1|1<<(16+w)), x, x)
	hi := g.ISA.Vec()
	g.ISA.AndQ(g.Lanes64(0xffffffff00000000), x, hi)
	g.ISA.AndQ(g.Lanes64(0x00000000ffffffff), x, x)
	VPSRLQ(operand.U8(uint64(32-2*w)), hi, hi)
	g.ISA.OrQ(hi, x, x)
	// x's lanes now hold q0 | q1<<64 with 4w bits each.
	a, b := g.ISA.Vec(), g.ISA.Vec()
	VPSRLDQ(operand.U8(8), x, a) // q1 in the low half
	g.ISA.AndQ(g.Lanes64(^uint64(0), 0), x, x)
	VPSLLQ(operand.U8(uint64(4*w)), a, b) // q1 << 4w, low half
	g.ISA.OrQ(b, x, x)
	if 4*w < 64 {
		VPSRLQ(operand.U8(uint64(64-4*w)), a, a) // the bits of q1 beyond 64 − 4w
		VPSLLDQ(operand.U8(8), a, a)
		g.ISA.OrQ(a, x, x)
	}
}

// storeExact stores the low k bytes of the xmm register x at m in pieces
// of 8, 4, 2 and 1 bytes.
func storeExact(x reg.Register, m operand.Mem, k int) {
	o := 0
	for o+8 <= k {
		if o == 0 {
			VMOVQ(x, m)
		} else {
			VPEXTRQ(operand.U8(uint64(o/8)), x, operand.Mem{Base: m.Base, Disp: m.Disp + o})
		}
		o += 8
	}
	if o+4 <= k {
		VPEXTRD(operand.U8(uint64(o/4)), x, operand.Mem{Base: m.Base, Disp: m.Disp + o})
		o += 4
	}
	if o+2 <= k {
		VPEXTRW(operand.U8(uint64(o/2)), x, operand.Mem{Base: m.Base, Disp: m.Disp + o})
		o += 2
	}
	if o < k {
		VPEXTRB(operand.U8(uint64(o)), x, operand.Mem{Base: m.Base, Disp: m.Disp + o})
	}
}

// storePacked stores the merged lanes of x (each holding 8w bits, see
// mergeLanes) contiguously at m: 2w bytes from a ymm by exact pieces; 4w
// bytes from a zmm compacted by VPERMB and stored under a byte mask.
func (g *gen) storePacked(x reg.VecVirtual, m operand.Mem, w int) {
	if !g.ISA.EVEX() {
		storeExact(x.AsX(), m, w)
		hi := XMM()
		VEXTRACTI128(operand.U8(1), x, hi)
		storeExact(hi, operand.Mem{Base: m.Base, Disp: m.Disp + w}, w)
		return
	}
	var idx []byte
	for j := range 64 {
		idx = append(idx, byte(16*(j/w)+j%w))
		if j >= 4*w {
			idx[j] = 0
		}
	}
	VPERMB(x, g.loadConst(g.Consts.Bytes(idx)), x)
	k := K()
	r := GP64()
	MOVQ(operand.U64(uint64(1)<<(4*w)-1), r)
	KMOVQ(r, k)
	VMOVDQU8(x, k, m)
}

// loadConst loads the constant at m into a fresh register of the tier.
func (g *gen) loadConst(m operand.Mem) reg.VecVirtual { return g.ISA.Load(m) }

// field returns the first byte and the bit shift of field k of width w.
func field(k, w int) (int, int) { return k * w / 8, k * w % 8 }

// gather loads the fields k0..k0+n−1 (n = 8 on AVX2, 16 on AVX-512) of
// width w (w + 7 ≤ 24) of the array at p, which holds total bytes, into
// the dword lanes of a fresh register, each shifted down to bit 0 and
// masked. AVX2 loads 16 bytes per 128-bit lane from its first field's
// byte, or earlier near the end so as not to read past total; AVX-512
// loads the fields' bytes under a byte mask and gathers with VPERMB.
func (g *gen) gather(p reg.GPVirtual, k0, w, total int) reg.VecVirtual {
	x := g.ISA.Vec()
	lanes := g.ISA.Lanes(32)
	var shifts []uint32
	for k := range lanes {
		_, s := field(k0+k, w)
		shifts = append(shifts, uint32(s))
	}
	first, _ := field(k0, w)
	if g.ISA.EVEX() {
		last, _ := field(k0+lanes-1, w)
		n := min(last+3, total-first)
		var idx []byte
		for k := range lanes {
			b, _ := field(k0+k, w)
			b -= first
			idx = append(idx, byte(b), byte(b+1), byte(b+2), byte(b+2))
		}
		lm := K()
		r := GP64()
		MOVQ(operand.U64(uint64(1)<<n-1), r)
		KMOVQ(r, lm)
		VMOVDQU8_Z(mem(p, first), lm, x)
		VPERMB(x, g.loadConst(g.Consts.Bytes(idx)), x)
	} else {
		var shuf []byte
		for lane := range 2 {
			b0, _ := field(k0+4*lane, w)
			base := min(b0, total-16)
			for i := range 4 {
				b, s := field(k0+4*lane+i, w)
				rel, need := b-base, (s+w+7)/8
				if rel < 0 || rel+need-1 > 15 {
					panic(fmt.Sprintf("gather: field %d of width %d at byte %d of a load from %d", k0+4*lane+i, w, b, base))
				}
				for j := range 4 {
					if j < need {
						shuf = append(shuf, byte(rel+j))
					} else {
						shuf = append(shuf, 0x80)
					}
				}
			}
			if lane == 0 {
				VBROADCASTI128(mem(p, base), x)
			} else {
				VINSERTI128(operand.U8(1), mem(p, base), x, x)
			}
		}
		VPSHUFB(g.Consts.Bytes(shuf), x, x)
	}
	VPSRLVD(g.Lanes32(shifts...), x, x)
	g.ISA.AndQ(g.Splat(1<<w-1), x, x)
	return x
}

// words narrows the dword lanes of a and b (each below 2^16) to the 16-bit
// lanes of one register, a's first, in order.
func (g *gen) words(a, b reg.VecVirtual) reg.VecVirtual {
	x := g.ISA.Vec()
	VPACKUSDW(b, a, x)
	if g.ISA.EVEX() {
		// per 128-bit lane: four words of a, four of b
		VPERMQ(x, g.loadConst(g.Lanes64(0, 2, 4, 6, 1, 3, 5, 7)), x)
		return x
	}
	VPERMQ(operand.U8(0xd8), x, x)
	return x
}

// dwords widens 16-bit lanes at m (half a vector of them) to dword lanes.
func (g *gen) dwords(m operand.Mem) reg.VecVirtual {
	x := g.ISA.Vec()
	VPMOVZXWD(m, x)
	return x
}

// compressLanes sets each dword lane x (in [0, q)) to Compress_d(x) =
// ⌊(x·2^d + 1664)/q⌋ mod 2^d by the multiply-high of even and odd lanes.
func (g *gen) compressLanes(x reg.VecVirtual, d int) {
	VPSLLD(operand.U8(uint64(d)), x, x)
	VPADDD(g.Splat(1664), x, x)
	m := g.loadConst(g.Splat(compressMul))
	odd := g.ISA.Vec()
	VPSRLQ(operand.U8(32), x, odd)
	VPMULUDQ(m, x, x)
	VPMULUDQ(m, odd, odd)
	VPSRLQ(operand.U8(35), x, x)
	VPSRLQ(operand.U8(3), odd, odd)
	g.ISA.AndQ(g.Lanes64(0xffffffff00000000), odd, odd)
	g.ISA.OrQ(odd, x, x)
	g.ISA.AndQ(g.Splat(1<<d-1), x, x)
}

// branchOn emits one path per value of the parameter reg, each ending in
// a jump to "done": body(v) for every value in vals.
func branchOn(r reg.GPVirtual, vals []int, body func(v int)) {
	for i, v := range vals {
		next := fmt.Sprintf("not%d", v)
		if i < len(vals)-1 {
			CMPQ(r, operand.U32(uint64(v)))
			JNE(operand.LabelRef(next))
		}
		body(v)
		JMP(operand.LabelRef("done"))
		if i < len(vals)-1 {
			Label(next)
		}
	}
	Label("done")
	vecgen.End()
}
