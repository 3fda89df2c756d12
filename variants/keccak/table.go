package main

import (
	"fmt"

	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// writeTables writes, through impltable, the lab table (lab: every
// generated variant) and the production table (prod: the variants the
// compiled dispatch table can select), one list per kernel (width) and the
// absorb lists (absorbLists), with the features avo derived from each
// function's instructions.
func writeTables(lab, prod string, vs []variant) error {
	var lists []impltable.List
	for _, nr := range widths {
		lists = append(lists, impltable.List{Kernel: fmt.Sprintf("keccak.x%d", nr), Var: fmt.Sprintf("implsX%d", nr), Type: stateType(nr)})
	}
	t, err := impltable.NewTable("github.com/tunelab/tunelab/kernels/keccak", "../../variants/keccak", lists...)
	if err != nil {
		return err
	}
	for i, nr := range widths {
		for _, v := range vs {
			if v.nr != nr {
				continue
			}
			r := impltable.Row{Name: v.name(), Symbol: v.symbol(), LoopLabel: "loop", OffsetSweep: v.sweep}
			if err := t.Add(lists[i], r, isafeat.Allowed(v.isa)); err != nil {
				return err
			}
		}
	}
	absorbs, absorbsX1 := absorbLists()
	for _, v := range absorbSpace(vs) {
		r := impltable.Row{Name: v.name(), Symbol: absorbSymbol(v), LoopLabel: "loop"}
		if err := t.Add(absorbs, r, isafeat.Allowed(v.isa)); err != nil {
			return err
		}
	}
	absorbsX1.Rows = t.Lists[len(t.Lists)-1].Rows
	t.Lists = append(t.Lists, absorbsX1)
	return t.Write(lab, prod)
}

// absorbType is the Go type of an absorb function.
const absorbType = "func(*[25]uint64, []byte, int)"

// absorbLists are the two lists of the absorb functions (kernel
// sha3.256), with the same rows. Production links those the compiled
// table names for sha3.256 and, so that AbsorbBlocks can run the fused
// copy of the dispatched permutation where the table has no sha3.256
// entry, those named like a keccak.x1 choice. impltable picks a list's
// production rows by the names of one kernel, so the same rows form a
// second list, absorbsX1, picked by keccak.x1's names: kernels/keccak
// links the union of the two production lists, and lists every absorb
// function from the first list's lab function (absorbsX1's goes unused).
func absorbLists() (absorbs, absorbsX1 impltable.List) {
	return impltable.List{Kernel: absorbKernel, Var: "absorbs", Type: absorbType},
		impltable.List{Kernel: "keccak.x1", Var: "absorbsX1", Type: absorbType}
}

// stateType is the Go type of the nr-state permutation:
// func(*[25]uint64) for one state, func(*[nr][25]uint64) otherwise.
func stateType(nr int) string {
	if nr == 1 {
		return "func(*[25]uint64)"
	}
	return fmt.Sprintf("func(*[%d][25]uint64)", nr)
}
