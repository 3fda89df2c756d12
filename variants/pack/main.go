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
//	go run ../../../variants/pack -out pack_amd64.s -stubs zstubs_amd64.go -pkg polypack -table zvariants_amd64.go -prod zprod_amd64.go -ct ../../../lab/ct/zstatic_pack.go
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

var (
	tableOut = flag.String("table", "", "write the Go lab table (every variant) to this file")
	prodOut  = flag.String("prod", "", "write the Go production table (the variants the compiled dispatch table can select) to this file; required with -table")
)

// A kernel is one generated kernel.
type kernel struct {
	name, prefix, tableVar, goType string
	build                          func(g *gen)
}

var kernels = []kernel{
	{"mlkem.encode12", "encode12", "asmEncode12", "func(dst *[384]byte, f *[256]int16)", buildEncode12},
	{"mlkem.decode12", "decode12", "asmDecode12", "func(f *[256]int16, src *[384]byte) uint32", buildDecode12},
	{"mlkem.compress", "compress", "asmCompress", "func(dst []byte, f *[256]int16, d int)", buildCompress},
	{"mlkem.decompress", "decompress", "asmDecompress", "func(f *[256]int16, src []byte, d int)", buildDecompress},
	{"mldsa.pack", "dsapack", "asmPack", "func(dst []byte, w *[256]int32, bits int, base, sgn int32)", buildPack},
	{"mldsa.unpack", "dsaunpack", "asmUnpack", "func(w *[256]int32, src []byte, bits int, base, sgn int32)", buildUnpack},
}

// A fn is one generated function.
type fn struct {
	kernel, name, sym, isa string
}

func main() {
	flag.Parse()
	if *tableOut != "" && *prodOut == "" {
		log.Fatal("pack: -table needs -prod")
	}
	ConstraintExpr("!purego")
	c := vecgen.NewConsts("packconst")
	var fns []fn
	for _, k := range kernels {
		for _, s := range []*vecgen.ISA{vecgen.AVX2, vecgen.AVX512} {
			sym := k.prefix + "_" + s.Name
			TEXT(sym, NOSPLIT, k.goType)
			Pragma("noescape")
			k.build(&gen{isa: s, c: c})
			fns = append(fns, fn{kernel: k.name, name: "isa=" + s.Name, sym: sym, isa: s.Name})
		}
	}
	c.Emit()
	avogen.Generate()
	if err := ctcheck.Check(secrets); err != nil {
		log.Fatal(err)
	}
	if *tableOut != "" {
		if err := writeTables(*tableOut, *prodOut, fns); err != nil {
			log.Fatal(err)
		}
	}
	if err := ctcheck.Write(); err != nil {
		log.Fatal(err)
	}
}

// secrets classifies the kernels' parameters for the constant-time check
// (-ct): the polynomials and their encodings are secret (ŝ of the
// decapsulation key, the message and the ciphertext's u and v before
// compression, s1, s2 and t0 of a signing key); the width (d, bits) and
// the encoding's offset and sign (base, sgn), fixed by the parameter set
// and the field being packed, are public.
var secrets = ctcheck.Args{Secret: []string{"dst", "f", "src", "w"}, Public: []string{"d", "bits", "base", "sgn"}}

// writeTables writes the lab and production tables of every kernel.
func writeTables(labPath, prodPath string, fns []fn) error {
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	file := impltable.File{Pkg: "polypack", PkgPath: "github.com/tunelab/tunelab/kernels/internal/polypack",
		Command: "go run ../../../variants/pack " + strings.Join(os.Args[1:], " ")}
	for _, k := range kernels {
		l := impltable.List{Kernel: k.name, Var: k.tableVar, Type: k.goType}
		for _, x := range fns {
			if x.kernel != k.name {
				continue
			}
			feats, err := derived.Features(x.name, isafeat.Allowed(x.isa), x.sym)
			if err != nil {
				return fmt.Errorf("%s: %w", k.name, err)
			}
			l.Rows = append(l.Rows, impltable.Row{Name: x.name, Features: feats, Symbol: x.sym})
		}
		file.Lists = append(file.Lists, l)
	}
	return file.Write(labPath, prodPath)
}
