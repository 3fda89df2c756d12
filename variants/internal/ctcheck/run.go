package ctcheck

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/mmcloughlin/avo/ir"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/variants/internal/avogen"
)

var statusOut = flag.String("ct", "", "write the constant-time status of every generated function (a lab/ct Go file) to `file`")

// A Func is one analysed function of the generator.
type Func struct {
	Name     string
	Instrs   int
	Findings []Finding
	// Whys are the findings' explanations, with lines.
	Whys []string
	// Declassified are the instructions whose outputs the generator
	// declared public (Public), with lines.
	Declassified []Declassified
	// PublicOnly marks a function none of whose parameters is secret:
	// its timing cannot depend on a secret, so the dynamic check does
	// not classify its inputs.
	PublicOnly bool
}

// A Result is the analysis of every function of one generator run, with
// the variants the generator's tables list.
type Result struct {
	Args    Args
	Fixture bool
	Asm     string // the generated .s, as the -out flag names it
	// Package is the import path of the package of Asm; "": that of the
	// working directory.
	Package string
	// Lab is the part of a split generator (CheckSplit) printed into a
	// package under lab/variants; nil otherwise.
	Lab      *Result
	Funcs    []*Func
	byName   map[string]int
	variants []*variantRow
	byKey    map[[2]string]*variantRow
}

type variantRow struct {
	kernel, name string
	funcs        []int
}

var (
	mu     sync.Mutex
	result *Result
)

// Check analyses every function of avo's global build context, after
// avogen.Generate has compiled and written it, with the parameters
// classified by args, and maps the findings to lines of the .s file avo
// wrote (its -out flag). The generator's variant tables then record
// which functions each variant runs (impltable does, or RecordVariant),
// and Write writes the status file and applies the gate.
func Check(args Args) error { return check(args, false) }

// CheckFixtures is Check for lab-only fixtures with planted leaks: their
// findings are expected and never fail the generator.
func CheckFixtures(args Args) error { return check(args, true) }

// CheckSplit is Check for a generator that printed its functions in two
// parts (famgen's -lab flag): those prod accepts to the -out file, those
// lab accepts to labAsm in the package at import path labPkg. Each part
// maps its findings to its own file's lines; a variant belongs to the
// first part that holds all its functions.
func CheckSplit(args Args, prod, lab func(fn string) bool, labAsm, labPkg string) error {
	r, err := checkPart(args, flagValue("out"), prod)
	if err != nil {
		return err
	}
	if r.Lab, err = checkPart(args, labAsm, lab); err != nil {
		return err
	}
	r.Lab.Package = labPkg
	mu.Lock()
	result = r
	mu.Unlock()
	return nil
}

// checkPart analyses the functions keep accepts, printed to path.
func checkPart(args Args, path string, keep func(fn string) bool) (*Result, error) {
	f, err := avogen.File()
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("constant-time check: %w", err)
	}
	var fns []*ir.Function
	for _, fn := range f.Functions() {
		if keep(fn.Name) {
			fns = append(fns, fn)
		}
	}
	r, err := analyzeFile(fns, ParseAsm(src), args)
	if err != nil {
		return nil, fmt.Errorf("constant-time check of %s: %w", path, err)
	}
	r.Asm = path
	return r, nil
}

func check(args Args, fixture bool) error {
	f, err := avogen.File()
	if err != nil {
		return err
	}
	path := flagValue("out")
	if path == "" {
		return errors.New("constant-time check: the generator has no -out file to map lines to")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("constant-time check: %w", err)
	}
	r, err := analyzeFile(f.Functions(), ParseAsm(src), args)
	if err != nil {
		return fmt.Errorf("constant-time check of %s: %w", path, err)
	}
	r.Fixture, r.Asm = fixture, path
	mu.Lock()
	result = r
	mu.Unlock()
	return nil
}

// analyzeFile analyses fns in parallel.
func analyzeFile(fns []*ir.Function, src *Asm, args Args) (*Result, error) {
	r := &Result{Args: args, Funcs: make([]*Func, len(fns)), byName: map[string]int{}, byKey: map[[2]string]*variantRow{}}
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r.Funcs[i], errs[i] = analyzeFunc(fns[i], src, args)
			}
		}()
	}
	for i := range fns {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i, fn := range fns {
		r.byName[fn.Name] = i
	}
	return r, nil
}

func analyzeFunc(fn *ir.Function, src *Asm, args Args) (*Func, error) {
	fs, err := Analyze(fn, args)
	if err != nil {
		return nil, err
	}
	lines, err := src.Lines(fn)
	if err != nil {
		return nil, err
	}
	ds, err := Declassifications(fn)
	if err != nil {
		return nil, err
	}
	pm, err := mapParams(fn, args)
	if err != nil {
		return nil, err
	}
	insts := fn.Instructions()
	out := &Func{Name: fn.Name, Instrs: len(insts), PublicOnly: !pm.anySecret()}
	for _, d := range ds {
		d.Line = lines[d.Index]
		out.Declassified = append(out.Declassified, d)
	}
	for _, f := range fs {
		f.Line = lines[f.Index]
		out.Findings = append(out.Findings, f)
		out.Whys = append(out.Whys, f.Why(insts, lines))
	}
	return out, nil
}

// RecordVariant records that variant name of kernel runs the generated
// functions symbols (names of TEXT symbols, without package). It does
// nothing before Check. A variant recorded twice (under lists of the same
// kernel) runs the union of the functions.
func RecordVariant(kernel, name string, symbols ...string) error {
	mu.Lock()
	defer mu.Unlock()
	if result == nil {
		return nil
	}
	r := result
	if r.Lab != nil && !r.holds(symbols) {
		r = r.Lab
	}
	key := [2]string{kernel, name}
	row := r.byKey[key]
	if row == nil {
		row = &variantRow{kernel: kernel, name: name}
		r.byKey[key] = row
		r.variants = append(r.variants, row)
	}
	for _, s := range symbols {
		i, ok := r.byName[s]
		if !ok {
			return fmt.Errorf("constant-time check: variant %s %s runs %s, which the generator did not build", kernel, name, s)
		}
		if !slices.Contains(row.funcs, i) {
			row.funcs = append(row.funcs, i)
		}
	}
	return nil
}

// Leaky reports whether variant name of kernel, as recorded, runs a
// function with a finding. Production tables leave such variants out, so
// dispatch can never select one.
func Leaky(kernel, name string) bool {
	mu.Lock()
	defer mu.Unlock()
	if result == nil {
		return false
	}
	for r := result; r != nil; r = r.Lab {
		if row := r.byKey[[2]string{kernel, name}]; row != nil && r.leaky(row) {
			return true
		}
	}
	return false
}

// holds reports whether r analysed every function of symbols.
func (r *Result) holds(symbols []string) bool {
	for _, s := range symbols {
		if _, ok := r.byName[s]; !ok {
			return false
		}
	}
	return true
}

func (r *Result) leaky(row *variantRow) bool {
	for _, i := range row.funcs {
		if len(r.Funcs[i].Findings) > 0 {
			return true
		}
	}
	return false
}

// Write writes the status file (the -ct flag; nothing if unset) and
// returns an error, after writing it, if the compiled dispatch table
// names a variant with a finding, or a function with a finding belongs to
// no variant (a helper production code may call), unless the functions
// are fixtures.
func Write() error {
	mu.Lock()
	defer mu.Unlock()
	if result == nil {
		return errors.New("constant-time check: Write before Check")
	}
	if path := *statusOut; path != "" {
		if err := writeGo(path, result); err != nil {
			return err
		}
	}
	if result.Fixture {
		return nil
	}
	var errs []error
	for r := result; r != nil; r = r.Lab {
		errs = append(errs, r.gate(dispatch.Compiled()))
	}
	return errors.Join(errs...)
}

// gate returns the problems that must stop the generator.
func (r *Result) gate(t dispatch.Table) error {
	named := map[[2]string]bool{}
	for _, e := range t.Entries {
		for _, c := range e.Choices {
			named[[2]string{e.Kernel, c.Variant}] = true
		}
	}
	for _, d := range t.Defaults {
		for _, c := range d.Choices {
			named[[2]string{d.Kernel, c.Variant}] = true
		}
	}
	var errs []string
	inVariant := map[int]bool{}
	for _, row := range r.variants {
		for _, i := range row.funcs {
			inVariant[i] = true
		}
		if named[[2]string{row.kernel, row.name}] && r.leaky(row) {
			errs = append(errs, fmt.Sprintf("the compiled dispatch table names %s %s, which has constant-time findings (%s): export a table without it",
				row.kernel, row.name, r.findingsOf(row.funcs)))
		}
	}
	for i, f := range r.Funcs {
		if len(f.Findings) > 0 && !inVariant[i] {
			errs = append(errs, fmt.Sprintf("function %s is no variant and has constant-time findings (%s)", f.Name, r.findingsOf([]int{i})))
		}
	}
	if len(errs) > 0 {
		return errors.New("constant-time gate:\n\t" + strings.Join(errs, "\n\t"))
	}
	return nil
}

// findingsOf summarizes the first finding of the functions.
func (r *Result) findingsOf(funcs []int) string {
	n := 0
	first := ""
	for _, i := range funcs {
		for k, f := range r.Funcs[i].Findings {
			if n == 0 {
				first = fmt.Sprintf("%s: %s line %d, %s: %s", r.Funcs[i].Name, f.Kind, f.Line, f.Instr, r.Funcs[i].Whys[k])
			}
			n++
		}
	}
	return fmt.Sprintf("%d; first %s", n, first)
}

func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}
