package bounds

import (
	"math/bits"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The vector instructions of the word analysis: every register holds up
// to eight 64-bit lanes (xmm 2, ymm 4, zmm 8); a write zeroes the lanes
// above its width, as VEX and EVEX writes do.

// vlanes returns the lanes of a vector register or memory operand (n
// lanes).
func (a *wanalysis) vlanes(op operand.Op, n int) []wd {
	if i, size, ok := vreg(op); ok {
		if size/8 < n {
			n = size / 8
		}
		return append([]wd(nil), a.s.v[i][:n]...)
	}
	if m, ok := op.(operand.Mem); ok {
		out := make([]wd, n)
		for j := range out {
			out[j] = a.memWord(m, j)
		}
		return out
	}
	a.unproven("operand %s is not modelled", op.Asm())
	return nil
}

// vwrite writes lanes to a vector register (zeroing the rest) or to
// memory.
func (a *wanalysis) vwrite(op operand.Op, ls []wd) {
	if i, _, ok := vreg(op); ok {
		for j := range a.s.v[i] {
			a.s.v[i][j] = cwd(0)
			if j < len(ls) {
				a.s.v[i][j] = ls[j]
			}
		}
		return
	}
	if m, ok := op.(operand.Mem); ok {
		for j, w := range ls {
			a.storeWord(m, j, w)
		}
		return
	}
	a.unproven("destination %s is not modelled", op.Asm())
}

// vsize is the lane count of the instruction's vector destination (or
// of its widest vector operand, for a store).
func (a *wanalysis) vsize(in *ir.Instruction) int {
	n := 0
	for _, o := range in.Operands {
		if _, size, ok := vreg(o); ok {
			n = max(n, size/8)
		}
	}
	if n == 0 {
		a.unproven("no vector operand")
	}
	return n
}

// vstep applies a vector instruction: its masked form (an opmask before
// the destination) selects, per lane, the result or the destination's
// old lane (zero with .Z); an unknown mask joins both.
func (a *wanalysis) vstep(in *ir.Instruction) {
	ops := in.Operands
	at := -1
	for k, o := range ops {
		if r, ok := o.(reg.Register); ok && r.Kind() == reg.KindOpmask {
			at = k
		}
	}
	zeroing := false
	for _, s := range in.Suffixes {
		if s != "Z" || at < 0 {
			a.unproven("suffix %s of %s is not modelled", s, in.Opcode)
		}
		zeroing = true
	}
	if at < 0 {
		a.vop(in, ops)
		return
	}
	if at != len(ops)-2 {
		a.unproven("the masked form of %s is not modelled", in.Opcode)
	}
	dst := ops[len(ops)-1]
	di, size, ok := vreg(dst)
	if !ok {
		a.unproven("a masked store")
	}
	old := a.s.v[di]
	k := a.s.k[reg.ToPhysical(ops[at].(reg.Register)).PhysicalIndex()]
	if m, isMem := ops[0].(operand.Mem); isMem && at == 1 && k.ok && moveOp(in.Opcode) { // a masked load reads only the selected lanes
		ls := make([]wd, size/8)
		for j := range ls {
			if k.c>>uint(j)&1 != 0 {
				ls[j] = a.memWord(m, j)
			}
		}
		a.vwrite(dst, ls)
	} else {
		a.vop(in, append(append([]operand.Op(nil), ops[:at]...), dst))
	}
	for j := 0; j < size/8; j++ {
		keep := old[j]
		if zeroing {
			keep = cwd(0)
		}
		switch {
		case k.ok && k.c>>uint(j)&1 != 0:
		case k.ok:
			a.s.v[di][j] = keep
		default:
			a.s.v[di][j] = a.s.v[di][j].join(keep)
		}
	}
}

// vop applies an unmasked vector instruction.
func (a *wanalysis) vop(in *ir.Instruction, ops []operand.Op) {
	op := in.Opcode
	dst := ops[len(ops)-1]
	switch op {
	case "VMOVDQU", "VMOVDQA", "VMOVDQU64", "VMOVDQA64":
		a.vwrite(dst, a.vlanes(ops[0], a.vsize(in)))
		return
	case "VMOVQ":
		a.vmovq(ops[0], dst)
		return
	case "VPBROADCASTQ":
		var w wd
		if _, _, ok := vreg(ops[0]); ok {
			w = a.s.v[vi(ops[0])][0]
		} else {
			w = a.num(ops[0])
		}
		ls := make([]wd, a.vsize(in))
		for j := range ls {
			ls[j] = w
		}
		a.vwrite(dst, ls)
		return
	}
	n := a.vsize(in)
	switch op {
	case "VPSRLQ", "VPSLLQ":
		c, ok := imm(ops[0])
		if !ok {
			a.unproven("%s by a register count", op)
		}
		x := a.vlanes(ops[1], n)
		for j := range x {
			if op == "VPSRLQ" {
				x[j] = shrW(x[j], uint(c))
			} else {
				x[j] = shlW(x[j], uint(c))
			}
		}
		a.vwrite(dst, x)
	case "VPADDQ", "VPMULUDQ", "VPAND", "VPANDQ", "VPOR", "VPORQ", "VPXOR", "VPXORQ":
		a.velem(op, ops, n)
	case "VPMADD52LUQ", "VPMADD52HUQ":
		a.vmadd52(op, ops, n)
	case "VPUNPCKLQDQ", "VPUNPCKHQDQ":
		x, y := a.vlanes(ops[1], n), a.vlanes(ops[0], n) // src1, src2
		out := make([]wd, n)
		h := 0
		if op == "VPUNPCKHQDQ" {
			h = 1
		}
		for k := 0; k < n; k += 2 {
			out[k], out[k+1] = x[k+h], y[k+h]
		}
		a.vwrite(dst, out)
	case "VPSHUFD":
		c := a.immW(ops[0])
		if c&3%2 != 0 || c>>2&3 != c&3+1 || c>>4&3%2 != 0 || c>>6&3 != c>>4&3+1 {
			a.unproven("VPSHUFD $%#x moves dwords apart", c)
		}
		x := a.vlanes(ops[1], n)
		out := make([]wd, n)
		for k := 0; k < n; k += 2 {
			out[k], out[k+1] = x[k+int(c&3)/2], x[k+int(c>>4&3)/2]
		}
		a.vwrite(dst, out)
	case "VPERMQ":
		c := a.immW(ops[0])
		if n != 4 {
			a.unproven("VPERMQ of %d lanes", n)
		}
		x := a.vlanes(ops[1], n)
		out := make([]wd, n)
		for j := range out {
			out[j] = x[c>>(2*uint(j))&3]
		}
		a.vwrite(dst, out)
	case "VSHUFI64X2":
		c := a.immW(ops[0])
		src2, src1 := a.vlanes(ops[1], n), a.vlanes(ops[2], n)
		if n != 8 {
			a.unproven("VSHUFI64X2 of %d lanes", n)
		}
		out := make([]wd, n)
		for b := 0; b < 4; b++ {
			src := src1
			if b >= 2 {
				src = src2
			}
			s := int(c >> (2 * uint(b)) & 3)
			out[2*b], out[2*b+1] = src[2*s], src[2*s+1]
		}
		a.vwrite(dst, out)
	case "VPBLENDD":
		c := a.immW(ops[0])
		src2, src1 := a.vlanes(ops[1], n), a.vlanes(ops[2], n)
		out := make([]wd, n)
		for j := range out {
			switch c >> (2 * uint(j%4)) & 3 {
			case 0:
				out[j] = src1[j]
			case 3:
				out[j] = src2[j]
			default:
				a.unproven("VPBLENDD $%#x blends within a qword", c)
			}
		}
		a.vwrite(dst, out)
	default:
		a.unproven("instruction %s is not modelled", op)
	}
}

func vi(op operand.Op) int { i, _, _ := vreg(op); return i }

func (a *wanalysis) immW(op operand.Op) uint64 {
	c, ok := imm(op)
	if !ok {
		a.unproven("a non-immediate control operand")
	}
	return c
}

// vmovq moves a word between a general-purpose register (or memory) and
// lane 0 of a vector register.
func (a *wanalysis) vmovq(src, dst operand.Op) {
	if i, _, ok := vreg(src); ok {
		w := a.s.v[i][0]
		if di, ok := gidx(dst); ok {
			a.setG(di, gw{v: w})
			return
		}
		a.vwrite(dst, []wd{w})
		return
	}
	a.vwrite(dst, []wd{a.num(src)})
}

// velem applies an element-wise instruction of two sources (src2, src1,
// dst in Go's order).
func (a *wanalysis) velem(op string, ops []operand.Op, n int) {
	if len(ops) != 3 {
		a.unproven("%s with %d operands", op, len(ops))
	}
	y, x := a.vlanes(ops[0], n), a.vlanes(ops[1], n)
	out := make([]wd, n)
	for j := range out {
		switch op {
		case "VPADDQ":
			r, c := addW(x[j], y[j], cwd(0))
			if c != cwd(0) {
				a.overflow(j, "VPADDQ: %s + %s overflows 64 bits", x[j], y[j])
			}
			a.peak("VPADDQ sum", r.hi)
			out[j] = r
		case "VPMULUDQ":
			for _, v := range []wd{x[j], y[j]} {
				if v.hi>>32 != 0 {
					a.overflow(j, "VPMULUDQ reads the low 32 bits of a lane in %s", v)
				}
				a.peak("VPMULUDQ operand", v.hi)
			}
			_, out[j] = mulW(x[j], y[j])
		case "VPAND", "VPANDQ":
			out[j] = andW(x[j], y[j])
		case "VPOR", "VPORQ":
			out[j] = orW(x[j], y[j])
		default: // VPXOR, VPXORQ
			if sameReg(ops[0], ops[1]) {
				out[j] = cwd(0)
			} else {
				out[j] = xorW(x[j], y[j])
			}
		}
	}
	a.vwrite(ops[2], out)
}

// vmadd52 is VPMADD52LUQ/HUQ: the low or high 52 bits of the 104-bit
// product of the operands' low 52 bits added to the 64-bit lanes; an
// operand lane beyond 52 bits (whose high bits the instruction drops) or
// a sum beyond 64 bits is an overflow.
func (a *wanalysis) vmadd52(op string, ops []operand.Op, n int) {
	if len(ops) != 3 {
		a.unproven("%s with %d operands", op, len(ops))
	}
	y, x, acc := a.vlanes(ops[0], n), a.vlanes(ops[1], n), a.vlanes(ops[2], n)
	const m52 = 1<<52 - 1
	out := make([]wd, n)
	for j := range out {
		for _, v := range []wd{x[j], y[j]} {
			if v.hi > m52 {
				a.overflow(j, "%s reads the low 52 bits of a lane in %s", op, v)
			}
			a.peak("VPMADD52 operand", v.hi)
		}
		ph, pl := bits.Mul64(x[j].lo, y[j].lo)
		qh, ql := bits.Mul64(x[j].hi, y[j].hi)
		var p wd
		switch {
		case op == "VPMADD52HUQ":
			p = wd{ph<<12 | pl>>52, qh<<12 | ql>>52}
		case ph<<12|pl>>52 == qh<<12|ql>>52:
			p = wd{pl & m52, ql & m52}
		default:
			p = wd{0, m52}
		}
		r, c := addW(acc[j], p, cwd(0))
		if c != cwd(0) {
			a.overflow(j, "%s: accumulator %s plus %s overflows 64 bits", op, acc[j], p)
		}
		a.peak("VPMADD52 sum", r.hi)
		out[j] = r
	}
	a.vwrite(ops[2], out)
}

// moveOp reports whether op is a full-width vector move.
func moveOp(op string) bool {
	switch op {
	case "VMOVDQU", "VMOVDQA", "VMOVDQU64", "VMOVDQA64":
		return true
	}
	return false
}
