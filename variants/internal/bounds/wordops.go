package bounds

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The instruction semantics of the word analysis. Operands are in Go's
// order: sources first, the destination last.

// Physical indices of the implicit registers of MULQ and MULXQ.
const (
	regAX = 0
	regDX = 2
)

// addW is x + y + c over unsigned words and its carry: exact where every
// sum carries alike, else any word with a carry of 0 or 1.
func addW(x, y, c wd) (wd, wd) {
	lo, c1 := bits.Add64(x.lo, y.lo, c.lo)
	hi, c2 := bits.Add64(x.hi, y.hi, c.hi)
	if c1 != c2 {
		return anyWd, wd{0, 1}
	}
	return wd{lo, hi}, cwd(c1)
}

// subW is x − y − b and its borrow, likewise.
func subW(x, y, b wd) (wd, wd) {
	lo, b1 := bits.Sub64(x.lo, y.hi, b.hi)
	hi, b2 := bits.Sub64(x.hi, y.lo, b.lo)
	if b1 != b2 {
		return anyWd, wd{0, 1}
	}
	return wd{lo, hi}, cwd(b1)
}

// mulW is the 128-bit product x·y as its high and low words.
func mulW(x, y wd) (hi, lo wd) {
	h1, l1 := bits.Mul64(x.lo, y.lo)
	h2, l2 := bits.Mul64(x.hi, y.hi)
	if h1 != h2 {
		return wd{h1, h2}, anyWd
	}
	return wd{h1, h2}, wd{l1, l2}
}

// shlW is x << s (any word if bits may be shifted out: the radix
// conversions drop them on purpose and mask after).
func shlW(x wd, s uint) wd {
	if s >= 64 {
		return cwd(0)
	}
	if x.isConst() {
		return cwd(x.lo << s)
	}
	if x.hi>>(64-s) != 0 && s > 0 {
		return anyWd
	}
	return wd{x.lo << s, x.hi << s}
}

func shrW(x wd, s uint) wd {
	if s >= 64 {
		return cwd(0)
	}
	return wd{x.lo >> s, x.hi >> s}
}

func andW(x, y wd) wd {
	if x.isConst() && y.isConst() {
		return cwd(x.lo & y.lo)
	}
	return wd{0, min(x.hi, y.hi)}
}

// orW bounds x | y: at least the larger lower bound, at most the
// all-ones word covering both upper bounds (exact for constants and a
// constant zero operand).
func orW(x, y wd) wd {
	switch {
	case x.isConst() && y.isConst():
		return cwd(x.lo | y.lo)
	case x == cwd(0):
		return y
	case y == cwd(0):
		return x
	}
	return wd{max(x.lo, y.lo), ones(x.hi | y.hi)}
}

func xorW(x, y wd) wd {
	if x.isConst() && y.isConst() {
		return cwd(x.lo ^ y.lo)
	}
	return wd{0, ones(x.hi | y.hi)}
}

// step applies one instruction that is neither a branch nor a return.
func (a *wanalysis) step(in *ir.Instruction) {
	op := in.Opcode
	switch {
	case op == "PCALIGN" || op == "BYTE" || op == "NOP": // asmalign's padding: NOP bytes
		return
	case op == "VZEROUPPER":
		for i := 0; i < 16; i++ {
			for j := 2; j < 8; j++ {
				a.s.v[i][j] = cwd(0)
			}
		}
		return
	case op == "KMOVW" || op == "KMOVB" || op == "KMOVD" || op == "KMOVQ":
		a.kmov(in)
		return
	case strings.HasPrefix(op, "V"):
		a.vstep(in)
		return
	}
	if len(in.Suffixes) > 0 {
		a.unproven("suffixes %v are not modelled", in.Suffixes)
	}
	a.gstep(in)
}

// readCF marks the carry read (an ADCQ, SBBQ, CMOV, JB) and returns it.
func (a *wanalysis) readCF() wd {
	a.s.cf.at = -1
	return a.s.cf.v
}

func (a *wanalysis) readOF() wd {
	a.s.of.at = -1
	return a.s.of.v
}

// setCF writes the carry flag: a pending carry of an earlier addition,
// unread, is lost (Overflow at that addition). pending marks v as an
// addition's carry that may be 1.
func (a *wanalysis) setCF(v wd, pending bool) {
	if a.s.cf.at >= 0 {
		a.overflowAt(a.s.cf.at, -1, "the carry out of this addition is lost: instruction %d (%s) overwrites it unread", a.i, in2s(a.insts[a.i]))
	}
	a.s.cf = flg{v: v, at: -1}
	if pending && v.hi == 1 {
		a.s.cf.at = a.i
	}
	if a.s.c.kind == "cmp" { // CF no longer CMPQ's
		a.s.c = cond{}
	}
}

func (a *wanalysis) setOF(v wd, pending bool) {
	if a.s.of.at >= 0 {
		a.overflowAt(a.s.of.at, -1, "the overflow-flag carry of this addition is lost: instruction %d (%s) overwrites it unread", a.i, in2s(a.insts[a.i]))
	}
	a.s.of = flg{v: v, at: -1}
	if pending && v.hi == 1 {
		a.s.of.at = a.i
	}
}

// arithFlags writes CF and OF of an instruction whose flags carry no
// addition's carry (logic, shifts, multiplies, compares), ZF from res.
func (a *wanalysis) arithFlags(cf wd, res wd) {
	a.setCF(cf, false)
	a.setOF(wd{0, 1}, false)
	a.setZF(res)
}

func (a *wanalysis) setZF(res wd) {
	switch {
	case res == cwd(0):
		a.s.zf = cwd(1)
	case res.lo > 0:
		a.s.zf = cwd(0)
	default:
		a.s.zf = wd{0, 1}
	}
	a.s.c = cond{}
}

func in2s(in *ir.Instruction) string {
	s := in.Opcode
	for i, o := range in.Operands {
		if i == 0 {
			s += " "
		} else {
			s += ", "
		}
		s += o.Asm()
	}
	return s
}

// gidx returns the index of a general-purpose register operand.
func gidx(op operand.Op) (int, bool) {
	r, ok := op.(reg.Register)
	if !ok {
		return 0, false
	}
	return gpIndex(r)
}

// setG writes general-purpose register i (a recorded condition on it no
// longer holds).
func (a *wanalysis) setG(i int, g gw) {
	a.s.g[i] = g
	if a.s.c.kind != "" && a.s.c.reg == i {
		a.s.c = cond{}
	}
}

// num returns the number an operand holds: an immediate, a register that
// is no pointer or a word of memory.
func (a *wanalysis) num(op operand.Op) wd {
	if v, ok := imm(op); ok {
		return cwd(v)
	}
	if i, ok := gidx(op); ok {
		g := a.s.g[i]
		if g.ptr {
			a.unproven("a pointer (%s) used as a value", op.Asm())
		}
		return g.v
	}
	if m, ok := op.(operand.Mem); ok {
		if m.Base != nil && m.Base.Asm() == "FP" {
			g := a.param(m)
			if g.ptr {
				a.unproven("a pointer parameter (%s) used as a value", m.Asm())
			}
			return g.v
		}
		return a.memWord(m, 0)
	}
	a.unproven("operand %s is not modelled", op.Asm())
	return wd{}
}

// addrOf resolves a memory operand to a region and an offset (offOK
// false: unknown).
func (a *wanalysis) addrOf(m operand.Mem) (string, int64, bool) {
	if m.Base == nil {
		a.unproven("an absolute address")
	}
	switch m.Base.Asm() {
	case "SB":
		if _, ok := a.data[m.Symbol.Name]; !ok {
			a.unproven("a load of %s, which is no DATA section", m.Asm())
		}
		if m.Index != nil {
			a.unproven("an indexed DATA access")
		}
		return m.Symbol.Name, int64(m.Disp), true
	case "SP":
		if m.Index != nil {
			a.unproven("an indexed stack access")
		}
		return "(SP)", int64(m.Disp), true
	case "FP":
		a.unproven("an access to %s outside MOVQ", m.Asm())
	}
	i, _ := gidx(m.Base)
	g := a.s.g[i]
	if !g.ptr {
		a.unproven("an address through %s, which holds no pointer", m.Base.Asm())
	}
	off, ok := g.off+int64(m.Disp), g.offOK
	if m.Index != nil {
		x := a.num(m.Index)
		if !x.isConst() || x.lo > 1<<32 {
			ok = false
		} else {
			off += int64(x.lo) * int64(m.Scale)
		}
	}
	return g.region, off, ok
}

// memWord is the 8-byte word at m + 8·j.
func (a *wanalysis) memWord(m operand.Mem, j int) wd {
	region, off, ok := a.addrOf(m)
	return a.wordAt(region, off+int64(8*j), ok)
}

func (a *wanalysis) wordAt(region string, off int64, ok bool) wd {
	if p, isArg := a.c.Arg(region); isArg && p.Bytes {
		if a.msg == nil || !ok {
			return anyWd // the message: any bytes
		}
		if off < 0 || off+8 > int64(len(a.msg)) {
			a.unproven("a load of %s+%d past its %d bytes", region, off, len(a.msg))
		}
		return cwd(binary.LittleEndian.Uint64(a.msg[off:]))
	}
	if b, isData := a.data[region]; isData {
		if !ok || off < 0 || off+8 > int64(len(b)) {
			a.unproven("a load outside DATA %s", region)
		}
		return cwd(binary.LittleEndian.Uint64(b[off:]))
	}
	if !ok {
		a.unproven("a load of %s at an unknown offset", region)
	}
	w, stored := a.s.mem[region][off]
	if !stored {
		a.unproven("a read of %s+%d, which nothing wrote and no contract covers", region, off)
	}
	return w
}

// storeWord writes the word at region+off.
func (a *wanalysis) storeWord(m operand.Mem, j int, w wd) {
	region, off, ok := a.addrOf(m)
	off += int64(8 * j)
	if _, isData := a.data[region]; isData {
		a.unproven("a store to DATA %s", region)
	}
	if p, isArg := a.c.Arg(region); isArg && p.Bytes {
		a.unproven("a store into the message")
	}
	if !ok || off%8 != 0 {
		a.unproven("a store to %s at an unknown or unaligned offset", region)
	}
	if a.s.mem[region] == nil {
		a.s.mem[region] = map[int64]wd{}
	}
	if a.s.last[region] == nil {
		a.s.last[region] = map[int64]int{}
	}
	a.s.mem[region][off] = w
	a.s.last[region][off] = a.i
}

// param loads a parameter (MOVQ name+off(FP), reg).
func (a *wanalysis) param(m operand.Mem) gw {
	name := m.Symbol.Name
	switch {
	case strings.HasSuffix(name, "_base"):
		return gw{ptr: true, region: strings.TrimSuffix(name, "_base"), offOK: true}
	case strings.HasSuffix(name, "_len"), strings.HasSuffix(name, "_cap"):
		if a.msg != nil {
			return gw{v: cwd(uint64(len(a.msg)))}
		}
		return gw{v: wd{0, math.MaxInt64}} // any length a Go slice has
	}
	p, ok := a.c.Arg(name)
	if !ok {
		a.unproven("parameter %s has no contract", name)
	}
	if p.Scalar != nil {
		return gw{v: wd{p.Scalar.Lo, p.Scalar.Hi}}
	}
	return gw{ptr: true, region: name, offOK: true}
}

// gstep applies a general-purpose instruction.
func (a *wanalysis) gstep(in *ir.Instruction) {
	ops := in.Operands
	op := in.Opcode
	last := ops[len(ops)-1]
	di, dreg := gidx(last)
	switch op {
	case "MOVQ":
		a.movq(ops[0], last)
		return
	case "MOVBQZX":
		m, ok := ops[0].(operand.Mem)
		if !ok || !dreg {
			a.unproven("MOVBQZX of %s", ops[0].Asm())
		}
		region, off, known := a.addrOf(m)
		if p, isArg := a.c.Arg(region); !isArg || !p.Bytes {
			a.unproven("a byte load of %s", region)
		}
		b := wd{0, 255}
		if a.msg != nil && known {
			if off < 0 || off >= int64(len(a.msg)) {
				a.unproven("a load of %s+%d past its %d bytes", region, off, len(a.msg))
			}
			b = cwd(uint64(a.msg[off]))
		}
		a.setG(di, gw{v: b})
		return
	case "CMOVQCC":
		c := a.readCF()
		x, y := a.num(ops[0]), a.num(last)
		switch c {
		case cwd(0):
			a.setG(di, gw{v: x})
		case cwd(1):
		default:
			a.setG(di, gw{v: x.join(y)})
		}
		return
	case "LEAQ":
		a.leaq(ops[0].(operand.Mem), di)
		return
	case "MULQ":
		hi, lo := mulW(a.num(gpOp(regAX)), a.num(ops[0]))
		a.setG(regAX, gw{v: lo})
		a.setG(regDX, gw{v: hi})
		a.arithFlags(wd{0, 1}, wd{0, 1})
		return
	case "MULXQ": // MULXQ src, lo, hi: hi:lo = RDX·src, no flags
		hi, lo := mulW(a.num(gpOp(regDX)), a.num(ops[0]))
		li, _ := gidx(ops[1])
		a.setG(li, gw{v: lo})
		a.setG(di, gw{v: hi})
		return
	case "CMPQ":
		x, y := a.num(ops[0]), a.num(ops[1])
		r, b := subW(x, y, cwd(0))
		a.arithFlags(b, r)
		if i, ok := gidx(ops[0]); ok {
			a.s.c = cond{kind: "cmp", reg: i, y: y}
		}
		return
	case "TESTQ":
		x, y := a.num(ops[0]), a.num(ops[1])
		a.arithFlags(cwd(0), andW(x, y))
		if i, ok := gidx(ops[0]); ok && sameReg(ops[0], ops[1]) {
			a.s.c = cond{kind: "zero", reg: i}
		}
		return
	}
	if !dreg {
		a.unproven("%s into %s is not modelled", op, last.Asm())
	}
	g := a.s.g[di]
	if g.ptr {
		a.pointerArith(in, di)
		return
	}
	x := g.v
	switch op {
	case "ADDQ", "ADCQ", "ADCXQ", "ADOXQ":
		y := a.num(ops[0])
		c := cwd(0)
		switch op {
		case "ADCQ", "ADCXQ":
			c = a.readCF()
		case "ADOXQ":
			c = a.readOF()
		}
		r, carry := addW(x, y, c)
		a.setG(di, gw{v: r})
		switch op {
		case "ADCXQ":
			a.setCF(carry, true)
		case "ADOXQ":
			a.setOF(carry, true)
		default:
			a.setCF(carry, true)
			a.setOF(wd{0, 1}, false)
			a.setZF(r)
		}
	case "SUBQ", "SBBQ":
		b := cwd(0)
		if op == "SBBQ" {
			b = a.readCF()
		}
		r, borrow := subW(x, a.num(ops[0]), b)
		a.setG(di, gw{v: r})
		a.arithFlags(borrow, r)
		a.s.c = cond{kind: "zero", reg: di}
	case "DECQ", "INCQ":
		var r wd
		if op == "DECQ" {
			r, _ = subW(x, cwd(1), cwd(0))
		} else {
			r, _ = addW(x, cwd(1), cwd(0))
		}
		a.setG(di, gw{v: r})
		a.setOF(wd{0, 1}, false) // CF is kept
		a.setZF(r)
		a.s.c = cond{kind: "zero", reg: di}
	case "IMULQ":
		a.imulq(in, di)
	case "SHRQ", "SHLQ":
		a.shift(in, di)
	case "ANDQ", "ORQ", "XORQ":
		y := a.num(ops[0])
		var r wd
		switch {
		case op == "ANDQ":
			r = andW(x, y)
		case op == "ORQ":
			r = orW(x, y)
		case sameReg(ops[0], last):
			r = cwd(0)
		default:
			r = xorW(x, y)
		}
		a.setG(di, gw{v: r})
		a.arithFlags(cwd(0), r)
		a.s.of.v = cwd(0)
	default:
		a.unproven("instruction %s is not modelled", op)
	}
}

// gpOp is the implicit register of index i (AX or DX).
func gpOp(i int) operand.Op {
	if i == regAX {
		return reg.RAX
	}
	return reg.RDX
}

// movq moves a word between registers, memory and parameters.
func (a *wanalysis) movq(src, dst operand.Op) {
	if m, ok := dst.(operand.Mem); ok {
		if i, ok := gidx(src); ok && a.s.g[i].ptr {
			a.unproven("a pointer stored to memory")
		}
		a.storeWord(m, 0, a.num(src))
		return
	}
	di, ok := gidx(dst)
	if !ok {
		a.unproven("MOVQ into %s is not modelled", dst.Asm())
	}
	if m, ok := src.(operand.Mem); ok && m.Base != nil && m.Base.Asm() == "FP" {
		a.setG(di, a.param(m))
		return
	}
	if i, ok := gidx(src); ok {
		a.setG(di, a.s.g[i])
		return
	}
	a.setG(di, gw{v: a.num(src)})
}

// pointerArith adds to or subtracts from a pointer (the message pointer
// advancing, the front padding of tail=vector): its offset, or unknown.
func (a *wanalysis) pointerArith(in *ir.Instruction, di int) {
	g := a.s.g[di]
	switch in.Opcode {
	case "ADDQ", "SUBQ", "DECQ", "INCQ":
	default:
		a.unproven("%s of a pointer", in.Opcode)
	}
	d := cwd(1)
	if in.Opcode == "ADDQ" || in.Opcode == "SUBQ" {
		d = a.num(in.Operands[0])
	}
	if !d.isConst() || d.lo > 1<<32 {
		g.offOK = false
	} else if in.Opcode == "ADDQ" || in.Opcode == "INCQ" {
		g.off += int64(d.lo)
	} else {
		g.off -= int64(d.lo)
	}
	a.setG(di, g)
	a.arithFlags(wd{0, 1}, wd{1, math.MaxUint64})
}

// leaq computes an address: a pointer's offset, or base + index·scale +
// disp of numbers (the ×5 of a carry, c + 4c), which must not wrap.
func (a *wanalysis) leaq(m operand.Mem, di int) {
	if m.Base != nil && (m.Base.Asm() == "SP" || m.Base.Asm() == "SB") {
		region, off, ok := a.addrOf(m)
		a.setG(di, gw{ptr: true, region: region, off: off, offOK: ok})
		return
	}
	if m.Base == nil {
		a.unproven("LEAQ without a base")
	}
	bi, _ := gidx(m.Base)
	if a.s.g[bi].ptr {
		region, off, ok := a.addrOf(m)
		a.setG(di, gw{ptr: true, region: region, off: off, offOK: ok})
		return
	}
	v := a.s.g[bi].v
	if m.Index != nil {
		hi, lo := mulW(a.num(m.Index), cwd(uint64(m.Scale)))
		if hi != cwd(0) {
			a.overflow(-1, "LEAQ: the scaled index %s·%d overflows 64 bits", a.num(m.Index), m.Scale)
		}
		var c wd
		if v, c = addW(v, lo, cwd(0)); c != cwd(0) {
			a.overflow(-1, "LEAQ: base + index·scale may wrap")
		}
	}
	if m.Disp != 0 {
		var c wd
		if v, c = addW(v, cwd(uint64(int64(m.Disp))), cwd(0)); m.Disp > 0 && c != cwd(0) {
			a.overflow(-1, "LEAQ: + %d may wrap", m.Disp)
		}
	}
	a.setG(di, gw{v: v})
}

// imulq is the truncated product, which must not be truncated: its
// operands' bounds multiply below 2^64.
func (a *wanalysis) imulq(in *ir.Instruction, di int) {
	ops := in.Operands
	var x, y wd
	switch len(ops) {
	case 2:
		x, y = a.num(ops[0]), a.s.g[di].v
	case 3:
		x, y = a.num(ops[0]), a.num(ops[1])
	default:
		a.unproven("IMULQ with %d operands", len(ops))
	}
	hi, lo := mulW(x, y)
	if hi != cwd(0) {
		a.overflow(-1, "IMULQ: %s · %s does not fit 64 bits (the product is truncated)", x, y)
	}
	a.peak("IMULQ product", lo.hi)
	a.setG(di, gw{v: lo})
	a.arithFlags(wd{0, 1}, lo)
}

// shift is SHRQ/SHLQ by an immediate, of one register or funnelled from
// a second (SHRD, SHLD).
func (a *wanalysis) shift(in *ir.Instruction, di int) {
	ops := in.Operands
	c, ok := imm(ops[0])
	if !ok {
		a.unproven("a shift by a register count")
	}
	s := uint(c & 63)
	x := a.s.g[di].v
	var r wd
	if in.Opcode == "SHRQ" {
		r = shrW(x, s)
		if len(ops) == 3 && s > 0 {
			r = orW(r, shlW(a.num(ops[1]), 64-s))
		}
	} else {
		r = shlW(x, s)
		if len(ops) == 3 && s > 0 {
			r = orW(r, shrW(a.num(ops[1]), 64-s))
		}
	}
	a.setG(di, gw{v: r})
	a.arithFlags(wd{0, 1}, r)
}

// kmov loads an opmask: a constant from an immediate or a register
// holding one, else unknown (the masks fm of tail=vector).
func (a *wanalysis) kmov(in *ir.Instruction) {
	dst, ok := in.Operands[1].(reg.Register)
	if !ok || dst.Kind() != reg.KindOpmask {
		a.unproven("%s into %s", in.Opcode, in.Operands[1].Asm())
	}
	k := int(reg.ToPhysical(dst).PhysicalIndex())
	a.s.k[k] = kmask{}
	if m, ok := in.Operands[0].(operand.Mem); ok {
		region, off, known := a.addrOf(m)
		if w, stored := a.s.mem[region][off&^7]; known && stored && w.isConst() {
			a.s.k[k] = kmask{c: w.lo >> (8 * uint(off&7)) & 0xffff, ok: true}
		}
		return // else a mask of any value
	}
	if v := a.num(in.Operands[0]); v.isConst() {
		a.s.k[k] = kmask{c: v.lo, ok: true}
	}
}
