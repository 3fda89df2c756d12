package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// q23 is ML-DSA's modulus, the bound of RejNTTPoly's candidates.
const q23 = 8380417

// buildRej23 emits mldsa.rejntt: 23-bit candidates (three bytes, the top
// bit of the third cleared) below q appended to a[j:].
func buildRej23(g *gen, k knobs) { buildRej(k, "a", g.rej23AVX2, g.rej23AVX512, rej23Tail) }

// rej23AVX2 decodes eight candidates from 24 bytes per group: bytes
// 0..15 in the low lane and 8..23 in the high one, a VPSHUFB to one
// candidate per dword, the mask of 23 bits; the compare with q gives an
// eight-bit mask whose idx8 entry is the VPERMD compacting the accepted
// ones to the front of the store at a[j].
func (g *gen) rej23AVX2(s sampler, k knobs) {
	shufm, mask, q := g.avx2Consts(func(b byte) []byte { return []byte{b, b + 1, b + 2, 0x80} },
		[]byte{0xff, 0xff, 0x7f, 0}, []byte{q23 & 0xff, q23 >> 8 & 0xff, q23 >> 16, 0})
	tbl := table(g.idx8())
	group := func() {
		x := s.load24(shufm)
		VPAND(mask, x, x)
		m := YMM()
		VPCMPGTD(x, q, m) // q > x
		r := GP64()
		VMOVMSKPS(m, r.As32())
		idx := YMM()
		VPMOVZXBD(at(tbl, r, 8), idx)
		VPERMD(x, idx, x)
		VMOVDQU(x, operand.Mem{Base: s.a, Index: s.j, Scale: 4})
		popAdd(r, s.j)
		s.advance(24)
	}
	groups(s, k.unroll, 24, 8, group)
}

// groups emits the group loop: unroll groups per iteration while that
// many fit (in bytes and in the polynomial, count coefficients stored per
// group), then one group per iteration, then on to label "tail".
func groups(s sampler, unroll, bytes, count int, group func()) {
	single := "loop"
	if unroll > 1 {
		single = "single"
		s.loop("loop", bytes*unroll, 256-count*unroll, single, func() {
			for range unroll {
				group()
			}
		})
	}
	s.loop(single, bytes, 256-count, "tail", group)
}

// rej23AVX512 decodes sixteen candidates from 48 bytes per group (loaded
// under a byte mask, so that a short last group reads nothing beyond the
// buffer): gather=vbmi with one VPERMB, gather=permd with a VPERMD to
// three dwords per lane and a VPSHUFB; the compare with q gives an opmask
// and VPCOMPRESSD compacts into a register stored whole at a[j]
// (compress=reg) or straight to memory (compress=mem).
func (g *gen) rej23AVX512(s sampler, k knobs) {
	mask, q := ZMM(), ZMM()
	VMOVDQU32(g.Consts.Bytes(bytesRepeat([]byte{0xff, 0xff, 0x7f, 0}, 64)), mask)
	VPBROADCASTD(g.Consts.Bytes([]byte{q23 & 0xff, q23 >> 8 & 0xff, q23 >> 16, 0}), q)
	var idx, shuf reg.VecVirtual
	idx = ZMM()
	if k.gather == "vbmi" {
		var b []byte
		for i := range 16 {
			b = append(b, byte(3*i), byte(3*i+1), byte(3*i+2), byte(3*i+2))
		}
		VMOVDQU32(g.Consts.Bytes(b), idx)
	} else {
		var d []byte
		for lane := range 4 {
			for _, w := range []int{3 * lane, 3*lane + 1, 3*lane + 2, 3*lane + 2} {
				d = append(d, byte(w), 0, 0, 0)
			}
		}
		VMOVDQU32(g.Consts.Bytes(d), idx)
		var p []byte
		for i := range 4 {
			p = append(p, byte(3*i), byte(3*i+1), byte(3*i+2), 0x80)
		}
		shuf = ZMM()
		VMOVDQU32(g.Consts.Bytes(bytesRepeat(p, 64)), shuf)
	}
	full := K()
	all := GP64()
	MOVQ(operand.U64(1<<48-1), all)
	KMOVQ(all, full)
	// decode returns the candidates of the group at p loaded under lm,
	// and their acceptance mask in an opmask.
	decode := func(lm reg.Register) (reg.VecVirtual, reg.Register) {
		x := ZMM()
		VMOVDQU8_Z(operand.Mem{Base: s.p}, lm, x)
		if k.gather == "vbmi" {
			VPERMB(x, idx, x)
		} else {
			VPERMD(x, idx, x)
			VPSHUFB(shuf, x, x)
		}
		VPANDD(mask, x, x)
		acc := K()
		VPCMPUD(operand.U8(1), q, x, acc) // x < q
		return x, acc
	}
	store := func(x reg.VecVirtual, acc reg.Register) {
		s.compress(k, x, acc, 4, VPCOMPRESSD, VMOVDQU32)
		s.addCount(acc, KMOVW)
	}
	whole := func() (reg.VecVirtual, reg.Register) { return decode(full) }
	// The short last group: n < 48 bytes, n/3 candidates.
	s.groups512(avx512Groups{bytes: 48, maxJ: 240, minBytes: 3,
		whole: whole, part: decode, store: store, kmov: KMOVW}, func(c reg.GPVirtual) { thirds(s.n, c) })
	XORQ(s.n, s.n)
}

// rej23Tail emits the scalar loop over the candidates the vector code
// left: one per three bytes while j < 256.
func rej23Tail(s sampler) {
	Label("tail")
	CMPQ(s.n, operand.U32(3))
	JB(operand.LabelRef("done"))
	CMPQ(s.j, operand.U32(256))
	JAE(operand.LabelRef("done"))
	c, t := GP32(), GP32()
	MOVBLZX(operand.Mem{Base: s.p}, c)
	MOVBLZX(operand.Mem{Base: s.p, Disp: 1}, t)
	SHLL(operand.U8(8), t)
	ORL(t, c)
	MOVBLZX(operand.Mem{Base: s.p, Disp: 2}, t)
	ANDL(operand.U32(0x7f), t)
	SHLL(operand.U8(16), t)
	ORL(t, c)
	s.advance(3)
	CMPL(c, operand.U32(q23))
	JAE(operand.LabelRef("tail"))
	MOVL(c, operand.Mem{Base: s.a, Index: s.j, Scale: 4})
	INCQ(s.j)
	JMP(operand.LabelRef("tail"))
}
