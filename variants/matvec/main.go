// Command matvec generates the NTT-domain row products of ML-DSA (-scheme
// dsa, for kernels/mldsa) and ML-KEM (-scheme kem, for kernels/mlkem) with
// avo (ML-KEM's: see kem.go). mldsa.matvec sets acc to Σ_{j<l} a[j] ∘ v[j],
// canonical, for a row a of the matrix Â and a vector v of l polynomials,
// each stored contiguously — the inner loop of Â·NTT(y) (signing), of
// Â·NTT(s1) (key generation) and of Â·NTT(z) (verification).
//
// Instead of one MulNTT per term (each a Montgomery product, a product by
// R² and a canonicalization) and lazy sums in Go, it multiplies with
// VPMULDQ (even and odd lanes, 46-bit products), sums the l products of
// a coefficient in 64 bits (below 7·q² < 2^49 < q·2^31), reduces the sum
// once (Montgomery: sum·2^−32 in (−q, q)), multiplies by R² = 2^64 mod q
// in Montgomery form to undo the 2^−32 (Shoup's trick: a VPMULLD by
// R²·q⁻¹ for the quotient) and canonicalizes. The knobs are the tier
// (ymm, 8 lanes; zmm, 16 lanes) and the vectors per loop iteration.
//
//	go run ../../variants/matvec -scheme dsa -out matvec_amd64.s -stubs zmatvec_stubs_amd64.go -pkg mldsa -table zmatvec_variants_amd64.go -prod zmatvec_prod_amd64.go -ct ../../lab/ct/zstatic_matvec_mldsa.go
package main

import (
	"flag"

	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

var scheme = flag.String("scheme", "dsa", "dsa (mldsa.matvec) or kem (mlkem.mulcache, mlkem.matvec)")

// dsaMatVec is mldsa.matvec.
var dsaMatVec = famgen.Kernel{Name: "mldsa.matvec", Prefix: "matvec", Var: "asmMatVec",
	Type: "func(acc, a, v *[256]int32, l int)", LoopLabel: "loop"}

func main() {
	flag.Parse() // for -scheme
	if *scheme == "kem" {
		famgen.Run(famgen.Family{Command: "matvec", PkgPath: "github.com/tunelab/tunelab/kernels/mlkem",
			Consts: "kemmatvecconst", Secrets: secrets, Build: buildKEM})
		return
	}
	famgen.Run(famgen.Family{Command: "matvec", PkgPath: "github.com/tunelab/tunelab/kernels/mldsa",
		Consts: "matvecconst", Secrets: secrets, Build: buildDSA})
}

// secrets classifies the row products' parameters for the constant-time
// check (-ct): the accumulator and both factors are secret (a row of Â is
// public, but the same argument carries ŝ in ML-KEM's decryption, and the
// vectors are ŝ1, ŷ, ŝ, ŷ or their multiplication caches); the vector
// length (l, k) and the stride of a row are public.
var secrets = ctcheck.Args{Secret: []string{"acc", "a", "v", "c", "b"}, Public: []string{"l", "k", "stride"}}

// buildDSA builds mldsa.matvec's variants: per tier, per unroll.
func buildDSA(b *famgen.Builder) {
	b.Unrolls(dsaMatVec, map[string][]int{"avx2": {1, 2}, "avx512": {1, 2}},
		func(s *vecgen.ISA, u int) { build(&gen{b.Gen(s)}, u) })
}
