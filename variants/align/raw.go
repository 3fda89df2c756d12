package main

import (
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// rawPCALIGN returns a `PCALIGN $64` directive, which avo does not model.
func rawPCALIGN() *ir.Instruction {
	return &ir.Instruction{Opcode: "PCALIGN", Operands: []operand.Op{operand.Imm(64)}}
}
