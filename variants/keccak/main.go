// Command keccak generates the Keccak-f[1600] variants of kernels/keccak
// with avo: every valid point of the knob space (states in parallel, ISA,
// rotation and chi instructions, register allocation, lane loads of a
// spilled state, grouping of 8 states into two 4-state groups on AVX2,
// unroll depth, transpose method, loop alignment) becomes one assembly
// function, and every single-state variant also a fused absorb function
// (kernel sha3.256, see absorb.go).
// Two tables list them with their names, features, symbols and loop
// labels: the lab table (zvariants_amd64.go) every variant, the
// production table (zprod_amd64.go) the variants the compiled dispatch
// table can select.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

var (
	tableOut = flag.String("table", "zvariants_amd64.go", "lab variant table output `file` (every variant)")
	prodOut  = flag.String("prod", "zprod_amd64.go", "production variant table output `file` (the variants the compiled dispatch table can select)")
)

func main() {
	flag.Parse()
	ConstraintExpr("!purego")
	declareTables()
	declareRowTables()
	declareByteRotMasks()
	vs := space()
	for _, v := range vs {
		switch {
		case v.isa == "scalar":
			buildScalar(v)
		case v.layout == "rows":
			buildRows(v)
		default:
			buildVector(v)
		}
	}
	for _, v := range absorbSpace(vs) {
		buildAbsorb(v)
	}
	avogen.Generate()
	if err := ctcheck.Check(secrets); err != nil {
		fmt.Fprintf(os.Stderr, "keccak generator: %v\n", err)
		os.Exit(1)
	}
	if err := writeTables(*tableOut, *prodOut, vs); err != nil {
		fmt.Fprintf(os.Stderr, "keccak generator: %v\n", err)
		os.Exit(1)
	}
	if err := ctcheck.Write(); err != nil {
		fmt.Fprintf(os.Stderr, "keccak generator: %v\n", err)
		os.Exit(1)
	}
}

// secrets classifies the generated functions' parameters for the
// constant-time check (-ct): the states and the absorbed data are secret
// (the sponge absorbs keys and seeds), the rate is public.
var secrets = ctcheck.Args{Secret: []string{"a", "data"}, Public: []string{"rate"}}

var (
	rcTables  = map[int]Mem{}
	gatherIdx Mem
)

// rcTable returns the round constants replicated to w bytes per round.
func rcTable(w int) Mem { return rcTables[w] }

func declareTables() {
	for _, w := range []int{8, 16, 32, 64} {
		m := GLOBL(fmt.Sprintf("keccakRC%d", w), RODATA|NOPTR)
		for i, c := range rc {
			for j := 0; j < w/8; j++ {
				DATA(i*w+8*j, U64(c))
			}
		}
		rcTables[w] = m
	}
	gatherIdx = GLOBL("keccakGatherIdx", RODATA|NOPTR)
	for k := 0; k < 8; k++ {
		DATA(8*k, U64(200*k))
	}
}
