// Package avogen runs avo's compilation of a generator's functions in
// parallel before the usual build.Generate, and gives generators the
// compiled file (for features derived from instructions, see isafeat).
//
// avo compiles function by function (liveness, register allocation,
// binding), one after another; for files of hundreds of large functions
// (the ML-DSA NTTs) register allocation dominates generation time. The
// per-function passes touch only their own function, so Generate runs them
// on every function concurrently, then calls build.Generate, whose own run
// of the same passes finds nothing left to allocate. Functions that differ only in loop-head padding (the offset-sweep
// copies of a base variant, see internal/asmalign) are allocated once:
// each copy takes the first one's allocation, register for register.
package avogen

import (
	"fmt"
	"log"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	_ "unsafe" // go:linkname

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	"github.com/mmcloughlin/avo/reg"
)

// avoGlobal is the build context behind avo's package-level functions
// (TEXT, VPADDD, Generate, ...), which every generator dot-imports. avo
// exposes no accessor for it; its Result method returns the file built so
// far, with each instruction's ISA list.
//
//go:linkname avoGlobal github.com/mmcloughlin/avo/build.ctx
var avoGlobal *build.Context

// A generator's heap is live until it prints and avo's register
// allocation churns through maps: fewer collections (at most a few GiB of
// memory for the ML-DSA file) halve the time.
func init() { debug.SetGCPercent(400) }

// File returns the functions and data built in avo's global context.
func File() (*ir.File, error) {
	f, err := avoGlobal.Result()
	if err != nil {
		return nil, fmt.Errorf("reading avo build result: %w", err)
	}
	return f, nil
}

// functionPasses are pass.Compile's per-function passes, in its order
// (the instruction pass ZeroExtend32BitOutputs applied per function).
var functionPasses = []pass.FunctionPass{
	pass.PruneJumpToFollowingLabel,
	pass.PruneDanglingLabels,
	pass.LabelTarget,
	pass.CFG,
	zeroExtend,
	pass.Liveness,
	pass.AllocateRegisters,
	pass.BindRegisters,
	pass.VerifyAllocation,
}

func zeroExtend(fn *ir.Function) error {
	for _, i := range fn.Instructions() {
		if err := pass.ZeroExtend32BitOutputs(i); err != nil {
			return err
		}
	}
	return nil
}

// Generate compiles every function of the global context in parallel,
// then runs build.Generate (flags, printers, exit on error).
// A build error is left to build.Generate, which reports it in avo's
// format.
func Generate() {
	if f, err := File(); err == nil {
		if err := compileParallel(f.Functions()); err != nil {
			log.Fatal(err)
		}
	}
	build.Generate()
}

// Compile compiles every function of the global context as Generate
// does, and avo's whole-file passes after, and returns the file, for a
// generator that prints it in parts (Print) rather than to avo's -out and
// -stubs alone.
func Compile() (*ir.File, error) {
	f, err := File()
	if err != nil {
		return nil, err
	}
	if err := compileParallel(f.Functions()); err != nil {
		return nil, err
	}
	if err := pass.Compile.Execute(f); err != nil {
		return nil, err
	}
	return f, nil
}

// Print writes, with avo's printers, the part of the compiled file f that
// holds the functions keep accepts and the data they address, as package
// pkg: the assembly to asmPath and the Go declarations to stubsPath.
func Print(f *ir.File, keep func(fn string) bool, pkg, asmPath, stubsPath string) error {
	part := &ir.File{Constraints: f.Constraints, Includes: f.Includes}
	used := map[string]bool{} // data symbols the kept functions address
	for _, fn := range f.Functions() {
		if keep(fn.Name) {
			addressed(fn, used)
		}
	}
	for _, s := range f.Sections {
		switch s := s.(type) {
		case *ir.Function:
			if !keep(s.Name) {
				continue
			}
		case *ir.Global:
			if !used[s.Symbol.Name] {
				continue
			}
		}
		part.AddSection(s)
	}
	cfg := printer.NewGoRunConfig()
	cfg.Pkg = pkg
	for _, out := range []struct {
		path string
		p    printer.Printer
	}{{asmPath, printer.NewGoAsm(cfg)}, {stubsPath, printer.NewStubs(cfg)}} {
		b, err := out.p.Print(part)
		if err != nil {
			return fmt.Errorf("printing %s: %w", out.path, err)
		}
		if err := os.WriteFile(out.path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// addressed adds to set the symbols of the memory operands of fn.
func addressed(fn *ir.Function, set map[string]bool) {
	for _, inst := range fn.Instructions() {
		for _, op := range inst.Operands {
			if m, ok := op.(operand.Mem); ok && m.Symbol.Name != "" {
				set[m.Symbol.Name] = true
			}
		}
	}
}

// compileParallel compiles fns with one worker per CPU: the first
// function of each shape (see shape) through every pass, the others by
// taking its allocation. It returns the first error.
func compileParallel(fns []*ir.Function) error {
	firsts, copies := byShape(fns)
	if err := runParallel(firsts, compile); err != nil {
		return err
	}
	var rest []*ir.Function
	for _, c := range copies {
		rest = append(rest, c.own.fn)
	}
	byFn := map[*ir.Function]copyOf{}
	for _, c := range copies {
		byFn[c.own.fn] = c
	}
	return runParallel(rest, func(fn *ir.Function) error { return compileCopy(byFn[fn]) })
}

// A shaped is a function with its virtual registers in order of first use.
type shaped struct {
	fn    *ir.Function
	order []reg.ID
}

// A copyOf is a function of the same shape as an earlier one.
type copyOf struct{ own, first shaped }

// byShape splits fns into the first function of each shape and the
// copies.
func byShape(fns []*ir.Function) (firsts []*ir.Function, copies []copyOf) {
	seen := map[string]shaped{}
	for _, fn := range fns {
		key, order := shape(fn)
		if first, ok := seen[key]; ok {
			copies = append(copies, copyOf{own: shaped{fn, order}, first: first})
			continue
		}
		seen[key] = shaped{fn, order}
		firsts = append(firsts, fn)
	}
	return firsts, copies
}

var virtualAsm = regexp.MustCompile(`<virtual:(\d+):(\d+):(\d+)>`)

// shape returns fn's instructions as text, with virtual registers numbered
// by first use and the padding bytes (BYTE) left out, and its virtual
// registers in that order: functions of one shape get the same allocation.
func shape(fn *ir.Function) (string, []reg.ID) {
	var b strings.Builder
	ord := map[string]int{} // "index:kind" -> ordinal
	var order []reg.ID
	for _, inst := range fn.Instructions() {
		if inst.Opcode == "BYTE" {
			continue
		}
		b.WriteString(inst.OpcodeWithSuffixes())
		for _, op := range inst.Operands {
			for _, r := range operand.Registers(op) {
				id := r.ID()
				key := fmt.Sprintf("%d:%d", id.Index(), id.Kind())
				if _, ok := ord[key]; id.IsVirtual() && !ok {
					ord[key] = len(order)
					order = append(order, id)
				}
			}
			b.WriteString(" " + virtualAsm.ReplaceAllStringFunc(op.Asm(), func(v string) string {
				m := virtualAsm.FindStringSubmatch(v)
				return fmt.Sprintf("<v%d:%s>", ord[m[1]+":"+m[2]], m[3])
			}))
		}
		b.WriteByte('\n')
	}
	return b.String(), order
}

// compileCopy compiles a function of an earlier one's shape: the passes
// before and after allocation, with the earlier function's allocation
// mapped onto its registers.
func compileCopy(c copyOf) error {
	fn := c.own.fn
	if len(c.own.order) != len(c.first.order) {
		return fmt.Errorf("compiling %s as a copy of %s: %d virtual registers, want %d",
			fn.Name, c.first.fn.Name, len(c.own.order), len(c.first.order))
	}
	for _, p := range functionPasses[:5] { // the passes before liveness
		if err := p(fn); err != nil {
			return fmt.Errorf("compiling %s: %w", fn.Name, err)
		}
	}
	fn.Allocation = reg.NewEmptyAllocation()
	for i, id := range c.own.order {
		fn.Allocation[id] = c.first.fn.Allocation[c.first.order[i]]
	}
	for _, p := range []pass.FunctionPass{pass.BindRegisters, pass.VerifyAllocation} {
		if err := p(fn); err != nil {
			return fmt.Errorf("compiling %s as a copy of %s: %w", fn.Name, c.first.fn.Name, err)
		}
	}
	return nil
}

// runParallel runs do on fns with one worker per CPU and returns the first
// error.
func runParallel(fns []*ir.Function, do func(*ir.Function) error) error {
	work := make(chan *ir.Function)
	errs := make(chan error, len(fns))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for fn := range work {
				errs <- do(fn)
			}
		}()
	}
	for _, fn := range fns {
		work <- fn
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func compile(fn *ir.Function) error {
	for _, p := range functionPasses {
		if err := p(fn); err != nil {
			return fmt.Errorf("compiling %s: %w", fn.Name, err)
		}
	}
	return nil
}

// Asm formats an instruction as the generated file has it.
func Asm(inst *ir.Instruction) string {
	ops := make([]string, len(inst.Operands))
	for i, op := range inst.Operands {
		ops[i] = op.Asm()
	}
	return strings.TrimSpace(inst.OpcodeWithSuffixes() + " " + strings.Join(ops, ", "))
}
