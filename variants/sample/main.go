// Command sample generates the rejection samplers of ML-KEM and ML-DSA
// for kernels/internal/polysample with avo: each consumes a buffer of
// XOF output (a SHAKE block as the batch squeezes it) and appends the
// accepted candidates to a polynomial, as the generic code there does:
//
//   - mlkem.rejntt: SampleNTT's 12-bit candidates (FIPS 203 Algorithm 7),
//     kept if below q = 3329, into int16 coefficients;
//   - mldsa.rejntt: RejNTTPoly's 23-bit candidates (FIPS 204 Algorithm
//     30, CoeffFromThreeBytes), kept if below q = 8380417;
//   - mldsa.rejeta: RejBoundedPoly's half-byte candidates (Algorithm 31,
//     CoeffFromHalfByte) for η = 2 or 4, whose values are secret.
//
// AVX2 variants decode a group of candidates with one byte shuffle, mask
// the accepted ones with a compare and compact them with a shuffle whose
// pattern a table indexed by the acceptance mask gives (VPERMD for 32-bit
// lanes, VPSHUFB for 16-bit lanes and bytes); AVX-512 variants decode
// with VPERMB (VBMI) or VPERMD+VPSHUFB, compare into an opmask and compact
// with VPCOMPRESSD/W/B (VBMI2 for W and B), into a register then stored
// whole (compress=reg) or straight to memory (compress=mem). A short
// last group is loaded under a byte mask; what the vector loop leaves
// (near a full polynomial) goes through a scalar tail. Only which
// candidates are rejected steers branches and table indices, never an
// accepted value: the spec's rejection loop reveals that pattern anyway.
//
// It writes the assembly and stubs (through avo) and, through impltable,
// the lab table (-table) and the production table (-prod):
//
//	go run ../../../variants/sample -out sample_amd64.s -stubs zstubs_amd64.go -pkg polysample -table zvariants_amd64.go -prod zprod_amd64.go -ct ../../../lab/ct/zstatic_sample.go
package main

import (
	"fmt"

	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// knobs are one variant's knob values.
type knobs struct {
	isa      *vecgen.ISA
	unroll   int    // avx2: groups per loop iteration
	gather   string // avx512 mldsa.rejntt: "vbmi" (VPERMB) or "permd" (VPERMD + VPSHUFB)
	compress string // avx512: "reg" or "mem"
}

func (k knobs) name() string {
	if !k.isa.EVEX() {
		return fmt.Sprintf("isa=avx2/unroll=%d", k.unroll)
	}
	if k.gather != "" {
		return fmt.Sprintf("isa=avx512/gather=%s/compress=%s", k.gather, k.compress)
	}
	return fmt.Sprintf("isa=avx512/compress=%s", k.compress)
}

func (k knobs) suffix() string {
	if !k.isa.EVEX() {
		return fmt.Sprintf("avx2_%d", k.unroll)
	}
	if k.gather != "" {
		return "avx512_" + k.gather + "_" + k.compress
	}
	return "avx512_" + k.compress
}

// A kernel is one generated kernel, its variants' knobs and its builder.
type kernel struct {
	famgen.Kernel
	space []knobs
	build func(g *gen, k knobs)
}

var (
	avx2Space = []knobs{{isa: vecgen.AVX2, unroll: 1}, {isa: vecgen.AVX2, unroll: 2}}
	regMem    = []knobs{{isa: vecgen.AVX512, compress: "reg"}, {isa: vecgen.AVX512, compress: "mem"}}
)

var kernels = []kernel{
	{famgen.Kernel{Name: "mlkem.rejntt", Prefix: "rej12", Var: "asmRejNTT12", Type: "func(f *[256]int16, j int, buf []byte) int", LoopLabel: "loop"},
		append(append([]knobs{}, avx2Space...), regMem...), buildRej12},
	{famgen.Kernel{Name: "mldsa.rejntt", Prefix: "rej23", Var: "asmRejNTT23", Type: "func(a *[256]int32, j int, buf []byte) int", LoopLabel: "loop"},
		append(append([]knobs{}, avx2Space...),
			knobs{isa: vecgen.AVX512, gather: "vbmi", compress: "reg"}, knobs{isa: vecgen.AVX512, gather: "vbmi", compress: "mem"},
			knobs{isa: vecgen.AVX512, gather: "permd", compress: "reg"}, knobs{isa: vecgen.AVX512, gather: "permd", compress: "mem"}),
		buildRej23},
	{famgen.Kernel{Name: "mldsa.rejeta", Prefix: "rejeta", Var: "asmRejEta", Type: "func(s *[256]int32, j int, prf []byte, eta int32) int", LoopLabel: "loop"},
		append(append([]knobs{}, avx2Space...), knobs{isa: vecgen.AVX512, compress: "reg"}), buildRejEta},
}

func main() {
	famgen.Run(famgen.Family{Command: "sample", PkgPath: "github.com/tunelab/tunelab/kernels/internal/polysample",
		Consts: "sampleconst", Secrets: secrets, Build: build})
}

// build builds every kernel's variants, one per knobs of its space.
func build(b *famgen.Builder) {
	for _, k := range kernels {
		for _, kn := range k.space {
			g := &gen{b.Gen(kn.isa)}
			b.Func(k.Kernel, kn.isa, kn.name(), kn.suffix())
			k.build(g, kn)
		}
	}
}

// secrets classifies the samplers' parameters for the constant-time check
// (-ct). The uniform samplers' polynomials (f, a) and XOF output (buf)
// are public: SampleNTT and RejNTTPoly expand the matrix Â from the
// public seed ρ. mldsa.rejeta's polynomial (s) and PRF output (prf) are
// secret: they are s1 and s2. The count j and η are public.
var secrets = ctcheck.Args{Secret: []string{"s", "prf"}, Public: []string{"f", "a", "buf", "j", "eta"}}
