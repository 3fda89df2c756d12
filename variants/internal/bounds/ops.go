package bounds

import (
	"math/bits"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// A laneOp is an element-wise integer instruction: op on lanes of w
// bytes, with the operands (src1, src2) as Go's order lists them
// reversed: VPSUBW Y2, Y1, Y0 is Y0 = Y1 - Y2.
type laneOp struct {
	op string
	w  int
}

var laneOps = map[string]laneOp{
	"VPADDW": {"add", 2}, "VPADDD": {"add", 4}, "VPADDQ": {"add", 8},
	"VPSUBW": {"sub", 2}, "VPSUBD": {"sub", 4}, "VPSUBQ": {"sub", 8},
	"VPMULLW": {"mullo", 2}, "VPMULLD": {"mullo", 4},
	"VPMULHW": {"mulhi", 2}, "VPMULHUW": {"mulhu", 2}, "VPMULHRSW": {"mulhrs", 2},
	"VPMINUW": {"minu", 2}, "VPMAXUW": {"maxu", 2}, "VPMINSW": {"mins", 2}, "VPMAXSW": {"maxs", 2},
	"VPMINUD": {"minu", 4}, "VPMAXUD": {"maxu", 4}, "VPMINSD": {"mins", 4}, "VPMAXSD": {"maxs", 4},
	"VPSRAW": {"sra", 2}, "VPSRAD": {"sra", 4}, "VPSRAQ": {"sra", 8},
	"VPSRLW": {"srl", 2}, "VPSRLD": {"srl", 4}, "VPSRLQ": {"srl", 8},
	"VPSLLW": {"sll", 2}, "VPSLLD": {"sll", 4}, "VPSLLQ": {"sll", 8},
	"VPCMPGTW": {"cmpgt", 2}, "VPCMPGTD": {"cmpgt", 4}, "VPCMPGTQ": {"cmpgt", 8},
	"VPCMPEQB": {"cmpeq", 1}, "VPCMPEQW": {"cmpeq", 2}, "VPCMPEQD": {"cmpeq", 4}, "VPCMPEQQ": {"cmpeq", 8},
}

// varShifts are the shifts by a vector of counts (VPSRLVD: lane j by
// count j).
var varShifts = map[string]laneOp{
	"VPSRLVW": {"srl", 2}, "VPSRLVD": {"srl", 4}, "VPSRLVQ": {"srl", 8},
	"VPSRAVW": {"sra", 2}, "VPSRAVD": {"sra", 4}, "VPSRAVQ": {"sra", 8},
	"VPSLLVW": {"sll", 2}, "VPSLLVD": {"sll", 4}, "VPSLLVQ": {"sll", 8},
}

// predicates are the EVEX compares with a predicate immediate (VPCMPUD
// $1, b, a, k: a < b), by opcode: the element width and whether the
// compare is unsigned.
var predicates = map[string]struct {
	w        int
	unsigned bool
}{
	"VPCMPB": {1, false}, "VPCMPW": {2, false}, "VPCMPD": {4, false}, "VPCMPQ": {8, false},
	"VPCMPUB": {1, true}, "VPCMPUW": {2, true}, "VPCMPUD": {4, true}, "VPCMPUQ": {8, true},
}

// predicate is predicate p of a compare (unsigned if u) of x with y as
// an op on (first, second) operands: swap reports that they are (y, x).
// ok is false for the constant predicates (3: false, 7: true).
func predicate(p uint64, u bool) (op string, swap, ok bool) {
	lt, le := "cmplt", "cmple"
	if u {
		lt, le = "cmpltu", "cmpleu"
	}
	switch p {
	case 0:
		return "cmpeq", false, true
	case 1:
		return lt, false, true
	case 2:
		return le, false, true
	case 4:
		return "cmpne", false, true
	case 5: // not less: y ≤ x
		return le, true, true
	case 6: // not less or equal: y < x
		return lt, true, true
	}
	return "", false, false
}

var moves = map[string]bool{
	"VMOVDQU": true, "VMOVDQA": true, "VMOVDQU64": true, "VMOVDQA64": true, "VMOVDQU32": true,
	"VMOVDQA32": true, "VMOVDQU16": true, "VMOVDQU8": true, "VMOVUPS": true, "VMOVAPS": true,
}

// size returns the byte size of the instruction's vector destination.
func (a *analysis) size(in *ir.Instruction) int {
	for k := len(in.Operands) - 1; k >= 0; k-- {
		if _, n, ok := vreg(in.Operands[k]); ok {
			return n
		}
	}
	a.unproven("no vector operand")
	return 0
}

func imm(op operand.Op) (uint64, bool) {
	switch v := op.(type) {
	case operand.U8:
		return uint64(v), true
	case operand.U16:
		return uint64(v), true
	case operand.U32:
		return uint64(v), true
	case operand.U64:
		return uint64(v), true
	case operand.I8:
		return uint64(v), true
	case operand.I16:
		return uint64(v), true
	case operand.I32:
		return uint64(v), true
	case operand.I64:
		return uint64(v), true
	}
	return 0, false
}

func (a *analysis) immOf(op operand.Op) uint64 {
	v, ok := imm(op)
	if !ok {
		a.unproven("a non-immediate control operand")
	}
	return v
}

// step applies one instruction.
func (a *analysis) step(in *ir.Instruction) {
	op := in.Opcode
	if a.compareToMask(in) {
		return
	}
	if a.maskedForm(in) {
		return
	}
	if len(in.Suffixes) > 0 {
		a.unproven("suffixes %v are not modelled", in.Suffixes)
	}
	ops := in.Operands
	switch {
	case op == "PCALIGN" || op == "BYTE" || op == "NOP":
		return
	case op == "VZEROUPPER":
		for i := 0; i < 16; i++ {
			for k := 16; k < 64; k++ {
				a.s.v[i][k] = cell{l: zero, w: 1}
			}
		}
		return
	case strings.HasPrefix(op, "K"):
		a.kop(in)
		return
	case a.flagOp(in):
		return
	case isGP(in):
		a.gpop(in)
		return
	case op == "MOVD" || op == "VMOVD":
		a.movd(in)
		return
	case op == "VPABSW" || op == "VPABSD":
		a.abs(in)
		return
	case zeroExt[op] != [2]int{}:
		a.zeroExtend(in, zeroExt[op])
		return
	case truncations[op] != [2]int{}:
		a.truncate(in, truncations[op])
		return
	case extracts[op] != 0:
		a.extract(in, extracts[op])
		return
	}
	if p, ok := packs[op]; ok {
		a.pack(in, p.w, p.unsigned)
		return
	}
	if a.masked(in) {
		return
	}
	if lo, ok := laneOps[op]; ok {
		a.lanewise(in, lo)
		return
	}
	if lo, ok := varShifts[op]; ok {
		a.varShift(in, lo)
		return
	}
	if moves[op] {
		if len(ops) != 2 {
			a.unproven("a masked move")
		}
		n := a.moveSize(ops)
		a.write(ops[1], a.read(ops[0], n))
		return
	}
	if a.shuffle(in) {
		return
	}
	switch op {
	case "VPXOR", "VPXORD", "VPXORQ", "VPOR", "VPORD", "VPORQ", "VPAND", "VPANDD", "VPANDQ", "VPANDN", "VPANDND", "VPANDNQ":
		a.bitwise(in)
	case "VPMULDQ", "VPMULUDQ":
		a.widening(in)
	case "VPMADDWD":
		a.maddwd(in)
	case "VPMADD52LUQ", "VPMADD52HUQ":
		a.madd52(in)
	default:
		a.unproven("instruction %s is not modelled", op)
	}
}

// moveSize is the byte size of a move between ops[0] and ops[1].
func (a *analysis) moveSize(ops []operand.Op) int {
	for _, o := range ops {
		if _, n, ok := vreg(o); ok {
			return n
		}
	}
	a.unproven("a move without a vector register")
	return 0
}

func isGP(in *ir.Instruction) bool {
	switch in.Opcode {
	case "MOVQ", "MOVL", "LEAQ", "ADDQ", "SUBQ", "XORL", "XORQ", "DECQ", "DECL", "INCQ", "CMPQ", "SHLQ":
		return true
	}
	return false
}

// compareToMask models a compare into an opmask: VPCMPGTW/D/Q and
// VPCMP[U]B/W/D/Q with a predicate keep their elements as −1 or 0 lanes
// (with their expressions, for the masked additions, subtractions and
// zeroing moves computedMask models; KORTEST reads it for a flag). It
// reports whether in was one.
func (a *analysis) compareToMask(in *ir.Instruction) bool {
	ops := in.Operands
	if !strings.HasPrefix(in.Opcode, "VPCMP") && !strings.HasPrefix(in.Opcode, "VPTESTM") || len(ops) < 3 {
		return false
	}
	dst, ok := ops[len(ops)-1].(reg.Register)
	if !ok || dst.Kind() != reg.KindOpmask {
		return false
	}
	var under []*lane // the elements of a masking opmask, if any
	if len(ops) >= 4 {
		if mk, isK := ops[len(ops)-2].(reg.Register); isK && mk.Kind() == reg.KindOpmask {
			ops = append(append([]operand.Op(nil), ops[:len(ops)-2]...), ops[len(ops)-1])
			under = a.maskElems(mk)
		}
	}
	ki := int(reg.ToPhysical(dst).PhysicalIndex())
	a.s.kok[ki], a.s.km[ki] = false, nil
	lo, isGT := laneOps[in.Opcode]
	op, w, xop, yop := "cmpgt", lo.w, ops[1], ops[0]
	tw, isTest := testm[in.Opcode]
	switch pr, isPred := predicates[in.Opcode]; {
	case isGT && lo.op == "cmpgt" && len(ops) == 3:
	case isTest && len(ops) == 3:
		op, w = "testm", tw
	case isPred && len(ops) == 4:
		p, isImm := imm(ops[0])
		var swap, ok bool
		op, swap, ok = predicate(p, pr.unsigned)
		if !isImm || !ok {
			a.unproven("%s with predicate %s into an opmask is not modelled", in.Opcode, ops[0].Asm())
		}
		w, xop, yop = pr.w, ops[2], ops[1]
		if swap {
			xop, yop = yop, xop
		}
	default:
		a.unproven("%s into an opmask is not modelled", in.Opcode)
	}
	n := a.sizeOf(ops[len(ops)-2])
	x := a.lanesOf(a.read(xop, n), w)
	y := a.lanesOf(a.read(yop, n), w)
	out := make([]*lane, len(x))
	b := uint(8 * w)
	for j := range x {
		if op == "testm" { // (x & y) ≠ 0
			out[j] = a.combine("cmpne", b, a.combine("and", b, x[j], y[j], j), zero, j)
		} else {
			out[j] = a.combine(op, b, x[j], y[j], j)
		}
		if under != nil { // masked: the elements the opmask clears are 0
			if j >= len(under) {
				a.unproven("an opmask of %d elements masks %d lanes", len(under), len(x))
			}
			out[j] = a.combine("and", b, out[j], under[j], j)
		}
	}
	a.s.km[ki], a.s.kw[ki] = out, w
	return true
}

// testm are VPTESTM's element widths.
var testm = map[string]int{"VPTESTMB": 1, "VPTESTMW": 2, "VPTESTMD": 4, "VPTESTMQ": 8}

// maskElems returns an opmask's elements as −1 or 0 lanes: a compare's,
// or a constant's bits.
func (a *analysis) maskElems(r reg.Register) []*lane {
	ki := int(reg.ToPhysical(r).PhysicalIndex())
	if m := a.s.km[ki]; m != nil {
		return m
	}
	if !a.s.kok[ki] {
		a.unproven("opmask %s is not known", r.Asm())
	}
	out := make([]*lane, 64)
	for e := range out {
		out[e] = constLane(-int64(a.s.k[ki] >> uint(e) & 1))
	}
	return out
}

// sizeOf is the byte size of vector register operand op.
func (a *analysis) sizeOf(op operand.Op) int {
	if _, n, ok := vreg(op); ok {
		return n
	}
	a.unproven("no vector operand")
	return 0
}

// computedMask models an addition or subtraction merging-masked by an
// opmask a compare computed, whose destination is its first source:
// dst = x ± (y & m) element by element, m the compare's −1 or 0 lane
// (the lanes it leaves keep x = x ± 0), so that the centering x − q·[x >
// (q−1)/2] of one variable is enumerated as in the AVX2 form. It reports
// whether the opmask was a computed one; other forms are unproven.
func (a *analysis) computedMask(in *ir.Instruction, at int, zeroing bool, g int) bool {
	r, _ := in.Operands[at].(reg.Register)
	ki := int(reg.ToPhysical(r).PhysicalIndex())
	m := a.s.km[ki]
	if m == nil {
		return false
	}
	ops := in.Operands
	if moves[in.Opcode] && zeroing && len(ops) == 3 && g == a.s.kw[ki] {
		a.zeroingMove(in, m, g)
		return true
	}
	lo, ok := laneOps[in.Opcode]
	if !ok || (lo.op != "add" && lo.op != "sub") || zeroing || len(ops) != 4 || lo.w != a.s.kw[ki] || g != lo.w {
		a.unproven("%s masked by a computed opmask is not modelled", in.Opcode)
	}
	xi, n, xok := vreg(ops[1])
	di, _, dok := vreg(ops[3])
	if !xok || !dok || xi != di {
		a.unproven("%s masked by a computed opmask into another register than its source", in.Opcode)
	}
	x := a.lanesOf(a.read(ops[1], n), lo.w)
	y := a.lanesOf(a.read(ops[0], n), lo.w)
	if len(x) > len(m) {
		a.unproven("an opmask of %d elements for %d lanes", len(m), len(x))
	}
	b := uint(8 * lo.w)
	out := make([]*lane, len(x))
	for j := range x {
		out[j] = a.combine(lo.op, b, x[j], a.combine("and", b, y[j], m[j], j), j)
	}
	a.write(ops[3], cellsOf(out, lo.w))
	return true
}

// zeroingMove models a move zeroing-masked by an opmask a compare
// computed: dst = x & m element by element (m the compare's −1 or 0
// lane), so that the selection t·[t < m] of one variable is enumerated.
func (a *analysis) zeroingMove(in *ir.Instruction, m []*lane, g int) {
	ops := in.Operands
	_, n, ok := vreg(ops[2])
	if !ok {
		a.unproven("%s masked by a computed opmask into memory", in.Opcode)
	}
	x := a.lanesOf(a.read(ops[0], n), g)
	if len(x) > len(m) {
		a.unproven("an opmask of %d elements for %d lanes", len(m), len(x))
	}
	out := make([]*lane, len(x))
	for j := range x {
		out[j] = a.combine("and", uint(8*g), x[j], m[j], j)
	}
	a.write(ops[2], cellsOf(out, g))
}

// flagOp models the instructions that only compute the kernel's flag
// (a rejection bit returned to the caller, never an array lane): VPTEST
// sets the zero flag to an unknown value, SETcc and MOVBLZX write an
// unknown general-purpose register, a MOVL or MOVQ of a register to a
// result slot (ret+N(FP)) stores the flag. It reports whether in was
// one.
func (a *analysis) flagOp(in *ir.Instruction) bool {
	ops := in.Operands
	switch {
	case in.Opcode == "VPTEST" || in.Opcode == "KORTESTW":
		a.s.zfOK = false
	case in.Opcode == "VPMOVMSKB" && len(ops) == 2 && isVec(ops[0]):
		r, ok := ops[1].(reg.Register)
		i, gpOK := 0, false
		if ok {
			i, gpOK = gpIndex(r)
		}
		if !gpOK {
			a.unproven("%s into %s is not modelled", in.Opcode, ops[1].Asm())
		}
		a.s.g[i], a.s.zfOK = a.signBits(a.read(ops[0], a.sizeOf(ops[0]))), false
	case in.Opcode == "POPCNTL" || in.Opcode == "ADDL" || in.Opcode == "MOVL" && len(ops) == 2 && isVec(ops[0]):
		// a count returned to the caller (of hints) or the sign bits of
		// lanes (a compare's mask), never a lane or an address: the
		// register becomes unknown
		r, ok := ops[len(ops)-1].(reg.Register)
		i, gpOK := 0, false
		if ok {
			i, gpOK = gpIndex(r)
		}
		if !gpOK {
			a.unproven("%s into %s is not modelled", in.Opcode, ops[len(ops)-1].Asm())
		}
		a.s.g[i], a.s.zfOK = gp{}, false
	case strings.HasPrefix(in.Opcode, "SET") || in.Opcode == "MOVBLZX":
		r, ok := ops[len(ops)-1].(reg.Register)
		i, gpOK := 0, false
		if ok {
			i, gpOK = gpIndex(r)
		}
		if !gpOK {
			a.unproven("%s into %s is not modelled", in.Opcode, ops[len(ops)-1].Asm())
		}
		a.s.g[i] = gp{}
	case (in.Opcode == "MOVL" || in.Opcode == "MOVQ") && len(ops) == 2:
		m, ok := ops[1].(operand.Mem)
		if _, isReg := ops[0].(reg.Register); !ok || !isReg || !a.resultSlot(m) {
			return false
		}
	default:
		return false
	}
	return true
}

// resultSlot reports whether m is a result of the function (ret+N(FP),
// or a named one: at or past the parameters' bytes).
func (a *analysis) resultSlot(m operand.Mem) bool {
	if m.Base == nil || m.Base.Asm() != "FP" {
		return false
	}
	if strings.HasPrefix(m.Symbol.Name, "ret") {
		return true
	}
	sig := a.fn.Signature
	return sig != nil && m.Disp >= sig.Params().Bytes() && m.Disp < sig.Bytes()
}

// movd models MOVD and VMOVD of a general-purpose register into the low
// 32 bits of a vector register (its constant, else any 32-bit value),
// the rest of the XMM zeroed (VMOVD: all of it; MOVD keeps the upper
// bytes of a wider register).
func (a *analysis) movd(in *ir.Instruction) {
	if _, _, isV := vreg(in.Operands[0]); isV && len(in.Operands) == 2 {
		if r, ok := in.Operands[1].(reg.Register); ok {
			if gi, ok := gpIndex(r); ok {
				a.s.g[gi] = gp{} // a lane into a register: a count's, unknown
				return
			}
		}
	}
	src, ok := in.Operands[0].(reg.Register)
	i, vok := 0, false
	if len(in.Operands) == 2 {
		i, _, vok = vreg(in.Operands[1])
	}
	if !ok || src.Kind() != reg.KindGP || !vok {
		a.unproven("%s other than of a general-purpose register into a vector register", in.Opcode)
	}
	l := a.newVar(smin(32), smax(32), false)
	if g := a.gpr(src); g.kind == gpConst {
		l = constLane(wrapSigned(32, g.c))
	}
	cs := make([]cell, 64)
	for k := range cs {
		switch {
		case k < 4:
			cs[k] = cell{l: l, w: 4, k: int8(k)}
		case k < 16 || in.Opcode == "VMOVD":
			cs[k] = cell{l: zero, w: 1}
		default:
			cs[k] = a.s.v[i][k]
		}
	}
	a.s.v[i] = [64]cell(cs)
}

func isVec(op operand.Op) bool { _, _, ok := vreg(op); return ok }

// zeroExt are the zero extensions: source and destination lane widths.
var zeroExt = map[string][2]int{
	"VPMOVZXBW": {1, 2}, "VPMOVZXBD": {1, 4}, "VPMOVZXBQ": {1, 8},
	"VPMOVZXWD": {2, 4}, "VPMOVZXWQ": {2, 8}, "VPMOVZXDQ": {4, 8},
}

// zeroExtend models VPMOVZX: each source lane zero-extended, the lane
// itself where its bound is non-negative (its value unchanged), else a
// fresh variable over the source's unsigned range (or the exact pattern
// of a constant).
func (a *analysis) zeroExtend(in *ir.Instruction, ws [2]int) {
	ops := in.Operands
	if len(ops) != 2 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	n := a.sizeOf(ops[1])
	x := a.lanesOf(a.read(ops[0], n/ws[1]*ws[0]), ws[0])
	out := make([]*lane, len(x))
	b := uint(8 * ws[0])
	for j, l := range x {
		lo, hi, ok := unsignedView(b, l.lo, l.hi)
		switch {
		case l.wrap:
			a.unproven("%s of a wrapping low product", in.Opcode)
		case l.lo >= 0:
			out[j] = l
		case l.isConst():
			out[j] = constLane(lo)
		case ok:
			out[j] = a.newVar(lo, hi, false)
		default:
			out[j] = a.newVar(0, umax(b), false)
		}
	}
	a.write(ops[1], cellsOf(out, ws[1]))
}

// abs models VPABSW and VPABSD: the absolute value of each signed lane
// (of the most negative value, itself, read unsigned: 2^(b−1)).
func (a *analysis) abs(in *ir.Instruction) {
	if len(in.Operands) != 2 {
		a.unproven("%s with %d operands", in.Opcode, len(in.Operands))
	}
	w := 2
	if in.Opcode == "VPABSD" {
		w = 4
	}
	n := a.size(in)
	x := a.lanesOf(a.read(in.Operands[0], n), w)
	out := make([]*lane, len(x))
	for j := range x {
		out[j] = a.combine("abs", uint(8*w), x[j], zero, j)
	}
	a.write(in.Operands[1], cellsOf(out, w))
}

// gpop models the scalar instructions that set up pointers and masks.
func (a *analysis) gpop(in *ir.Instruction) {
	ops := in.Operands
	a.s.zfOK = false
	if in.Opcode == "CMPQ" {
		x, y := a.gpVal(ops[0]), a.gpVal(ops[1])
		if x.kind == gpConst && y.kind == gpConst {
			a.s.zf, a.s.zfOK = x.c == y.c, true
		}
		return
	}
	dst, ok := ops[len(ops)-1].(reg.Register)
	if m, isMem := ops[len(ops)-1].(operand.Mem); !ok && isMem && (in.Opcode == "MOVL" || in.Opcode == "MOVQ") && len(ops) == 2 {
		a.scalarStore(ops[0], m, map[string]int{"MOVL": 4, "MOVQ": 8}[in.Opcode])
		return
	}
	if !ok {
		a.unproven("a scalar store is not modelled")
	}
	di, ok := gpIndex(dst)
	if !ok {
		a.unproven("%s into %s is not modelled", in.Opcode, dst.Asm())
	}
	switch in.Opcode {
	case "MOVQ", "MOVL":
		switch s := ops[0].(type) {
		case operand.Mem:
			if s.Base != nil && s.Base.Asm() == "FP" {
				name := strings.TrimSuffix(s.Symbol.Name, "_base")
				if p, isParam := a.params[name]; isParam && in.Opcode == "MOVQ" {
					a.s.g[di] = gp{kind: gpPtr, region: name}
					if p.Scalar {
						a.s.g[di] = gp{kind: gpConst, c: p.Value}
					}
					return
				}
			}
			a.s.g[di] = gp{}
		case reg.Register:
			si, ok := gpIndex(s)
			if !ok {
				a.unproven("%s from %s is not modelled", in.Opcode, s.Asm())
			}
			a.s.g[di] = a.s.g[si]
		default:
			v, ok := imm(ops[0])
			if !ok {
				a.unproven("%s of %s is not modelled", in.Opcode, ops[0].Asm())
			}
			a.s.g[di] = gp{kind: gpConst, c: int64(v)}
		}
	case "DECQ", "DECL", "INCQ":
		g := a.s.g[di]
		if g.kind != gpConst {
			a.s.g[di] = gp{}
			return
		}
		if in.Opcode == "INCQ" {
			g.c++
		} else {
			g.c--
		}
		if in.Opcode == "DECL" {
			g.c = int64(uint32(g.c))
		}
		a.s.g[di] = g
		a.s.zf, a.s.zfOK = g.c == 0, true
	case "LEAQ":
		m := ops[0].(operand.Mem)
		if m.Base != nil && m.Base.Asm() == "SB" && m.Index == nil {
			if _, ok := a.data[m.Symbol.Name]; ok {
				a.s.g[di] = gp{kind: gpPtr, region: m.Symbol.Name, c: int64(m.Disp)}
				return
			}
		}
		if m.Base == nil {
			a.s.g[di] = gp{}
			return
		}
		var ix int64
		if m.Index != nil {
			x := a.gpr(m.Index)
			if x.kind != gpConst {
				a.s.g[di] = gp{}
				return
			}
			ix = x.c * int64(m.Scale)
		}
		if m.Base.Asm() == "SP" {
			a.s.g[di] = gp{kind: gpPtr, region: "(SP)", c: int64(m.Disp)}
			return
		}
		g := a.gpr(m.Base)
		if g.kind == gpPtr {
			g.c += int64(m.Disp) + ix
		} else {
			g = gp{}
		}
		a.s.g[di] = g
	case "SHLQ":
		c, ok := imm(ops[0])
		g := a.s.g[di]
		if !ok || g.kind != gpConst || c >= 63 {
			a.s.g[di] = gp{}
			return
		}
		g.c <<= c
		a.s.g[di] = g
		a.s.zf, a.s.zfOK = g.c == 0, true
	case "ADDQ", "SUBQ":
		v, ok := imm(ops[0])
		if src := a.gpVal(ops[0]); !ok && src.kind == gpConst { // a register holding a constant
			v, ok = uint64(src.c), true
		}
		g := a.s.g[di]
		if !ok || g.kind == gpUnknown {
			a.s.g[di] = gp{}
			return
		}
		if in.Opcode == "SUBQ" {
			v = -v
		}
		g.c += int64(v)
		a.s.g[di] = g
		if g.kind == gpConst {
			a.s.zf, a.s.zfOK = g.c == 0, true
		}
	case "XORL", "XORQ":
		if r, ok := ops[0].(reg.Register); ok && r.ID() == dst.ID() {
			a.s.g[di] = gp{kind: gpConst}
			return
		}
		a.s.g[di] = gp{}
	}
}

// signBits is VPMOVMSKB's register: bit i the sign of byte i, a
// constant where every byte is one, else unknown.
func (a *analysis) signBits(cs []cell) gp {
	var v int64
	for i, c := range cs {
		if c.l == nil || !c.l.isConst() {
			return gp{}
		}
		v |= int64(byteOf(c)>>7) << i
	}
	return gp{kind: gpConst, c: v}
}

// opmaskBits is an opmask's value in a register: its constant, or the
// bits of a compare's elements where each is a constant, else unknown.
func (a *analysis) opmaskBits(op operand.Op) gp {
	r, ok := op.(reg.Register)
	if !ok || r.Kind() != reg.KindOpmask {
		return gp{}
	}
	ki := int(reg.ToPhysical(r).PhysicalIndex())
	if a.s.kok[ki] {
		return gp{kind: gpConst, c: int64(a.s.k[ki])}
	}
	var v int64
	for e, l := range a.s.km[ki] {
		if !l.isConst() || e >= 64 {
			return gp{}
		}
		v |= (-l.lo & 1) << e
	}
	if a.s.km[ki] == nil {
		return gp{}
	}
	return gp{kind: gpConst, c: v}
}

// scalarStore models the store of n bytes of a general-purpose register
// to memory (the bits of a compare's opmask, a byte-encoded message):
// its constant's bytes, else each byte any value, a fresh byte lane in
// [−128, 127] (every pattern).
func (a *analysis) scalarStore(src operand.Op, m operand.Mem, n int) {
	r, ok := src.(reg.Register)
	gi, gpOK := 0, false
	if ok {
		gi, gpOK = gpIndex(r)
	}
	if !gpOK {
		a.unproven("a store of %s is not modelled", src.Asm())
	}
	g := a.s.g[gi]
	if g.kind == gpPtr {
		a.unproven("a store of a pointer")
	}
	cs := make([]cell, n)
	for k := range cs {
		l := a.newVar(smin(8), smax(8), false)
		if g.kind == gpConst {
			l = constLane(wrapSigned(8, g.c>>(8*k)))
		}
		cs[k] = cell{l: l, w: 1}
	}
	a.write(m, cs)
}

// gpVal is the value of a scalar register or immediate operand.
func (a *analysis) gpVal(op operand.Op) gp {
	if v, ok := imm(op); ok {
		return gp{kind: gpConst, c: int64(v)}
	}
	if r, ok := op.(reg.Register); ok {
		if i, ok := gpIndex(r); ok {
			return a.s.g[i]
		}
	}
	return gp{}
}

// kop models the opmask moves of constants.
func (a *analysis) kop(in *ir.Instruction) {
	switch in.Opcode {
	case "KMOVB", "KMOVW", "KMOVD", "KMOVQ":
	case "KORTESTB", "KORTESTW", "KORTESTD", "KORTESTQ": // the flag only
		a.s.zfOK = false
		return
	default:
		a.unproven("opmask instruction %s is not modelled", in.Opcode)
	}
	ops := in.Operands
	dst, ok := ops[1].(reg.Register)
	if gi, isGP := gpIndex(dst); ok && isGP {
		// an opmask's bits in a register (a count's, an encoding's): its
		// constant where every element is known, else unknown
		a.s.g[gi] = a.opmaskBits(ops[0])
		return
	}
	if !ok || dst.Kind() != reg.KindOpmask {
		a.unproven("a store of an opmask")
	}
	ki := int(reg.ToPhysical(dst).PhysicalIndex())
	a.s.kok[ki], a.s.km[ki] = false, nil
	switch s := ops[0].(type) {
	case reg.Register:
		if gi, ok := gpIndex(s); ok && a.s.g[gi].kind == gpConst {
			a.s.k[ki], a.s.kok[ki] = uint64(a.s.g[gi].c), true
		} else if s.Kind() == reg.KindOpmask {
			si := int(reg.ToPhysical(s).PhysicalIndex())
			a.s.k[ki], a.s.kok[ki] = a.s.k[si], a.s.kok[si]
		}
	case operand.Mem:
		cs := a.read(s, 8)
		var u uint64
		for k := 7; k >= 0; k-- {
			if !cs[k].l.isConst() {
				return
			}
			u = u<<8 | uint64(byteOf(cs[k]))
		}
		a.s.k[ki], a.s.kok[ki] = u, true
	}
	if in.Opcode == "KMOVB" {
		a.s.k[ki] &= 0xff
	} else if in.Opcode == "KMOVW" {
		a.s.k[ki] &= 0xffff
	} else if in.Opcode == "KMOVD" {
		a.s.k[ki] &= 0xffffffff
	}
}

// kmask returns the constant value of an opmask operand.
func (a *analysis) kmask(op operand.Op) uint64 {
	r, ok := op.(reg.Register)
	if !ok || r.Kind() != reg.KindOpmask {
		a.unproven("operand %s is not an opmask", op.Asm())
	}
	ki := int(reg.ToPhysical(r).PhysicalIndex())
	if !a.s.kok[ki] {
		a.unproven("opmask %s is not a known constant", r.Asm())
	}
	return a.s.k[ki]
}

// masked rejects masked forms of element-wise instructions (an opmask
// operand anywhere but in the blends).
func (a *analysis) masked(in *ir.Instruction) bool {
	if strings.HasPrefix(in.Opcode, "VPBLENDM") {
		return false
	}
	for _, o := range in.Operands {
		if r, ok := o.(reg.Register); ok && r.Kind() == reg.KindOpmask {
			a.unproven("the masked form of %s is not modelled", in.Opcode)
		}
	}
	return false
}

// lanewise applies an element-wise op.
func (a *analysis) lanewise(in *ir.Instruction, lo laneOp) {
	ops := in.Operands
	n := a.size(in)
	var x, y []*lane
	if len(ops) != 3 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	if c, ok := imm(ops[0]); ok { // shift by an immediate
		if a.shiftMove(in, lo, int(c), n) {
			return
		}
		x = a.lanesOf(a.read(ops[1], n), lo.w)
		y = make([]*lane, len(x))
		for j := range y {
			y[j] = constLane(int64(min(c, uint64(8*lo.w))))
		}
		if c >= uint64(8*lo.w) {
			a.unproven("%s by %d, the lane width or more", in.Opcode, c)
		}
	} else {
		if _, _, ok := vreg(ops[0]); !ok {
			if _, ok := ops[0].(operand.Mem); !ok {
				a.unproven("%s with operand %s", in.Opcode, ops[0].Asm())
			}
		}
		if lo.op == "sra" || lo.op == "srl" || lo.op == "sll" {
			a.unproven("%s by a register count is not modelled", in.Opcode)
		}
		x = a.lanesOf(a.read(ops[1], n), lo.w)
		y = a.lanesOf(a.read(ops[0], n), lo.w)
	}
	out := make([]*lane, len(x))
	for j := range x {
		out[j] = a.combine(lo.op, uint(8*lo.w), x[j], y[j], j)
		if lo.op == "mullo" && lo.w == 4 {
			if v, c, ok := constOperand(x[j], y[j]); ok {
				out[j] = withProv(out[j], &prov{kind: provLo, x: v, c: c})
			}
		}
	}
	a.write(ops[2], cellsOf(out, lo.w))
}

// varShift models a shift by a vector of counts, each a constant: lane
// j shifted by count j as by an immediate; a count of the lane width or
// more gives 0 (logical) or the sign (arithmetic: a shift by width − 1).
func (a *analysis) varShift(in *ir.Instruction, lo laneOp) {
	ops := in.Operands
	if len(ops) != 3 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	n := a.size(in)
	x := a.lanesOf(a.read(ops[1], n), lo.w)
	y := a.lanesOf(a.read(ops[0], n), lo.w)
	b := uint(8 * lo.w)
	out := make([]*lane, len(x))
	for j := range x {
		c, _, ok := unsignedView(b, y[j].lo, y[j].hi)
		switch {
		case !y[j].isConst() || !ok:
			a.unproven("%s by a count that is not a constant (lane %d)", in.Opcode, j)
		case c >= int64(b) && lo.op != "sra":
			out[j] = zero
			if x[j].wrap {
				a.overflow(j, "%s of a wrapping low product by %d", lo.op, c)
			}
		default:
			out[j] = a.combine(lo.op, b, x[j], constLane(min(c, int64(b)-1)), j)
		}
	}
	a.write(ops[2], cellsOf(out, lo.w))
}

// shiftMove applies a shift by whole lanes of the source's storage as a
// byte move (VPSLLQ $32 of 16-bit lanes moves two lanes up); it reports
// whether it did.
func (a *analysis) shiftMove(in *ir.Instruction, lo laneOp, c, n int) bool {
	if lo.op == "sra" || c%8 != 0 {
		return false
	}
	src := a.read(in.Operands[1], n)
	if c >= 8*lo.w {
		return false
	}
	// Lanes of the shift's width shift arithmetically, unless the shift
	// moves whole 16-bit words of wider lanes (VPSRLD $16: the high half
	// down), where the moved part keeps its own bound.
	if src[0].l != nil && int(src[0].w) == lo.w && (c%16 != 0 || lo.w == 2) {
		return false
	}
	for _, s := range src {
		if s.l != nil && s.l.wrap && int(s.w) == lo.w {
			return false // a wrapping low product shifts as a lane (ivOp)
		}
	}
	by := c / 8
	out := make([]cell, n)
	for e := 0; e < n; e += lo.w {
		for k := 0; k < lo.w; k++ {
			from := k - by
			if lo.op == "srl" {
				from = k + by
			}
			if from < 0 || from >= lo.w {
				out[e+k] = cell{l: zero, w: 1}
			} else {
				out[e+k] = src[e+from]
			}
		}
	}
	a.write(in.Operands[2], out)
	return true
}

// combine computes op on lanes x and y of b bits, lane j of the
// destination.
func (a *analysis) combine(op string, b uint, x, y *lane, j int) *lane {
	if (x.trunc || y.trunc) && op != "or" {
		a.overflow(j, "%s reads %s as a value", op, pick(x.trunc, x, y))
	}
	if op == "sub" && b == 32 {
		if lo, hi, ok := shoup(x, y); ok {
			return a.newVar(lo, hi, false)
		}
	}
	if op == "sub" && b == 64 {
		if lo, hi, ok := barrett(x, y); ok {
			return a.newVar(lo, hi, false)
		}
	}
	if x.lo == x.hi && y.lo == y.hi { // exact bit patterns
		shift := op == "sll" || op == "sra" || op == "srl"
		if x.wrap && !y.wrap && shift { // the exact pattern of a wrapping product, shifted
			l := constLane(wrapSigned(b, shiftPattern(op, b, x.lo, y.lo)))
			l.wrap = op == "sll"
			return l
		}
		if (x.wrap || y.wrap) && !multiplies[op] && op != "or" {
			a.overflow(j, "%s reads a wrapping low product as a value", op)
		}
		r, ok := apply(op, b, x.lo, y.lo)
		if !ok && op == "sll" && truncatingShift(b, x.lo) {
			l := constLane(wrapSigned(b, shiftPattern(op, b, x.lo, y.lo)))
			l.wrap, l.trunc = true, true
			return l
		}
		if !ok {
			a.overflow(j, "%s of %d and %d overflows %d bits", op, x.lo, y.lo, b)
		}
		if op == "or" && (x.wrap || y.wrap) {
			l := constLane(r)
			l.wrap, l.trunc = true, x.trunc || y.trunc
			return l
		}
		l := constLane(r)
		if op == "mullo" && (x.wrap || y.wrap || !fits(b, mulExact(b, x.lo, y.lo), mulExact(b, x.lo, y.lo))) {
			l.wrap = true // the exact pattern of a wrapping low product
		}
		return l
	}
	lo, hi, wrap, why := ivOp(op, b, x, y)
	if trunc := wrap && (op == "sll" && !x.wrap || op == "or" && (x.trunc || y.trunc)); trunc {
		l := a.newVar(lo, hi, true)
		l.trunc = true
		return l
	}
	sym := x.sym
	if x.isConst() {
		sym = y.sym
	}
	related := (x.isConst() || y.isConst() || x.sym == y.sym) && sym >= 0 && !x.wrap && !y.wrap
	if !related {
		if why != "" {
			a.overflow(j, "%s", why)
		}
		return a.newVar(lo, hi, wrap)
	}
	e := mkNode(op, b, 0, exprOf(x), exprOf(y))
	e.wrapped = wrap
	v := a.vars[sym]
	both := !x.isConst() && !y.isConst()
	if both && !exprOf(x).hasWrap() && !exprOf(y).hasWrap() {
		var r enumVal
		if v.width() < maxEnum {
			r = enumerate(e, v.Lo, v.Hi)
		} else {
			r = bisect(e, v.Lo, v.Hi)
		}
		if r.err != nil {
			a.overflow(j, "%s", r.err.why)
		}
		lo, hi, wrap, why = r.lo, r.hi, false, ""
	}
	if why != "" {
		a.overflow(j, "%s", why)
	}
	if e.dep > a.maxDepth(sym) || wrap {
		return a.newVar(lo, hi, wrap)
	}
	return &lane{lo: lo, hi: hi, sym: sym, e: e, wrap: wrap, src: int32(a.i)}
}

// shiftPattern shifts the b-bit pattern x by s as the hardware does
// (no overflow check: the pattern of a wrapping product).
func shiftPattern(op string, b uint, x, s int64) int64 {
	xs, _, _ := signedView(b, x, x)
	xu, _, _ := unsignedView(b, x, x)
	switch op {
	case "sll":
		return int64(uint64(xu) << uint(s) & uint64(umax(b)))
	case "sra":
		return xs >> uint(s)
	}
	return xu >> uint(s)
}

// maxDepth is the deepest expression of variable sym that combine keeps
// (deeper ones become a fresh variable over their bound, the correlation
// given up): 12, and 24 for a variable of at most 2^12 values (an input
// byte's bit sums, CBD) or bytes gathered into a lane of at most maxEnum
// values (CBD3's pair of bytes, see gather), whose enumeration stays
// cheap.
func (a *analysis) maxDepth(sym int32) int {
	v := a.vars[sym]
	if v.width() < 1<<12 || a.deep[sym] && v.width() < maxEnum {
		return 24
	}
	return 12
}

// exprOf is l's expression: a constant, the variable or its function.
func exprOf(l *lane) *node {
	switch {
	case l.isConst():
		return constNode(l.lo)
	case l.e == nil:
		return xNode
	}
	return l.e
}

// maskedForm applies an EVEX instruction masked by a constant opmask
// (merging, or zeroing with the Z suffix): the unmasked instruction,
// then the destination's elements whose mask bit is clear restored (or
// zeroed). It reports whether in was one.
func (a *analysis) maskedForm(in *ir.Instruction) bool {
	if strings.HasPrefix(in.Opcode, "VPBLENDM") || strings.HasPrefix(in.Opcode, "K") {
		return false
	}
	at := -1
	for k, o := range in.Operands {
		if r, ok := o.(reg.Register); ok && r.Kind() == reg.KindOpmask {
			at = k
		}
	}
	if at < 0 {
		return false
	}
	zeroing := false
	for _, sfx := range in.Suffixes {
		if sfx != "Z" {
			a.unproven("suffix %s of a masked %s is not modelled", sfx, in.Opcode)
		}
		zeroing = true
	}
	g := maskElem(in.Opcode)
	dst := in.Operands[len(in.Operands)-1]
	if m, isMem := dst.(operand.Mem); isMem && moves[in.Opcode] && !zeroing && len(in.Operands) == 3 && g > 0 && at == 1 {
		a.maskedStore(in.Operands[0], a.kmask(in.Operands[1]), g, m)
		return true
	}
	if _, _, ok := vreg(dst); !ok || g == 0 || at != len(in.Operands)-2 {
		a.unproven("the masked form of %s is not modelled", in.Opcode)
	}
	if a.computedMask(in, at, zeroing, g) {
		return true
	}
	k := a.kmask(in.Operands[at])
	di, n, _ := vreg(dst)
	old := a.s.v[di]
	if m, isMem := in.Operands[0].(operand.Mem); isMem && moves[in.Opcode] && len(in.Operands) == 3 {
		a.maskedLoad(m, k, g, n, zeroing, di)
		return true
	}
	c := *in
	c.Suffixes = nil
	c.Operands = append(append([]operand.Op(nil), in.Operands[:at]...), dst)
	a.step(&c)
	for e := 0; e < n/g; e++ {
		if k>>uint(e)&1 != 0 {
			continue
		}
		for b := e * g; b < (e+1)*g; b++ {
			if zeroing {
				a.s.v[di][b] = cell{l: zero, w: 1}
			} else {
				a.s.v[di][b] = old[b]
			}
		}
	}
	return true
}

// maskedLoad models a move from memory masked by the constant opmask k
// (elements of g bytes, n bytes in all): only the selected elements are
// read (a masked load near the end of an input reads nothing beyond
// it), the others zeroed or kept.
func (a *analysis) maskedLoad(m operand.Mem, k uint64, g, n int, zeroing bool, di int) {
	region, off := a.addr(m)
	out := a.s.v[di]
	for e := 0; e < n/g; e++ {
		for b := e * g; b < (e+1)*g; b++ {
			switch {
			case k>>uint(e)&1 != 0:
				out[b] = a.memCell(region, off+int64(b))
			case zeroing:
				out[b] = cell{l: zero, w: 1}
			}
		}
	}
	for b := n; b < 64; b++ {
		out[b] = cell{l: zero, w: 1}
	}
	a.s.v[di] = out
}

// maskedStore models a store masked by the constant opmask k (elements
// of g bytes): only the selected elements are written.
func (a *analysis) maskedStore(src operand.Op, k uint64, g int, m operand.Mem) {
	n := a.sizeOf(src)
	cs := a.read(src, n)
	for e := 0; e < n/g; e++ {
		if k>>uint(e)&1 == 0 {
			continue
		}
		a.write(operand.Mem{Base: m.Base, Index: m.Index, Scale: m.Scale, Symbol: m.Symbol, Disp: m.Disp + e*g}, cs[e*g:(e+1)*g])
	}
}

// maskElem is the element size in bytes an opmask selects for opcode;
// 0 if unknown.
func maskElem(op string) int {
	switch op {
	case "VMOVSHDUP", "VMOVSLDUP", "VMOVDQU32", "VMOVDQA32", "VPSHUFD", "VPUNPCKLDQ", "VPUNPCKHDQ", "VPMADDWD":
		return 4
	case "VMOVDQU64", "VMOVDQA64", "VPMULDQ", "VPMULUDQ", "VPUNPCKLQDQ", "VPUNPCKHQDQ", "VPMADD52LUQ", "VPMADD52HUQ":
		return 8
	case "VMOVDQU16":
		return 2
	case "VMOVDQU8":
		return 1
	}
	if lo, ok := laneOps[op]; ok {
		return lo.w
	}
	return 0
}

// madd52 models VPMADD52LUQ and VPMADD52HUQ: the low or high 52 bits of
// the 104-bit product of the operands' low 52 bits, added to the
// destination's 64-bit lanes.
func (a *analysis) madd52(in *ir.Instruction) {
	ops := in.Operands
	if len(ops) != 3 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	n := a.size(in)
	x := a.lanesOf(a.read(ops[1], n), 8)
	y := a.lanesOf(a.read(ops[0], n), 8)
	acc := a.lanesOf(a.read(ops[2], n), 8)
	const m52 = 1<<52 - 1
	low52 := func(l *lane) (uint64, uint64) {
		lo, hi, ok := unsignedView(64, l.lo, l.hi)
		if !ok || l.wrap && l.lo != l.hi || hi > m52 {
			return 0, m52
		}
		return uint64(lo), uint64(hi)
	}
	out := make([]*lane, len(x))
	for j := range x {
		xl, xh := low52(x[j])
		yl, yh := low52(y[j])
		ph, pl := bits.Mul64(xl, yl)
		qh, ql := bits.Mul64(xh, yh)
		var lo, hi uint64
		if in.Opcode == "VPMADD52HUQ" {
			lo, hi = ph<<12|pl>>52, qh<<12|ql>>52
		} else if ph<<12|pl>>52 == qh<<12|ql>>52 {
			lo, hi = pl&m52, ql&m52
		} else {
			lo, hi = 0, m52
		}
		if acc[j].wrap {
			a.overflow(j, "%s accumulates into a wrapping low product", in.Opcode)
		}
		s, S := acc[j].lo+int64(lo), acc[j].hi+int64(hi)
		if acc[j].lo < 0 || S < acc[j].hi || !fits(64, s, S) {
			a.overflow(j, "%s: accumulator [%d, %d] plus [%d, %d] overflows 64 bits", in.Opcode, acc[j].lo, acc[j].hi, lo, hi)
		}
		out[j] = a.newVar(s, S, false)
		if p, ok := hi52Of(in.Opcode, x[j], y[j], acc[j]); ok {
			out[j] = withProv(out[j], p)
		}
		if lo, hi, ok := ifma2Of(in.Opcode, x[j], y[j], acc[j]); ok {
			out[j] = withProv(out[j], &prov{kind: provLow32, lo: lo, hi: hi})
		}
	}
	a.write(ops[2], cellsOf(out, 8))
}
