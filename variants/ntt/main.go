// Command ntt generates the ML-KEM and ML-DSA NTT kernels (NTT, InvNTT,
// MulNTT) for one field from one description (modulus, lane width, root of
// unity, Montgomery constants), over a space of knobs: vector width
// (AVX2 ymm, AVX-512VL ymm with 32 registers, AVX-512 zmm), register
// allocation (whole polynomial in registers; passes of 8-register groups
// through memory, with 2, 3 or 4 large-stride layers merged per pass; or
// one pass that spills, under an LRU, MRU or Belady spill policy), the
// shuffle strategy of the layers whose stride is below a vector (unpack
// chains, shift+blend pairs, two-source VPERMI2W/D permutes, VBMI byte
// permutes VPERMI2B/VPERMB, VSHUFPS/VPBLENDD pairs), whether the shuffled
// order is undone once per pass or after every layer, reduction placement
// (lazy: only where a lane could overflow, decided from per-coefficient
// interval bounds; eager: every layer; pre1/pre2: lazy plus one reduction
// of everything before the last one or two layers), the final reduction
// (subtraction chain, Barrett, exact division of lanes biased by a
// multiple of q, or a last correction by unsigned minimum), the product
// by the zetas (Montgomery, or Shoup's for 32-bit lanes), the instruction
// order of straight-line AVX2 code (as built, or list-scheduled with the
// registers assigned by linear scan, constant operands kept or hoisted
// into loads), the MulNTT product (Montgomery, IFMA Barrett, or IFMA
// quotient and remainder with the odd lanes by shuffle or offset load,
// unrolled 1 to 16) and alignment of the code.
//
// It writes the assembly and stubs (through avo) and, through impltable,
// the Go tables of the variants for kernels/variant registration: the lab
// table (-table, every variant) and the production table (-prod, the
// variants the compiled dispatch table can select):
//
//	go run ../../variants/ntt -field kem -out mlkem_amd64.s -stubs zstubs_amd64.go -pkg mlkem -table zvariants_amd64.go -prod zprod_amd64.go
//
// The files, by concern:
//
//   - main.go: flags, main, emitting one function per knob point;
//   - knobs.go: the knob types and values, and variantName, the one
//     builder of variant names;
//   - space.go: the knob space, as enumerators with their exclusion rules;
//   - table.go: the lab and production tables;
//   - field.go, consts.go, isa.go, arith.go: the field, the constant
//     table, the vector code generator and its arithmetic;
//   - ntt.go, layout.go, shuffles.go, spill.go: the NTT and InvNTT
//     (passes, groups, butterflies, reductions), the index-bit layout and
//     shuffle planning, the shuffle strategies, regs=spill;
//   - mul.go: MulNTT.
//
// The instruction order of sched=list and sched=hoist is the pass of
// package variants/internal/sched.
package main

import (
	"flag"
	"fmt"
	"log"
	"strings"

	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
)

var fieldName = flag.String("field", "kem", "field: kem (ML-KEM) or dsa (ML-DSA)")

// A fn is one generated function, a row of the tables (see tableRows).
type fn struct {
	kernel, name, sym, loop string
	isa                     string // the isa knob value, the features' ceiling
	sweep                   bool
	binary                  bool
}

// main emits every NTT, InvNTT and MulNTT variant of the field, the
// constants and, through avogen, the assembly and stubs; it runs the
// constant-time check and writes the tables.
func main() {
	flag.Parse() // for -field
	f := &kem
	if *fieldName == "dsa" {
		f = &dsa
	} else if *fieldName != "kem" {
		log.Fatalf("ntt: unknown field %q", *fieldName)
	}
	famgen.Generate(famgen.Generator[[]fn]{Name: "ntt", Secrets: secrets,
		Build:  func() []fn { return build(f) },
		Tables: func(lab, prod string, fns []fn) error { return writeTable(lab, prod, f, fns) },
	})
}

// build emits every function of field f and their constants; it returns
// the table rows.
func build(f *field) []fn {
	c := newConsts("nttconst")
	var fns []fn
	for _, inverse := range []bool{false, true} {
		for _, k := range nttSpace(f, inverse) {
			fns = append(fns, emitNTT(f, c, k))
		}
	}
	for _, k := range mulSpace(f) {
		fns = append(fns, emitMul(f, c, k))
	}
	c.Emit()
	return fns
}

// secrets classifies the generated functions' parameters for the
// constant-time check (-ct): every polynomial, input or output, is secret
// (secret keys, noise, messages go through the transforms).
var secrets = ctcheck.Args{Secret: []string{"f", "h", "a", "b"}}

// symbol turns a kernel and variant name into an assembly function name.
func symbol(prefix, name string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, kv := range strings.Split(name, "/") {
		_, v, _ := strings.Cut(kv, "=")
		v = strings.NewReplacer("+", "p").Replace(v)
		b.WriteString("_" + v)
	}
	return b.String()
}

// emitNTT builds one NTT or InvNTT function and returns its table entry.
func emitNTT(f *field, c *consts, k nttKnobs) fn {
	kernel, prefix := f.pkg+".ntt", "ntt"
	if k.inverse {
		kernel, prefix = f.pkg+".invntt", "invntt"
	}
	sym := symbol(prefix, k.name())
	buildNTT(newGen(f, k.isa, c), sym, k)
	loop := ""
	if k.align != asmalign.None {
		loop = "body"
	}
	return fn{kernel: kernel, name: k.name(), sym: sym, loop: loop, isa: k.isa.name,
		sweep: k.align.Offset != 0}
}

// emitMul builds one MulNTT function and returns its table entry.
func emitMul(f *field, c *consts, k mulKnobs) fn {
	if (f.ebits == 16) != (k.mul == prodKEM) {
		// the name leaves mul out exactly for ML-KEM (see variantName)
		panic(fmt.Sprintf("%s: mul=%q on %s", k.name(), k.mul, f.name))
	}
	sym := symbol("mulntt", k.name())
	buildMul(newGen(f, k.isa, c), sym, k)
	return fn{kernel: f.pkg + ".mulntt", name: k.name(), sym: sym, loop: "loop", isa: k.isa.name,
		sweep: k.align.Offset != 0, binary: true}
}
