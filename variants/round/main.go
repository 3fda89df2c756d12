// Command round generates ML-DSA's rounding kernels (FIPS 204, 7.4) for
// kernels/mldsa with avo, each a loop over a polynomial's 256 int32
// coefficients fused with what the signing loop does around it:
//
//   - mldsa.lowbits: r = w − c·s2 mod q in place, r1 = HighBits(r) as
//     bytes, and whether ‖LowBits(r)‖∞ ≥ γ2 − β (a rejection);
//   - mldsa.makehint: h = MakeHint(−c·t0, r + c·t0) =
//     [HighBits(r + c·t0) ≠ r1] as bytes, their count, and whether
//     ‖c·t0‖∞ ≥ γ2;
//   - mldsa.response: z = y + c·s1 (centered) in place and whether
//     ‖z‖∞ ≥ γ1 − β;
//   - mldsa.w1pack4: w1Encode of HighBits(w), 4 bits per coefficient
//     (γ2 = (q−1)/32: ML-DSA-65 and -87);
//   - mldsa.power2round: t = t0 + s2 mod q (key generation's
//     NTT⁻¹(Â∘NTT(s1)) + s2) split by Power2Round (Algorithm 35) into t1
//     and centered t0.
//
// Decompose (Algorithm 36) is computed as kernels/mldsa's generic code
// does, with the constants of one γ2 passed in memory (mult, m, 2γ2):
// r1 = ⌈r/128⌉·mult/2^24 rounded, m wrapping to 0, r0 = r − r1·2γ2
// centered. The knobs are the tier (isa=avx2: ymm, 8 lanes; isa=avx512:
// zmm, 16 lanes, opmasks and VPMOVDB) and the vectors per loop iteration
// (unroll). Norm checks keep a running unsigned maximum of the absolute
// values and compare once after the loop.
//
// It writes the assembly and stubs (through avo) and, through impltable,
// the lab table (-table) and the production table (-prod):
//
//	go run ../../variants/round -out round_amd64.s -stubs zround_stubs_amd64.go -pkg mldsa -table zround_variants_amd64.go -prod zround_prod_amd64.go -ct ../../lab/ct/zstatic_round.go
package main

import (
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// q is the ML-DSA modulus.
const q = 8380417

// A kernel is one of the generated kernels, its builder and the vectors
// per iteration swept per tier (unrolls).
type kernel struct {
	famgen.Kernel
	build   func(g *gen)
	unrolls map[string][]int
}

// dsaKernel is the famgen.Kernel of mldsa.<name>, whose symbols are
// <name>_<tier>_<unroll>.
func dsaKernel(name, tableVar, goType string) famgen.Kernel {
	return famgen.Kernel{Name: "mldsa." + name, Prefix: name, Var: tableVar, Type: goType, LoopLabel: "loop"}
}

var kernels = []kernel{
	{dsaKernel("lowbits", "asmLowBits", "func(w, cs2 *[256]int32, r1 *[256]uint8, c *[4]int32) uint32"), buildLowBits,
		map[string][]int{"avx2": {4, 8}, "avx512": {1, 2, 4}}},
	{dsaKernel("makehint", "asmMakeHint", "func(r, ct0 *[256]int32, r1, h *[256]uint8, c *[4]int32) (count, bad uint32)"), buildMakeHint,
		map[string][]int{"avx2": {4, 8}, "avx512": {1, 2, 4}}},
	{dsaKernel("response", "asmResponse", "func(z, cs1 *[256]int32, limit int32) uint32"), buildResponse,
		map[string][]int{"avx2": {2, 4}, "avx512": {1, 2, 4}}},
	{dsaKernel("w1pack4", "asmW1Pack4", "func(dst *[128]byte, w *[256]int32, c *[4]int32)"), buildW1Pack4,
		map[string][]int{"avx2": {8}, "avx512": {1, 2, 4}}},
	{dsaKernel("power2round", "asmPower2Round", "func(t1, t0, s2 *[256]int32)"), buildPower2Round,
		map[string][]int{"avx2": {1, 2, 4}, "avx512": {1, 2}}},
}

func main() {
	famgen.Run(famgen.Family{Command: "round", PkgPath: "github.com/tunelab/tunelab/kernels/mldsa",
		Consts: "roundconst", Secrets: secrets, Build: build})
}

// build builds every kernel's variants: per tier, per unroll.
func build(b *famgen.Builder) {
	for _, k := range kernels {
		b.Unrolls(k.Kernel, k.unrolls, func(s *vecgen.ISA, u int) { k.build(&gen{Gen: b.Gen(s), unroll: u}) })
	}
}

// secrets classifies the kernels' parameters for the constant-time check
// (-ct): every polynomial is secret (w = Â·y and r, r1, h derived from the
// mask y; c·s1, c·s2, c·t0 and z = y + c·s1 before the rejection decision;
// t and t0 of key generation, s2; w1 of a rejected iteration); the
// constants of γ2 (c: mult, m, 2γ2) and the norm bound (limit) are public.
var secrets = ctcheck.Args{
	Secret: []string{"w", "cs2", "r1", "r", "ct0", "h", "z", "cs1", "dst", "t1", "t0", "s2"},
	Public: []string{"c", "limit"},
}
