// Command cbd generates the fixed-length samplers of ML-KEM and ML-DSA
// for kernels/internal/polysample with avo: they read a whole PRF or
// ExpandMask output, rejecting nothing.
//
//   - mlkem.cbd2 and mlkem.cbd3: SamplePolyCBD_η (FIPS 203 Algorithm 8)
//     for η = 2 (128 bytes) and 3 (192 bytes), canonical int16
//     coefficients in [0, q);
//   - mldsa.expandmask: BitUnpack(v, γ1−1, γ1) of ExpandMask's stream
//     (FIPS 204 Algorithm 34; also z of a signature), 18-bit (γ1 = 2^17)
//     or 20-bit (γ1 = 2^19) fields, into y centered and ŷ canonical.
//
// The CBD kernels widen first: each input byte (η = 2) or each field of
// two coefficients (η = 3) goes to a 32-bit lane, where the bit sums are
// taken with masks and shifts, the pair of coefficients lands in the
// lane's two 16-bit halves with a bias of η, and a word subtraction and a
// correction by q make them canonical: no shuffle of the results. The
// coefficient values are secret; nothing but the position steers a branch
// or an index. expandmask gathers the three bytes of each field into a
// dword (VPSHUFB on two overlapping 16-byte loads on AVX2, VPERMB on a
// masked load on AVX-512 with VBMI), shifts each by its bit offset
// (VPSRLVD) and masks it.
//
// The knobs: the tier, and the vectors per loop iteration (unroll).
//
//	go run ../../../variants/cbd -out cbd_amd64.s -stubs zcbd_stubs_amd64.go -pkg polysample -table zcbd_variants_amd64.go -prod zcbd_prod_amd64.go -ct ../../../lab/ct/zstatic_cbd.go -bounds ../../../lab/bounds/zstatic_cbd.go
package main

import (
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// A kernel is one generated kernel, its unrolls per tier and its builder.
type kernel struct {
	famgen.Kernel
	unrolls map[string][]int
	build   func(g *gen, u int)
}

var kernels = []kernel{
	{famgen.Kernel{Name: "mlkem.cbd2", Prefix: "cbd2", Var: "asmCBD2", Type: "func(f *[256]int16, b *[128]byte)", LoopLabel: "loop"},
		map[string][]int{"avx2": {1, 2, 4}, "avx512": {1, 2, 4}}, buildCBD2},
	{famgen.Kernel{Name: "mlkem.cbd3", Prefix: "cbd3", Var: "asmCBD3", Type: "func(f *[256]int16, b *[192]byte)", LoopLabel: "loop"},
		map[string][]int{"avx2": {1, 2}, "avx512": {1, 2}}, buildCBD3},
	{famgen.Kernel{Name: "mldsa.expandmask", Prefix: "expandmask", Var: "asmExpandMask", Type: "func(y, yHat *[256]int32, b []byte, bits int)", LoopLabel: "loop"},
		map[string][]int{"avx2": {1, 2}, "avx512": {1, 2}}, buildExpandMask},
}

func main() {
	famgen.Run(famgen.Family{Command: "cbd", PkgPath: "github.com/tunelab/tunelab/kernels/internal/polysample",
		Consts: "cbdconst", Secrets: secrets, Build: build})
}

// build builds every kernel's variants: per tier, per unroll.
func build(b *famgen.Builder) {
	for _, k := range kernels {
		b.Unrolls(k.Kernel, k.unrolls, func(s *vecgen.ISA, u int) { k.build(&gen{b.Gen(s)}, u) })
	}
}

// secrets classifies the samplers' parameters for the constant-time check
// (-ct): the PRF output and the coefficients are secret (CBD samples the
// secret vectors s, e and the encryption noise; ExpandMask samples the
// signing mask y, from which ŷ is its NTT input); the field width bits (18
// or 20, by parameter set) is public.
var secrets = ctcheck.Args{Secret: []string{"f", "b", "y", "yHat"}, Public: []string{"bits"}}
