package main

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/internal/asmalign"
)

// The knobs. Each knob is a small string type whose values are the
// constants below, spelled as they appear in variant names; the isa knob
// is the *isa itself (isa.go) and align is asmalign's. variantName builds
// every name.

// regsKnob is the register allocation of an NTT.
type regsKnob string

const (
	regsAll   regsKnob = "all"   // the whole polynomial in registers
	regsMem   regsKnob = "mem"   // passes of register groups through memory
	regsSpill regsKnob = "spill" // one pass over the whole polynomial, more vectors than registers
)

// spillPolicy is the eviction policy of regs=spill: which resident vector
// goes back to memory when another must come in.
type spillPolicy string

const (
	spillNone spillPolicy = ""    // not regs=spill
	spillLRU  spillPolicy = "lru" // least recently used
	// spillMRU evicts the most recently used, which keeps a stable subset
	// resident across the layer sweeps that defeat LRU.
	spillMRU spillPolicy = "mru"
	// spillOpt is Belady's: the vector needed again last, from the pass's
	// known request sequence.
	spillOpt spillPolicy = "opt"
)

// shufKnob is the shuffle strategy of the layers whose stride is below a
// vector (see shuffleKinds).
type shufKnob string

const (
	shufUnpack shufKnob = "unpack" // VPUNPCKL/H chains
	shufBlend  shufKnob = "blend"  // shift+blend pairs
	shufPermt2 shufKnob = "permt2" // two-source VPERMI2W/D permutes (EVEX)
	shufVBMI   shufKnob = "vbmi"   // VPERMI2B byte permutes, VPERMB where only lanes move (AVX512_VBMI)
	shufShufps shufKnob = "shufps" // VSHUFPS pairs, VMOVSLDUP/VMOVSHDUP with blends
)

// twoSource reports whether the strategy's shuffles are two-source
// permutes, which can also restore the standard order in one pair per
// slot pair (restorePair).
func (s shufKnob) twoSource() bool { return s == shufPermt2 || s == shufVBMI }

// reorderKnob is when the shuffled order is undone.
type reorderKnob string

const (
	reorderUndo  reorderKnob = "undo"  // once per pass
	reorderAvoid reorderKnob = "avoid" // after every layer
)

// redKnob is the reduction placement.
type redKnob string

const (
	redLazy  redKnob = "lazy"  // only where a lane would overflow
	redEager redKnob = "eager" // every layer
	// redPre1 and redPre2 are lazy plus one reduction of every vector
	// beyond (-q, q) before the last one or two layers, which moves work
	// from the final reduction, where nothing overlaps it, into the
	// transform and shortens the final subtraction chain.
	redPre1 redKnob = "pre1"
	redPre2 redKnob = "pre2"
)

// preLayers is the number of last layers red=pre1/pre2 reduces before, 0
// for the other values.
func (r redKnob) preLayers() int {
	return map[redKnob]int{redPre1: 1, redPre2: 2}[r]
}

// canonKnob is how the last pass brings lanes into [0, q).
type canonKnob string

const (
	// canonDefault is, for 16-bit lanes, the chain of conditional
	// subtractions, else Barrett and a conditional addition.
	canonDefault canonKnob = ""
	// canonBarrett (16-bit lanes) is one Barrett reduction, then one
	// conditional subtraction.
	canonBarrett canonKnob = "barrett"
	// canonExact (the ML-KEM NTT) biases f[0] and f[1] by a multiple of q
	// that reaches every output, then divides exactly as unsigned lanes
	// (see arith.go).
	canonExact canonKnob = "exact"
	// canonMin is the default with its last correction by one unsigned
	// minimum (see canonMin).
	canonMin canonKnob = "min"
)

// zetaMul is the product of an NTT by the zetas.
type zetaMul string

const (
	zetaMont  zetaMul = ""      // Montgomery
	zetaShoup zetaMul = "shoup" // 32-bit lanes on avx2: Shoup's method (see shoupMul)
)

// schedKnob is the instruction order of a straight-line AVX2 transform
// (see package variants/internal/sched). The harness chains calls on one
// polynomial, so a call waits for the last stores of the one before: on
// Zen 3 sched=list measured faster than hoist for the ML-KEM NTT and
// neither helped its InvNTT, which is why both are knob values for the
// sweep to decide rather than the default.
type schedKnob string

const (
	schedBuilt schedKnob = ""     // as built, group by group and butterfly by butterfly
	schedList  schedKnob = "list" // list-scheduled on critical paths under the register budget
	// schedHoist is list-scheduled with the constant operands split into
	// loads the scheduler hoists.
	schedHoist schedKnob = "hoist"
)

// product is the MulNTT product.
type product string

const (
	prodKEM product = "" // ML-KEM: the base-case product, the only one
	// prodMont (ML-DSA) is two Montgomery products.
	prodMont product = "mont"
	// prodIFMA (ML-DSA) is Barrett: quotient by VPMADD52HUQ, remainder by
	// VPMULUDQ/VPSUBQ, lane moves by shifts and blends.
	prodIFMA product = "ifma"
	// prodIFMA2 (ML-DSA) is Barrett with both halves by IFMA: quotient
	// VPMADD52HUQ, remainder VPMADD52LUQ, lane moves by VPSHUFD or loads.
	prodIFMA2 product = "ifma2"
)

// oddLanes is how mul=ifma2 brings the odd lanes to the low dwords.
type oddLanes string

const (
	oddNone oddLanes = ""     // not mul=ifma2
	oddShuf oddLanes = "shuf" // VPSHUFD
	oddLoad oddLanes = "load" // a load from 4 bytes further on
)

// nttKnobs are the knobs of an NTT or InvNTT variant.
type nttKnobs struct {
	inverse bool
	isa     *isa
	regs    regsKnob
	spill   spillPolicy // regs=spill only
	// merge is, for regs=mem, the number of large-stride layers (index bits
	// at or above the lane bits) per pass over memory; 0 means the original
	// split, 3 (see mergeLayers).
	merge   int
	shuf    shufKnob
	reorder reorderKnob
	red     redKnob
	canon   canonKnob
	mul     zetaMul
	sched   schedKnob
	align   asmalign.Align
}

// mulKnobs are the knobs of a MulNTT variant.
type mulKnobs struct {
	isa    *isa
	mul    product  // prodKEM for ML-KEM
	odd    oddLanes // mul=ifma2 only
	unroll int      // vectors per loop iteration
	align  asmalign.Align
}

// mergeLayers is the number of large-stride layers per pass for regs=mem.
func (k nttKnobs) mergeLayers() int {
	if k.merge == 0 {
		return 3
	}
	return k.merge
}

// A knob is one key=value of a variant name; an optional one is left out
// of the name at its zero value (the empty string).
type knob struct {
	key, val string
	optional bool
}

func req(key, val string) knob { return knob{key: key, val: val} }
func opt(key, val string) knob { return knob{key: key, val: val, optional: true} }

// variantName is the one builder of variant names: the knobs in order,
// key=value, joined by "/". The names are keys of the generated tables,
// of result files and of dispatch tables, so they never change. Knobs
// added after a kernel's first sweeps are optional, left out at the value
// that the variants named before them have, so those names stay:
//
//   - NTT: merge (0, the original 3 layers per pass), spill (none unless
//     regs=spill), canon (canonDefault), mul (zetaMont), sched
//     (schedBuilt);
//   - MulNTT: mul (prodKEM: ML-KEM names never had it; every ML-DSA
//     product is named) and odd (none unless mul=ifma2).
func variantName(knobs ...knob) string {
	var parts []string
	for _, k := range knobs {
		if k.optional && k.val == "" {
			continue
		}
		parts = append(parts, k.key+"="+k.val)
	}
	return strings.Join(parts, "/")
}

// name is the NTT variant name, e.g.
// "isa=avx2/regs=mem/shuf=unpack/reorder=undo/red=lazy/canon=exact/sched=list/align=none".
func (k nttKnobs) name() string {
	merge := ""
	if k.merge != 0 {
		merge = fmt.Sprint(k.merge)
	}
	return variantName(req("isa", k.isa.name), req("regs", string(k.regs)), opt("merge", merge),
		opt("spill", string(k.spill)), req("shuf", string(k.shuf)), req("reorder", string(k.reorder)),
		req("red", string(k.red)), opt("canon", string(k.canon)), opt("mul", string(k.mul)),
		opt("sched", string(k.sched)), req("align", k.align.String()))
}

// name is the MulNTT variant name, e.g. "isa=avx512/mul=ifma2/odd=load/unroll=4/align=none"
// (ML-DSA) or "isa=avx2/unroll=2/align=64" (ML-KEM).
func (k mulKnobs) name() string {
	return variantName(req("isa", k.isa.name), opt("mul", string(k.mul)), opt("odd", string(k.odd)),
		req("unroll", fmt.Sprint(k.unroll)), req("align", k.align.String()))
}
