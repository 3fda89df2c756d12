package sched

import (
	"fmt"
	"slices"

	"github.com/mmcloughlin/avo/reg"
)

// linearScan assigns physical ymm registers to the vector registers of
// ops in the given order: a register is taken at its first write and
// given back after its last use (an instruction's dying inputs are given
// back before its outputs are placed: VEX destinations may be sources),
// the lowest free register first.
func linearScan(ops []*op, order []int, regs int) (reg.Allocation, error) {
	last := lastUses(ops, order)
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
			var r int
			r, free = takeLowest(free)
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

// lastUses returns, per vector register, the position in order of its
// last read (or of its last write, if later).
func lastUses(ops []*op, order []int) map[reg.ID]int {
	last := map[reg.ID]int{}
	for pos, i := range order {
		for _, u := range ops[i].uses {
			last[u] = pos
		}
		for _, d := range ops[i].defs {
			last[d] = max(last[d], pos)
		}
	}
	return last
}

// takeLowest removes the lowest register from free (left sorted in
// descending order) and returns it.
func takeLowest(free []int) (int, []int) {
	slices.Sort(free)
	slices.Reverse(free)
	r := free[len(free)-1]
	return r, free[:len(free)-1]
}
