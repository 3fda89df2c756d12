// Package famgen runs the protocol that the avo generators of kernel
// families have in common, so that each generator's main.go holds only
// what is its own: its kernels, its knobs, the functions it builds and the
// constant-time classification of their parameters. Run serves the
// generators of the ML-KEM and ML-DSA coefficient families
// (variants/cbd, pack, round, sample, matvec), which start each function
// with a Builder; Generate the others (variants/aesecb, calib, keccak,
// ntt, poly1305), which build and list their functions themselves.
//
// Run does, in this order:
//
//  1. parse the command line (unless the generator already has, to read
//     a flag of its own first) and check that -table comes with -prod;
//  2. mark the assembly !purego and build every function through the
//     family's Build, which starts each one with a Builder method and so
//     records it as a variant of a kernel;
//  3. emit the constant data, have avo write the assembly and stubs
//     (avogen.Generate) and run the constant-time check (ctcheck.Check);
//     with -lab, compile the file (avogen.Compile), plan from the tables
//     which functions production runs (impltable.StartSplit), print those
//     and the helpers no variant runs to -out and -stubs and the others
//     to files of the same names in -lab's package (avogen.Print), and
//     check both files (ctcheck.CheckSplit);
//  4. with -table, write the lab and production tables (WriteTables; with
//     -lab, the lab table goes to -lab's package);
//  5. write the constant-time status (ctcheck.Write, the -ct flag);
//  6. with -bounds, run the range analysis (variants/internal/bounds) on
//     every variant the tables list of a kernel with a contract
//     (internal/contract): the tables leave out, and the generator
//     prints, each variant whose bounds it refutes; write the status.
//
// The flags are avo's (-out, -stubs, -pkg), ctcheck's -ct, bounds'
// -bounds and this package's -table, -prod and -lab. With -lab, the family's package
// under kernels/ holds only what production links, and the package under
// lab/variants the rest (see variant.OfferLab).
package famgen

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/gofile"
	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

var (
	tableOut = flag.String("table", "", "write the Go lab table (every variant) to this file")
	prodOut  = flag.String("prod", "", "write the Go production table (the variants the compiled dispatch table can select) to this file; required with -table")
	labDir   = flag.String("lab", "", "print the functions no production variant runs, and the lab table, into the package in this `directory` (under lab/variants), with the file names of -out, -stubs and -table; requires -table")
)

// module is the import path of the module, whose root holds kernels/ and
// variants/.
const module = "github.com/tunelab/tunelab"

// ISAs are the tiers every family generates, in order: AVX2 (ymm) and
// AVX-512 (zmm).
var ISAs = []*vecgen.ISA{vecgen.AVX2, vecgen.AVX512}

// A Kernel is one generated kernel: one list of each table.
type Kernel struct {
	Name      string // dispatch name, e.g. "mlkem.cbd2"
	Prefix    string // the symbols' prefix, e.g. "cbd2" (cbd2_avx2_1, ...)
	Var       string // the lab table's func Var(), the production table's var prodVar
	Type      string // the Go type of every variant, e.g. "func(f *[256]int16, b *[128]byte)"
	LoopLabel string // the label of every variant's main loop; "" where there is none
	// Prefer names the kernel's declared defaults (variant names, e.g.
	// one per tier): what production links and dispatch runs, the
	// widest runnable first, while the compiled dispatch table names
	// nothing of the kernel (impltable.Row.Preferred). A new kernel so
	// needs no sweep or export before its tests pass.
	Prefer []string
}

// A Family is what one generator generates.
type Family struct {
	Command string       // the generator's directory under variants/, e.g. "cbd"
	PkgPath string       // the import path of the package it generates for
	Consts  string       // the prefix of its constant data (vecgen.NewConsts)
	Secrets ctcheck.Args // the classification of its functions' parameters
	// Build builds every function, each started with a method of b.
	Build func(b *Builder)
}

// A Builder starts a family's functions and records each as a variant.
type Builder struct {
	Consts   *vecgen.Consts // the family's constant data
	kernels  []Kernel       // in the order of their first variants
	variants []Variant
}

// A Variant is one generated function: the variant name of a kernel.
type Variant struct {
	Kernel string // the kernel's Name
	Name   string // the variant name, e.g. "isa=avx2/unroll=2"
	Symbol string
	ISA    string // the tier's name, bounding the features (isafeat.Allowed)
}

// Func starts the function k.Prefix + "_" + suffix, the variant name of
// kernel k at tier isa (TEXT, NOSPLIT, of type k.Type, and the noescape
// pragma), records it and returns its symbol.
func (b *Builder) Func(k Kernel, isa *vecgen.ISA, name, suffix string) string {
	sym := k.Prefix + "_" + suffix
	build.TEXT(sym, build.NOSPLIT, k.Type)
	build.Pragma("noescape")
	if !b.has(k.Name) {
		b.kernels = append(b.kernels, k)
	}
	b.variants = append(b.variants, Variant{Kernel: k.Name, Name: name, Symbol: sym, ISA: isa.Name})
	return sym
}

func (b *Builder) has(kernel string) bool {
	for _, k := range b.kernels {
		if k.Name == kernel {
			return true
		}
	}
	return false
}

// Gen returns the code generator of a function at tier isa, whose
// constants go to the family's table.
func (b *Builder) Gen(isa *vecgen.ISA) vecgen.Gen { return vecgen.Gen{ISA: isa, Consts: b.Consts} }

// Tier is Func for a variant whose only knob is the tier: "isa=avx2",
// symbol prefix_avx2.
func (b *Builder) Tier(k Kernel, isa *vecgen.ISA) string {
	return b.Func(k, isa, "isa="+isa.Name, isa.Name)
}

// Tiers builds kernel k's variants whose only knob is the tier, in the
// order of ISAs: each started with Tier, then built by emit.
func (b *Builder) Tiers(k Kernel, emit func(isa *vecgen.ISA)) {
	for _, s := range ISAs {
		b.Tier(k, s)
		emit(s)
	}
}

// Unrolled is Func for a variant whose knobs are the tier and the vectors
// per loop iteration: "isa=avx2/unroll=2", symbol prefix_avx2_2.
func (b *Builder) Unrolled(k Kernel, isa *vecgen.ISA, unroll int) string {
	return b.Func(k, isa, fmt.Sprintf("isa=%s/unroll=%d", isa.Name, unroll), fmt.Sprintf("%s_%d", isa.Name, unroll))
}

// Unrolls builds kernel k's variants per tier, in the order of ISAs, and
// per unroll of the tier's list in unrolls (keyed by the tier's name):
// each started with Unrolled, then built by emit.
func (b *Builder) Unrolls(k Kernel, unrolls map[string][]int, emit func(isa *vecgen.ISA, unroll int)) {
	for _, s := range ISAs {
		for _, u := range unrolls[s.Name] {
			b.Unrolled(k, s, u)
			emit(s, u)
		}
	}
}

// Run generates f (see the package documentation); it exits on an error.
func Run(f Family) {
	Generate(Generator[*Builder]{Name: f.Command, Secrets: f.Secrets,
		Build: func() *Builder {
			b := &Builder{Consts: vecgen.NewConsts(f.Consts)}
			f.Build(b)
			b.Consts.Emit()
			return b
		},
		Tables: func(lab, prod string, b *Builder) error { return WriteTables(f, lab, prod, b.kernels, b.variants) },
	})
}

// A Generator is what is a generator's own in the protocol of Run, for
// the generators that build their functions and tables without a Builder
// (variants/aesecb, calib, keccak, ntt, poly1305): T is what building
// returns for the tables, such as the list of variants.
type Generator[T any] struct {
	Name    string       // the command, for messages, e.g. "keccak"
	Secrets ctcheck.Args // the classification of its functions' parameters
	Build   func() T     // emits every function and its constant data
	// Tables writes the lab and production tables of what Build returned
	// to the files of -table and -prod.
	Tables func(lab, prod string, built T) error
}

// Generate runs the steps of Run (see the package documentation) with
// g.Build building every function and g.Tables writing the tables; it
// exits on an error.
func Generate[T any](g Generator[T]) {
	if !flag.Parsed() {
		flag.Parse()
	}
	if *tableOut != "" && *prodOut == "" {
		log.Fatalf("%s: -table needs -prod", g.Name)
	}
	if *labDir != "" && *tableOut == "" {
		log.Fatalf("%s: -lab needs -table", g.Name)
	}
	build.ConstraintExpr("!purego")
	built := g.Build()
	tables := *tableOut
	if *labDir != "" {
		if err := printSplit(g, built); err != nil {
			log.Fatalf("%s: %v", g.Name, err)
		}
		tables = filepath.Join(*labDir, *tableOut)
	} else {
		avogen.Generate()
		if err := ctcheck.Check(g.Secrets); err != nil {
			log.Fatal(err)
		}
	}
	if bounds.Enabled() {
		if err := bounds.Check(); err != nil {
			log.Fatal(err)
		}
	}
	if *tableOut != "" {
		if err := g.Tables(tables, *prodOut, built); err != nil {
			log.Fatal(err)
		}
	}
	if err := ctcheck.Write(); err != nil {
		log.Fatal(err)
	}
	if err := bounds.Write(); err != nil {
		log.Fatal(err)
	}
}

// printSplit compiles the functions g built, learns from g's tables
// which ones production runs (impltable.StartSplit: the tables are
// planned, not written), prints those to -out and -stubs and the others
// to the same file names in -lab's package, and runs the constant-time
// check on both files.
func printSplit[T any](g Generator[T], built T) error {
	if err := os.MkdirAll(*labDir, 0o755); err != nil {
		return err
	}
	labPkg, err := gofile.ImportPath(*labDir)
	if err != nil {
		return err
	}
	if err := writeLabDoc(*labDir, labPkg); err != nil {
		return err
	}
	f, err := avogen.Compile()
	if err != nil {
		return err
	}
	split := impltable.StartSplit(labPkg)
	if err := g.Tables("", "", built); err != nil {
		return err
	}
	split.Planned()
	out, stubs := flagValue("out"), flagValue("stubs")
	labAsm := filepath.Join(*labDir, out)
	if err := avogen.Print(f, split.InProd, flagValue("pkg"), out, stubs); err != nil {
		return err
	}
	if err := avogen.Print(f, split.InLab, path.Base(labPkg), labAsm, filepath.Join(*labDir, stubs)); err != nil {
		return err
	}
	return ctcheck.CheckSplit(g.Secrets, split.InProd, split.InLab, labAsm, labPkg)
}

// writeLabDoc writes the package documentation of the lab package at
// dir (import path labPkg), zdoc.go: the same from every generator of
// the family, so that the package needs no file written by hand.
func writeLabDoc(dir, labPkg string) error {
	family, err := gofile.ImportPath(".")
	if err != nil {
		return err
	}
	name, family := path.Base(labPkg), strings.TrimPrefix(family, module+"/")
	src := fmt.Sprintf(`// Code generated by the generators of %[2]s (famgen -lab). DO NOT EDIT.

// Package %[1]s holds the generated variants of %[2]s
// that production does not link: every one the compiled dispatch table
// names in no entry or default. The family's generators (-lab) print
// them here and the others into the family's package, and write here
// the lab tables, which this package's init offers to kernels/variant
// (variant.OfferLab) for the family's RegisterVariants. lab/variants
// imports it, so that every lab binary links it; the family's own tests
// import it blank.
package %[1]s
`, name, family)
	return gofile.Write(filepath.Join(dir, "zdoc.go"), []byte(src), "lab package documentation")
}

// flagValue returns the value of the command-line flag name (avo's -out,
// -stubs and -pkg), "" if no such flag is defined.
func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// WriteTables writes the lab and production tables of f to labPath and
// prodPath: a list per kernel of ks, in order (Run passes them in the
// order of their first variants), of its variants among vs, in order,
// with the features their instructions require. The header names the
// generator as run from f's package directory (go run
// ../../variants/round ...) with this run's arguments.
func WriteTables(f Family, labPath, prodPath string, ks []Kernel, vs []Variant) error {
	var lists []impltable.List
	for _, k := range ks {
		lists = append(lists, impltable.List{Kernel: k.Name, Var: k.Var, Type: k.Type})
	}
	t, err := impltable.NewTable(f.PkgPath, generator(f), lists...)
	if err != nil {
		return err
	}
	for i, k := range ks {
		for _, name := range k.Prefer {
			if !slices.ContainsFunc(vs, func(v Variant) bool { return v.Kernel == k.Name && v.Name == name }) {
				return fmt.Errorf("%s: preferred variant %q is not generated", k.Name, name)
			}
		}
		for _, v := range vs {
			if v.Kernel != k.Name {
				continue
			}
			r := impltable.Row{Name: v.Name, Symbol: v.Symbol, LoopLabel: k.LoopLabel, Preferred: slices.Contains(k.Prefer, v.Name)}
			if err := t.Add(lists[i], r, isafeat.Allowed(v.ISA)); err != nil {
				return err
			}
		}
	}
	return t.Write(labPath, prodPath)
}

// generator returns the path of f's generator relative to f's package
// directory, where go generate runs it, e.g. "../../variants/round".
func generator(f Family) string {
	rel := strings.TrimPrefix(f.PkgPath, module+"/")
	return strings.Repeat("../", strings.Count(rel, "/")+1) + "variants/" + f.Command
}
