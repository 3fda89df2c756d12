package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// writeTables writes, through impltable, the lab table (lab: every
// generated variant) and the production table (prod: the variants the
// compiled dispatch table can select), one list per kernel (width), with the
// features avo derived from each variant's instructions.
func writeTables(lab, prod string, vs []variant) error {
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	f := impltable.File{
		Pkg:     "keccak",
		PkgPath: "github.com/tunelab/tunelab/kernels/keccak",
		Command: "go run ../../variants/keccak " + strings.Join(os.Args[1:], " "),
	}
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
	return f.Write(lab, prod)
}

// stateType is the Go type of the nr-state permutation:
// func(*[25]uint64) for one state, func(*[nr][25]uint64) otherwise.
func stateType(nr int) string {
	if nr == 1 {
		return "func(*[25]uint64)"
	}
	return fmt.Sprintf("func(*[%d][25]uint64)", nr)
}
