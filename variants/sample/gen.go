package main

import (
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// A gen emits one sampler function.
type gen struct{ vecgen.Gen }

// sampler holds the registers of a sampler's parameters: the polynomial,
// the running count j, the buffer's pointer and remaining length.
type sampler struct {
	a, j, p, n reg.GPVirtual
}

// params loads the polynomial pointer, j and the buffer, as the
// function's signature names the first and the third.
func params(poly, buf string) sampler {
	s := sampler{GP64(), GP64(), GP64(), GP64()}
	Load(Param(poly), s.a)
	Load(Param("j"), s.j)
	Load(Param(buf).Base(), s.p)
	Load(Param(buf).Len(), s.n)
	return s
}

// advance moves the buffer on by k bytes.
func (s sampler) advance(k int) {
	ADDQ(operand.U32(uint64(k)), s.p)
	SUBQ(operand.U32(uint64(k)), s.n)
}

// buildRej emits a sampler of XOF output ("buf") into the polynomial
// parameter poly: the tier's vector code (avx2 or avx512 by k's tier),
// then the scalar tail and the return of j.
func buildRej(k knobs, poly string, avx2, avx512 func(sampler, knobs), tail func(sampler)) {
	s := params(poly, "buf")
	if k.isa.EVEX() {
		avx512(s, k)
	} else {
		avx2(s, k)
	}
	tail(s)
	s.finish()
}

// loop emits a loop at label: on to exit unless at least bytes remain
// and j is at most maxJ (whileGroup), then body, which advances.
func (s sampler) loop(label string, bytes, maxJ int, exit string, body func()) {
	Label(label)
	s.whileGroup(bytes, maxJ, exit)
	body()
	JMP(operand.LabelRef(label))
}

// whileGroup jumps to exit unless at least bytes remain and j is at most
// maxJ.
func (s sampler) whileGroup(bytes, maxJ int, exit string) {
	CMPQ(s.n, operand.U32(uint64(bytes)))
	JB(operand.LabelRef(exit))
	CMPQ(s.j, operand.U32(uint64(maxJ)))
	JA(operand.LabelRef(exit))
}

// finish returns j.
func (s sampler) finish() {
	Label("done")
	VZEROUPPER()
	Store(s.j, ReturnIndex(0))
	RET()
}

// shuf24 returns the VPSHUFB pattern of AVX2 groups of 24 bytes loaded
// by load24, eight three-byte fields: per lane, for its four fields, the
// bytes pick(b), b the index of the field's first byte within the lane.
func shuf24(pick func(b byte) []byte) []byte {
	var shuf []byte
	for lane := range 2 {
		for i := range 4 {
			shuf = append(shuf, pick(byte(4*lane+3*i))...)
		}
	}
	return shuf
}

// load24 loads the group of 24 bytes at p into a ymm, bytes 0..15 in the
// low lane and 8..23 in the high one, and shuffles it by shufm (see
// shuf24).
func (s sampler) load24(shufm operand.Mem) reg.VecVirtual {
	x := YMM()
	VMOVDQU(operand.Mem{Base: s.p}, x.AsX())
	VINSERTI128(operand.U8(1), operand.Mem{Base: s.p, Disp: 8}, x, x)
	VPSHUFB(shufm, x, x)
	return x
}

// part starts the AVX-512 samplers' short last group, at label "part"
// (their group loop's exit): on to "tail" unless at least minBytes (one
// candidate's) remain and j is at most maxJ; it returns the opmask of the
// n bytes that remain, to load them with.
func (s sampler) part(minBytes, maxJ int) reg.Register {
	Label("part")
	CMPQ(s.n, operand.U32(uint64(minBytes)))
	JB(operand.LabelRef("tail"))
	CMPQ(s.j, operand.U32(uint64(maxJ)))
	JA(operand.LabelRef("tail"))
	lm := K()
	loadMask(s.n, lm)
	return lm
}

// avx2Consts returns the constants of an AVX2 sampler of 24-byte groups
// (load24): the VPSHUFB pattern shuf24(pick), the candidates' mask (the
// lane mask repeated) and the bound (the lane bound repeated) in a fresh
// ymm.
func (g *gen) avx2Consts(pick func(b byte) []byte, mask, bound []byte) (shufm, maskm operand.Mem, q reg.VecVirtual) {
	shufm = g.Consts.Bytes(shuf24(pick))
	maskm, q = g.Consts.Bytes(bytesRepeat(mask, 32)), YMM()
	VMOVDQU(g.Consts.Bytes(bytesRepeat(bound, 32)), q)
	return shufm, maskm, q
}

// avx512Groups is an AVX-512 sampler's group loop: groups of bytes while
// j is at most maxJ, then a short last group of at least minBytes (one
// candidate's). whole decodes a full group at p, part the group under the
// opmask lm: each returns the candidates and their acceptance mask, which
// store appends to a[j]; kmov is the opmask move of the mask's width.
type avx512Groups struct {
	bytes, maxJ, minBytes int
	whole                 func() (reg.VecVirtual, reg.Register)
	part                  func(lm reg.Register) (reg.VecVirtual, reg.Register)
	store                 func(x reg.VecVirtual, acc reg.Register)
	kmov                  func(_, _ operand.Op)
}

// groups512 emits the loop of gr over the full groups, then the short
// last group, of which store takes the accepted among the first c
// candidates, c a register that count sets from n; it returns c.
func (s sampler) groups512(gr avx512Groups, count func(c reg.GPVirtual)) reg.GPVirtual {
	s.loop("loop", gr.bytes, gr.maxJ, "part", func() {
		gr.store(gr.whole())
		s.advance(gr.bytes)
	})
	x, acc := gr.part(s.part(gr.minBytes, gr.maxJ))
	c, m := GP64(), GP64()
	count(c)
	gr.store(x, firstAccepted(acc, c, m, gr.kmov))
	return c
}

// thirds sets c = ⌊n/3⌋ = n·171 >> 9, for n < 48.
func thirds(n, c reg.GPVirtual) {
	IMUL3Q(operand.U32(171), n, c)
	SHRQ(operand.U8(9), c)
}

// firstAccepted returns an opmask of the acceptance mask acc's low c bits
// (c a register): the accepted among a short group's first c candidates,
// the others beyond the input; m is scratch, kmov the opmask move of acc's
// width (KMOVW for 16 lanes, KMOVD for 32).
func firstAccepted(acc reg.Register, c, m reg.GPVirtual, kmov func(_, _ operand.Op)) reg.Register {
	kmov(acc, m.As32())
	BZHIQ(c, m, m)
	cm := K()
	kmov(m.As32(), cm)
	return cm
}

// compress stores the lanes of x that acc selects, compacted, at a[j]
// (lanes of size bytes): by vpcompress straight to memory (compress=mem)
// or into a register stored whole by vmov (compress=reg).
func (s sampler) compress(k knobs, x reg.VecVirtual, acc reg.Register, size uint8, vpcompress, vmov func(...operand.Op)) {
	dst := operand.Mem{Base: s.a, Index: s.j, Scale: size}
	if k.compress == "mem" {
		vpcompress(x, acc, dst)
	} else {
		y := ZMM()
		vpcompress(x, acc, y)
		vmov(y, dst)
	}
}

// addCount adds the number of set bits of the acceptance mask acc to j;
// kmov is the opmask move of acc's width.
func (s sampler) addCount(acc reg.Register, kmov func(_, _ operand.Op)) {
	r := GP64()
	kmov(acc, r.As32())
	popAdd(r, s.j)
}

// idx8 is the table of acceptance masks of eight candidates: entry m
// lists the indices of m's set bits in increasing order (then zeros), as
// bytes; VPMOVZXBD makes it a VPERMD index, VPSHUFB takes it as is.
func (g *gen) idx8() operand.Mem {
	var b []byte
	for m := range 256 {
		var e [8]byte
		k := 0
		for i := range 8 {
			if m>>i&1 == 1 {
				e[k] = byte(i)
				k++
			}
		}
		b = append(b, e[:]...)
	}
	return g.Consts.Bytes(b)
}

// idxw is the table of acceptance masks of eight 16-bit lanes: entry m
// is the VPSHUFB pattern moving the words of m's set bits to the front
// (bytes 2i, 2i+1), zeros after.
func (g *gen) idxw() operand.Mem {
	var b []byte
	for m := range 256 {
		var e [16]byte
		for i := range e {
			e[i] = 0x80
		}
		k := 0
		for i := range 8 {
			if m>>i&1 == 1 {
				e[2*k], e[2*k+1] = byte(2*i), byte(2*i+1)
				k++
			}
		}
		b = append(b, e[:]...)
	}
	return g.Consts.Bytes(b)
}

// table loads the address of the constant t into a register: Go's
// assembler takes no index register on a static symbol.
func table(t operand.Mem) reg.GPVirtual {
	r := GP64()
	LEAQ(t, r)
	return r
}

// at returns the table entry at base + idx·scale (idx a 64-bit register).
func at(base, idx reg.Register, scale uint8) operand.Mem {
	return operand.Mem{Base: base, Index: idx, Scale: scale}
}

// bytesRepeat returns n bytes repeating p.
func bytesRepeat(p []byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = p[i%len(p)]
	}
	return out
}

// words returns the little-endian bytes of 16-bit values.
func words(v ...uint16) []byte {
	var b []byte
	for _, x := range v {
		b = append(b, byte(x), byte(x>>8))
	}
	return b
}

// loadMask sets k to the mask of the low n bytes (n in a register, at
// most 64): BZHI of all ones.
func loadMask(n reg.GPVirtual, k reg.Register) {
	ones, m := GP64(), GP64()
	MOVQ(operand.I32(-1), ones)
	BZHIQ(n, ones, m)
	KMOVQ(m, k)
}

// popAdd adds the number of set bits of the mask in m to j.
func popAdd(m, j reg.GPVirtual) {
	POPCNTQ(m, m)
	ADDQ(m, j)
}

var _ = bits.OnesCount
