package main

import (
	"fmt"
	"slices"

	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// writeTable writes the lab table (labPath: every function) and the
// production table (prodPath: what the compiled dispatch table can select)
// through impltable, with the CPU features avo derived from each
// function's instructions.
func writeTable(labPath, prodPath string, f *field, fns []fn) error {
	unary := fmt.Sprintf("func(*[256]int%d)", f.ebits)
	binary := fmt.Sprintf("func(h, f, g *[256]int%d)", f.ebits)
	lists := []impltable.List{
		{Kernel: f.pkg + ".ntt", Var: "asmNTT", Type: unary},
		{Kernel: f.pkg + ".invntt", Var: "asmInvNTT", Type: unary},
		{Kernel: f.pkg + ".mulntt", Var: "asmMulNTT", Type: binary},
	}
	t, err := impltable.NewTable("github.com/tunelab/tunelab/kernels/"+f.pkg, "../../variants/ntt", lists...)
	if err != nil {
		return err
	}
	for _, x := range fns {
		l := lists[slices.IndexFunc(lists, func(l impltable.List) bool { return l.Kernel == x.kernel })]
		r := impltable.Row{Name: x.name, Symbol: x.sym, LoopLabel: x.loop, OffsetSweep: x.sweep}
		if err := t.Add(l, r, isafeat.Allowed(x.isa)); err != nil {
			return err
		}
	}
	return t.Write(labPath, prodPath)
}
