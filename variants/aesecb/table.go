package main

import (
	"flag"
	"fmt"

	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// writeTables writes, through impltable, the lab table (labPath: every
// generated variant, one list per kernel) and the production table
// (prodPath: the variants the compiled dispatch table names) with each
// variant's name, function, features (derived by isafeat from the
// instructions avo emitted), loop label and code-size estimate.
func writeTables(labPath, prodPath string, cs []config) error {
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	f := impltable.NewFile("github.com/tunelab/tunelab/kernels/"+pkgName(), "main.go")
	byKernel := map[string]int{} // kernel -> index in f.Lists
	for _, c := range cs {
		row, err := tableRow(derived, c)
		if err != nil {
			return err
		}
		i, ok := byKernel[c.kernel()]
		if !ok {
			i = len(f.Lists)
			byKernel[c.kernel()] = i
			f.Lists = append(f.Lists, impltable.List{Kernel: c.kernel(), Var: listVar(c), Type: "cryptFunc"})
		}
		f.Lists[i].Rows = append(f.Lists[i].Rows, row)
	}
	return f.Write(labPath, prodPath)
}

// tableRow is the table row of one generated variant.
func tableRow(derived isafeat.Funcs, c config) (impltable.Row, error) {
	feats, err := derived.Features(c.kernel()+" "+c.name(), c.ceiling(), c.symbol())
	if err != nil {
		return impltable.Row{}, err
	}
	return impltable.Row{
		Name: c.name(), Features: feats, Symbol: c.symbol(), LoopLabel: "loop", OffsetSweep: c.sweep,
	}, nil
}

// listVar names a kernel's tables: implsAES128Enc() in the lab table,
// prodImplsAES128Enc in the production table.
func listVar(c config) string {
	dir := "Enc"
	if c.dec {
		dir = "Dec"
	}
	return fmt.Sprintf("implsAES%d%s", c.bits, dir)
}

// pkgName returns the -pkg flag's value: the package the files belong to.
func pkgName() string {
	if f := flag.Lookup("pkg"); f != nil && f.Value.String() != "" {
		return f.Value.String()
	}
	return "aesecb"
}
