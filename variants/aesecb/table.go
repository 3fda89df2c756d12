package main

import (
	"flag"
	"fmt"

	"github.com/tunelab/tunelab/variants/internal/impltable"
)

// writeTables writes, through impltable, the lab table (labPath: every
// generated variant, one list per kernel) and the production table
// (prodPath: the variants the compiled dispatch table names) with each
// variant's name, function, features (derived by isafeat from the
// instructions avo emitted), loop label and code-size estimate.
func writeTables(labPath, prodPath string, cs []config) error {
	t, err := impltable.NewTable("github.com/tunelab/tunelab/kernels/"+pkgName(), "main.go")
	if err != nil {
		return err
	}
	for _, c := range cs {
		l := impltable.List{Kernel: c.kernel(), Var: listVar(c), Type: "func(rk *[240]byte, dst, src []byte)"}
		r := impltable.Row{Name: c.name(), Symbol: c.symbol(), LoopLabel: "loop", OffsetSweep: c.sweep}
		if err := t.Add(l, r, c.ceiling()); err != nil {
			return err
		}
	}
	return t.Write(labPath, prodPath)
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
