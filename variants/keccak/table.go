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
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	f := impltable.NewFile("github.com/tunelab/tunelab/kernels/keccak", "../../variants/keccak")
	for _, nr := range widths {
		l := impltable.List{Kernel: fmt.Sprintf("keccak.x%d", nr), Var: fmt.Sprintf("implsX%d", nr), Type: stateType(nr)}
		for _, v := range vs {
			if v.nr != nr {
				continue
			}
			feats, err := derived.Features(v.kernel()+" "+v.name(), isafeat.Allowed(v.isa), v.symbol())
			if err != nil {
				return err
			}
			l.Rows = append(l.Rows, impltable.Row{Name: v.name(), Features: feats, Symbol: v.symbol(),
				LoopLabel: "loop", OffsetSweep: v.sweep})
		}
		f.Lists = append(f.Lists, l)
	}
	rows, err := absorbRows(derived, vs)
	if err != nil {
		return err
	}
	f.Lists = append(f.Lists, absorbLists(rows)...)
	return f.Write(lab, prod)
}

// absorbType is the Go type of an absorb function.
const absorbType = "func(*[25]uint64, []byte, int)"

// absorbLists are the two lists of the absorb functions (kernel
// sha3.256). Production links those the compiled table names for
// sha3.256 and, so that AbsorbBlocks can run the fused copy of the
// dispatched permutation where the table has no sha3.256 entry, those
// named like a keccak.x1 choice. impltable picks a list's production rows
// by the names of one kernel, so the same rows form a second list,
// absorbsX1, picked by keccak.x1's names: kernels/keccak links the union
// of the two production lists, and lists every absorb function from the
// first list's lab function (absorbsX1's goes unused).
func absorbLists(rows []impltable.Row) []impltable.List {
	return []impltable.List{
		{Kernel: absorbKernel, Var: "absorbs", Type: absorbType, Rows: rows},
		{Kernel: "keccak.x1", Var: "absorbsX1", Type: absorbType, Rows: rows},
	}
}

// absorbRows returns the table rows of the absorb functions, named as the
// variants whose permutation they run.
func absorbRows(derived isafeat.Funcs, vs []variant) ([]impltable.Row, error) {
	var rows []impltable.Row
	for _, v := range absorbSpace(vs) {
		feats, err := derived.Features(absorbKernel+" "+v.name(), isafeat.Allowed(v.isa), absorbSymbol(v))
		if err != nil {
			return nil, err
		}
		rows = append(rows, impltable.Row{Name: v.name(), Features: feats, Symbol: absorbSymbol(v), LoopLabel: "loop"})
	}
	return rows, nil
}

// stateType is the Go type of the nr-state permutation:
// func(*[25]uint64) for one state, func(*[nr][25]uint64) otherwise.
func stateType(nr int) string {
	if nr == 1 {
		return "func(*[25]uint64)"
	}
	return fmt.Sprintf("func(*[%d][25]uint64)", nr)
}
