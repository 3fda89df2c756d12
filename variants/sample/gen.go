package main

import (
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// A gen emits one sampler function.
type gen struct {
	isa *vecgen.ISA
	c   *vecgen.Consts
}

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
	return g.c.Bytes(b)
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
	return g.c.Bytes(b)
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
