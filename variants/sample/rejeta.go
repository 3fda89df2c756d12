package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
)

// acceptance is why the constant-time check may take the acceptance test
// of a candidate as public (ctcheck.Public): the nibbles are independent
// and uniform, the accepted ones stay uniform below the limit whatever
// was rejected, so the pattern of rejections (and the count and positions
// it gives) reveals nothing of s1 and s2; FIPS 204's loop reveals it too.
// Only the comparison with the limit is declassified: the values go
// through registers (the VPSHUFB of the LUT, arithmetic in the tail) and
// stay secret.
const acceptance = "which half-byte candidates RejBoundedPoly rejects (b ≥ 15, η = 2; b ≥ 9, η = 4): independent of the accepted values, the coefficients of s1 and s2"

// etaLUT returns CoeffFromHalfByte's values for η as bytes by nibble:
// η − (b mod 5) for b < 15 (η = 2), η − b for b < 9 (η = 4); the
// rejected nibbles' entries are never stored.
func etaLUT(eta int) []byte {
	out := make([]byte, 16)
	for b := range 16 {
		v := eta - b
		if eta == 2 {
			v = eta - b%5
		}
		out[b] = byte(int8(v))
	}
	return out
}

// buildRejEta emits mldsa.rejeta: the half-byte candidates of buf, low
// nibble first, below 15 (η = 2) or 9 (η = 4), mapped to their
// coefficients (centered, in [−η, η]) and appended to a[j:]. The values
// are secret: they come from a VPSHUFB of a 16-entry table in a register
// (no memory index), the scalar tail computes them arithmetically; only
// the acceptance pattern steers branches, table indices and store
// addresses, and its comparisons are declassified for the constant-time
// check (see acceptance).
func buildRejEta(g *gen, k knobs) {
	s := params("s", "prf")
	eta := GP32()
	Load(Param("eta"), eta)
	// The LUT and limits of η: the branch is on the public parameter.
	lut, lim := XMM(), XMM()
	if g.ISA.EVEX() {
		lut, lim = YMM(), YMM()
	}
	limit, five := GP32(), GP32()
	for i, e := range []int{2, 4} {
		if i == 0 {
			CMPL(eta, operand.U32(2))
			JNE(operand.LabelRef("eta4"))
		} else {
			Label("eta4")
		}
		l := 15 - 6*(e/4)
		if g.ISA.EVEX() {
			VMOVDQU8(g.Consts.Bytes(bytesRepeat(etaLUT(e), 32)), lut)
			VPBROADCASTB(g.Consts.Bytes([]byte{byte(l)}), lim)
		} else {
			VMOVDQU(g.Consts.Bytes(etaLUT(e)), lut)
			VMOVDQU(g.Consts.Bytes(bytesRepeat([]byte{byte(l)}, 16)), lim)
		}
		MOVL(operand.U32(uint64(l)), limit)
		MOVL(operand.U32(uint64(5*(2-e/2)+0)), five)
		if i == 0 {
			JMP(operand.LabelRef("start"))
		}
	}
	Label("start")
	if k.isa.EVEX() {
		g.rejEtaAVX512(s, lut, lim)
	} else {
		g.rejEtaAVX2(s, k, lut, lim)
	}
	rejEtaTail(s, eta, limit, five)
	s.finish()
}

// nibbles turns the bytes of w (zero-extended to 16-bit lanes) into byte
// candidates in order: (w | w<<4) & 0x0f0f puts the low nibble in the low
// byte and the high nibble in the high one.
func (g *gen) nibbles(w reg.VecVirtual, size int) {
	t := w
	switch size {
	case 16:
		t = XMM()
	default:
		t = YMM()
	}
	VPSLLW(operand.U8(4), w, t)
	VPOR(t, w, w)
	VPAND(g.Consts.Bytes(bytesRepeat([]byte{0x0f}, size)), w, w)
}

// rejEtaAVX2 takes 8 bytes (16 candidates) per group: their nibbles as
// bytes, a signed compare with the limit, the values by VPSHUFB of the
// LUT, and per half of eight candidates the idx8 entry of its acceptance
// mask as a VPSHUFB compacting the accepted bytes, sign-extended to eight
// dwords stored at a[j].
func (g *gen) rejEtaAVX2(s sampler, k knobs, lut, lim reg.VecVirtual) {
	tbl := table(g.idx8())
	group := func() {
		x := XMM()
		VPMOVZXBW(operand.Mem{Base: s.p}, x)
		g.nibbles(x, 16)
		m := XMM()
		ctcheck.Public(acceptance)
		VPCMPGTB(x, lim, m) // lim > x
		v := XMM()
		VPSHUFB(x, lut, v)
		r := GP64()
		VPMOVMSKB(m, r.As32())
		lo, hi := GP64(), GP64()
		MOVBQZX(r.As8(), lo)
		MOVQ(r, hi)
		SHRQ(operand.U8(8), hi)
		for half, m := range []reg.GPVirtual{lo, hi} {
			src := v
			if half == 1 {
				src = XMM()
				VPSRLDQ(operand.U8(8), v, src)
			}
			c, y, d := XMM(), YMM(), GP64()
			VPSHUFB(at(tbl, m, 8), src, c)
			VPMOVSXBD(c, y)
			VMOVDQU(y, operand.Mem{Base: s.a, Index: s.j, Scale: 4})
			POPCNTQ(m, d)
			ADDQ(d, s.j)
		}
		s.advance(8)
	}
	groups(s, k.unroll, 8, 16, group)
}

// rejEtaAVX512 takes 16 bytes (32 candidates) per group, a short last
// group under a mask: nibbles as bytes of a ymm, an unsigned compare with
// the limit into an opmask, values by VPSHUFB, VPCOMPRESSB, and the
// compacted bytes sign-extended to two zmm of dwords stored at a[j].
func (g *gen) rejEtaAVX512(s sampler, lut, lim reg.VecVirtual) {
	decode := func(lm reg.Register) (reg.VecVirtual, reg.Register) {
		x := YMM()
		if lm == nil {
			VPMOVZXBW(operand.Mem{Base: s.p}, x)
		} else {
			VPMOVZXBW_Z(operand.Mem{Base: s.p}, lm, x)
		}
		g.nibbles(x, 32)
		acc := K()
		ctcheck.Public(acceptance)
		VPCMPUB(operand.U8(1), lim, x, acc) // x < lim
		v := YMM()
		VPSHUFB(x, lut, v)
		return v, acc
	}
	store := func(v reg.VecVirtual, acc reg.Register) {
		c := YMM()
		VPCOMPRESSB(v, acc, c)
		lo, hi := ZMM(), ZMM()
		VPMOVSXBD(c.AsX(), lo)
		VMOVDQU32(lo, operand.Mem{Base: s.a, Index: s.j, Scale: 4})
		h := XMM()
		VEXTRACTI128(operand.U8(1), c, h)
		VPMOVSXBD(h, hi)
		VMOVDQU32(hi, operand.Mem{Base: s.a, Index: s.j, Scale: 4, Disp: 64})
		s.addCount(acc, KMOVD)
	}
	whole := func() (reg.VecVirtual, reg.Register) { return decode(nil) }
	// The short last group: n < 16 bytes, 2n candidates.
	s.groups512(avx512Groups{bytes: 16, maxJ: 224, minBytes: 1,
		whole: whole, part: decode, store: store, kmov: KMOVD}, func(c reg.GPVirtual) {
		MOVQ(s.n, c)
		ADDQ(c, c)
	})
	XORQ(s.n, s.n)
}

// rejEtaTail emits the scalar loop over the bytes the vector code left:
// each nibble, low first, kept if below limit while j < 256, its value
// η − b + five·⌊205·b/1024⌋ (five = 5 for η = 2, where that is
// η − (b mod 5); 0 for η = 4) computed without a table.
func rejEtaTail(s sampler, eta, limit, five reg.GPVirtual) {
	Label("tail")
	CMPQ(s.n, operand.U32(1))
	JB(operand.LabelRef("done"))
	b := GP32()
	MOVBLZX(operand.Mem{Base: s.p}, b)
	s.advance(1)
	for i, next := range []string{"high", "tail"} {
		CMPQ(s.j, operand.U32(256))
		JAE(operand.LabelRef("done"))
		x := GP32()
		MOVL(b, x)
		if i == 0 {
			ANDL(operand.U32(0xf), x)
		} else {
			SHRL(operand.U8(4), x)
		}
		ctcheck.Public(acceptance)
		CMPL(x, limit)
		JAE(operand.LabelRef(next))
		v, t := GP32(), GP32()
		IMUL3L(operand.U32(205), x, t)
		SHRL(operand.U8(10), t)
		IMULL(five, t)
		MOVL(eta, v)
		SUBL(x, v)
		ADDL(t, v)
		MOVL(v, operand.Mem{Base: s.a, Index: s.j, Scale: 4})
		INCQ(s.j)
		if i == 0 {
			Label("high")
		} else {
			JMP(operand.LabelRef("tail"))
		}
	}
}
