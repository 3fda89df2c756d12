package bounds

import (
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// truncations are the narrowing moves VPMOVDB and its kin: source and
// destination lane widths.
var truncations = map[string][2]int{
	"VPMOVWB": {2, 1}, "VPMOVDB": {4, 1}, "VPMOVDW": {4, 2},
	"VPMOVQB": {8, 1}, "VPMOVQW": {8, 2}, "VPMOVQD": {8, 4},
}

// truncate models a narrowing move without saturation: each lane's low
// bytes, moved as byte references (a part of the lane, bounded as such
// where it is read), into memory or the low bytes of a register (the
// rest zeroed).
func (a *analysis) truncate(in *ir.Instruction, ws [2]int) {
	ops := in.Operands
	if len(ops) != 2 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	n := a.sizeOf(ops[0])
	src := a.read(ops[0], n)
	out := make([]cell, n/ws[0]*ws[1])
	for j := 0; j < n/ws[0]; j++ {
		copy(out[j*ws[1]:(j+1)*ws[1]], src[j*ws[0]:])
	}
	a.write(ops[1], out)
}

// packs are the saturating packs: source lane width and whether they
// saturate unsigned (VPACKUSDW: signed dwords to [0, 2^16 − 1]).
var packs = map[string]struct {
	w        int
	unsigned bool
}{
	"VPACKUSDW": {4, true}, "VPACKUSWB": {2, true}, "VPACKSSDW": {4, false}, "VPACKSSWB": {2, false},
}

// pack models VPACKUSDW, VPACKUSWB, VPACKSSDW and VPACKSSWB: in each
// 128-bit block, the lanes of the first source then those of the second,
// each saturated (its signed value clamped) to half its width.
func (a *analysis) pack(in *ir.Instruction, w int, unsigned bool) {
	ops := in.Operands
	if len(ops) != 3 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	n := a.size(in)
	x := a.lanesOf(a.read(ops[1], n), w)
	y := a.lanesOf(a.read(ops[0], n), w)
	op := "sats"
	if unsigned {
		op = "satu"
	}
	bits := constLane(int64(4 * w)) // the result's width in bits
	per := 16 / w
	out := make([]*lane, 0, 2*len(x))
	for blk := 0; blk < len(x); blk += per {
		for _, src := range [][]*lane{x, y} {
			for j := blk; j < blk+per; j++ {
				out = append(out, a.combine(op, uint(8*w), src[j], bits, len(out)))
			}
		}
	}
	a.write(ops[2], cellsOf(out, w/2))
}

// extracts are VPEXTRB/W/D/Q: the element width.
var extracts = map[string]int{"VPEXTRB": 1, "VPEXTRW": 2, "VPEXTRD": 4, "VPEXTRQ": 8}

// extract models VPEXTRB/W/D/Q $i, x, m: element i of the XMM register
// x stored to memory (into a general-purpose register: not modelled).
func (a *analysis) extract(in *ir.Instruction, g int) {
	ops := in.Operands
	if len(ops) != 3 {
		a.unproven("%s with %d operands", in.Opcode, len(ops))
	}
	if _, isMem := ops[2].(operand.Mem); !isMem {
		a.unproven("%s into a register is not modelled", in.Opcode)
	}
	i := int(a.immOf(ops[0])) % (16 / g)
	cs := a.read(ops[1], 16)
	a.write(ops[2], cs[i*g:(i+1)*g])
}
