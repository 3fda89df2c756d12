// Command pack generates the bit-packing kernels of ML-KEM and ML-DSA
// for kernels/internal/polypack with avo:
//
//   - mlkem.encode12 / mlkem.decode12: ByteEncode_12 / ByteDecode_12
//     (FIPS 203 Algorithms 5, 6), decode with the modulus check of 7.2;
//   - mlkem.compress / mlkem.decompress: ByteEncode_d(Compress_d(f)) and
//     Decompress_d(ByteDecode_d(b)) for d = 1, 4, 5, 10, 11 (4.2.1);
//   - mldsa.pack / mldsa.unpack: BitPack / BitUnpack of base − sgn·w in
//     3, 4, 10 or 13 bits (FIPS 204 Algorithms 16-19: η, t1, t0).
//
// Every path is straight-line code for one width (the width parameter
// chooses the path; it is public). Packing merges neighbours in three
// steps, each doubling the bits per lane: word pairs to dwords with
// VPMADDWD by (1, 2^w), dword pairs to qwords by a masked shift, qword
// pairs to the 128-bit lane across its halves; a lane then holds 8w bits,
// stored exactly (8-, 4-, 2- and 1-byte pieces) on AVX2, or compacted
// with VPERMB and stored under a byte mask on AVX-512. Unpacking gathers
// the three bytes of each field into a dword (VPSHUFB of two overlapping
// 16-byte loads, which near the end of the input start earlier so that
// nothing beyond it is read; VPERMB of a masked load on AVX-512), shifts
// each by its bit offset (VPSRLVD) and masks it. Compress_d computes
// ⌊(x·2^d + 1664)/q⌋ mod 2^d exactly by a 64-bit multiply-high
// (VPMULUDQ by ⌈2^35/q⌉ on even and odd lanes).
//
// The knob is the tier; the code is fully unrolled over the polynomial.
//
//	go run ../../../variants/pack -out pack_amd64.s -stubs zstubs_amd64.go -pkg polypack -table zvariants_amd64.go -prod zprod_amd64.go -ct ../../../lab/ct/zstatic_pack.go -bounds ../../../lab/bounds/zstatic_pack.go
package main

import (
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// A kernel is one generated kernel and its builder.
type kernel struct {
	famgen.Kernel
	build func(g *gen)
}

var kernels = []kernel{
	{famgen.Kernel{Name: "mlkem.encode12", Prefix: "encode12", Var: "asmEncode12", Type: "func(dst *[384]byte, f *[256]int16)"}, buildEncode12},
	{famgen.Kernel{Name: "mlkem.decode12", Prefix: "decode12", Var: "asmDecode12", Type: "func(f *[256]int16, src *[384]byte) uint32"}, buildDecode12},
	{famgen.Kernel{Name: "mlkem.compress", Prefix: "compress", Var: "asmCompress", Type: "func(dst []byte, f *[256]int16, d int)"}, buildCompress},
	{famgen.Kernel{Name: "mlkem.decompress", Prefix: "decompress", Var: "asmDecompress", Type: "func(f *[256]int16, src []byte, d int)"}, buildDecompress},
	{famgen.Kernel{Name: "mldsa.pack", Prefix: "dsapack", Var: "asmPack", Type: "func(dst []byte, w *[256]int32, bits int, base, sgn int32)"}, buildPack},
	{famgen.Kernel{Name: "mldsa.unpack", Prefix: "dsaunpack", Var: "asmUnpack", Type: "func(w *[256]int32, src []byte, bits int, base, sgn int32)"}, buildUnpack},
}

func main() {
	famgen.Run(famgen.Family{Command: "pack", PkgPath: "github.com/tunelab/tunelab/kernels/internal/polypack",
		Consts: "packconst", Secrets: secrets, Build: build})
}

// build builds every kernel's variants: one per tier (no loop, so no loop
// label).
func build(b *famgen.Builder) {
	for _, k := range kernels {
		b.Tiers(k.Kernel, func(s *vecgen.ISA) { k.build(&gen{b.Gen(s)}) })
	}
}

// secrets classifies the kernels' parameters for the constant-time check
// (-ct): the polynomials and their encodings are secret (ŝ of the
// decapsulation key, the message and the ciphertext's u and v before
// compression, s1, s2 and t0 of a signing key); the width (d, bits) and
// the encoding's offset and sign (base, sgn), fixed by the parameter set
// and the field being packed, are public.
var secrets = ctcheck.Args{Secret: []string{"dst", "f", "src", "w"}, Public: []string{"d", "bits", "base", "sgn"}}
