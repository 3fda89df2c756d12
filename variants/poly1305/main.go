// Command poly1305 generates the Poly1305 variants of kernels/poly1305:
//
//   - scalar radix 2^64 (isa=scalar), multiplying with MULQ or with MULXQ
//     and two carry chains (ADCXQ/ADOXQ), 1 or 4 blocks per loop iteration,
//     a 4-word product reduced after, or with red=fused the reduction
//     folded into the products (s1 = 5·r1/4, see mulFused); each has a
//     block function and a one-shot MAC function (clamp, blocks, final
//     partial block, constant-time reduction, + s) for short inputs;
//   - AVX2 (4 lanes) and AVX-512F (8 lanes) radix 2^26 with VPMULUDQ, and
//     AVX-512 IFMA radix 2^44 with VPMADD52LUQ/HUQ (4 lanes in ymm or 8 in
//     zmm), over blocks per iteration, powers of r in memory or registers
//     (pow), carry placement (carry=seq or the two-chain ilv of radix 2^26)
//     and the short-message path: tail=scalar sends the blocks a vector
//     variant leaves, and messages shorter than one iteration, to the
//     scalar code; tail=vector (IFMA, pow=reg) covers any block count with
//     a first iteration front-padded by masked loads; tail=vec4 runs the
//     4-block vectors after the last whole iteration one at a time;
//   - AVX2 radix 2^26 with a schedule knob (sched=late: message products
//     streamed limb by limb, the loop-carried products last; sched=comp:
//     products formed one power component at a time), the message split
//     (split=unpck, or split=mid with a blended middle word) and 16 or 32
//     blocks per iteration, all adding the unmultiplied vector of an
//     iteration in loose limbs (see addLoose and the bounds at carry26);
//   - loop alignment none or 64, and the offset sweeps 64+4..64+60 of one
//     base variant per tier: isa=avx512ifma/radix=44/lanes=8/blocks=16/pow=reg
//     and isa=avx2/radix=26/lanes=4/blocks=16/pow=mem/carry=ilv.
//
// Besides the assembly and stubs (through avo) it writes two Go files of
// kernels/variant.Impl records (name, features derived from the
// instructions of the functions each runs, symbol, loop label and, in Fn,
// an internal/poly1305core.Variant: the id and table shape), each with
// switch functions that call its package's variants directly (calls
// through func values would move their pointer arguments to the heap),
// the wrappers running a MAC through them and one straight-line
// power-table fill function per table shape they use. It requires -lab
// (famgen): the functions of the variants production does not link go to
// the package under lab/variants, with a copy of variant 0's, whose
// scalar code every vector variant runs, and
//
//   - with -table, the lab file, in that package: every variant
//     (labVariants; those production links without Fn), the lab* switches
//     and wrappers of the others and the init function offering the table
//     (variant.OfferLab) and setting poly1305core.Lab, through which
//     kernels/poly1305 runs them; only binaries importing that package
//     and calling poly1305.RegisterVariants link them;
//   - with -prod, the production file, in kernels/poly1305: the variants
//     the compiled dispatch table (kernels/dispatch/ztable.go) names
//     (prodVariants, the prod* functions), which is all a production
//     binary links, and labVariants, reading the lab table.
//
// Every block function honours one contract: it adds len(m)/16 full 16-byte
// blocks (each with the 2^128 pad bit) to the canonical accumulator h, a
// value h[0] + h[1]·2^64 + h[2]·2^128 with h[2] < 8 on entry and exit,
// multiplying by r after each block, modulo p = 2^130 - 5 (partially
// reduced). Vector variants convert h to their radix and back in each call.
package main

import (
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
)

const pkgPath = "github.com/tunelab/tunelab/kernels/poly1305"

func main() {
	famgen.Generate(famgen.Generator[[]spec]{Name: "poly1305", Secrets: secrets, Build: build, Tables: writeTables})
}

// build emits the functions of every scalar and vector variant; it
// returns their specs.
func build() []spec {
	specs := append(scalarSpecs(), vectorSpecs()...)
	for i := range specs {
		specs[i].generate()
	}
	return specs
}

// secrets classifies the generated functions' parameters for the
// constant-time check (-ct): the key, r and its powers, the accumulator,
// the tag and the message are secret (the message strictly need not be,
// but no variant needs it public); the pad bit, the count of front-pad
// blocks and their masks follow from the length and are public.
var secrets = ctcheck.Args{Secret: []string{"h", "r", "pw", "m", "key", "out"}, Public: []string{"hibit", "pad", "fm"}}
