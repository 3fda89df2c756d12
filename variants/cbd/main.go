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
//	go run ../../../variants/cbd -out cbd_amd64.s -stubs zcbd_stubs_amd64.go -pkg polysample -table zcbd_variants_amd64.go -prod zcbd_prod_amd64.go -ct ../../../lab/ct/zstatic_cbd.go
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
	unrolls                        map[string][]int
	build                          func(g *gen, u int)
}

var kernels = []kernel{
	{"mlkem.cbd2", "cbd2", "asmCBD2", "func(f *[256]int16, b *[128]byte)",
		map[string][]int{"avx2": {1, 2, 4}, "avx512": {1, 2, 4}}, buildCBD2},
	{"mlkem.cbd3", "cbd3", "asmCBD3", "func(f *[256]int16, b *[192]byte)",
		map[string][]int{"avx2": {1, 2}, "avx512": {1, 2}}, buildCBD3},
	{"mldsa.expandmask", "expandmask", "asmExpandMask", "func(y, yHat *[256]int32, b []byte, bits int)",
		map[string][]int{"avx2": {1, 2}, "avx512": {1, 2}}, buildExpandMask},
}

// A fn is one generated function.
type fn struct {
	kernel, name, sym, isa string
}

func main() {
	flag.Parse()
	if *tableOut != "" && *prodOut == "" {
		log.Fatal("cbd: -table needs -prod")
	}
	ConstraintExpr("!purego")
	c := vecgen.NewConsts("cbdconst")
	var fns []fn
	for _, k := range kernels {
		for _, s := range []*vecgen.ISA{vecgen.AVX2, vecgen.AVX512} {
			for _, u := range k.unrolls[s.Name] {
				sym := fmt.Sprintf("%s_%s_%d", k.prefix, s.Name, u)
				TEXT(sym, NOSPLIT, k.goType)
				Pragma("noescape")
				k.build(&gen{isa: s, c: c}, u)
				fns = append(fns, fn{kernel: k.name, name: fmt.Sprintf("isa=%s/unroll=%d", s.Name, u), sym: sym, isa: s.Name})
			}
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

// secrets classifies the samplers' parameters for the constant-time check
// (-ct): the PRF output and the coefficients are secret (CBD samples the
// secret vectors s, e and the encryption noise; ExpandMask samples the
// signing mask y, from which ŷ is its NTT input); the field width bits (18
// or 20, by parameter set) is public.
var secrets = ctcheck.Args{Secret: []string{"f", "b", "y", "yHat"}, Public: []string{"bits"}}

// writeTables writes the lab and production tables of every kernel.
func writeTables(labPath, prodPath string, fns []fn) error {
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	file := impltable.File{Pkg: "polysample", PkgPath: "github.com/tunelab/tunelab/kernels/internal/polysample",
		Command: "go run ../../../variants/cbd " + strings.Join(os.Args[1:], " ")}
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
			l.Rows = append(l.Rows, impltable.Row{Name: x.name, Features: feats, Symbol: x.sym, LoopLabel: "loop"})
		}
		file.Lists = append(file.Lists, l)
	}
	return file.Write(labPath, prodPath)
}
