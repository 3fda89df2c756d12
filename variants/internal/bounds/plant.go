package bounds

import (
	"fmt"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// A Plant is a defect planted on a copy of a generated variant's
// compiled function (or of its contract), which the analysis must report
// as an overflow with the lane and instruction: the self-test of
// `tunelab bounds --selftest`. The shipped function is never changed.
type Plant struct {
	Defect, Doc     string
	Kernel, Variant string // the variant it is planted on
	// Mutate returns the defective copy of fn and of its parameters'
	// contracts; an error if fn lacks what the defect removes.
	Mutate func(fn *ir.Function, ps []Param) (*ir.Function, []Param, error)
}

// Plants are the planted defects, on the lazy ML-KEM variants that keep
// the least headroom.
var Plants = []Plant{
	{Defect: "subtract-chain-short", Kernel: "mlkem.ntt", Variant: "isa=avx512/regs=all/shuf=blend/reorder=undo/red=lazy/align=none",
		Doc:    "the final subtraction chain one conditional subtraction short (the largest, 8q, step gone), as in issue 42",
		Mutate: removeFirst(chainStep)},
	{Defect: "reduction-removed", Kernel: "mlkem.invntt", Variant: "isa=avx512/regs=all/shuf=blend/reorder=undo/red=lazy/align=none",
		Doc:    "one Barrett reduction removed from an InvNTT layer (its final subtraction of q·⌊x/q⌋)",
		Mutate: removeFirst(barrettSub)},
	{Defect: "lazy-one-layer-too-far", Kernel: "mlkem.invntt", Variant: "isa=avx512/regs=all/shuf=blend/reorder=undo/red=lazy/align=none",
		Doc:    "the lazy rule one layer too far: every Barrett reduction of the first reducing layer left out, none happening before the next layer's products",
		Mutate: removeLayer},
	{Defect: "input-widened", Kernel: "mlkem.invntt", Variant: "isa=avx512/regs=all/shuf=blend/reorder=undo/red=lazy/align=none",
		Doc: "the input contract widened by one bit: [0, 2q-1] instead of [0, q-1]",
		Mutate: func(fn *ir.Function, ps []Param) (*ir.Function, []Param, error) {
			out := append([]Param(nil), ps...)
			for i, p := range out {
				if p.In != nil {
					w := Interval{p.In.Lo, 2*p.In.Hi + 1}
					out[i].In = &w
				}
			}
			return fn, out, nil
		}},
	{Defect: "highbits-wrap-removed", Kernel: "mldsa.lowbits", Variant: "isa=avx2/unroll=4",
		Doc:    "HighBits without its wrap of r1 = m to 0 (the VPCMPEQD and VPANDN of Decompose removed): r1 reaches 44 for γ2 = (q−1)/88 (the contract's second set of c)",
		Mutate: removeFirst(highBitsWrap)},
	{Defect: "cbd3-sign-fix-removed", Kernel: "mlkem.cbd3", Variant: "isa=avx2/unroll=1",
		Doc:    "CBD3 without its sign fix x + (q & (x >> 15)) (the VPADDW removed): the coefficients stay in [−3, 3], not canonical",
		Mutate: removeFirst(signFix)},
	{Defect: "shoup-correction-removed", Kernel: "mldsa.invntt", Variant: "isa=avx2/regs=mem/shuf=unpack/reorder=undo/red=lazy/canon=min/mul=shoup/align=none",
		Doc:    "the correction min(x, x+q) after the last Shoup product (lo32(x·w) − lo32(t·q), proven by its identity) removed",
		Mutate: afterShoup},
}

// afterShoup removes the first VPMINUD after the last Shoup tail
// (VPMULLD, VPMULLD, VPSUBD).
func afterShoup(fn *ir.Function, ps []Param) (*ir.Function, []Param, error) {
	insts := fn.Instructions()
	last := -1
	for i := 2; i < len(insts); i++ {
		if insts[i].Opcode == "VPSUBD" && insts[i-1].Opcode == "VPMULLD" && insts[i-2].Opcode == "VPMULLD" {
			last = i
		}
	}
	for i := last + 1; last >= 0 && i < len(insts); i++ {
		if insts[i].Opcode == "VPMINUD" {
			return without(fn, insts, []int{i}), ps, nil
		}
	}
	return nil, nil, fmt.Errorf("%s: no correction after a Shoup product", fn.Name)
}

// highBitsWrap matches HighBits' wrap of r1 = m to 0 on AVX2: VPCMPEQD
// of m and r1 into e, then VPANDN r1, e, r1.
func highBitsWrap(insts []*ir.Instruction, i int) []int {
	if i+1 >= len(insts) || insts[i].Opcode != "VPCMPEQD" || insts[i+1].Opcode != "VPANDN" {
		return nil
	}
	c, n := insts[i].Operands, insts[i+1].Operands
	if !sameReg(c[2], n[1]) || !sameReg(n[0], n[2]) {
		return nil
	}
	return []int{i, i + 1}
}

// signFix matches the addition of the sign fix x + (q & (x >> 15)):
// VPSRAW $15, x, m, VPAND of a constant into m, then VPADDW m, x, x.
func signFix(insts []*ir.Instruction, i int) []int {
	if i < 2 || insts[i].Opcode != "VPADDW" || insts[i-1].Opcode != "VPAND" || insts[i-2].Opcode != "VPSRAW" {
		return nil
	}
	s, a, m := insts[i-2].Operands, insts[i-1].Operands, insts[i].Operands
	if c, ok := imm(s[0]); !ok || c != 15 || !sameReg(s[2], a[2]) || !sameReg(a[2], m[0]) || !sameReg(m[1], s[1]) || !sameReg(m[1], m[2]) {
		return nil
	}
	return []int{i}
}

// A pattern finds the instructions to remove at index i of insts (nil:
// none there).
type pattern func(insts []*ir.Instruction, i int) []int

// removeFirst removes the instructions of the first match of p.
func removeFirst(p pattern) func(fn *ir.Function, ps []Param) (*ir.Function, []Param, error) {
	return func(fn *ir.Function, ps []Param) (*ir.Function, []Param, error) {
		insts := fn.Instructions()
		for i := range insts {
			if drop := p(insts, i); drop != nil {
				return without(fn, insts, drop), ps, nil
			}
		}
		return nil, nil, fmt.Errorf("%s: the pattern to remove does not occur", fn.Name)
	}
}

// without returns a copy of fn without the instructions drop.
func without(fn *ir.Function, insts []*ir.Instruction, drop []int) *ir.Function {
	gone := map[*ir.Instruction]bool{}
	for _, i := range drop {
		gone[insts[i]] = true
	}
	c := *fn
	c.Nodes = nil
	for _, n := range fn.Nodes {
		if in, ok := n.(*ir.Instruction); ok && gone[in] {
			continue
		}
		c.Nodes = append(c.Nodes, n)
	}
	return &c
}

// chainStep matches a conditional subtraction: VPSUBW of a constant
// from x into t, then VPMINUW t, x, x.
func chainStep(insts []*ir.Instruction, i int) []int {
	if i+1 >= len(insts) || insts[i].Opcode != "VPSUBW" || insts[i+1].Opcode != "VPMINUW" {
		return nil
	}
	s, m := insts[i].Operands, insts[i+1].Operands
	if _, ok := s[0].(operand.Mem); !ok || !sameReg(s[2], m[0]) || !sameReg(s[1], m[1]) || !sameReg(m[1], m[2]) {
		return nil
	}
	return []int{i, i + 1}
}

// barrettSub matches the last instruction of a Barrett reduction:
// VPMULHW, VPSRAW into t, VPMULLW t, then VPSUBW t, x, x.
func barrettSub(insts []*ir.Instruction, i int) []int {
	if i < 3 || insts[i].Opcode != "VPSUBW" || insts[i-1].Opcode != "VPMULLW" || insts[i-2].Opcode != "VPSRAW" || insts[i-3].Opcode != "VPMULHW" {
		return nil
	}
	s := insts[i].Operands
	if !sameReg(s[0], insts[i-1].Operands[2]) || !sameReg(s[1], s[2]) {
		return nil
	}
	return []int{i}
}

func sameReg(a, b operand.Op) bool {
	x, ok1 := a.(reg.Register)
	y, ok2 := b.(reg.Register)
	return ok1 && ok2 && x.ID() == y.ID()
}

// A PlantResult is the analysis of one planted defect.
type PlantResult struct {
	Plant  Plant
	Result Result
	Err    error // the defect could not be planted
}

// OK reports whether the analysis reported the defect as an overflow
// with its lane and instruction.
func (r PlantResult) OK() bool {
	f := r.Result.Finding
	return r.Err == nil && r.Result.Status == Overflow && f != nil && f.Lane >= 0 && f.Instr != ""
}

// RunPlant plants p on fn (analysed with params and, if any, the
// integer parameters' values and the constants' sets: one run each, as
// AnalyzeAll) and analyses the copy.
func RunPlant(p Plant, fn *ir.Function, d Data, params []Param, scalars ...ScalarValues) PlantResult {
	c, ps, err := p.Mutate(fn, params)
	if err != nil {
		return PlantResult{Plant: p, Err: err}
	}
	if p.Kernel == polyKernel {
		wc, err := PolyContract(fn.Name, p.Variant)
		if err != nil {
			return PlantResult{Plant: p, Err: err}
		}
		return PlantResult{Plant: p, Result: AnalyzeWords(c, d, wc)}
	}
	return PlantResult{Plant: p, Result: AnalyzeAll(c, d, ps, scalars)}
}

// removeLayer removes the final subtraction of every Barrett reduction
// from the first one to the next Montgomery product (a VPMULLW not
// following a VPSRAW, as Barrett's does): the reductions of the first
// layer that reduces.
func removeLayer(fn *ir.Function, ps []Param) (*ir.Function, []Param, error) {
	insts := fn.Instructions()
	var drop []int
	for i := range insts {
		if len(drop) > 0 && insts[i].Opcode == "VPMULLW" && insts[i-1].Opcode != "VPSRAW" {
			break
		}
		if d := barrettSub(insts, i); d != nil {
			drop = append(drop, d...)
		}
	}
	if len(drop) == 0 {
		return nil, nil, fmt.Errorf("%s: no Barrett reduction", fn.Name)
	}
	return without(fn, insts, drop), ps, nil
}
