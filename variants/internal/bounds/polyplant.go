package bounds

import (
	"fmt"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// The Poly1305 plants: defects on copies of production vector variants'
// compiled functions that only the loop's induction reveals (the first
// iteration, peeled, keeps its carry; the defect takes effect from the
// second pass through the loop on).
var polyPlants = []Plant{
	{Defect: "radix26-carry-removed", Kernel: polyKernel, Variant: "isa=avx2/radix=26/lanes=4/blocks=16/pow=mem/carry=ilv/tail=scalar/align=none",
		Doc:    "a radix-26 accumulation without its carry: every carry step of the loop body leaves its limb unmasked and carries nothing (acc = the 64-bit sums d)",
		Mutate: inLoop(removeCarry26)},
	{Defect: "ifma-top-limb-unreduced", Kernel: polyKernel, Variant: "isa=avx512ifma/radix=44/lanes=8/blocks=16/pow=reg/carry=seq/tail=scalar/align=none",
		Doc:    "an IFMA accumulation one block too many: the loop's carry leaves the top limb's sum unreduced (its 2^42 mask gone), so the next block multiplies a limb beyond the 52 bits VPMADD52 reads",
		Mutate: inLoop(unmaskTop44)},
}

func init() { Plants = append(Plants, polyPlants...) }

// inLoop applies edit to the body of the loop labelled "loop" (the
// instructions from the label to its back edge, start to end): edit
// returns the replacements by index.
func inLoop(edit func(insts []*ir.Instruction, start, end int) (map[int]*ir.Instruction, error)) func(fn *ir.Function, ps []Param) (*ir.Function, []Param, error) {
	return func(fn *ir.Function, ps []Param) (*ir.Function, []Param, error) {
		insts := fn.Instructions()
		start, ok := (&analysis{fn: fn}).labels()["loop"]
		if !ok {
			return nil, nil, fmt.Errorf("%s: no loop", fn.Name)
		}
		end := -1
		for i := start; i < len(insts); i++ {
			if l := insts[i].TargetLabel(); insts[i].IsBranch && l != nil && string(*l) == "loop" {
				end = i
				break
			}
		}
		if end < 0 {
			return nil, nil, fmt.Errorf("%s: no back edge to loop", fn.Name)
		}
		repl, err := edit(insts, start, end)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", fn.Name, err)
		}
		byInst := map[*ir.Instruction]*ir.Instruction{}
		for k, in := range repl {
			byInst[insts[k]] = in
		}
		c := *fn
		c.Nodes = nil
		for _, n := range fn.Nodes {
			if in, ok := n.(*ir.Instruction); ok {
				if r, hit := byInst[in]; hit {
					n = r
				}
			}
			c.Nodes = append(c.Nodes, n)
		}
		return &c, ps, nil
	}
}

// removeCarry26 replaces every carry step of the loop (VPSRLQ $26, x, c;
// VPAND mask, x, dst) by c = 0 (VPXOR c, c, c) and dst = x (a move).
func removeCarry26(insts []*ir.Instruction, start, end int) (map[int]*ir.Instruction, error) {
	out := map[int]*ir.Instruction{}
	for k := start; k+1 < end; k++ {
		s, m := insts[k], insts[k+1]
		if s.Opcode != "VPSRLQ" || (m.Opcode != "VPAND" && m.Opcode != "VPANDQ") {
			continue
		}
		if c, ok := imm(s.Operands[0]); !ok || c != 26 || !sameReg(s.Operands[1], m.Operands[1]) {
			continue
		}
		c := s.Operands[2]
		out[k] = &ir.Instruction{Opcode: "VPXOR", Operands: []operand.Op{c, c, c}}
		out[k+1] = &ir.Instruction{Opcode: "VMOVDQA", Operands: []operand.Op{m.Operands[1], m.Operands[2]}}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no radix-26 carry step in the loop")
	}
	return out, nil
}

// unmaskTop44 replaces the loop's VPANDQ by the 2^42 − 1 mask (the
// register the function broadcasts from p1305consts+24) by a move of
// its source.
func unmaskTop44(insts []*ir.Instruction, start, end int) (map[int]*ir.Instruction, error) {
	mask42 := ""
	for _, in := range insts[:start] {
		if m, ok := in.Operands[0].(operand.Mem); ok && in.Opcode == "VPBROADCASTQ" && m.Symbol.Name == "p1305consts" && m.Disp == 24 {
			mask42 = in.Operands[1].Asm()
		}
	}
	for k := start; k < end && mask42 != ""; k++ {
		if in := insts[k]; in.Opcode == "VPANDQ" && len(in.Operands) == 3 && in.Operands[0].Asm() == mask42 {
			return map[int]*ir.Instruction{k: {Opcode: "VMOVDQA64", Operands: []operand.Op{in.Operands[1], in.Operands[2]}}}, nil
		}
	}
	return nil, fmt.Errorf("no VPANDQ by the 2^42 mask in the loop")
}
