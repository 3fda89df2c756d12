// Package impltable writes the Go tables of generated implementations
// that every family registers (kernels/variant.Impl records), one writer
// for every generator:
//
//   - the lab table (zvariants_amd64.go): a function per kernel returning
//     every implementation, so that only a binary that calls it (the
//     tunelab binary, its workers, tests) links them all; in a split
//     run (famgen's -lab, Split), it is written in the package under
//     lab/variants that holds the functions production does not link,
//     and the production table gets functions reading it;
//   - the production table (zprod_amd64.go): per kernel, the
//     implementations the compiled dispatch table
//     (kernels/dispatch/ztable.go) names in an entry or feature-level
//     default, which is all production code can dispatch to and so all it
//     links.
//
// After `tunelab export --format go` rewrites ztable.go, `go generate
// ./kernels/...` rewrites the production tables; CI's freshness check and
// each family's tests catch a table that names a variant production does
// not link.
package impltable

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/variants/internal/bounds"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/gofile"
)

// A Row is one generated implementation.
type Row struct {
	Name        string
	Features    []string
	Symbol      string // function name in the package
	LoopLabel   string
	OffsetSweep bool
	// Preferred marks the generator's declared default of its kernel: the
	// production table holds it while the compiled dispatch table names
	// nothing of the kernel, and dispatch then runs it (the runnable
	// preferred row with the most features) instead of the generic code,
	// so that a new kernel needs no export before its tests pass.
	Preferred bool
	// Funcs are the functions the implementation runs; nil: Symbol.
	Funcs []string
}

// funcs returns the functions r runs.
func (r Row) funcs() []string {
	if r.Funcs == nil {
		return []string{r.Symbol}
	}
	return r.Funcs
}

// A List is one kernel's implementations of one function type.
type List struct {
	Kernel string
	Var    string // lab: func Var() []variant.Impl[Type]; production: var prodVar
	Type   string // the Go type of Fn, e.g. "func(*[25]uint64)"
	Rows   []Row
}

// A File describes the tables of one package.
type File struct {
	Pkg     string // package name
	PkgPath string // import path, prefixing symbols
	Command string // the generator command, for the header
	Lists   []List
}

// newFile returns the File of the package at import path pkgPath whose
// header names the generator gen as go generate runs it in the package's
// directory, with this run's arguments: "go run " + gen + " -out ...".
func newFile(pkgPath, gen string) File {
	return File{Pkg: path.Base(pkgPath), PkgPath: pkgPath, Command: "go run " + gen + " " + strings.Join(os.Args[1:], " ")}
}

// Write writes the lab table to labPath and the production table to
// prodPath. It records every row's function with the constant-time check
// (ctcheck.RecordVariant; nothing if the generator did not run it), so
// that the production table leaves out variants with findings, and with
// the range analysis (bounds.RecordVariants), so that both tables leave
// out the variants whose value bounds it refuted.
//
// In a split run (StartSplit), the lab table goes to labPath in the lab
// package, and the production table gets the functions reading it; while
// the split is not planned, Write plans it and writes nothing.
func (f *File) Write(labPath, prodPath string) error {
	if active != nil && !active.planned {
		active.plan(f)
		return nil
	}
	if err := f.record(); err != nil {
		return err
	}
	if active != nil {
		if err := active.writeLab(f, labPath); err != nil {
			return err
		}
	} else if err := f.write(labPath, false); err != nil {
		return err
	}
	return f.write(prodPath, true)
}

// record records each variant with the constant-time check: the union
// of the functions of its rows (a kernel's variant listed by two lists
// runs both rows' functions), in the order of the rows.
func (f *File) record() error {
	var keys [][2]string
	funcs := map[[2]string][]string{}
	for _, l := range f.Lists {
		for _, r := range l.Rows {
			k := [2]string{l.Kernel, r.Name}
			if _, ok := funcs[k]; !ok {
				keys = append(keys, k)
			}
			funcs[k] = append(funcs[k], r.funcs()...)
		}
	}
	var vs []bounds.Recorded
	for _, k := range keys {
		if err := ctcheck.RecordVariant(k[0], k[1], funcs[k]...); err != nil {
			return err
		}
		vs = append(vs, bounds.Recorded{Kernel: k[0], Name: k[1], Symbols: funcs[k]})
	}
	if err := bounds.RecordVariants(vs); err != nil {
		return err
	}
	f.refuse()
	return nil
}

// refuse leaves out of f's lists the variants whose value bounds the
// range analysis refuted (bounds.Refused; bounds.Write prints why).
func (f *File) refuse() {
	for i, l := range f.Lists {
		var rows []Row
		for _, r := range l.Rows {
			if !bounds.Refused(l.Kernel, r.Name) {
				rows = append(rows, r)
			}
		}
		f.Lists[i].Rows = rows
	}
}

func (f *File) write(path string, prod bool) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by command: %s. DO NOT EDIT.\n\n", f.Command)
	fmt.Fprintf(&b, "//go:build !purego\n\npackage %s\n\nimport \"github.com/tunelab/tunelab/kernels/variant\"\n", f.Pkg)
	for _, l := range f.Lists {
		rows, doc := l.Rows, "lists every generated implementation of "+l.Kernel
		if prod {
			rows, doc = Dispatchable(l.Kernel, rows), "lists the implementations of "+l.Kernel+" the compiled dispatch table can select"
		}
		f.writeList(&b, l, rows, doc, prod)
	}
	if prod && active != nil {
		return writeGo(path, writeAccessors(b.Bytes(), f))
	}
	return writeGo(path, b.Bytes())
}

// featuresLiteral returns the Go expression of a row's features: nil for
// none, which keeps the table statically initialized (a conversion such as
// []string(nil) would make the compiler build the whole table at init,
// and so link every variant it names into every program that imports the
// package).
func featuresLiteral(fs []string) string {
	if len(fs) == 0 {
		return "nil"
	}
	return fmt.Sprintf("%#v", fs)
}

// preferredLiteral returns "Preferred: true, " for a preferred row, ""
// for any other (the tables of kernels without a preference unchanged).
func preferredLiteral(r Row) string {
	if r.Preferred {
		return "Preferred: true, "
	}
	return ""
}

func writeGo(path string, src []byte) error { return gofile.Write(path, src, "implementation table") }

func (f *File) writeList(b *bytes.Buffer, l List, rows []Row, doc string, prod bool) {
	if prod {
		fmt.Fprintf(b, "\n// prod%s %s (%d).\nvar prod%s = []variant.Impl[%s]{\n", upper(l.Var), doc, len(rows), upper(l.Var), l.Type)
	} else {
		fmt.Fprintf(b, "\n// %s %s (%d).\nfunc %s() []variant.Impl[%s] {\nreturn []variant.Impl[%s]{\n", l.Var, doc, len(rows), l.Var, l.Type, l.Type)
	}
	for _, r := range rows {
		fmt.Fprintf(b, "{Name: %q, Features: %s, Symbol: %q, LoopLabel: %q, OffsetSweep: %v, %sFn: %s},\n",
			r.Name, featuresLiteral(r.Features), f.PkgPath+"."+r.Symbol, r.LoopLabel, r.OffsetSweep, preferredLiteral(r), r.Symbol)
	}
	if !prod {
		b.WriteString("}\n")
	}
	b.WriteString("}\n")
}

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// Dispatchable returns the rows the compiled dispatch table names for
// kernel, in an entry or a default, or, where it names nothing of the
// kernel, the generator's preferred rows (offset-sweep copies never), except
// variants with constant-time findings (ctcheck.Leaky; the generator's
// ctcheck.Write then fails, naming them): production never links one.
func Dispatchable(kernel string, rows []Row) []Row {
	named := Named(kernel)
	unnamed := len(named) == 0
	var out []Row
	for _, r := range rows {
		if (named[r.Name] || unnamed && r.Preferred) && !r.OffsetSweep && !ctcheck.Leaky(kernel, r.Name) {
			out = append(out, r)
		}
	}
	return out
}

// Named returns the variant names the compiled dispatch table names for
// kernel.
func Named(kernel string) map[string]bool {
	t := dispatch.Compiled()
	out := map[string]bool{}
	for _, e := range t.Entries {
		if e.Kernel == kernel {
			addChoices(out, e.Choices)
		}
	}
	for _, d := range t.Defaults {
		if d.Kernel == kernel {
			addChoices(out, d.Choices)
		}
	}
	return out
}

func addChoices(set map[string]bool, cs []dispatch.Choice) {
	for _, c := range cs {
		set[c.Variant] = true
	}
}
