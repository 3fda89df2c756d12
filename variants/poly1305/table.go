package main

import (
	"bytes"
	"flag"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/printer"

	"github.com/tunelab/tunelab/variants/internal/bounds"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/gofile"
	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// kernel is the dispatch name of Poly1305 in kernels/variant and the
// compiled dispatch table.
const kernel = "poly1305"

// A set is the variants one table file lists and the generated functions
// it calls them through: the lab set (every variant, in the package under
// lab/variants) or the production set (the variants the compiled dispatch
// table names, in kernels/poly1305).
type set struct {
	prefix  string // of the set's functions: labSum, prodCallVector, ...
	doc     string // what the set is, for doc comments
	records []int  // ids (generation indices) of the listed variants
	calls   []int  // ids with cases in the switches: the variants the file's package runs and the variant whose scalar code every vector variant runs
	linked  []int  // lab set: the ids production links, listed without a function
}

// writeTables writes, in a split run (famgen's -lab, which poly1305
// requires), the lab table to labPath in the lab package (every variant,
// those production links without a function; the lab switches, wrappers
// and fill functions of the variants production does not link, and the
// init function handing them to kernels/poly1305) and the production
// table to prodPath (the variants the compiled dispatch table names and
// the production switches, which reference only the functions those
// run). While the split is being planned it hands it the functions each
// variant runs instead.
func writeTables(labPath, prodPath string, specs []spec) error {
	split, planning := impltable.Active()
	if split == nil {
		return fmt.Errorf("poly1305: -table needs -lab (the lab table and switches go to the package under lab/variants)")
	}
	if planning {
		var rows []impltable.Row
		for i := range specs {
			rows = append(rows, impltable.Row{Name: specs[i].name(), OffsetSweep: specs[i].sweep, Funcs: executed(specs, &specs[i])})
		}
		split.Plan(kernel, rows)
		return nil
	}
	prodIDs := dispatchable(specs)
	records, err := recordLiterals(specs, prodIDs, split.LabPath)
	if err != nil {
		return err
	}
	var labOnly []int
	for i := range specs {
		if !slices.Contains(prodIDs, i) {
			labOnly = append(labOnly, i)
		}
	}
	lab := set{prefix: "lab", doc: "the lab set (the variants production does not link)", records: ids(len(specs)), calls: withTail(labOnly), linked: prodIDs}
	prod := set{prefix: "prod", doc: "the production set (the variants the compiled dispatch table names)", records: prodIDs, calls: withTail(prodIDs)}
	if err := writeFile(labPath, path.Base(split.LabPath), specs, records, lab, writeLabInit); err != nil {
		return err
	}
	return writeFile(prodPath, pkgName(), specs, records, prod, writeLabAccessor)
}

// writeFile writes the Go file of one set in package pkg: its table,
// switches, wrappers, the fill functions of its shapes and what extra
// adds.
func writeFile(path, pkg string, specs []spec, records []string, s set, extra func(*bytes.Buffer)) error {
	var b bytes.Buffer
	cfg := printer.NewGoRunConfig()
	fmt.Fprintf(&b, "// %s\n\n//go:build !purego\n\npackage %s\n\n", cfg.GeneratedWarning(), pkg)
	b.WriteString("import (\n\"github.com/tunelab/tunelab/internal/poly1305core\"\n\"github.com/tunelab/tunelab/kernels/variant\"\n)\n\n")
	extra(&b)
	writeRecords(&b, records, s)
	writeSwitches(&b, specs, s)
	writeWrappers(&b, s)
	all := shapes(specs)
	for _, i := range setShapes(specs, s) {
		writeFill(&b, all[i])
	}
	return gofile.Write(path, b.Bytes(), "variant table")
}

// labKey is the key of the lab table in variant.OfferLab.
const labKey = "poly1305.labVariants"

// writeLabInit writes the lab package's init function.
func writeLabInit(b *bytes.Buffer) {
	b.WriteString(comment("init offers the lab table (variant.OfferLab), which the RegisterVariants of %s registers, and sets poly1305core.Lab to this package's wrappers, through which %s runs the variants listed here with a function.", pkgPath, pkgPath))
	fmt.Fprintf(b, "func init() {\nvariant.OfferLab(%q, labVariants())\n", labKey)
	b.WriteString("poly1305core.Lab.Sum, poly1305core.Lab.Blocks, poly1305core.Lab.Run, poly1305core.Lab.FillTable = labSum, labBlocks, labRun, labFillTable\n}\n\n")
}

// writeLabAccessor writes the production file's labVariants, which reads
// the lab table.
func writeLabAccessor(b *bytes.Buffer) {
	b.WriteString(comment("labVariants returns every generated variant in generation order: the lab table the package under lab/variants offers (variant.LabTable), with the records of prodVariants for the variants production links."))
	fmt.Fprintf(b, "func labVariants() []variant.Impl[*poly1305core.Variant] {\nreturn variant.WithProd(variant.LabTable[*poly1305core.Variant](%q), prodVariants)\n}\n\n", labKey)
}

// recordLiterals returns the variant.Impl literal of every spec: name,
// features derived from the instructions of the functions it runs,
// symbol, loop label and, in Fn, its id and table shape. The records of
// the variants production does not link (all but prodIDs) name the
// functions of the lab package at labPkg.
func recordLiterals(specs []spec, prodIDs []int, labPkg string) ([]string, error) {
	derived, err := isafeat.Derive()
	if err != nil {
		return nil, err
	}
	shs := shapes(specs)
	out := make([]string, len(specs))
	var checked []bounds.Recorded
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
		checked = append(checked, bounds.Recorded{Kernel: kernel, Name: s.name(), Symbols: executed(specs, s)})
		fn := fmt.Sprintf("&poly1305core.Variant{ID: %d}", i)
		if s.isa != "scalar" {
			fn = fmt.Sprintf("&poly1305core.Variant{ID: %d, Vector: true, Radix: %d, Lanes: %d, Unroll: %d, Order: %#v, Shape: %d, PowWords: %d, Compact: %v, TailVector: %v, TailSteps: %v}",
				i, s.radix, s.lanes, s.unroll(), s.order, shapeIndex(shs, s.shape()), s.shape().words(), s.pow == "reg", s.tail == "vector", s.tail == "vec4")
		}
		pkg := pkgPath
		if !slices.Contains(prodIDs, i) {
			pkg = labPkg
		}
		out[i] = fmt.Sprintf("{Name: %q, Features: %#v, Symbol: %q, LoopLabel: \"loop\", OffsetSweep: %v,\nFn: %s},\n",
			s.name(), feats, pkg+"."+sym, s.sweep, fn)
	}
	if err := bounds.RecordVariants(checked); err != nil {
		return nil, err
	}
	if err := refused(); err != nil {
		return nil, err
	}
	return out, nil
}

// refused returns an error naming the variants whose bounds analysis
// (with -bounds) found an overflow, with the findings: the Poly1305
// tables index their variants by generation order, so rather than leave
// one out the generator refuses the whole set until its knobs are fixed.
func refused() error {
	var errs []string
	for _, r := range bounds.Results() {
		if r.Kernel == kernel && bounds.Refused(r.Kernel, r.Name) {
			errs = append(errs, fmt.Sprintf("%s: %s", r.Name, r.Finding))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("bounds: refusing poly1305 variants that overflow:\n%s", strings.Join(errs, "\n"))
	}
	return nil
}

// writeRecords writes the set's table: the lab table as a function, so
// that only binaries calling it hold every record, listing the variants
// production links without a function (kernels/poly1305 takes prodVariants'
// records for them, variant.WithProd); the production table as a
// variable.
func writeRecords(b *bytes.Buffer, records []string, s set) {
	if s.prefix == "lab" {
		b.WriteString(comment("labVariants lists every variant, %d, in generation order; Fn.ID is the index of each, its id in the switches. The variants production links (in %s) have no Fn.", len(s.records), pkgPath))
		b.WriteString("func labVariants() []variant.Impl[*poly1305core.Variant] {\nreturn []variant.Impl[*poly1305core.Variant]{\n")
		for _, id := range s.records {
			r := records[id]
			if slices.Contains(s.linked, id) {
				r = r[:strings.Index(r, "\nFn: ")] + " Fn: nil},\n"
			}
			b.WriteString(r)
		}
		b.WriteString("}\n}\n\n")
		return
	}
	b.WriteString(comment("prodVariants lists %s, %d variants; Fn.ID is the index of each in labVariants, its id in the switches.", s.doc, len(s.records)))
	b.WriteString("var prodVariants = []variant.Impl[*poly1305core.Variant]{\n")
	for _, id := range s.records {
		b.WriteString(records[id])
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
			return "pad, fm := v.FirstBlocks(len(m))\n" + sp.fn() + "(h, pw, m, pad, fm)"
		}
		return sp.fn() + "(h, pw, m)"
	}
	writeSwitch(b, specs, s, "CallScalar", "id int, h *[3]uint64, r *[2]uint64, m []byte, hibit uint64", "id", scalar,
		func(sp *spec) string { return sp.fn() + "(h, r, m, hibit)" })
	writeSwitch(b, specs, s, "CallSum", "id int, out *[16]byte, m []byte, key *[32]byte", "id", scalar,
		func(sp *spec) string { return sp.sumFn() + "(out, m, key)" })
	writeSwitch(b, specs, s, "CallVector", "v *poly1305core.Variant, h *[3]uint64, pw *uint64, m []byte", "v.ID", vector, blocks)
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
	b.WriteString(comment("%sFillTable writes the power table of the given shape (see writeFill in variants/poly1305) for key r, a shape of %s; direct calls keep tab on the stack.", s.prefix, s.doc))
	fmt.Fprintf(b, "func %sFillTable(shape int, tab []uint64, r *[2]uint64) {\nswitch shape {\n", s.prefix)
	for _, i := range setShapes(specs, s) {
		fmt.Fprintf(b, "case %d:\n%s(tab, r)\n", i, all[i].fn())
	}
	b.WriteString("default:\npanic(\"poly1305: bad table shape\")\n}\n}\n\n")
}

// setShapes returns the indices in shapes(specs) of the table shapes of
// the vector variants s calls, in increasing order.
func setShapes(specs []spec, s set) []int {
	all := shapes(specs)
	var used []int
	for _, id := range s.calls {
		if specs[id].isa != "scalar" {
			used = append(used, shapeIndex(all, specs[id].shape()))
		}
	}
	slices.Sort(used)
	return slices.Compact(used)
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
// function and variant 0's scalar blocks, which finish what is left after
// the last full vector iteration, and one-shot function, which computes
// messages shorter than one iteration (see Variant.OneShot in
// internal/poly1305core).
func executed(specs []spec, s *spec) []string {
	if s.isa == "scalar" {
		return []string{s.fn(), s.sumFn()}
	}
	return []string{s.fn(), specs[0].fn(), specs[0].sumFn()}
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
