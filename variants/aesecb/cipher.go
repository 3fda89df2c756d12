package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// General-purpose register roles in every block function: AX points to the
// round keys, SI to src, DI to dst, CX counts blocks left, BX builds masks.

// An emitter writes the body of one block function for its config.
type emitter struct{ c config }

// vecReg returns vector register i at a width of w blocks (1: xmm, 2: ymm,
// 4: zmm).
func vecReg(w, i int) VecPhysical {
	switch w {
	case 1:
		return xs[i]
	case 2:
		return ys[i]
	}
	return zs[i]
}

// emit writes the block function: encrypt (or decrypt) len(src)/16 blocks
// of src into dst with the (nr+1)·16-byte schedule rk.
func (c config) emit() {
	TEXT(c.symbol(), NOSPLIT, "func(rk *[240]byte, dst, src []byte)")
	Doc(fmt.Sprintf("%s crypts len(src)/16 blocks of src into dst (%s, %s).", c.symbol(), c.kernel(), c.name()))
	Load(Param("rk"), RAX)
	Load(Param("dst").Base(), RDI)
	Load(Param("src").Base(), RSI)
	Load(Param("src").Len(), RCX)
	SHRQ(U8(4), RCX)
	e := emitter{c}
	w := c.isa.width
	if c.keys == "regs" {
		for r := 0; r <= c.rounds(); r++ {
			e.broadcast(w, r, vecReg(w, c.inflight+r))
		}
	}
	g := c.group()
	CMPQ(RCX, U32(g))
	JB(LabelRef("tail"))
	c.align.Emit()
	Label("loop")
	e.blocks(w, c.inflight, false)
	e.advance(g)
	CMPQ(RCX, U32(g))
	JAE(LabelRef("loop"))
	Label("tail")
	e.tail()
	if w > 1 {
		VZEROUPPER()
	}
	RET()
}

// tail handles the fewer than group() blocks left after the main loop: one
// register at a time, then the last partial register narrow or masked.
func (e emitter) tail() {
	w := e.c.isa.width
	if e.c.inflight > 1 {
		Label("single")
		CMPQ(RCX, U32(w))
		JB(LabelRef("partial"))
		e.blocks(w, 1, false)
		e.advance(w)
		JMP(LabelRef("single"))
		Label("partial")
	}
	if w == 1 {
		return
	}
	if e.c.tail == "mask" {
		e.maskedTail()
		return
	}
	for n := w / 2; n >= 1; n /= 2 {
		skip := fmt.Sprintf("narrow%d_done", n)
		CMPQ(RCX, U32(n))
		JB(LabelRef(skip))
		e.blocks(n, 1, false)
		e.advance(n)
		Label(skip)
	}
}

// maskedTail processes the last 1..w-1 blocks in one register with K1
// selecting their 2·CX quadword lanes: K1 = (1 << 2·CX) - 1.
func (e emitter) maskedTail() {
	TESTQ(RCX, RCX)
	JZ(LabelRef("done"))
	ADDQ(RCX, RCX)
	MOVL(U32(1), EBX)
	SHLL(CL, EBX)
	DECL(EBX)
	KMOVW(EBX, K1)
	e.blocks(e.c.isa.width, 1, true)
	Label("done")
}

// advance moves src and dst past n blocks and counts them off.
func (e emitter) advance(n int) {
	ADDQ(U32(16*n), RSI)
	ADDQ(U32(16*n), RDI)
	SUBQ(U32(n), RCX)
}

// blocks crypts count registers of w blocks each from (SI) to (DI):
// whitening s ^= k[0], then nr rounds, all registers interleaved per round.
func (e emitter) blocks(w, count int, masked bool) {
	k0 := e.key(w, 0)
	for i := 0; i < count; i++ {
		m := Mem{Base: RSI, Disp: 16 * w * i}
		s := vecReg(w, i)
		switch {
		case masked:
			VMOVDQU64_Z(m, K1, s)
			e.xor(w, k0, s, s)
		case e.c.whiten == "fold":
			e.xor(w, m, k0, s)
		default:
			e.load(w, m, s)
			e.xor(w, k0, s, s)
		}
	}
	nr := e.c.rounds()
	for r := 1; r <= nr; r++ {
		k := e.key(w, r)
		for i := 0; i < count; i++ {
			e.round(w, k, vecReg(w, i), r == nr)
		}
	}
	for i := 0; i < count; i++ {
		m := Mem{Base: RDI, Disp: 16 * w * i}
		if masked {
			VMOVDQU64(vecReg(w, i), K1, m)
		} else {
			e.store(w, vecReg(w, i), m)
		}
	}
}

// key returns the register holding round key r at width w: a key register
// (keys=regs) or the temporary after reloading it (keys=mem).
func (e emitter) key(w, r int) VecPhysical {
	if e.c.keys == "regs" {
		return vecReg(w, e.c.inflight+r)
	}
	t := vecReg(w, e.c.inflight)
	e.broadcast(w, r, t)
	return t
}

// broadcast loads round key r into every 128-bit lane of dst.
func (e emitter) broadcast(w, r int, dst VecPhysical) {
	m := Mem{Base: RAX, Disp: 16 * r}
	switch w {
	case 1:
		e.load(1, m, dst)
	case 2:
		VBROADCASTI128(m, dst)
	default:
		VBROADCASTI32X4(m, dst)
	}
}

// load and store move w blocks between memory and a register (move).
func (e emitter) load(w int, m Mem, dst VecPhysical) { e.move(w, m, dst) }

func (e emitter) store(w int, src VecPhysical, m Mem) { e.move(w, src, m) }

// move copies w blocks from src to dst, one of them memory: MOVOU on the
// AES-NI tier, VMOVDQU64 for zmm (four blocks), else VMOVDQU.
func (e emitter) move(w int, src, dst Op) {
	switch {
	case e.c.isa.name == aesni.name:
		MOVOU(src, dst)
	case w == 4:
		VMOVDQU64(src, dst)
	default:
		VMOVDQU(src, dst)
	}
}

// xor computes dst = a ^ b (legacy SSE: dst ^= a, with b == dst).
func (e emitter) xor(w int, a Op, b, dst VecPhysical) {
	switch {
	case e.c.isa.name == aesni.name:
		PXOR(a, dst)
	case w == 4:
		VPXORD(a, b, dst)
	default:
		VPXOR(a, b, dst)
	}
}

// round applies one AES round (AESENC: ShiftRows, SubBytes, MixColumns,
// AddRoundKey; AESDEC the inverse cipher's equivalents; the last round
// omits (Inv)MixColumns) to s with key k.
func (e emitter) round(w int, k, s VecPhysical, last bool) {
	if e.c.isa.name == aesni.name {
		switch {
		case e.c.dec && last:
			AESDECLAST(k, s)
		case e.c.dec:
			AESDEC(k, s)
		case last:
			AESENCLAST(k, s)
		default:
			AESENC(k, s)
		}
		return
	}
	switch {
	case e.c.dec && last:
		VAESDECLAST(k, s, s)
	case e.c.dec:
		VAESDEC(k, s, s)
	case last:
		VAESENCLAST(k, s, s)
	default:
		VAESENC(k, s, s)
	}
}
