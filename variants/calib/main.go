// Command calib generates the calibration kernels of package
// kernels/calib: dependent chains of single-cycle ADDQ instructions whose
// exact length is known, so the measurement machinery can be tested
// against planted effects.
//
// Each generated function chainE<eps>(n int, x, k uint64) uint64 runs n
// iterations of a loop whose body adds k to x L times, L = 1000·(1+eps/100).
// Every add depends on the previous one, so an iteration takes exactly L
// core cycles on any CPU with single-cycle integer add latency; the loop
// counter runs in parallel with the chain.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// baseLen is the chain length of the unperturbed variant (eps = 0).
const baseLen = 1000

// epsPercent are the planted effects in percent of baseLen.
var epsPercent = []int{0, 1, 2, 5}

var (
	table = flag.String("table", "", "write the lab variant table (Go) to this file")
	prod  = flag.String("prod", "", "write the production variant table (Go) to this file")
)

func main() {
	flag.Parse()
	ConstraintExpr("!purego")
	align, err := asmalign.Parse("64")
	if err != nil {
		log.Fatal(err)
	}
	for _, eps := range epsPercent {
		chain(eps, align)
	}
	avogen.Generate()
	if err := ctcheck.Check(secrets); err != nil {
		log.Fatal(err)
	}
	if *table != "" {
		if err := writeTables(*table, *prod); err != nil {
			log.Fatal(err)
		}
	}
	if err := ctcheck.Write(); err != nil {
		log.Fatal(err)
	}
}

// secrets classifies the chains' parameters for the constant-time check
// (-ct): the chain's data is treated as secret, the iteration count is
// public (the chains are no crypto, but they run like a variant).
var secrets = ctcheck.Args{Secret: []string{"x", "k"}, Public: []string{"n"}}

// chainLen is L = baseLen·(1+eps/100).
func chainLen(eps int) int { return baseLen * (100 + eps) / 100 }

// chain emits chainE<eps>: for n iterations, x = x + k, L times in a
// dependent chain; returns x.
func chain(eps int, align asmalign.Align) {
	name := fmt.Sprintf("chainE%d", eps)
	TEXT(name, NOSPLIT, "func(n int, x, k uint64) uint64")
	Doc(fmt.Sprintf("%s adds k to x %d times per iteration, n iterations, as one dependent chain.", name, chainLen(eps)))
	n := Load(Param("n"), GP64())
	x := Load(Param("x"), GP64())
	k := Load(Param("k"), GP64())
	TESTQ(n, n)
	JLE(LabelRef("done"))
	align.Emit()
	Label("loop")
	for i := 0; i < chainLen(eps); i++ {
		ADDQ(k, x)
	}
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	Store(x, ReturnIndex(0))
	RET()
}

// writeTables writes the lab and production tables of the generated
// chains, with the features avo derived from their instructions.
func writeTables(lab, prod string) error {
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	list := impltable.List{Kernel: "calib", Var: "asmChains", Type: "chainFunc"}
	for _, eps := range epsPercent {
		name, sym := fmt.Sprintf("isa=amd64/eps=%d/align=64", eps), fmt.Sprintf("chainE%d", eps)
		feats, err := derived.Features(name, isafeat.Allowed("amd64"), sym)
		if err != nil {
			return err
		}
		list.Rows = append(list.Rows, impltable.Row{Name: name, Features: feats, Symbol: sym, LoopLabel: "loop"})
	}
	f := impltable.File{Pkg: "calib", PkgPath: "github.com/tunelab/tunelab/kernels/calib",
		Command: "go run ../../variants/calib " + strings.Join(os.Args[1:], " "), Lists: []impltable.List{list}}
	return f.Write(lab, prod)
}
