package main

import (
	"bytes"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/printer"

	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/gofile"
	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// kernel is the dispatch name of Poly1305 in kernels/variant and the
// compiled dispatch table.
const kernel = "poly1305"

// A set is the variants one table file lists and the generated functions
// it calls them through: the lab set (every variant) or the production
// set (the variants the compiled dispatch table names).
type set struct {
	prefix  string // of the set's functions: labSum, prodCallVector, ...
	doc     string // what the set is, for doc comments
	records []int  // ids (generation indices) of the listed variants
	calls   []int  // ids with cases in the switches: the records and the variant whose scalar code every vector variant runs
}

// writeTables writes the lab table to labPath (every variant, the lab
// switches and the fill function of every table shape) and the
// production table to prodPath (the variants the compiled dispatch table
// names and the production switches, which reference only the functions
// those run). Code sizes are estimated from the instruction count of each
// function in the written assembly.
func writeTables(labPath, prodPath string, specs []spec) error {
	records, err := recordLiterals(specs)
	if err != nil {
		return err
	}
	lab := set{prefix: "lab", doc: "the lab set (every variant)", records: ids(len(specs))}
	lab.calls = lab.records
	prod := set{prefix: "prod", doc: "the production set (the variants the compiled dispatch table names)", records: dispatchable(specs)}
	prod.calls = withTail(prod.records)
	shs := shapes(specs)
	if err := writeFile(labPath, specs, records, lab, func(b *bytes.Buffer) { writeFills(b, shs) }); err != nil {
		return err
	}
	return writeFile(prodPath, specs, records, prod, nil)
}

// writeFile writes the Go file of one set: its table, switches, wrappers
// and what extra adds.
func writeFile(path string, specs []spec, records []string, s set, extra func(*bytes.Buffer)) error {
	var b bytes.Buffer
	cfg := printer.NewGoRunConfig()
	fmt.Fprintf(&b, "// %s\n\n//go:build !purego\n\npackage %s\n\n", cfg.GeneratedWarning(), pkgName())
	b.WriteString("import \"github.com/tunelab/tunelab/kernels/variant\"\n\n")
	writeRecords(&b, records, s)
	writeSwitches(&b, specs, s)
	writeWrappers(&b, s)
	if extra != nil {
		extra(&b)
	}
	return gofile.Write(path, b.Bytes(), "variant table")
}

// recordLiterals returns the variant.Impl literal of every spec: name,
// features derived from the instructions of the functions it runs,
// symbol, loop label and, in Fn, its id and table shape.
func recordLiterals(specs []spec) ([]string, error) {
	derived, err := isafeat.Derive()
	if err != nil {
		return nil, err
	}
	shs := shapes(specs)
	out := make([]string, len(specs))
	for i := range specs {
		s := &specs[i]
		// The symbol is the function a sweep measures: Sum runs a scalar
		// variant's one-shot function, a vector variant's block function.
		sym := s.fn()
		if s.isa == "scalar" {
			sym = s.sumFn()
		}
		feats, err := derived.Features(s.name(), isafeat.Allowed(s.isa), executed(specs, s)...)
		if err != nil {
			return nil, err
		}
		if err := ctcheck.RecordVariant(kernel, s.name(), executed(specs, s)...); err != nil {
			return nil, err
		}
		fn := fmt.Sprintf("&asmVariant{id: %d}", i)
		if s.isa != "scalar" {
			fn = fmt.Sprintf("&asmVariant{id: %d, vector: true, radix: %d, lanes: %d, unroll: %d, order: %#v, shape: %d, powWords: %d, compact: %v, tailVector: %v, tailSteps: %v}",
				i, s.radix, s.lanes, s.unroll(), s.order, shapeIndex(shs, s.shape()), s.shape().words(), s.pow == "reg", s.tail == "vector", s.tail == "vec4")
		}
		out[i] = fmt.Sprintf("{Name: %q, Features: %#v, Symbol: %q, LoopLabel: \"loop\", OffsetSweep: %v,\nFn: %s},\n",
			s.name(), feats, pkgPath+"."+sym, s.sweep, fn)
	}
	return out, nil
}

// writeRecords writes the set's table: the lab table as a function, so
// that only binaries calling it hold every record; the production table
// as a variable.
func writeRecords(b *bytes.Buffer, records []string, s set) {
	if s.prefix == "lab" {
		b.WriteString(comment("labVariants lists %s, %d variants in generation order; Fn.id is the index of each, its id in the switches.", s.doc, len(s.records)))
		b.WriteString("func labVariants() []variant.Impl[*asmVariant] {\nreturn []variant.Impl[*asmVariant]{\n")
	} else {
		b.WriteString(comment("prodVariants lists %s, %d variants; Fn.id is the index of each in labVariants, its id in the switches.", s.doc, len(s.records)))
		b.WriteString("var prodVariants = []variant.Impl[*asmVariant]{\n")
	}
	for _, id := range s.records {
		b.WriteString(records[id])
	}
	if s.prefix == "lab" {
		b.WriteString("}\n")
	}
	b.WriteString("}\n\n")
}

// writeSwitches writes the set's functions calling generated code by id
// (calls through func values would move their pointer arguments to the
// heap), each with a case for the set's variants only.
func writeSwitches(b *bytes.Buffer, specs []spec, s set) {
	scalar := func(sp *spec) bool { return sp.isa == "scalar" }
	vector := func(sp *spec) bool { return sp.isa != "scalar" }
	blocks := func(sp *spec) string {
		if sp.tail == "vector" {
			return "pad, fm := v.firstBlocks(len(m))\n" + sp.fn() + "(h, pw, m, pad, fm)"
		}
		return sp.fn() + "(h, pw, m)"
	}
	writeSwitch(b, specs, s, "CallScalar", "id int, h *[3]uint64, r *[2]uint64, m []byte, hibit uint64", "id", scalar,
		func(sp *spec) string { return sp.fn() + "(h, r, m, hibit)" })
	writeSwitch(b, specs, s, "CallSum", "id int, out *[16]byte, m []byte, key *[32]byte", "id", scalar,
		func(sp *spec) string { return sp.sumFn() + "(out, m, key)" })
	writeSwitch(b, specs, s, "CallVector", "v *asmVariant, h *[3]uint64, pw *uint64, m []byte", "v.id", vector, blocks)
	writeFillSwitch(b, specs, s)
}

// writeSwitch writes the function prefix+name, calling call(spec) for the
// variants of s that keep accepts, by the id that sel selects.
func writeSwitch(b *bytes.Buffer, specs []spec, s set, name, params, sel string, keep func(*spec) bool, call func(*spec) string) {
	b.WriteString(comment("%s%s calls the generated function of variant %s of %s.", s.prefix, name, sel, s.doc))
	fmt.Fprintf(b, "func %s%s(%s) {\nswitch %s {\n", s.prefix, name, params, sel)
	for _, id := range s.calls {
		if keep(&specs[id]) {
			fmt.Fprintf(b, "case %d:\n%s\n", id, call(&specs[id]))
		}
	}
	b.WriteString("default:\npanic(\"poly1305: bad variant id\")\n}\n}\n\n")
}

// writeFillSwitch writes prefix+FillTable over the table shapes of the
// set's vector variants.
func writeFillSwitch(b *bytes.Buffer, specs []spec, s set) {
	all := shapes(specs)
	var used []int
	for _, id := range s.calls {
		if specs[id].isa != "scalar" {
			used = append(used, shapeIndex(all, specs[id].shape()))
		}
	}
	slices.Sort(used)
	b.WriteString(comment("%sFillTable writes the power table of the given shape (see writeFills in variants/poly1305) for key r, a shape of %s; direct calls keep tab on the stack.", s.prefix, s.doc))
	fmt.Fprintf(b, "func %sFillTable(shape int, tab []uint64, r *[2]uint64) {\nswitch shape {\n", s.prefix)
	for _, i := range slices.Compact(used) {
		fmt.Fprintf(b, "case %d:\n%s(tab, r)\n", i, all[i].fn())
	}
	b.WriteString("default:\npanic(\"poly1305: bad table shape\")\n}\n}\n\n")
}

// dispatchable returns the ids of the variants the compiled dispatch
// table names for the kernel.
func dispatchable(specs []spec) []int {
	var rows []impltable.Row
	for i := range specs {
		rows = append(rows, impltable.Row{Name: specs[i].name(), OffsetSweep: specs[i].sweep})
	}
	var out []int
	for _, r := range impltable.Dispatchable(kernel, rows) {
		out = append(out, slices.IndexFunc(specs, func(s spec) bool { return s.name() == r.Name }))
	}
	return out
}

// withTail returns ids and variant 0, whose scalar block and one-shot
// functions every vector variant runs on what its vector iterations
// leave (see executed), in increasing order.
func withTail(ids []int) []int {
	out := slices.Clone(ids)
	if !slices.Contains(out, 0) {
		out = append(out, 0)
	}
	slices.Sort(out)
	return out
}

func ids(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// executed lists the generated functions variant s runs: a scalar
// variant's block and one-shot functions; a vector variant's block
// function and the scalar blocks of variant 0, which finish what is left
// after the last full vector iteration.
func executed(specs []spec, s *spec) []string {
	if s.isa == "scalar" {
		return []string{s.fn(), s.sumFn()}
	}
	return []string{s.fn(), specs[0].fn()}
}

func shapeIndex(shs []shape, sh shape) int {
	for i := range shs {
		if shs[i] == sh {
			return i
		}
	}
	panic("unknown shape")
}

// comment returns the doc comment of the formatted text, wrapped at 76
// columns.
func comment(format string, a ...any) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(fmt.Sprintf(format, a...)) {
		if n > 0 && n+1+len(w) > 76 {
			b.WriteString("\n")
			n = 0
		}
		if n == 0 {
			b.WriteString("//")
			n = 2
		}
		b.WriteString(" " + w)
		n += 1 + len(w)
	}
	return b.String() + "\n"
}

func pkgName() string {
	if f := flag.Lookup("pkg"); f != nil && f.Value.String() != "" {
		return f.Value.String()
	}
	return "poly1305"
}
