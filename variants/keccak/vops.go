package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// A vgen emits vector instructions for one variant: k lanes of 64 bits per
// register, one per state (NR = 1 uses the low lane of an xmm register).
type vgen struct {
	v    variant
	k    int  // states per register: NR, or 4 when AVX2 computes 8 states as two groups
	w    int  // bytes per register: 16, 32 or 64
	evex bool // AVX-512 encodings (32 registers, VPROLQ, VPTERNLOGQ)
	p    *pool
}

func newVgen(v variant) *vgen {
	g := &vgen{v: v, k: v.nr, evex: v.isa != "avx2"}
	if !g.evex {
		g.k = min(v.nr, 4) // a ymm register holds 4 lanes of 64 bits
	}
	g.w = 8 * g.k
	if g.w < 16 {
		g.w = 16
	}
	n := 16
	if g.evex {
		n = 32
	}
	g.p = newPool(n)
	return g
}

// r returns physical register n at the variant's width.
func (g *vgen) r(n int) reg.VecPhysical {
	switch g.w {
	case 16:
		return xregs[n]
	case 32:
		return yregs[n]
	}
	return zregs[n]
}

// load loads one lane vector (8 bytes when NR = 1).
func (g *vgen) load(dst int, m Mem) {
	switch {
	case g.v.nr == 1:
		VMOVQ(m, g.r(dst))
	case g.evex:
		VMOVDQU64(m, g.r(dst))
	default:
		VMOVDQU(m, g.r(dst))
	}
}

// store stores one lane vector (8 bytes when NR = 1).
func (g *vgen) store(src int, m Mem) {
	switch {
	case g.v.nr == 1:
		VMOVQ(g.r(src), m)
	case g.evex:
		VMOVDQU64(g.r(src), m)
	default:
		VMOVDQU(g.r(src), m)
	}
}

func (g *vgen) mov(dst, src int) {
	if g.evex {
		VMOVDQA64(g.r(src), g.r(dst))
	} else {
		VMOVDQA(g.r(src), g.r(dst))
	}
}

// xor: dst = a ^ b; b is a register number or a Mem.
func (g *vgen) xor(dst, a int, b any) {
	var op Op
	switch b := b.(type) {
	case int:
		op = g.r(b)
	case Mem:
		op = b
	}
	if g.evex {
		VPXORQ(op, g.r(a), g.r(dst))
	} else {
		VPXOR(op, g.r(a), g.r(dst))
	}
}

// andn: dst = ^a & b.
func (g *vgen) andn(dst, a, b int) {
	if g.evex {
		VPANDNQ(g.r(b), g.r(a), g.r(dst))
	} else {
		VPANDN(g.r(b), g.r(a), g.r(dst))
	}
}

func (g *vgen) or(dst, a, b int) {
	if g.evex {
		VPORQ(g.r(b), g.r(a), g.r(dst))
	} else {
		VPOR(g.r(b), g.r(a), g.r(dst))
	}
}

// Truth tables of VPTERNLOGQ with A = dst (0xf0), B (0xcc), C (0xaa).
const (
	ternXor3 = 0x96 // A ^ B ^ C
	ternChi  = 0xd2 // A ^ (^B & C)
)

// tern: dst = f(dst, b, c) for the truth table imm.
func (g *vgen) tern(imm uint8, dst, b, c int) {
	VPTERNLOGQ(U8(imm), g.r(c), g.r(b), g.r(dst))
}

// rol: dst = src <<< n (rotation left of every 64-bit lane); dst may equal src.
func (g *vgen) rol(dst, src, n int) {
	if n == 0 {
		if dst != src {
			g.mov(dst, src)
		}
		return
	}
	if g.v.rot == "prol" {
		VPROLQ(U8(n), g.r(src), g.r(dst))
		return
	}
	t := g.p.alloc()
	VPSRLQ(U8(64-n), g.r(src), g.r(t))
	VPSLLQ(U8(n), g.r(src), g.r(dst))
	g.or(dst, dst, t)
	g.p.release(t)
}
