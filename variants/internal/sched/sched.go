// Package sched is a list scheduler for straight-line AVX2 code built with
// avo: it reorders the instructions of a region of a function and then
// assigns their vector registers itself.
//
// Code emitted group by group and butterfly by butterfly is a chain of
// dependent instructions (multiply, multiply, subtract, add), and the
// out-of-order window of a core (the 64-entry FP scheduler of Zen 3 and
// Zen 4) fills with instructions waiting on their operands before
// independent work reaches it. The scheduler issues the instructions in
// the order of their critical paths instead, on a model of a 4-wide
// vector core (2 multiplies, 2 shuffles, 2 loads, 1 store per cycle, see
// issueLimits), within a window of the original order and under a
// register budget, and then assigns the ymm registers by linear scan of
// the live ranges (straight-line code: interval colouring is exact).
//
// The pass, in order:
//
//  1. region: the instructions from a node to the function's end, which
//     must be straight-line (no labels, branches or returns);
//  2. with Options.Hoist, splitConstLoads: every constant memory operand
//     (a static symbol) of a vector instruction becomes a VMOVDQU of its
//     own, which the scheduler can hoist ahead of its use when registers
//     allow, taking the load latency off the dependency chain;
//  3. buildGraph: register dependencies (read after write, write after
//     read, write after write), memory ones (two accesses that may alias,
//     one a write) and each instruction's height (longest latency path to
//     the end);
//  4. listSchedule under each of configs, keeping the order of fewest
//     predicted cycles whose live registers fit (the original order if
//     none does);
//  5. linearScan: physical ymm registers for the virtual ones, in the
//     new order; the region's nodes are rewritten in that order with the
//     allocation applied.
//
// Inputs: an avo function whose region uses virtual vector registers
// (physical ones are an error) and general-purpose registers of any kind
// (left to avo's allocator). Output: the same instructions, reordered,
// their vector registers physical ymm registers below Options.Regs.
//
// The model predicts independent calls (llvm-mca's view); a harness that
// chains calls on one polynomial makes each call wait for the last stores
// of the one before, so whether scheduling helps is for measurement to
// decide.
package sched

import (
	"fmt"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/avogen"
)

// Options configure one scheduling.
type Options struct {
	// Hoist splits constant memory operands into loads before
	// scheduling (step 2).
	Hoist bool
	// Regs is the number of physical vector registers (16 on AVX2).
	Regs int
}

// Last schedules the function avo is building (the last function of its
// global context) from node from to its end; see Function.
func Last(from int, o Options) error {
	f, err := avogen.File()
	if err != nil {
		return err
	}
	return Function(f.Functions()[len(f.Functions())-1], from, o)
}

// Function reorders the instructions of fn from node from to its end and
// binds their vector registers. It returns an error, leaving fn as built,
// if the region is not straight-line code; it returns an error if no order
// (not even the original one) fits in o.Regs registers.
func Function(fn *ir.Function, from int, o Options) error {
	ins, err := region(fn, from)
	if err != nil {
		return err
	}
	if o.Hoist {
		ins = splitConstLoads(ins)
	}
	ops := buildGraph(ins)
	order := bestOrder(ops, o.Regs)
	alloc, err := linearScan(ops, order, o.Regs)
	if err != nil {
		return fmt.Errorf("sched: %s: %w", fn.Name, err)
	}
	fn.Nodes = rewrite(fn.Nodes[:from:from], ops, order, alloc)
	return nil
}

// region returns the instructions of fn from node from to its end, or an
// error if a node there is a label, a branch or a return.
func region(fn *ir.Function, from int) ([]*ir.Instruction, error) {
	var ins []*ir.Instruction
	for _, n := range fn.Nodes[from:] {
		i, ok := n.(*ir.Instruction)
		if !ok || i.IsBranch || i.IsTerminal {
			return nil, fmt.Errorf("sched: %s: region is not straight-line code", fn.Name)
		}
		ins = append(ins, i)
	}
	return ins, nil
}

// bestOrder tries every configuration and returns the order of fewest
// predicted cycles among those whose registers fit (the first of equals),
// or the original order if none fits.
func bestOrder(ops []*op, regs int) []int {
	order, est := []int(nil), 0
	for _, p := range configs {
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
	return order
}

// rewrite appends the instructions of ops to nodes in order, with the
// register allocation applied to their operands, inputs and outputs.
func rewrite(nodes []ir.Node, ops []*op, order []int, alloc reg.Allocation) []ir.Node {
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
	return nodes
}
