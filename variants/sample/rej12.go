package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// q12 is ML-KEM's modulus, the bound of SampleNTT's candidates.
const q12 = 3329

// buildRej12 emits mlkem.rejntt: 12-bit candidates (two per three bytes,
// d1 = b0 + 256·(b1 mod 16), d2 = ⌊b1/16⌋ + 16·b2) below q appended to
// f[j:].
func buildRej12(g *gen, k knobs) { buildRej(k, "f", g.rej12AVX2, g.rej12AVX512, rej12Tail) }

// rej12AVX2 decodes sixteen candidates from 24 bytes per group: bytes
// 0..15 in the low lane, 8..23 in the high one, a VPSHUFB to one 16-bit
// window per candidate, the odd ones shifted down by 4, all masked to 12
// bits; each lane's eight compare bits index idxw, the VPSHUFB that
// compacts its accepted candidates, stored at f[j] one lane after the
// other.
func (g *gen) rej12AVX2(s sampler, k knobs) {
	shufm, mask, q := g.avx2Consts(func(b byte) []byte { return []byte{b, b + 1, b + 1, b + 2} }, words(0x0fff), words(q12))
	tbl := table(g.idxw())
	group := func() {
		x := s.load24(shufm)
		t := YMM()
		VPSRLW(operand.U8(4), x, t)
		VPBLENDW(operand.U8(0xaa), t, x, x)
		VPAND(mask, x, x)
		m := YMM()
		VPCMPGTW(x, q, m) // q > x
		VPACKSSWB(m, m, m)
		r := GP64()
		VPMOVMSKB(m, r.As32())
		lo, hi := GP64(), GP64()
		MOVQ(r, hi)
		SHRQ(operand.U8(16), hi)
		MOVBQZX(r.As8(), lo)
		MOVBQZX(hi.As8(), hi)
		for lane, m := range []reg.GPVirtual{lo, hi} {
			src := x.AsX()
			if lane == 1 {
				src = XMM()
				VEXTRACTI128(operand.U8(1), x, src)
			}
			c, off := GP64(), GP64()
			POPCNTQ(m, c)
			MOVQ(m, off)
			SHLQ(operand.U8(4), off)
			y := XMM()
			VPSHUFB(at(tbl, off, 1), src, y)
			VMOVDQU(y, operand.Mem{Base: s.a, Index: s.j, Scale: 2})
			ADDQ(c, s.j)
		}
		s.advance(24)
	}
	groups(s, k.unroll, 24, 16, group)
}

// rej12AVX512 decodes 30 candidates from 45 bytes per group (loaded
// under a byte mask): one VPERMB to a 16-bit window per candidate, the odd
// ones shifted down by 4 (VPSRLVW), masked to 12 bits, compared with q
// into an opmask and compacted by VPCOMPRESSW into a register stored at
// f[j] (compress=reg) or straight to memory (compress=mem).
//
// A group is 30 candidates, not the 32 a zmm holds, so that no
// VPCOMPRESSW ever has all 32 mask bits set: Bochs 2.7, the emulator
// that runs the AVX-512 tiers of CI, writes nothing for such a
// VPCOMPRESSW (docs/ci-matrix.md has the micro-test), and code that the
// emulated tiers cannot run correctly is code CI does not test. The two
// lanes above 30 (zero bytes, which would be accepted) are masked off.
func (g *gen) rej12AVX512(s sampler, k knobs) {
	const groupBytes, groupCands = 45, 30
	mask, q, idx, sh := ZMM(), ZMM(), ZMM(), ZMM()
	VMOVDQU32(g.Consts.Bytes(bytesRepeat(words(0x0fff), 64)), mask)
	VMOVDQU32(g.Consts.Bytes(bytesRepeat(words(q12), 64)), q)
	VMOVDQU32(g.Consts.Bytes(bytesRepeat(words(0, 4), 64)), sh)
	var b []byte
	for i := range 16 {
		b = append(b, byte(3*i), byte(3*i+1), byte(3*i+1), byte(3*i+2))
	}
	VMOVDQU32(g.Consts.Bytes(b), idx)
	full, lanes := K(), K()
	all := GP64()
	MOVQ(operand.U64(1<<groupBytes-1), all)
	KMOVQ(all, full)
	MOVQ(operand.U64(1<<groupCands-1), all)
	KMOVQ(all, lanes)
	decode := func(lm reg.Register) (reg.VecVirtual, reg.Register) {
		x := ZMM()
		VMOVDQU8_Z(operand.Mem{Base: s.p}, lm, x)
		VPERMB(x, idx, x)
		VPSRLVW(sh, x, x)
		VPANDD(mask, x, x)
		acc := K()
		VPCMPUW(operand.U8(1), q, x, acc) // x < q
		return x, acc
	}
	store := func(x reg.VecVirtual, acc reg.Register) {
		s.compress(k, x, acc, 2, VPCOMPRESSW, VMOVDQU16)
		s.addCount(acc, KMOVD)
	}
	whole := func() (reg.VecVirtual, reg.Register) {
		x, acc := decode(full)
		KANDD(lanes, acc, acc)
		return x, acc
	}
	// The short last group: n < 45 bytes, 2·⌊n/3⌋ candidates.
	c := s.groups512(avx512Groups{bytes: groupBytes, maxJ: 224, minBytes: 3,
		whole: whole, part: decode, store: store, kmov: KMOVD}, func(c reg.GPVirtual) {
		thirds(s.n, c)
		ADDQ(c, c)
	})
	IMUL3Q(operand.U32(3), c, c) // the bytes of the candidates taken: 3·c/2
	SHRQ(operand.U8(1), c)
	ADDQ(c, s.p)
	SUBQ(c, s.n)
}

// rej12Tail emits the scalar loop over the bytes the vector code left,
// as Algorithm 7: d1 then d2 of each three bytes, each kept if below q
// and while j < 256.
func rej12Tail(s sampler) {
	Label("tail")
	CMPQ(s.n, operand.U32(3))
	JB(operand.LabelRef("done"))
	CMPQ(s.j, operand.U32(256))
	JAE(operand.LabelRef("done"))
	d1, d2, t := GP32(), GP32(), GP32()
	MOVBLZX(operand.Mem{Base: s.p}, d1)
	MOVBLZX(operand.Mem{Base: s.p, Disp: 1}, t)
	MOVL(t, d2)
	ANDL(operand.U32(0xf), t)
	SHLL(operand.U8(8), t)
	ORL(t, d1)
	SHRL(operand.U8(4), d2)
	MOVBLZX(operand.Mem{Base: s.p, Disp: 2}, t)
	SHLL(operand.U8(4), t)
	ORL(t, d2)
	s.advance(3)
	CMPL(d1, operand.U32(q12))
	JAE(operand.LabelRef("second"))
	MOVW(d1.As16(), operand.Mem{Base: s.a, Index: s.j, Scale: 2})
	INCQ(s.j)
	Label("second")
	CMPQ(s.j, operand.U32(256))
	JAE(operand.LabelRef("done"))
	CMPL(d2, operand.U32(q12))
	JAE(operand.LabelRef("tail"))
	MOVW(d2.As16(), operand.Mem{Base: s.a, Index: s.j, Scale: 2})
	INCQ(s.j)
	JMP(operand.LabelRef("tail"))
}
