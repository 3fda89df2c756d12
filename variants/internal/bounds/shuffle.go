package bounds

import (
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// shuffle applies a data movement (shuffle, blend, permute, broadcast,
// insert, extract) as a map of destination bytes to source bytes; it
// reports whether in is one.
func (a *analysis) shuffle(in *ir.Instruction) bool {
	ops := in.Operands
	last := ops[len(ops)-1]
	n := a.size(in)
	if _, dn, ok := vreg(last); ok {
		n = dn
	}
	src := func(k int) []cell { // 64 cells; a memory operand's beyond n unwritten
		if _, ok := ops[k].(operand.Mem); ok {
			return append(a.read(ops[k], n), make([]cell, 64-n)...)
		}
		return a.read(ops[k], 64)
	}
	out := make([]cell, n)
	zc := cell{l: zero, w: 1}
	set := func(f func(d int) cell) {
		for d := range out {
			out[d] = f(d)
		}
		a.write(last, out)
	}
	switch in.Opcode {
	case "VPUNPCKLWD", "VPUNPCKHWD", "VPUNPCKLDQ", "VPUNPCKHDQ", "VPUNPCKLQDQ", "VPUNPCKHQDQ", "VPUNPCKLBW", "VPUNPCKHBW":
		g := map[string]int{"BW": 1, "WD": 2, "DQ": 4, "QDQ": 8}[in.Opcode[8:]]
		high := in.Opcode[7] == 'H'
		s1, s2 := src(1), src(0)
		set(func(d int) cell {
			blk, off := d/16*16, d%16
			e, k := off/g, off%g
			from := e / 2 * g
			if high {
				from += 8
			}
			if e%2 == 0 {
				return s1[blk+from+k]
			}
			return s2[blk+from+k]
		})
	case "VPERM2I128", "VPERM2F128":
		c := a.immOf(ops[0])
		s1, s2 := src(2), src(1)
		set(func(d int) cell {
			sel := c >> (4 * uint(d/16)) & 0xf
			if sel&8 != 0 {
				return zc
			}
			s := s1
			if sel&2 != 0 {
				s = s2
			}
			return s[int(sel&1)*16+d%16]
		})
	case "VSHUFI64X2", "VSHUFI32X4", "VSHUFF64X2", "VSHUFF32X4":
		c := a.immOf(ops[0])
		s1, s2 := src(2), src(1)
		blocks := n / 16
		bits := uint(2)
		if blocks == 2 {
			bits = 1
		}
		set(func(d int) cell {
			b := d / 16
			sel := int(c>>(bits*uint(b))) & (1<<bits - 1)
			s := s1
			if b >= blocks/2 {
				s = s2
			}
			return s[sel*16+d%16]
		})
	case "VPBLENDD", "VPBLENDW":
		c := a.immOf(ops[0])
		g := 4
		if in.Opcode == "VPBLENDW" {
			g = 2
		}
		s1, s2 := src(2), src(1)
		set(func(d int) cell {
			if c>>(uint(d/g)%8)&1 != 0 {
				return s2[d]
			}
			return s1[d]
		})
	case "VPBLENDMB", "VPBLENDMW", "VPBLENDMD", "VPBLENDMQ":
		g := map[byte]int{'B': 1, 'W': 2, 'D': 4, 'Q': 8}[in.Opcode[8]]
		k := a.kmask(ops[2])
		s1, s2 := src(1), src(0)
		set(func(d int) cell {
			if k>>uint(d/g)&1 != 0 {
				return s2[d]
			}
			return s1[d]
		})
	case "VSHUFPS":
		c := a.immOf(ops[0])
		s1, s2 := src(2), src(1)
		set(func(d int) cell {
			blk, e, k := d/16*16, d%16/4, d%4
			sel := int(c>>(2*uint(e))) & 3
			if e < 2 {
				return s1[blk+sel*4+k]
			}
			return s2[blk+sel*4+k]
		})
	case "VPSHUFD":
		c := a.immOf(ops[0])
		s1 := src(1)
		set(func(d int) cell {
			blk, e, k := d/16*16, d%16/4, d%4
			return s1[blk+int(c>>(2*uint(e))&3)*4+k]
		})
	case "VMOVSLDUP", "VMOVSHDUP":
		s1 := src(0)
		up := 0
		if in.Opcode == "VMOVSHDUP" {
			up = 4
		}
		set(func(d int) cell { return s1[d/8*8+up+d%4] })
	case "VPROLD", "VPROLQ":
		c := a.immOf(ops[0])
		g := 4
		if in.Opcode == "VPROLQ" {
			g = 8
		}
		if c%8 != 0 {
			a.unproven("%s by %d bits is not modelled", in.Opcode, c)
		}
		by := int(c / 8)
		s1 := src(1)
		set(func(d int) cell { return s1[d/g*g+((d%g-by)%g+g)%g] })
	case "VPSLLDQ", "VPSRLDQ":
		c := int(a.immOf(ops[0]))
		s1 := src(1)
		set(func(d int) cell {
			from := d%16 - c
			if in.Opcode == "VPSRLDQ" {
				from = d%16 + c
			}
			if from < 0 || from >= 16 {
				return zc
			}
			return s1[d/16*16+from]
		})
	case "VPERMI2B", "VPERMI2W", "VPERMI2D", "VPERMI2Q", "VPERMT2B", "VPERMT2W", "VPERMT2D", "VPERMT2Q":
		g := map[byte]int{'B': 1, 'W': 2, 'D': 4, 'Q': 8}[in.Opcode[7]]
		idx := a.indices(src(2), n, g)
		tA, tB := src(1), src(0)
		if in.Opcode[5] == 'T' { // VPERMT2: the index is the middle operand, the first table the destination
			idx = a.indices(src(1), n, g)
			tA = src(2)
		}
		cnt := n / g
		set(func(d int) cell {
			ix := idx[d/g] % (2 * cnt)
			t := tA
			if ix >= cnt {
				t, ix = tB, ix-cnt
			}
			return t[ix*g+d%g]
		})
	case "VPERMB", "VPERMW", "VPERMD", "VPERMQ", "VPERMPS":
		g := map[byte]int{'B': 1, 'W': 2, 'D': 4, 'Q': 8, 'P': 4}[in.Opcode[5]]
		cnt := n / g
		var idx []int
		var tab []cell
		if c, ok := imm(ops[0]); ok { // VPERMQ $imm: within each 256-bit half
			tab = src(1)
			idx = make([]int, cnt)
			for e := range idx {
				idx[e] = e/4*4 + int(c>>(2*uint(e%4))&3)
			}
		} else {
			idx, tab = a.indices(src(1), n, g), src(0)
		}
		set(func(d int) cell { return tab[(idx[d/g]%cnt)*g+d%g] })
	case "VPSHUFB":
		ctl := a.indices(src(0), n, 1)
		s1 := src(1)
		set(func(d int) cell {
			if ctl[d]&0x80 != 0 {
				return zc
			}
			return s1[d/16*16+ctl[d]&15]
		})
	case "VPBROADCASTB", "VPBROADCASTW", "VPBROADCASTD", "VPBROADCASTQ", "VBROADCASTI128", "VBROADCASTI32X4", "VBROADCASTI64X4", "VBROADCASTI64X2", "VBROADCASTSS":
		g := map[string]int{"VPBROADCASTB": 1, "VPBROADCASTW": 2, "VPBROADCASTD": 4, "VPBROADCASTQ": 8, "VBROADCASTSS": 4,
			"VBROADCASTI128": 16, "VBROADCASTI32X4": 16, "VBROADCASTI64X2": 16, "VBROADCASTI64X4": 32}[in.Opcode]
		if _, _, ok := vreg(ops[0]); !ok && len(ops) == 2 {
			s1 := a.read(ops[0], g)
			set(func(d int) cell { return s1[d%g] })
			break
		}
		if len(ops) != 2 {
			return false
		}
		s1 := src(0)
		set(func(d int) cell { return s1[d%g] })
	case "VINSERTI128", "VINSERTI32X4", "VINSERTI64X2", "VINSERTI64X4", "VINSERTI32X8":
		g := 16
		if in.Opcode == "VINSERTI64X4" || in.Opcode == "VINSERTI32X8" {
			g = 32
		}
		c := int(a.immOf(ops[0]))
		ins := a.read(ops[1], g)
		s1 := src(2)
		set(func(d int) cell {
			if d/g == c%(n/g) {
				return ins[d%g]
			}
			return s1[d]
		})
	case "VPINSRB", "VPINSRW", "VPINSRD", "VPINSRQ":
		g := map[byte]int{'B': 1, 'W': 2, 'D': 4, 'Q': 8}[in.Opcode[6]]
		if len(ops) != 4 || n != 16 {
			return false
		}
		if _, isMem := ops[1].(operand.Mem); !isMem {
			return false // from a general-purpose register: not modelled
		}
		c := int(a.immOf(ops[0])) % (16 / g)
		ins := a.read(ops[1], g)
		s1 := src(2)
		set(func(d int) cell {
			if d/g == c {
				return ins[d%g]
			}
			return s1[d]
		})
	case "VMOVQ": // the low qword, the rest of the destination zeroed
		_, isMem := ops[0].(operand.Mem)
		if _, _, isV := vreg(ops[0]); !isMem && !isV || len(ops) != 2 {
			return false
		}
		if _, _, isV := vreg(ops[1]); !isV {
			if _, isMem := ops[1].(operand.Mem); !isMem {
				return false
			}
		}
		a.write(last, a.read(ops[0], 8))
	case "VEXTRACTI128", "VEXTRACTI32X4", "VEXTRACTI64X2", "VEXTRACTI64X4", "VEXTRACTI32X8":
		g := 16
		if in.Opcode == "VEXTRACTI64X4" || in.Opcode == "VEXTRACTI32X8" {
			g = 32
		}
		c := int(a.immOf(ops[0]))
		s1 := src(1)
		part := make([]cell, g)
		for d := range part {
			part[d] = s1[c*g+d]
		}
		a.write(last, part)
	default:
		return false
	}
	return true
}

// indices reads the constant element indices of a control vector.
func (a *analysis) indices(cs []cell, n, g int) []int {
	idx := make([]int, n/g)
	for e := range idx {
		l := a.assemble(cs[e*g:(e+1)*g], g)
		if !l.isConst() {
			a.unproven("a permute whose indices are not constants")
		}
		idx[e] = int(uint64(l.lo) & (1<<(8*uint(g)) - 1))
		if g == 8 {
			idx[e] = int(l.lo & 0xff)
		}
	}
	return idx
}

// bitwise models the bitwise operations: a register with itself
// (zeroing idioms and copies), constants, and AND and ANDN lane by
// lane.
func (a *analysis) bitwise(in *ir.Instruction) {
	ops := in.Operands
	if len(ops) != 3 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	n := a.size(in)
	x, y := a.read(ops[1], n), a.read(ops[0], n)
	xi, _, xr := vreg(ops[1])
	yi, _, yr := vreg(ops[0])
	and := strings.HasPrefix(in.Opcode, "VPAND") && !strings.HasPrefix(in.Opcode, "VPANDN")
	xor := strings.HasPrefix(in.Opcode, "VPXO")
	or := strings.HasPrefix(in.Opcode, "VPOR")
	if xr && yr && xi == yi {
		switch {
		case xor:
			out := make([]cell, n)
			for d := range out {
				out[d] = cell{l: zero, w: 1}
			}
			a.write(ops[2], out)
			return
		case and || or:
			a.write(ops[2], x)
			return
		}
	}
	allConst := func(cs []cell) bool {
		for _, c := range cs {
			if c.l == nil || !c.l.isConst() {
				return false
			}
		}
		return true
	}
	if allConst(x) && allConst(y) {
		out := make([]cell, n)
		for d := range out {
			p, q := byteOf(x[d]), byteOf(y[d])
			var r byte
			switch {
			case and:
				r = p & q
			case xor:
				r = p ^ q
			case or:
				r = p | q
			default:
				r = ^p & q
			}
			out[d] = cell{l: constLane(int64(r)), w: 1}
		}
		a.write(ops[2], out)
		return
	}
	if or {
		if cs, ok := orMerge(x, y); ok {
			a.write(ops[2], cs)
			return
		}
		if x[0].l == nil || y[0].l == nil {
			a.unproven("an OR of bytes that may both be nonzero")
		}
		// lane by lane at the wider operand's width, or the widest at
		// which both assemble (a dword and zeros ORed into a qword)
		w := max(int(x[0].w), int(y[0].w))
		for w > 1 && !(assemblable(x, w) && assemblable(y, w)) {
			w /= 2
		}
		xl, yl := a.lanesOf(x, w), a.lanesOf(y, w)
		out := make([]*lane, len(xl))
		for j := range xl {
			out[j] = a.combine("or", uint(8*w), xl[j], yl[j], j)
		}
		a.write(ops[2], cellsOf(out, w))
		return
	}
	andn := strings.HasPrefix(in.Opcode, "VPANDN")
	if !and && !andn {
		a.unproven("%s of non-constant lanes is not modelled", in.Opcode)
	}
	if and {
		if cs, ok := byteSelect(x, y); ok {
			a.write(ops[2], cs)
			return
		}
	}
	// lane by lane at the width of a non-constant operand's lanes (x
	// first), or the widest narrower width at which both operands
	// assemble (the halves of a qword merged from two lanes): x & y, or
	// ^x & y for VPANDN; of two lanes of one variable enumerated (a
	// compare's mask selecting its operand), else interval arithmetic
	w := 0
	for _, cs := range [][]cell{x, y} {
		if !allConst(cs) && cs[0].l != nil {
			w = int(cs[0].w)
			break
		}
	}
	if w == 0 {
		a.unproven("%s of a vector nothing wrote", in.Opcode)
	}
	for w > 1 && !(assemblable(x, w) && assemblable(y, w)) {
		w /= 2
	}
	op := "and"
	if andn {
		op = "andn"
	}
	xl, yl := a.lanesOf(x, w), a.lanesOf(y, w)
	out := make([]*lane, len(xl))
	for j := range xl {
		out[j] = a.combine(op, uint(8*w), xl[j], yl[j], j)
	}
	a.write(ops[2], cellsOf(out, w))
}

// byteSelect is an AND with a constant whose every byte is 0x00 or
// 0xff (either operand): the other operand's bytes where it is 0xff,
// zero bytes elsewhere, as byte references. ok is false otherwise.
func byteSelect(x, y []cell) ([]cell, bool) {
	isMask := func(cs []cell) bool {
		for _, c := range cs {
			if c.l == nil || !c.l.isConst() || byteOf(c) != 0 && byteOf(c) != 0xff {
				return false
			}
		}
		return true
	}
	if !isMask(y) {
		x, y = y, x
	}
	if !isMask(y) {
		return nil, false
	}
	out := make([]cell, len(x))
	for d := range out {
		out[d] = cell{l: zero, w: 1}
		if byteOf(y[d]) == 0xff {
			out[d] = x[d]
		}
	}
	return out, true
}

// assemblable reports whether every w-byte chunk of cs is one lane's
// bytes in order (the lane, or a part of a wider one at a multiple of
// w), constant, or whole narrower lanes.
func assemblable(cs []cell, w int) bool {
	for e := 0; e+w <= len(cs); e += w {
		ch := zeroAsOwn(cs[e : e+w])
		c0 := ch[0]
		if c0.l == nil {
			return false
		}
		konst, one, whole := true, int(c0.k)%w == 0 && int(c0.w) >= w, true
		for k := 0; k < w; {
			c := ch[k]
			if c.l == nil {
				return false
			}
			konst = konst && c.l.isConst()
			one = one && c.l == c0.l && int(c.k) == int(c0.k)+k
			pw := int(c.w)
			if c.k != 0 || pw >= w || k+pw > w {
				whole = false
				k++
				continue
			}
			for j := 0; j < pw; j++ {
				if ch[k+j].l != c.l || int(ch[k+j].k) != j {
					whole = false
				}
			}
			k += pw
		}
		if !konst && !one && !whole {
			return false
		}
	}
	return true
}

// orMerge is the OR of two vectors that never both have a one bit in
// the same byte: byte by byte, where one operand's byte is zero for every
// value (a constant zero, or a byte above the highest of a non-negative
// lane's bound), the other's (packing 16-bit results into the halves of
// dwords: the odd lanes shifted up by 16 ORed into the even ones); ok is
// false if some byte may be nonzero in both (then the OR is computed
// lane by lane: combine's "or").
func orMerge(x, y []cell) ([]cell, bool) {
	out := make([]cell, len(x))
	for d := range x {
		switch {
		case zeroByte(x[d]):
			out[d] = y[d]
		case zeroByte(y[d]):
			out[d] = x[d]
		default:
			return nil, false
		}
	}
	return out, true
}

// zeroByte reports whether cell c is zero whatever its lane's value.
func zeroByte(c cell) bool {
	switch {
	case c.l == nil || c.l.wrap:
		return false
	case c.l.isConst():
		return byteOf(c) == 0
	}
	return c.l.lo >= 0 && c.l.hi>>(8*uint(c.k)) == 0
}

// widening models VPMULDQ and VPMULUDQ: the low 32-bit lanes of each
// 64-bit lane, multiplied into 64 bits.
func (a *analysis) widening(in *ir.Instruction) {
	ops := in.Operands
	if len(ops) != 3 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	n := a.size(in)
	x, y := a.read(ops[1], n), a.read(ops[0], n)
	signed := in.Opcode == "VPMULDQ"
	out := make([]*lane, n/8)
	for j := range out {
		p := a.assemble(x[8*j:8*j+4], 4)
		q := a.assemble(y[8*j:8*j+4], 4)
		view := unsignedView
		if signed {
			view = signedView
		}
		pl, ph, pok := view(32, p.lo, p.hi)
		ql, qh, qok := view(32, q.lo, q.hi)
		if p.wrap && p.lo != p.hi { // any pattern; an exact one is read as it is
			pl, ph, pok = view(32, smin(32), smax(32))
			if !signed {
				pl, ph, pok = 0, umax(32), true
			}
		}
		if q.wrap && q.lo != q.hi {
			ql, qh, qok = view(32, smin(32), smax(32))
			if !signed {
				ql, qh, qok = 0, umax(32), true
			}
		}
		if !pok || !qok {
			a.overflow(j, "%s reads a lane spanning the %s range", in.Opcode, map[bool]string{true: "signed", false: "unsigned"}[signed])
		}
		lo, hi := corners(pl, ph, ql, qh, func(u, v int64) int64 { return u * v })
		if !signed && uint64(ph)*uint64(qh) > 1<<63-1 {
			a.unproven("%s: a product beyond 2^63", in.Opcode)
		}
		out[j] = a.newVar(lo, hi, false)
		if v, c, ok := constOperand(p, q); ok && signed {
			out[j] = withProv(out[j], &prov{kind: provMul, x: v, c: c})
		}
		if pr, ok := mulUOf(x[8*j:8*j+4], y[8*j:8*j+4], p, q); ok && !signed {
			out[j] = withProv(out[j], pr)
		}
	}
	a.write(ops[2], cellsOf(out, 8))
}

// maddwd models VPMADDWD: signed 16-bit products summed in pairs.
func (a *analysis) maddwd(in *ir.Instruction) {
	ops := in.Operands
	n := a.size(in)
	x := a.lanesOf(a.read(ops[1], n), 2)
	y := a.lanesOf(a.read(ops[0], n), 2)
	out := make([]*lane, n/4)
	for j := range out {
		var lo, hi int64
		for k := 2 * j; k < 2*j+2; k++ {
			xl, xh, xok := signedView(16, x[k].lo, x[k].hi)
			yl, yh, yok := signedView(16, y[k].lo, y[k].hi)
			if (!xok && !x[k].wrap) || (!yok && !y[k].wrap) || x[k].wrap || y[k].wrap {
				a.overflow(j, "VPMADDWD reads a lane that is no signed 16-bit value")
			}
			l, h := corners(xl, xh, yl, yh, func(u, v int64) int64 { return u * v })
			lo, hi = lo+l, hi+h
		}
		if !fits(32, lo, hi) || hi > smax(32) {
			a.overflow(j, "VPMADDWD sum in [%d, %d] overflows 32 bits", lo, hi)
		}
		out[j] = a.newVar(lo, hi, false)
	}
	a.write(ops[2], cellsOf(out, 4))
}
