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
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/impltable"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

var (
	fieldName = flag.String("field", "kem", "field: kem (ML-KEM) or dsa (ML-DSA)")
	tableOut  = flag.String("table", "", "write the Go lab table (every variant) to this file")
	prodOut   = flag.String("prod", "", "write the Go production table (the variants the compiled dispatch table can select) to this file; required with -table")
)

// A fn is one generated function.
type fn struct {
	kernel, name, sym, loop string
	isa                     string // the isa knob value, the features' ceiling
	sweep                   bool
	binary                  bool
}

func main() {
	flag.Parse()
	if *tableOut != "" && *prodOut == "" {
		log.Fatal("ntt: -table needs -prod")
	}
	f := &kem
	if *fieldName == "dsa" {
		f = &dsa
	} else if *fieldName != "kem" {
		log.Fatalf("ntt: unknown field %q", *fieldName)
	}
	ConstraintExpr("!purego")
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
	c.emit()
	avogen.Generate()
	if err := ctcheck.Check(secrets); err != nil {
		log.Fatal(err)
	}
	if *tableOut != "" {
		if err := writeTable(*tableOut, *prodOut, f, fns); err != nil {
			log.Fatal(err)
		}
	}
	if err := ctcheck.Write(); err != nil {
		log.Fatal(err)
	}
}

// secrets classifies the generated functions' parameters for the
// constant-time check (-ct): every polynomial, input or output, is secret
// (secret keys, noise, messages go through the transforms).
var secrets = ctcheck.Args{Secret: []string{"f", "h", "a", "b"}}

// nttSpace is the NTT (or InvNTT) knob space: every enumerator's points.
// Constants are named after their contents, so the order of emission does
// not change any function's code.
func nttSpace(f *field, inverse bool) []nttKnobs {
	out := nttVariants(f, inverse)
	out = append(out, shufVariants(f, inverse)...)
	out = append(out, mergeVariants(f, inverse)...)
	out = append(out, spillVariants(f, inverse)...)
	if !inverse {
		out = append(out, canonVariants(f)...)
		out = append(out, preVariants(f)...)
	}
	out = append(out, schedVariants(f, inverse)...)
	return append(out, avx2AlignVariants(inverse)...)
}

// mulSpace is the MulNTT knob space.
func mulSpace(f *field) []mulKnobs {
	out := mulVariants(f)
	out = append(out, mulIFMA2Variants(f)...)
	return append(out, avx2MulAlignVariants(f)...)
}

func mustAlign(s string) asmalign.Align {
	a, err := asmalign.Parse(s)
	if err != nil {
		panic(err)
	}
	return a
}

// nttVariants enumerates the NTT (or InvNTT) knob space, excluding
// invalid combinations by rule:
//   - regs=all needs the polynomial plus temporaries in registers: at
//     most half of the architectural registers may hold it (AVX2's 16 ymm
//     cannot; AVX-512VL's 32 ymm can for ML-KEM's 16 vectors but not for
//     ML-DSA's 32; AVX-512's 32 zmm can for both);
//   - regs=mem is only distinct when the polynomial has more than 8
//     vectors;
//   - permt2 needs the EVEX two-source permutes (VPERMI2W needs AVX512BW,
//     on ymm also AVX512VL), so not avx2;
//   - avx512vl (ymm with 32 registers) only sweeps the shape knobs
//     (regs, shuf) at the base's reorder and red (undo, lazy).
func nttVariants(f *field, inverse bool) []nttKnobs {
	var out []nttKnobs
	for _, s := range []*isa{avx2, avx512, avx512vl} {
		g := newGen(f, s, nil)
		for _, regs := range []string{"all", "mem"} {
			if regs == "all" && 2*g.slots > s.regs || regs == "mem" && g.slots <= 8 {
				continue
			}
			for _, shuf := range []string{"unpack", "blend", "permt2"} {
				if shuf == "permt2" && !s.evex {
					continue
				}
				for _, reorder := range []string{"undo", "avoid"} {
					for _, red := range []string{"lazy", "eager"} {
						if s == avx512vl && (reorder != "undo" || red != "lazy") {
							continue
						}
						out = append(out, nttKnobs{inverse: inverse, isa: s, regs: regs, shuf: shuf,
							reorder: reorder, red: red, align: asmalign.None})
					}
				}
			}
		}
	}
	base := nttBase(f, inverse)
	for _, a := range alignSweep() {
		k := base
		k.align = a
		out = append(out, k)
	}
	return out
}

// shufVariants enumerates the shuffle strategies beyond unpack, blend and
// permt2 at the base knobs (regs=all where the polynomial fits in half the
// registers, else mem; reorder=undo, red=lazy, align=none), per isa:
//   - vbmi (VPERMI2B two-source byte permutes for the small-stride layers
//     and the final restore, VPERMB where only lanes move) needs the EVEX
//     encodings with AVX512_VBMI, so avx512 and avx512vl, not avx2;
//   - shufps (VSHUFPS pairs plus VMOVSLDUP/VMOVSHDUP with VPBLENDD, or
//     VPBLENDMD with EVEX) is AVX2-encodable and runs on every isa. Its
//     exchanges are 32-bit granular, which suffices for both fields: ML-DSA
//     has 32-bit lanes, and ML-KEM's only sub-dword index bit (bit 0, the
//     word within a dword) is never a butterfly bit (minLen = 2), so no
//     ML-KEM shufps variant needs excluding.
func shufVariants(f *field, inverse bool) []nttKnobs {
	var out []nttKnobs
	for _, s := range []*isa{avx2, avx512, avx512vl} {
		regs := baseRegs(f, s)
		for _, shuf := range []string{"vbmi", "shufps"} {
			if shuf == "vbmi" && !s.evex {
				continue
			}
			out = append(out, nttKnobs{inverse: inverse, isa: s, regs: regs, shuf: shuf,
				reorder: "undo", red: "lazy", align: asmalign.None})
		}
	}
	return out
}

// mergeVariants enumerates the merge knob (large-stride layers per pass
// over memory, see passes) beyond the original 3, for regs=mem at the base
// knobs (reorder=undo, red=lazy, align=none) with each isa's best shuffle
// (unpack on avx2; the field's nttBase shuffle with EVEX: blend for
// ML-KEM, permt2 for ML-DSA), excluding by rule:
//   - regs=mem only where it exists (more than 8 vectors);
//   - a group of 2^merge vectors plus temporaries must fit: at most half
//     of the architectural registers (merge=4 needs 32, so not avx2);
//   - merge below the register bits of the polynomial (log2 of its
//     vectors): otherwise it is one pass, the same code as regs=all.
func mergeVariants(f *field, inverse bool) []nttKnobs {
	var out []nttKnobs
	for _, s := range []*isa{avx2, avx512, avx512vl} {
		g := newGen(f, s, nil)
		if g.slots <= 8 {
			continue
		}
		shuf := "unpack"
		if s.evex {
			shuf = nttBase(f, inverse).shuf
		}
		for _, m := range []int{2, 4} {
			if 2<<m > s.regs || m >= 8-g.laneBits {
				continue
			}
			out = append(out, nttKnobs{inverse: inverse, isa: s, regs: "mem", merge: m, shuf: shuf,
				reorder: "undo", red: "lazy", align: asmalign.None})
		}
	}
	return out
}

// canonVariants enumerates canon=barrett for the ML-KEM NTT (whose last
// lanes span about ±8q, so the default chain is four conditional
// subtractions; InvNTT's last lanes come from Montgomery products in
// (-q, q), and ML-DSA's 32-bit lanes always use Barrett), per isa at its
// base knobs (avx2: regs=mem; EVEX: regs=all) with the unpack, blend and
// shufps shuffles (those the sweeps on the development host chose); none
// for ML-DSA.
func canonVariants(f *field) []nttKnobs {
	if f.ebits != 16 {
		return nil
	}
	var out []nttKnobs
	for _, s := range []*isa{avx2, avx512, avx512vl} {
		regs := baseRegs(f, s)
		for _, shuf := range []string{"unpack", "blend", "shufps"} {
			out = append(out, nttKnobs{isa: s, regs: regs, shuf: shuf, reorder: "undo", red: "lazy",
				canon: "barrett", align: asmalign.None})
		}
	}
	return out
}

// spillVariants enumerates regs=spill (the whole transform in one pass
// with more vectors than registers, a spill policy choosing which vector
// goes back to memory) where the polynomial does not fit: avx2 for both
// fields (ML-KEM's 16 and ML-DSA's 32 ymm against 16 registers, of which
// spillTemps stay free; avx512vl for ML-DSA's 32 ymm against 32), with
// the LRU, MRU and Belady (opt) policies, at reorder=undo, red=lazy, with
// the unpack and blend shuffles.
func spillVariants(f *field, inverse bool) []nttKnobs {
	var out []nttKnobs
	for _, s := range []*isa{avx2, avx512, avx512vl} {
		if baseRegs(f, s) == "all" {
			continue
		}
		for _, shuf := range []string{"unpack", "blend"} {
			for _, policy := range []string{"lru", "mru", "opt"} {
				out = append(out, nttKnobs{inverse: inverse, isa: s, regs: "spill", spill: policy, shuf: shuf,
					reorder: "undo", red: "lazy", align: asmalign.None})
			}
		}
	}
	return out
}

// preVariants enumerates red=pre1 and pre2 for the forward NTT of both
// fields (InvNTT's last products are Montgomery-bounded already) on every
// isa at its base register allocation, with the shufps shuffles (the
// default sweep's choice for ML-KEM) and, with EVEX, the field's nttBase
// shuffle.
func preVariants(f *field) []nttKnobs {
	var out []nttKnobs
	for _, s := range []*isa{avx2, avx512, avx512vl} {
		shufs := []string{"shufps"}
		if b := nttBase(f, false).shuf; s.evex && b != "shufps" {
			shufs = append(shufs, b)
		}
		for _, shuf := range shufs {
			for _, red := range []string{"pre1", "pre2"} {
				out = append(out, nttKnobs{isa: s, regs: baseRegs(f, s), shuf: shuf, reorder: "undo", red: red,
					align: asmalign.None})
			}
		}
	}
	return out
}

// baseRegs is the register allocation of the base knobs on isa s: "all"
// where the polynomial fits in half the registers, else "mem".
func baseRegs(f *field, s *isa) string {
	if 2*newGen(f, s, nil).slots > s.regs {
		return "mem"
	}
	return "all"
}

// nttBase is the best-known NTT variant per field, the base of the
// alignment and offset-sweep variants.
// (measured on Zen 4: shift+blend shuffles for ML-KEM, VPERMI2D for ML-DSA).
func nttBase(f *field, inverse bool) nttKnobs {
	shuf := "permt2"
	if f.ebits == 16 {
		shuf = "blend"
	}
	return nttKnobs{inverse: inverse, isa: avx512, regs: "all", shuf: shuf, reorder: "undo",
		red: "lazy", align: asmalign.None}
}

// schedVariants enumerates the knob values added for the AVX2 tier, on
// avx2 at red=lazy, align=none: the cheaper arithmetic of each kernel
// (ML-KEM NTT: canon=exact; InvNTT: canon=min; ML-DSA: canon=min with
// mul=shoup) alone and with sched=list and sched=hoist (see sched.go),
// plus sched=hoist with the arithmetic before it (ML-KEM NTT:
// canon=barrett; the others: canon=min alone) to separate the two
// effects, on regs=mem with the unpack, blend and shufps shuffles at
// reorder=undo (InvNTT also unpack and blend at reorder=avoid); and the
// arithmetic alone on regs=spill with unpack under the MRU and Belady
// policies (scheduling spill code measured slower on Zen 3).
func schedVariants(f *field, inverse bool) []nttKnobs {
	type base struct{ regs, spill, shuf, reorder string }
	bases := []base{{"mem", "", "unpack", "undo"}, {"mem", "", "blend", "undo"}, {"mem", "", "shufps", "undo"}}
	if inverse {
		bases = append(bases, base{"mem", "", "unpack", "avoid"}, base{"mem", "", "blend", "avoid"})
	}
	type arith struct{ canon, mul string }
	best, before := arith{"exact", ""}, arith{"barrett", ""}
	switch {
	case f.ebits == 16 && inverse:
		best, before = arith{"min", ""}, arith{"min", ""}
	case f.ebits == 32:
		best, before = arith{"min", "shoup"}, arith{"min", ""}
	}
	mk := func(b base, a arith, sched string) nttKnobs {
		return nttKnobs{inverse: inverse, isa: avx2, regs: b.regs, spill: b.spill, shuf: b.shuf,
			reorder: b.reorder, red: "lazy", canon: a.canon, mul: a.mul, sched: sched, align: asmalign.None}
	}
	var out []nttKnobs
	for _, b := range bases {
		for _, sched := range []string{"", "list", "hoist"} {
			out = append(out, mk(b, best, sched))
		}
		if before != best {
			out = append(out, mk(b, before, "hoist"))
		}
	}
	for _, policy := range []string{"mru", "opt"} {
		out = append(out, mk(base{"spill", policy, "unpack", "undo"}, best, ""))
	}
	return out
}

// avx2AlignVariants is the AVX2 base of the alignment and offset-sweep
// variants (regs=mem, unpack, undo, lazy), so that hosts without AVX-512
// have a base to sweep.
func avx2AlignVariants(inverse bool) []nttKnobs {
	var out []nttKnobs
	for _, a := range alignSweep() {
		out = append(out, nttKnobs{inverse: inverse, isa: avx2, regs: "mem", shuf: "unpack", reorder: "undo",
			red: "lazy", align: a})
	}
	return out
}

// avx2MulAlignVariants is the AVX2 MulNTT base of the alignment and
// offset-sweep variants (Montgomery, unroll 2).
func avx2MulAlignVariants(f *field) []mulKnobs {
	mul := ""
	if f.ebits == 32 {
		mul = "mont"
	}
	var out []mulKnobs
	for _, a := range alignSweep() {
		out = append(out, mulKnobs{isa: avx2, mul: mul, unroll: 2, align: a})
	}
	return out
}

// alignSweep lists 32, 64 and the offset sweep 64+4 .. 64+60.
func alignSweep() []asmalign.Align {
	out := []asmalign.Align{mustAlign("32"), mustAlign("64")}
	for n := 4; n < 64; n += 4 {
		out = append(out, asmalign.At(n))
	}
	return out
}

// mulVariants enumerates the MulNTT knob space; the IFMA product exists
// for ML-DSA with EVEX only (VPMADD52HUQ, on ymm with AVX512VL), and
// avx512vl sweeps unroll 1 and 2 only.
func mulVariants(f *field) []mulKnobs {
	var out []mulKnobs
	for _, s := range []*isa{avx2, avx512, avx512vl} {
		for _, mul := range []string{"mont", "ifma"} {
			if mul == "ifma" && (f.ebits == 16 || !s.evex) {
				continue
			}
			if f.ebits == 16 {
				mul = ""
			}
			for _, u := range []int{1, 2, 4} {
				if s == avx512vl && u > 2 {
					continue
				}
				out = append(out, mulKnobs{isa: s, mul: mul, unroll: u, align: asmalign.None})
			}
		}
	}
	base := ""
	if f.ebits == 32 {
		base = "ifma"
	}
	for _, a := range alignSweep() {
		out = append(out, mulKnobs{isa: avx512, mul: base, unroll: 2, align: a})
	}
	return out
}

// mulIFMA2Variants enumerates the ML-DSA MulNTT products with both
// Barrett halves by IFMA (mul=ifma2), on the EVEX isas, unroll 1, 2, 4
// (avx512vl: 1, 2; avx512 also 8 and 16), odd lanes by shuffle or load;
// none for ML-KEM.
func mulIFMA2Variants(f *field) []mulKnobs {
	var out []mulKnobs
	if f.ebits == 16 {
		return nil
	}
	for _, s := range []*isa{avx512, avx512vl} {
		for _, u := range []int{1, 2, 4} {
			if s == avx512vl && u > 2 {
				continue
			}
			for _, odd := range []string{"shuf", "load"} {
				out = append(out, mulKnobs{isa: s, mul: "ifma2", odd: odd, unroll: u, align: asmalign.None})
			}
		}
	}
	// Longer loops for zmm: 8 and 16 (the whole polynomial, a loop that
	// runs once).
	for _, u := range []int{8, 16} {
		for _, odd := range []string{"shuf", "load"} {
			out = append(out, mulKnobs{isa: avx512, mul: "ifma2", odd: odd, unroll: u, align: asmalign.None})
		}
	}
	return out
}

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

func emitMul(f *field, c *consts, k mulKnobs) fn {
	sym := symbol("mulntt", k.name(f))
	buildMul(newGen(f, k.isa, c), sym, k)
	return fn{kernel: f.pkg + ".mulntt", name: k.name(f), sym: sym, loop: "loop", isa: k.isa.name,
		sweep: k.align.Offset != 0, binary: true}
}

// writeTable writes the lab table (labPath: every function) and the
// production table (prodPath: what the compiled dispatch table can select)
// through impltable, with the CPU features avo derived from each
// function's instructions.
func writeTable(labPath, prodPath string, f *field, fns []fn) error {
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	file := impltable.File{
		Pkg:     f.pkg,
		PkgPath: "github.com/tunelab/tunelab/kernels/" + f.pkg,
		Command: "go run ../../variants/ntt " + strings.Join(os.Args[1:], " "),
	}
	unary := fmt.Sprintf("func(*[256]int%d)", f.ebits)
	binary := fmt.Sprintf("func(h, f, g *[256]int%d)", f.ebits)
	for _, l := range []impltable.List{
		{Kernel: f.pkg + ".ntt", Var: "asmNTT", Type: unary},
		{Kernel: f.pkg + ".invntt", Var: "asmInvNTT", Type: unary},
		{Kernel: f.pkg + ".mulntt", Var: "asmMulNTT", Type: binary},
	} {
		if l.Rows, err = tableRows(l.Kernel, fns, derived); err != nil {
			return err
		}
		file.Lists = append(file.Lists, l)
	}
	return file.Write(labPath, prodPath)
}

// tableRows returns the table rows of kernel's functions.
func tableRows(kernel string, fns []fn, derived isafeat.Funcs) ([]impltable.Row, error) {
	var rows []impltable.Row
	for _, x := range fns {
		if x.kernel != kernel {
			continue
		}
		feats, err := derived.Features(x.name, isafeat.Allowed(x.isa), x.sym)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", x.kernel, err)
		}
		rows = append(rows, impltable.Row{Name: x.name, Features: feats, Symbol: x.sym,
			LoopLabel: x.loop, OffsetSweep: x.sweep})
	}
	return rows, nil
}

func flagValue(name string) string {
	if fl := flag.Lookup(name); fl != nil {
		return fl.Value.String()
	}
	return ""
}
