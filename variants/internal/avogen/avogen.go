// Package avogen runs avo's compilation of a generator's functions in
// parallel before the usual build.Generate, and gives generators the
// compiled file (for features derived from instructions, see isafeat).
//
// avo compiles function by function (liveness, register allocation,
// binding), one after another; for files of hundreds of large functions
// (the ML-DSA NTTs) register allocation dominates generation time. The
// per-function passes touch only their own function, so Generate runs them
// on every function concurrently, then calls build.Generate, whose own run
// of the same passes finds nothing left to allocate and prints the same
// file.
package avogen

import (
	"fmt"
	"log"
	"runtime"
	"sync"
	_ "unsafe" // go:linkname

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/pass"
)

// avoGlobal is the build context behind avo's package-level functions
// (TEXT, VPADDD, Generate, ...), which every generator dot-imports. avo
// exposes no accessor for it; its Result method returns the file built so
// far, with each instruction's ISA list.
//
//go:linkname avoGlobal github.com/mmcloughlin/avo/build.ctx
var avoGlobal *build.Context

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

// compileParallel runs functionPasses on fns with one worker per CPU and
// returns the first error.
func compileParallel(fns []*ir.Function) error {
	work := make(chan *ir.Function)
	errs := make(chan error, len(fns))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for fn := range work {
				errs <- compile(fn)
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
