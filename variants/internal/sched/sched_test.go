package sched

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
)

// program builds two passes over 12 vectors of memory: load, multiply by
// a constant, add, store; the second pass reads each vector the first
// wrote to its neighbour. Its virtual registers come from avo's global
// context, as a generator's do and as those of the loads
// splitConstLoads adds do: registers of a collection of its own would
// share IDs with those (both count from zero), and whether the two
// collided would depend on how many registers earlier tests, and earlier
// runs under -count, had taken from the global one.
func program(t *testing.T) []*ir.Instruction {
	p := build.GP64()
	c := operand.Mem{Symbol: operand.Symbol{Name: "c", Static: true}, Base: reg.StaticBase}
	var ins []*ir.Instruction
	add := func(i *ir.Instruction, err error) {
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, i)
	}
	for pass := range 2 {
		for i := range 12 {
			r, m, a := build.YMM(), build.YMM(), build.YMM()
			add(x86.VMOVDQU(operand.Mem{Base: p, Disp: 32 * ((i + pass) % 12)}, r))
			add(x86.VPMULLW(c, r, m))
			add(x86.VPADDW(m, r, a))
			add(x86.VMOVDQU(a, operand.Mem{Base: p, Disp: 32 * i}))
		}
	}
	return ins
}

// TestListSchedule checks every scheduler configuration on program, with
// and without split constant loads: the order is a permutation that keeps
// every dependency (registers and memory), and the linear scan never gives
// one ymm register to two values live at once.
func TestListSchedule(t *testing.T) {
	for _, hoist := range []bool{false, true} {
		ins := program(t)
		if hoist {
			ins = splitConstLoads(ins)
		}
		ops := buildGraph(ins)
		checkStoreToLoad(t, hoist, ops)
		scheduled := 0
		for _, p := range configs {
			order, _, ok := listSchedule(ops, p, 16)
			if !ok {
				continue
			}
			scheduled++
			checkOrder(t, hoist, p, ops, order)
			alloc, err := linearScan(ops, order, 16)
			if err != nil {
				t.Fatalf("hoist=%v %v: %v", hoist, p, err)
			}
			checkAllocation(t, ops, order, alloc)
		}
		if scheduled == 0 {
			t.Errorf("hoist=%v: no configuration scheduled the program", hoist)
		}
	}
}

// checkStoreToLoad fails if a second-pass load does not depend on a store
// (the store of the vector it reads).
func checkStoreToLoad(t *testing.T, hoist bool, ops []*op) {
	t.Helper()
	for i, o := range ops {
		if o.class != clsLoad || len(memAccesses(o.in)) == 0 || i < len(ops)/2 {
			continue
		}
		stored := false
		for _, d := range o.preds {
			stored = stored || ops[d].class == clsStore
		}
		if !stored {
			t.Errorf("hoist=%v: second-pass load %d does not wait for the store of its vector", hoist, i)
		}
	}
}

// checkOrder fails if order is not a permutation of ops or schedules an
// instruction before one of its dependencies.
func checkOrder(t *testing.T, hoist bool, p params, ops []*op, order []int) {
	t.Helper()
	pos := make([]int, len(ops))
	seen := map[int]bool{}
	for k, i := range order {
		pos[i] = k
		seen[i] = true
	}
	if len(order) != len(ops) || len(seen) != len(ops) {
		t.Fatalf("hoist=%v %v: order of %d instructions is not a permutation of %d", hoist, p, len(order), len(ops))
	}
	for i, o := range ops {
		for _, d := range o.preds {
			if pos[d] >= pos[i] {
				t.Errorf("hoist=%v %v: instruction %d scheduled before its dependency %d", hoist, p, i, d)
			}
		}
	}
}

// checkAllocation replays order and fails if a register is written while
// another value still needs it.
func checkAllocation(t *testing.T, ops []*op, order []int, alloc reg.Allocation) {
	t.Helper()
	last := map[reg.ID]int{}
	for k, i := range order {
		for _, u := range ops[i].uses {
			last[u] = k
		}
	}
	holder := map[reg.ID]reg.ID{} // physical -> value
	for k, i := range order {
		for _, d := range ops[i].defs {
			ph, ok := alloc[d]
			if !ok {
				t.Fatalf("value %v has no register", d)
			}
			if v, busy := holder[ph]; busy && v != d && last[v] > k {
				t.Fatalf("instruction %d writes %v over %v, still needed at %d", k, ph, v, last[v])
			}
			holder[ph] = d
		}
	}
}

// TestRegionStraightLine checks that a region holding a label is refused
// and left as built.
func TestRegionStraightLine(t *testing.T) {
	fn := ir.NewFunction("f")
	for _, i := range program(t)[:4] {
		fn.AddInstruction(i)
	}
	fn.AddLabel("l")
	n := len(fn.Nodes)
	if err := Function(fn, 0, Options{Regs: 16}); err == nil {
		t.Fatal("region with a label scheduled")
	}
	if len(fn.Nodes) != n {
		t.Errorf("refused region changed: %d nodes, want %d", len(fn.Nodes), n)
	}
}
