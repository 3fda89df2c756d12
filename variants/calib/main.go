// Command calib generates the calibration kernels of package
// lab/calib: dependent chains of single-cycle ADDQ instructions whose
// exact length is known, so the measurement machinery can be tested
// against planted effects.
//
// Each generated function chainE<eps>(n int, x, k uint64) uint64 runs n
// iterations of a loop whose body adds k to x L times, L = 1000·(1+eps/100).
// Every add depends on the previous one, so an iteration takes exactly L
// core cycles on any CPU with single-cycle integer add latency; the loop
// counter runs in parallel with the chain.
//
// For the layout part of the selftest it also emits copies of the
// unperturbed chain: chainE0c<i> (variant align=64/copy=i) are byte for
// byte chainE0 at other addresses (each function starts on its own
// 64-byte line, a few KiB apart), and chainE0o<N> (variant align=64+N)
// the same loop with its head N bytes past a 64-byte line. Whatever time
// differs between them and chainE0 is the host's sensitivity to code
// placement, not to the code.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// baseLen is the chain length of the unperturbed variant (eps = 0).
const baseLen = 1000

// epsPercent are the planted effects in percent of baseLen.
var epsPercent = []int{0, 1, 2, 5}

// copies is the number of byte-identical copies of the eps=0 chain, and
// loopOffsets the loop-head offsets of its offset copies.
var (
	copies      = 3
	loopOffsets = []int{16, 32, 48}
)

// A variantFn is one generated function: its variant name and symbol, the
// planted eps and the loop-head placement.
type variantFn struct {
	name, sym string
	eps       int
	align     asmalign.Align
	offset    bool // an offset copy (align=64+N)
}

// variantFns lists every function the generator emits, in order.
func variantFns() []variantFn {
	var out []variantFn
	for _, eps := range epsPercent {
		out = append(out, variantFn{fmt.Sprintf("isa=amd64/eps=%d/align=64", eps), fmt.Sprintf("chainE%d", eps), eps, asmalign.At(0), false})
	}
	for i := 1; i <= copies; i++ {
		out = append(out, variantFn{fmt.Sprintf("isa=amd64/eps=0/align=64/copy=%d", i), fmt.Sprintf("chainE0c%d", i), 0, asmalign.At(0), false})
	}
	for _, off := range loopOffsets {
		out = append(out, variantFn{fmt.Sprintf("isa=amd64/eps=0/align=64+%d", off), fmt.Sprintf("chainE0o%d", off), 0, asmalign.At(off), true})
	}
	return out
}

func main() {
	famgen.Generate(famgen.Generator[[]variantFn]{Name: "calib", Secrets: secrets, Build: build, Tables: writeTables})
}

// build emits every chain; it returns their table rows.
func build() []variantFn {
	fns := variantFns()
	for _, f := range fns {
		chain(f.sym, f.eps, f.align)
	}
	return fns
}

// secrets classifies the chains' parameters for the constant-time check
// (-ct): the chain's data is treated as secret, the iteration count is
// public (the chains are no crypto, but they run like a variant).
var secrets = ctcheck.Args{Secret: []string{"x", "k"}, Public: []string{"n"}}

// chainLen is L = baseLen·(1+eps/100).
func chainLen(eps int) int { return baseLen * (100 + eps) / 100 }

// chain emits name: for n iterations, x = x + k, L times in a dependent
// chain; returns x.
func chain(name string, eps int, align asmalign.Align) {
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
func writeTables(lab, prod string, fns []variantFn) error {
	t, err := impltable.NewTable("github.com/tunelab/tunelab/lab/calib", "../../variants/calib")
	if err != nil {
		return err
	}
	l := impltable.List{Kernel: "calib", Var: "asmChains", Type: "chainFunc"}
	for _, f := range fns {
		r := impltable.Row{Name: f.name, Symbol: f.sym, LoopLabel: "loop", OffsetSweep: f.offset}
		if err := t.Add(l, r, isafeat.Allowed("amd64")); err != nil {
			return err
		}
	}
	return t.Write(lab, prod)
}
