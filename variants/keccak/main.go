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
	"fmt"

	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func main() {
	famgen.Generate(famgen.Generator[[]variant]{Name: "keccak", Secrets: secrets, Build: build, Tables: writeTables})
}

// build emits the data tables, every variant of the knob space and the
// absorb functions; it returns the variants.
func build() []variant {
	declareTables()
	declareRowTables()
	declareByteRotMasks()
	vs := space()
	for _, v := range vs {
		byLayout(v, buildScalar, buildRows, buildVector)
	}
	for _, v := range absorbSpace(vs) {
		buildAbsorb(v)
	}
	return vs
}

// byLayout calls the builder of v's layout: scalar (general-purpose
// registers), rows (AVX-512, a state per row of zmm registers) or lanes
// (the other vector variants, a state per lane).
func byLayout(v variant, scalar, rows, lanes func(variant)) {
	switch {
	case v.isa == "scalar":
		scalar(v)
	case v.layout == "rows":
		rows(v)
	default:
		lanes(v)
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
