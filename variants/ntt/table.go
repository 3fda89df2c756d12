package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// writeTable writes the lab table (labPath: every function) and the
// production table (prodPath: what the compiled dispatch table can select)
// through impltable, with the CPU features avo derived from each
// function's instructions.
func writeTable(labPath, prodPath string, f *field, fns []fn) error {
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	file := impltable.File{
		Pkg:     f.pkg,
		PkgPath: "github.com/tunelab/tunelab/kernels/" + f.pkg,
		Command: "go run ../../variants/ntt " + strings.Join(os.Args[1:], " "),
	}
	unary := fmt.Sprintf("func(*[256]int%d)", f.ebits)
	binary := fmt.Sprintf("func(h, f, g *[256]int%d)", f.ebits)
	for _, l := range []impltable.List{
		{Kernel: f.pkg + ".ntt", Var: "asmNTT", Type: unary},
		{Kernel: f.pkg + ".invntt", Var: "asmInvNTT", Type: unary},
		{Kernel: f.pkg + ".mulntt", Var: "asmMulNTT", Type: binary},
	} {
		if l.Rows, err = tableRows(l.Kernel, fns, derived); err != nil {
			return err
		}
		file.Lists = append(file.Lists, l)
	}
	return file.Write(labPath, prodPath)
}

// tableRows returns the table rows of kernel's functions.
func tableRows(kernel string, fns []fn, derived isafeat.Funcs) ([]impltable.Row, error) {
	var rows []impltable.Row
	for _, x := range fns {
		if x.kernel != kernel {
			continue
		}
		feats, err := derived.Features(x.name, isafeat.Allowed(x.isa), x.sym)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", x.kernel, err)
		}
		rows = append(rows, impltable.Row{Name: x.name, Features: feats, Symbol: x.sym,
			LoopLabel: x.loop, OffsetSweep: x.sweep})
	}
	return rows, nil
}
