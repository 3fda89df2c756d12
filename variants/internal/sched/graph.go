package sched

import (
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
)

// An op is one instruction of the region being scheduled, a node of the
// dependency graph.
type op struct {
	in     *ir.Instruction
	lat    int   // cycles until its result is ready
	class  class // the issue resource it takes
	uses   []reg.ID
	defs   []reg.ID // vector registers written (first def starts a live range)
	preds  []int
	succs  []int
	height int // longest latency path to the end of the region
}

// A class is the issue resource an instruction takes in the model.
type class int

const (
	clsALU class = iota
	clsMul
	clsShuf
	clsLoad
	clsStore
	clsOther // scalar: no vector resource
)

// mulLatency is the latency of a vector multiply in the model (Zen 3
// and Zen 4: 3 cycles; Golden Cove: 5, where the code is port-bound).
const mulLatency = 3

// isConst reports whether m is a read-only constant (a static symbol).
func isConst(m operand.Mem) bool { return m.Symbol.Name != "" && m.Base == reg.StaticBase }

// isMove reports whether opcode is a plain vector move (load or store).
func isMove(opcode string) bool { return strings.HasPrefix(opcode, "VMOVDQ") }

func isVec(r reg.Register) bool { return r.Kind() == reg.KindVector }

// splitConstLoads replaces every constant memory operand of a vector
// instruction other than a move by a register loaded just before it.
func splitConstLoads(ins []*ir.Instruction) []*ir.Instruction {
	var out []*ir.Instruction
	for _, in := range ins {
		if isMove(in.Opcode) || !strings.HasPrefix(in.Opcode, "VP") {
			out = append(out, in)
			continue
		}
		for k, x := range in.Operands {
			m, ok := x.(operand.Mem)
			if !ok || !isConst(m) {
				continue
			}
			out = append(out, loadInto(in, k, m))
		}
		out = append(out, in)
	}
	return out
}

// loadInto returns a VMOVDQU of the constant m (operand k of in) into a
// fresh ymm register, which replaces m in in's operands and inputs.
func loadInto(in *ir.Instruction, k int, m operand.Mem) *ir.Instruction {
	r := build.YMM()
	ld, err := x86.VMOVDQU(m, r)
	if err != nil {
		panic(err)
	}
	in.Operands[k] = r
	for j, x := range in.Inputs {
		if xm, ok := x.(operand.Mem); ok && xm == m {
			in.Inputs[j] = r
		}
	}
	return ld
}

// latency returns the model's latency and issue class of in:
// multiplies mulLatency, cross-lane shuffles 3, loads 6 (and 5 more for
// a memory operand), everything else 1.
func latency(in *ir.Instruction) (int, class) {
	opc := in.Opcode
	memIn := slices.ContainsFunc(in.Inputs, operand.IsMem)
	storeOut := slices.ContainsFunc(in.Outputs, operand.IsMem)
	lat, cls := 1, clsALU
	switch {
	case !strings.HasPrefix(opc, "V"):
		cls = clsOther
	case storeOut:
		return 1, clsStore
	case isMove(opc) && memIn:
		return 6, clsLoad
	case strings.HasPrefix(opc, "VPMUL") || strings.HasPrefix(opc, "VPMADD"):
		lat, cls = mulLatency, clsMul
	case opc == "VPERM2I128" || opc == "VPERMQ" || opc == "VPERMD" || opc == "VINSERTI128" || opc == "VEXTRACTI128":
		lat, cls = 3, clsShuf
	case strings.HasPrefix(opc, "VPUNPCK") || strings.HasPrefix(opc, "VSHUF") || opc == "VPSHUFB" ||
		opc == "VPSHUFD" || opc == "VMOVSHDUP" || opc == "VMOVSLDUP" || opc == "VPALIGNR":
		cls = clsShuf
	}
	if memIn {
		lat += 5
	}
	return lat, cls
}

// memAccess is one non-constant memory operand of an instruction.
type memAccess struct {
	m     operand.Mem
	write bool
}

// memAccesses lists in's non-constant memory operands, reads first.
func memAccesses(in *ir.Instruction) []memAccess {
	var out []memAccess
	for _, x := range in.Inputs {
		if m, ok := x.(operand.Mem); ok && !isConst(m) {
			out = append(out, memAccess{m, false})
		}
	}
	for _, x := range in.Outputs {
		if m, ok := x.(operand.Mem); ok && !isConst(m) {
			out = append(out, memAccess{m, true})
		}
	}
	return out
}

// mayAlias reports whether two memory accesses may overlap: the same base
// and index with displacements less than a zmm apart, or different
// registers (unknown).
func mayAlias(a, b operand.Mem) bool {
	if a.Base != b.Base || a.Index != b.Index || a.Scale != b.Scale || a.Symbol != b.Symbol {
		return true
	}
	d := a.Disp - b.Disp
	return d > -64 && d < 64
}

// conflicts reports whether some access of a and some of b may alias,
// one of them a write.
func conflicts(a, b []memAccess) bool {
	for _, x := range a {
		for _, y := range b {
			if (x.write || y.write) && mayAlias(x.m, y.m) {
				return true
			}
		}
	}
	return false
}

// A graphBuilder walks the instructions in order, remembering per
// register its last writer and its readers since, and the instructions
// with memory accesses so far.
type graphBuilder struct {
	ins     []*ir.Instruction
	lastDef map[reg.ID]int
	readers map[reg.ID][]int
	mems    []int
}

// buildGraph builds the dependency graph of ins in their order: register
// dependencies (read after write, write after read, write after write)
// and memory ones (any two accesses that may alias, one a write), then
// every instruction's height.
func buildGraph(ins []*ir.Instruction) []*op {
	b := &graphBuilder{ins: ins, lastDef: map[reg.ID]int{}, readers: map[reg.ID][]int{}}
	ops := make([]*op, len(ins))
	for i, in := range ins {
		o := &op{in: in}
		o.lat, o.class = latency(in)
		ops[i] = o
		dep := map[int]bool{}
		b.inputDeps(i, o, dep)
		b.outputDeps(i, o, dep)
		b.memDeps(i, dep)
		for d := range dep {
			o.preds = append(o.preds, d)
		}
		slices.Sort(o.preds)
		for _, d := range o.preds {
			ops[d].succs = append(ops[d].succs, i)
		}
	}
	setHeights(ops)
	return ops
}

// inputDeps adds to dep the last writer of every register instruction i
// reads (read after write), records i as a reader and its vector uses.
func (b *graphBuilder) inputDeps(i int, o *op, dep map[int]bool) {
	for _, r := range o.in.InputRegisters() {
		if r.Kind() == reg.KindPseudo {
			continue
		}
		id := r.ID()
		if d, ok := b.lastDef[id]; ok {
			dep[d] = true
		}
		b.readers[id] = append(b.readers[id], i)
		if isVec(r) {
			o.uses = append(o.uses, id)
		}
	}
}

// outputDeps adds to dep the last writer (write after write) and the
// readers since (write after read) of every register instruction i
// writes, makes i its last writer and records its vector defs.
func (b *graphBuilder) outputDeps(i int, o *op, dep map[int]bool) {
	for _, r := range o.in.OutputRegisters() {
		id := r.ID()
		if d, ok := b.lastDef[id]; ok {
			dep[d] = true
		}
		for _, rd := range b.readers[id] {
			if rd != i {
				dep[rd] = true
			}
		}
		b.readers[id] = nil
		b.lastDef[id] = i
		if isVec(r) {
			o.defs = append(o.defs, id)
		}
	}
}

// memDeps adds to dep every earlier instruction whose memory accesses
// conflict with instruction i's.
func (b *graphBuilder) memDeps(i int, dep map[int]bool) {
	acc := memAccesses(b.ins[i])
	if len(acc) == 0 {
		return
	}
	for _, j := range b.mems {
		if conflicts(acc, memAccesses(b.ins[j])) {
			dep[j] = true
		}
	}
	b.mems = append(b.mems, i)
}

// setHeights sets every op's height, from the last: its latency plus the
// largest height of its successors.
func setHeights(ops []*op) {
	for i := len(ops) - 1; i >= 0; i-- {
		h := 0
		for _, s := range ops[i].succs {
			h = max(h, ops[s].height)
		}
		ops[i].height = h + ops[i].lat
	}
}
