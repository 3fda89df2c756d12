package main

// The knob space: nttSpace and mulSpace list every variant the generator
// emits, as the union of enumerators, each a sweep of some knobs around a
// base with its exclusion rules in its doc comment.

import (
	"github.com/tunelab/tunelab/internal/asmalign"
)

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
		for _, regs := range []regsKnob{regsAll, regsMem} {
			if regs == regsAll && 2*g.slots > s.regs || regs == regsMem && g.slots <= 8 {
				continue
			}
			for _, shuf := range []shufKnob{shufUnpack, shufBlend, shufPermt2} {
				if shuf == shufPermt2 && !s.evex {
					continue
				}
				for _, reorder := range []reorderKnob{reorderUndo, reorderAvoid} {
					for _, red := range []redKnob{redLazy, redEager} {
						if s == avx512vl && (reorder != reorderUndo || red != redLazy) {
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
		for _, shuf := range []shufKnob{shufVBMI, shufShufps} {
			if shuf == shufVBMI && !s.evex {
				continue
			}
			out = append(out, nttKnobs{inverse: inverse, isa: s, regs: regs, shuf: shuf,
				reorder: reorderUndo, red: redLazy, align: asmalign.None})
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
		shuf := shufUnpack
		if s.evex {
			shuf = nttBase(f, inverse).shuf
		}
		for _, m := range []int{2, 4} {
			if 2<<m > s.regs || m >= 8-g.laneBits {
				continue
			}
			out = append(out, nttKnobs{inverse: inverse, isa: s, regs: regsMem, merge: m, shuf: shuf,
				reorder: reorderUndo, red: redLazy, align: asmalign.None})
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
		for _, shuf := range []shufKnob{shufUnpack, shufBlend, shufShufps} {
			out = append(out, nttKnobs{isa: s, regs: regs, shuf: shuf, reorder: reorderUndo, red: redLazy,
				canon: canonBarrett, align: asmalign.None})
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
		if baseRegs(f, s) == regsAll {
			continue
		}
		for _, shuf := range []shufKnob{shufUnpack, shufBlend} {
			for _, policy := range []spillPolicy{spillLRU, spillMRU, spillOpt} {
				out = append(out, nttKnobs{inverse: inverse, isa: s, regs: regsSpill, spill: policy, shuf: shuf,
					reorder: reorderUndo, red: redLazy, align: asmalign.None})
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
		shufs := []shufKnob{shufShufps}
		if b := nttBase(f, false).shuf; s.evex && b != shufShufps {
			shufs = append(shufs, b)
		}
		for _, shuf := range shufs {
			for _, red := range []redKnob{redPre1, redPre2} {
				out = append(out, nttKnobs{isa: s, regs: baseRegs(f, s), shuf: shuf, reorder: reorderUndo, red: red,
					align: asmalign.None})
			}
		}
	}
	return out
}

// baseRegs is the register allocation of the base knobs on isa s: all
// where the polynomial fits in half the registers, else mem.
func baseRegs(f *field, s *isa) regsKnob {
	if 2*newGen(f, s, nil).slots > s.regs {
		return regsMem
	}
	return regsAll
}

// nttBase is the best-known NTT variant per field, the base of the
// alignment and offset-sweep variants.
// (measured on Zen 4: shift+blend shuffles for ML-KEM, VPERMI2D for ML-DSA).
func nttBase(f *field, inverse bool) nttKnobs {
	shuf := shufPermt2
	if f.ebits == 16 {
		shuf = shufBlend
	}
	return nttKnobs{inverse: inverse, isa: avx512, regs: regsAll, shuf: shuf, reorder: reorderUndo,
		red: redLazy, align: asmalign.None}
}

// schedVariants enumerates the knob values added for the AVX2 tier, on
// avx2 at red=lazy, align=none: the cheaper arithmetic of each kernel
// (ML-KEM NTT: canon=exact; InvNTT: canon=min; ML-DSA: canon=min with
// mul=shoup) alone and with sched=list and sched=hoist (see schedKnob),
// plus sched=hoist with the arithmetic before it (ML-KEM NTT:
// canon=barrett; the others: canon=min alone) to separate the two
// effects, on regs=mem with the unpack, blend and shufps shuffles at
// reorder=undo (InvNTT also unpack and blend at reorder=avoid); and the
// arithmetic alone on regs=spill with unpack under the MRU and Belady
// policies (scheduling spill code measured slower on Zen 3).
func schedVariants(f *field, inverse bool) []nttKnobs {
	type base struct {
		regs    regsKnob
		spill   spillPolicy
		shuf    shufKnob
		reorder reorderKnob
	}
	bases := []base{{regsMem, spillNone, shufUnpack, reorderUndo}, {regsMem, spillNone, shufBlend, reorderUndo},
		{regsMem, spillNone, shufShufps, reorderUndo}}
	if inverse {
		bases = append(bases, base{regsMem, spillNone, shufUnpack, reorderAvoid},
			base{regsMem, spillNone, shufBlend, reorderAvoid})
	}
	type arith struct {
		canon canonKnob
		mul   zetaMul
	}
	best, before := arith{canonExact, zetaMont}, arith{canonBarrett, zetaMont}
	switch {
	case f.ebits == 16 && inverse:
		best, before = arith{canonMin, zetaMont}, arith{canonMin, zetaMont}
	case f.ebits == 32:
		best, before = arith{canonMin, zetaShoup}, arith{canonMin, zetaMont}
	}
	mk := func(b base, a arith, order schedKnob) nttKnobs {
		return nttKnobs{inverse: inverse, isa: avx2, regs: b.regs, spill: b.spill, shuf: b.shuf,
			reorder: b.reorder, red: redLazy, canon: a.canon, mul: a.mul, sched: order, align: asmalign.None}
	}
	var out []nttKnobs
	for _, b := range bases {
		for _, order := range []schedKnob{schedBuilt, schedList, schedHoist} {
			out = append(out, mk(b, best, order))
		}
		if before != best {
			out = append(out, mk(b, before, schedHoist))
		}
	}
	for _, policy := range []spillPolicy{spillMRU, spillOpt} {
		out = append(out, mk(base{regsSpill, policy, shufUnpack, reorderUndo}, best, schedBuilt))
	}
	return out
}

// avx2AlignVariants is the AVX2 base of the alignment and offset-sweep
// variants (regs=mem, unpack, undo, lazy), so that hosts without AVX-512
// have a base to sweep.
func avx2AlignVariants(inverse bool) []nttKnobs {
	var out []nttKnobs
	for _, a := range alignSweep() {
		out = append(out, nttKnobs{inverse: inverse, isa: avx2, regs: regsMem, shuf: shufUnpack, reorder: reorderUndo,
			red: redLazy, align: a})
	}
	return out
}

// avx2MulAlignVariants is the AVX2 MulNTT base of the alignment and
// offset-sweep variants (Montgomery, unroll 2).
func avx2MulAlignVariants(f *field) []mulKnobs {
	mul := prodKEM
	if f.ebits == 32 {
		mul = prodMont
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
		for _, mul := range []product{prodMont, prodIFMA} {
			if mul == prodIFMA && (f.ebits == 16 || !s.evex) {
				continue
			}
			if f.ebits == 16 {
				mul = prodKEM
			}
			for _, u := range []int{1, 2, 4} {
				if s == avx512vl && u > 2 {
					continue
				}
				out = append(out, mulKnobs{isa: s, mul: mul, unroll: u, align: asmalign.None})
			}
		}
	}
	base := prodKEM
	if f.ebits == 32 {
		base = prodIFMA
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
			for _, odd := range []oddLanes{oddShuf, oddLoad} {
				out = append(out, mulKnobs{isa: s, mul: prodIFMA2, odd: odd, unroll: u, align: asmalign.None})
			}
		}
	}
	// Longer loops for zmm: 8 and 16 (the whole polynomial, a loop that
	// runs once).
	for _, u := range []int{8, 16} {
		for _, odd := range []oddLanes{oddShuf, oddLoad} {
			out = append(out, mulKnobs{isa: avx512, mul: prodIFMA2, odd: odd, unroll: u, align: asmalign.None})
		}
	}
	return out
}
