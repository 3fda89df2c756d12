package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
	"github.com/tunelab/tunelab/variants/internal/avogen"
)

// The sched knob reorders a straight-line AVX2 transform after it is
// built: the code emitted group by group and butterfly by butterfly is a
// chain of dependent instructions (multiply, multiply, subtract, add),
// and the out-of-order window of a core (the 64-entry FP scheduler of
// Zen 3 and Zen 4) fills with instructions waiting on their operands
// before independent work reaches it. A list scheduler issues the
// instructions in the order of their critical paths instead, on a model
// of a 4-wide vector core (2 multiplies, 2 shuffles, 2 loads, 1 store
// per cycle), within a window of the original order and under a register
// budget, and then assigns the 16 ymm registers itself by linear scan of
// the live ranges (straight-line code: interval colouring is exact).
//
// sched=list keeps constant operands (zetas, Barrett and subtraction
// constants) as memory operands; sched=hoist first splits each into a
// VMOVDQU of its own, which the scheduler hoists ahead of its use when
// registers allow, taking the load latency off the dependency chain.
//
// The model predicts independent calls (llvm-mca's view); the harness
// chains calls on one polynomial, so a call waits for the last stores of
// the one before: on Zen 3 sched=list measured faster than hoist for the
// ML-KEM NTT and neither helped its InvNTT, which is why both are knob
// values for the sweep to decide rather than the default.

// A schedOp is one instruction of the region being scheduled.
type schedOp struct {
	in     *ir.Instruction
	lat    int     // cycles until its result is ready
	class  opClass // the issue resource it takes
	uses   []reg.ID
	defs   []reg.ID // vector registers written (first def starts a live range)
	preds  []int
	succs  []int
	height int // longest latency path to the end of the region
}

type opClass int

const (
	clsALU opClass = iota
	clsMul
	clsShuf
	clsLoad
	clsStore
	clsOther // scalar: no vector resource
)

// schedLimits is the per-cycle issue model; schedVector caps the vector
// instructions (ALU, multiply and shuffle together) per cycle.
var schedLimits = [...]int{clsALU: 4, clsMul: 2, clsShuf: 2, clsLoad: 2, clsStore: 1, clsOther: 2}

const schedVector = 4

// schedMulLat is the latency of a vector multiply in the model (Zen 3
// and Zen 4: 3 cycles; Golden Cove: 5, where the code is port-bound).
const schedMulLat = 3

// A schedParams is one configuration of the scheduler: the register
// budget (limit), how many registers a hoisted load must leave free
// (reserve) and the window over the original order.
type schedParams struct{ limit, reserve, window int }

// schedConfigs are tried in order; the best predicted schedule whose
// registers fit wins, the original order if none does.
var schedConfigs = []schedParams{
	{15, 0, 30}, {15, 1, 30}, {14, 0, 30}, {16, 2, 30}, {15, 0, 40}, {14, 0, 40},
	{14, 1, 60}, {13, 0, 60}, {15, 1, 80}, {14, 0, 80}, {12, 0, 80},
}

// scheduleFunction reorders the instructions of the function being built
// from node from to its end (straight-line code: no labels or branches)
// and binds its vector registers; hoist splits constant memory operands
// into loads first. It returns an error if the region is not
// straight-line or no schedule fits the registers (then the code is left
// as built).
func scheduleFunction(from int, hoist bool, regs int) error {
	f, err := avogen.File()
	if err != nil {
		return err
	}
	fn := f.Functions()[len(f.Functions())-1]
	var ins []*ir.Instruction
	for _, n := range fn.Nodes[from:] {
		i, ok := n.(*ir.Instruction)
		if !ok || i.IsBranch || i.IsTerminal {
			return fmt.Errorf("sched: %s: region is not straight-line code", fn.Name)
		}
		ins = append(ins, i)
	}
	if hoist {
		ins = splitConstLoads(ins)
	}
	ops := schedGraph(ins)
	order, est := []int(nil), 0
	for _, p := range schedConfigs {
		o, cycles, ok := listSchedule(ops, p, regs)
		if ok && (order == nil || cycles < est) {
			order, est = o, cycles
		}
	}
	if order == nil {
		order = make([]int, len(ops))
		for i := range order {
			order[i] = i
		}
	}
	alloc, err := linearScan(ops, order, regs)
	if err != nil {
		return fmt.Errorf("sched: %s: %w", fn.Name, err)
	}
	nodes := fn.Nodes[:from:from]
	for _, i := range order {
		in := ops[i].in
		for k := range in.Operands {
			in.Operands[k] = operand.ApplyAllocation(in.Operands[k], alloc)
		}
		for k := range in.Inputs {
			in.Inputs[k] = operand.ApplyAllocation(in.Inputs[k], alloc)
		}
		for k := range in.Outputs {
			in.Outputs[k] = operand.ApplyAllocation(in.Outputs[k], alloc)
		}
		nodes = append(nodes, in)
	}
	fn.Nodes = nodes
	return nil
}

// isConst reports whether m is a read-only constant (a static symbol).
func isConst(m operand.Mem) bool { return m.Symbol.Name != "" && m.Base == reg.StaticBase }

// isMove reports whether opcode is a plain vector move (load or store).
func isMove(opcode string) bool { return strings.HasPrefix(opcode, "VMOVDQ") }

// splitConstLoads replaces every constant memory operand of a vector
// instruction other than a move by a register loaded just before it.
func splitConstLoads(ins []*ir.Instruction) []*ir.Instruction {
	var out []*ir.Instruction
	for _, in := range ins {
		if isMove(in.Opcode) || !strings.HasPrefix(in.Opcode, "VP") {
			out = append(out, in)
			continue
		}
		for k, op := range in.Operands {
			m, ok := op.(operand.Mem)
			if !ok || !isConst(m) {
				continue
			}
			r := build.YMM()
			ld, err := x86.VMOVDQU(m, r)
			if err != nil {
				panic(err)
			}
			out = append(out, ld)
			in.Operands[k] = r
			for j, x := range in.Inputs {
				if xm, ok := x.(operand.Mem); ok && xm == m {
					in.Inputs[j] = r
				}
			}
		}
		out = append(out, in)
	}
	return out
}

// opLatency returns the model's latency and issue class of in:
// multiplies schedMulLat, cross-lane shuffles 3, loads 6 (and 5 more for
// a memory operand), everything else 1.
func opLatency(in *ir.Instruction) (int, opClass) {
	op := in.Opcode
	memIn := false
	for _, x := range in.Inputs {
		if operand.IsMem(x) {
			memIn = true
		}
	}
	storeOut := false
	for _, x := range in.Outputs {
		if operand.IsMem(x) {
			storeOut = true
		}
	}
	lat, cls := 1, clsALU
	switch {
	case !strings.HasPrefix(op, "V"):
		cls = clsOther
	case storeOut:
		return 1, clsStore
	case isMove(op) && memIn:
		return 6, clsLoad
	case strings.HasPrefix(op, "VPMUL") || strings.HasPrefix(op, "VPMADD"):
		lat, cls = schedMulLat, clsMul
	case op == "VPERM2I128" || op == "VPERMQ" || op == "VPERMD" || op == "VINSERTI128" || op == "VEXTRACTI128":
		lat, cls = 3, clsShuf
	case strings.HasPrefix(op, "VPUNPCK") || strings.HasPrefix(op, "VSHUF") || op == "VPSHUFB" ||
		op == "VPSHUFD" || op == "VMOVSHDUP" || op == "VMOVSLDUP" || op == "VPALIGNR":
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

func isVec(r reg.Register) bool { return r.Kind() == reg.KindVector }

// schedGraph builds the dependency graph of ins in their order: register
// dependencies (read after write, write after read, write after write)
// and memory ones (any two accesses that may alias, one a write).
func schedGraph(ins []*ir.Instruction) []*schedOp {
	ops := make([]*schedOp, len(ins))
	lastDef := map[reg.ID]int{}
	readers := map[reg.ID][]int{}
	var mems []int
	for i, in := range ins {
		op := &schedOp{in: in}
		op.lat, op.class = opLatency(in)
		ops[i] = op
		dep := map[int]bool{}
		for _, r := range in.InputRegisters() {
			if r.Kind() == reg.KindPseudo {
				continue
			}
			id := r.ID()
			if d, ok := lastDef[id]; ok {
				dep[d] = true
			}
			readers[id] = append(readers[id], i)
			if isVec(r) {
				op.uses = append(op.uses, id)
			}
		}
		for _, r := range in.OutputRegisters() {
			id := r.ID()
			if d, ok := lastDef[id]; ok {
				dep[d] = true
			}
			for _, rd := range readers[id] {
				if rd != i {
					dep[rd] = true
				}
			}
			readers[id] = nil
			lastDef[id] = i
			if isVec(r) {
				op.defs = append(op.defs, id)
			}
		}
		acc := memAccesses(in)
		if len(acc) > 0 {
			for _, j := range mems {
				if conflicts(acc, memAccesses(ins[j])) {
					dep[j] = true
				}
			}
			mems = append(mems, i)
		}
		for d := range dep {
			op.preds = append(op.preds, d)
		}
		slices.Sort(op.preds)
		for _, d := range op.preds {
			ops[d].succs = append(ops[d].succs, i)
		}
	}
	for i := len(ops) - 1; i >= 0; i-- {
		h := 0
		for _, s := range ops[i].succs {
			h = max(h, ops[s].height)
		}
		ops[i].height = h + ops[i].lat
	}
	return ops
}

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

// listSchedule orders ops cycle by cycle: among the ready instructions in
// the window (the first p.window not yet scheduled, in original order),
// the one with the longest path to the end goes first, as long as the
// issue model has room and the live vector registers stay within
// p.limit (loads, which only add a register, within p.limit - p.reserve);
// it waits for an instruction that fits rather than exceed the budget,
// and exceeds it only when none ever would. It returns the order, the
// cycles the model predicts and whether at most regs registers are ever
// live.
func listSchedule(ops []*schedOp, p schedParams, regs int) ([]int, int, bool) {
	n := len(ops)
	npred := make([]int, n)
	readyAt := make([]int, n)
	usesLeft := map[reg.ID]int{}
	for i, op := range ops {
		npred[i] = len(op.preds)
		for _, u := range op.uses {
			usesLeft[u]++
		}
	}
	done := make([]bool, n)
	live := map[reg.ID]bool{}
	delta := func(i int) int {
		d := 0
		for _, r := range ops[i].defs {
			if !live[r] && usesLeft[r] > 0 {
				d++
			}
		}
		uses := ops[i].uses
		for k, u := range uses {
			if slices.Contains(uses[:k], u) {
				continue // counted at its first occurrence
			}
			c := 0
			for _, v := range uses[k:] {
				if v == u {
					c++
				}
			}
			if usesLeft[u] == c && live[u] && !slices.Contains(ops[i].defs, u) {
				d--
			}
		}
		return d
	}
	var order []int
	first, cycle := 0, 0
	for len(order) < n {
		var used [len(schedLimits)]int
		for {
			for first < n && done[first] {
				first++
			}
			best, waiting := -1, false
			for i := first; i < min(n, first+p.window); i++ {
				if done[i] || npred[i] > 0 {
					continue
				}
				d := delta(i)
				budget := p.limit
				if len(ops[i].uses) == 0 {
					budget -= p.reserve
				}
				fits := len(live)+d <= budget || d < 0
				if !fits {
					continue
				}
				if readyAt[i] > cycle || used[ops[i].class] >= schedLimits[ops[i].class] ||
					ops[i].class <= clsShuf && used[clsALU]+used[clsMul]+used[clsShuf] >= schedVector {
					waiting = true
					continue
				}
				if best < 0 || ops[i].height > ops[best].height {
					best = i
				}
			}
			if best < 0 && !waiting && used == [len(schedLimits)]int{} {
				// nothing fits now or later: the ready instruction that
				// adds the fewest registers, earliest first
				for i := first; i < min(n, first+p.window); i++ {
					if !done[i] && npred[i] == 0 && readyAt[i] <= cycle && (best < 0 || delta(i) < delta(best)) {
						best = i
					}
				}
			}
			if best < 0 {
				break
			}
			op := ops[best]
			for _, u := range op.uses {
				usesLeft[u]--
			}
			for _, u := range op.uses {
				if usesLeft[u] == 0 {
					delete(live, u)
				}
			}
			for _, r := range op.defs {
				if usesLeft[r] > 0 {
					live[r] = true
				}
			}
			if len(live) > regs {
				return nil, 0, false
			}
			done[best] = true
			order = append(order, best)
			used[op.class]++
			for _, s := range op.succs {
				npred[s]--
				readyAt[s] = max(readyAt[s], cycle+op.lat)
			}
		}
		cycle++
		if cycle > 64*n {
			return nil, 0, false
		}
	}
	return order, cycle, true
}

// linearScan assigns physical ymm registers to the vector registers of
// ops in the given order: a register is taken at its first write and
// given back after its last use (an instruction's dying inputs are given
// back before its outputs are placed: VEX destinations may be sources).
func linearScan(ops []*schedOp, order []int, regs int) (reg.Allocation, error) {
	last := map[reg.ID]int{}
	for pos, i := range order {
		for _, u := range ops[i].uses {
			last[u] = pos
		}
		for _, d := range ops[i].defs {
			last[d] = max(last[d], pos)
		}
	}
	alloc := reg.Allocation{}
	var free []int
	for r := regs - 1; r >= 0; r-- {
		free = append(free, r)
	}
	physOf := map[reg.ID]int{}
	for pos, i := range order {
		var dying []reg.ID
		for _, u := range ops[i].uses {
			if last[u] == pos && !slices.Contains(dying, u) {
				dying = append(dying, u)
			}
		}
		for _, u := range dying {
			if !slices.Contains(ops[i].defs, u) {
				free = append(free, physOf[u])
			}
		}
		for _, d := range ops[i].defs {
			if _, ok := physOf[d]; ok {
				continue
			}
			if !d.IsVirtual() {
				return nil, fmt.Errorf("physical vector register %v in scheduled code", d)
			}
			if len(free) == 0 {
				return nil, fmt.Errorf("more than %d vector registers live", regs)
			}
			slices.Sort(free)
			slices.Reverse(free)
			r := free[len(free)-1]
			free = free[:len(free)-1]
			physOf[d] = r
			alloc[d] = reg.LookupPhysical(reg.KindVector, reg.Index(r), reg.S256).ID()
			if last[d] == pos {
				free = append(free, r)
			}
		}
		for _, u := range dying {
			if slices.Contains(ops[i].defs, u) {
				free = append(free, physOf[u])
			}
		}
	}
	return alloc, nil
}
