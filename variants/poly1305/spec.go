package main

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/internal/asmalign"
)

// A spec is one generated variant: its knob values, the assembly function
// implementing it and what kernels/poly1305 needs to register and call it.
type spec struct {
	isa    string // scalar, avx2, avx512f, avx512ifma
	radix  int    // 64, 26 or 44
	mul    string // scalar only: mulq or mulx
	red    string // scalar only: "" (4-word product, then reduced) or fused (see mulFused)
	blocks int    // blocks per loop iteration
	pow    string // vector only: powers of r in memory (mem) or registers (reg)
	carry  string // vector only: seq or ilv
	sched  string // AVX2 radix 2^26 only: "" (the acc products, then each message vector's, all with memory operands), late or comp (see body26late, body26comp)
	split  string // with sched: message limbs from VPUNPCK{L,H}QDQ words (unpck) or also a blended middle word (mid), see splitVector
	tail   string // vector only: leftover blocks and short inputs by the scalar code (scalar), masked vectors (vector), or leftover 4-block vectors by a one-vector loop (vec4)
	align  asmalign.Align
	sweep  bool // offset-sweep member (align=64+N)

	lanes int   // vector lanes (blocks per vector)
	order []int // vector lane q holds block order[q] of a vector's blocks
}

// name is the variant name: knobs in the fixed order isa, radix, mul,
// red, lanes, blocks, pow, carry, sched, split, tail, align; red, sched
// and split only where set, so that the variants before them keep their
// names.
func (s *spec) name() string {
	parts := []string{"isa=" + s.isa, fmt.Sprintf("radix=%d", s.radix)}
	if s.mul != "" {
		parts = append(parts, "mul="+s.mul)
	}
	if s.red != "" {
		parts = append(parts, "red="+s.red)
	}
	if s.lanes != 0 {
		parts = append(parts, fmt.Sprintf("lanes=%d", s.lanes))
	}
	parts = append(parts, fmt.Sprintf("blocks=%d", s.blocks))
	if s.carry != "" {
		parts = append(parts, "pow="+s.pow, "carry="+s.carry)
		if s.sched != "" {
			parts = append(parts, "sched="+s.sched, "split="+s.split)
		}
		parts = append(parts, "tail="+s.tail)
	}
	parts = append(parts, "align="+s.align.String())
	return strings.Join(parts, "/")
}

// fn is the assembly function name derived from the knobs.
func (s *spec) fn() string {
	a := strings.NewReplacer("+", "p").Replace(s.align.String())
	switch {
	case s.isa == "scalar" && s.red != "":
		return fmt.Sprintf("blocks_scalar_%s_%s_b%d_a%s", s.mul, s.red, s.blocks, a)
	case s.isa == "scalar":
		return fmt.Sprintf("blocks_scalar_%s_b%d_a%s", s.mul, s.blocks, a)
	case s.sched != "":
		return fmt.Sprintf("blocks_%s_r%d_l%d_b%d_p%s_%s_%s_%s_t%s_a%s", s.isa, s.radix, s.lanes, s.blocks, s.pow, s.carry, s.sched, s.split, s.tail, a)
	default:
		return fmt.Sprintf("blocks_%s_r%d_l%d_b%d_p%s_%s_t%s_a%s", s.isa, s.radix, s.lanes, s.blocks, s.pow, s.carry, s.tail, a)
	}
}

// unroll is the number of vectors of message blocks per loop iteration.
func (s *spec) unroll() int { return s.blocks / s.lanes }

func (s *spec) generate() {
	if s.isa == "scalar" {
		genScalar(s)
		genScalarSum(s)
		return
	}
	genVector(s)
}

var aligns = []asmalign.Align{asmalign.None, asmalign.At(0)}

// scalarSpecs lists the scalar variants: the 4-word product then its
// reduction, and red=fused, each with MULQ or MULXQ, 1 or 4 blocks per
// iteration and both alignments. Variant 0, the one every vector variant's
// short inputs and tails run, stays the plain MULQ one.
func scalarSpecs() []spec {
	var out []spec
	for _, red := range []string{"", "fused"} {
		for _, mul := range []string{"mulq", "mulx"} {
			for _, b := range []int{1, 4} {
				for _, a := range aligns {
					out = append(out, spec{isa: "scalar", radix: 64, mul: mul, red: red, blocks: b, align: a})
				}
			}
		}
	}
	return out
}

// vectorSpecs lists the vector variants plus the offset sweeps of one base
// variant per ISA tier.
func vectorSpecs() []spec {
	var out []spec
	type isaSpec struct {
		isa     string
		radix   int
		lanes   int
		blocks  []int
		pows    []string
		carries []string
	}
	isas := []isaSpec{
		{"avx2", 26, 4, []int{4, 8, 16}, []string{"mem"}, []string{"seq", "ilv"}},
		{"avx512f", 26, 8, []int{8, 16}, []string{"mem"}, []string{"seq", "ilv"}},
		{"avx512ifma", 44, 4, []int{4, 8}, []string{"mem", "reg"}, []string{"seq"}},
		{"avx512ifma", 44, 8, []int{8, 16}, []string{"mem", "reg"}, []string{"seq"}},
	}
	for _, is := range isas {
		for _, b := range is.blocks {
			for _, pw := range is.pows {
				for _, c := range is.carries {
					for _, a := range aligns {
						out = append(out, spec{isa: is.isa, radix: is.radix, blocks: b, pow: pw, carry: c,
							tail: "scalar", align: a, lanes: is.lanes, order: laneOrder(is.lanes)})
					}
				}
			}
		}
	}
	for _, l := range []int{4, 8} {
		for _, b := range []int{2 * l, l} {
			for _, a := range aligns {
				out = append(out, spec{isa: "avx512ifma", radix: 44, blocks: b, pow: "reg", carry: "seq",
					tail: "vector", align: a, lanes: l, order: laneOrder(l)})
			}
		}
	}
	out = append(out, schedSpecs()...)
	// One offset-sweep base per tier: IFMA for AVX-512 hosts, radix 2^26
	// AVX2 (the Zen 4 AVX2 sweep's fastest at 16 KiB) for the others.
	bases := []spec{
		{isa: "avx512ifma", radix: 44, blocks: 16, pow: "reg", carry: "seq", tail: "scalar", lanes: 8},
		{isa: "avx2", radix: 26, blocks: 16, pow: "mem", carry: "ilv", tail: "scalar", lanes: 4},
	}
	for _, b := range bases {
		for off := 4; off < 64; off += 4 {
			s := b
			s.align, s.sweep, s.order = asmalign.At(off), true, laneOrder(b.lanes)
			out = append(out, s)
		}
	}
	return out
}

// laneOrder is the block order that VPUNPCK{L,H}QDQ of two loads produces:
// within each 128-bit lane k the first load's block k, then the second
// load's block k (lanes/2 + k).
func laneOrder(lanes int) []int {
	half := lanes / 2
	out := make([]int, lanes)
	for k := 0; k < half; k++ {
		out[2*k] = k
		out[2*k+1] = half + k
	}
	return out
}

// schedSpecs lists the AVX2 variants with a sched knob (both add the
// unmultiplied vector in loose limbs, see addLoose): sched=late (message
// products streamed limb by limb, the loop-carried acc products last) and
// sched=comp (acc products first, every product set by power component),
// over blocks per iteration (32: 9 powers in the table, one carry per 32
// blocks), message split, carry chain and alignment; after the last whole
// iteration they run the 4-block vectors left one at a time (tail=vec4),
// the scalar code only the last 0..3 blocks.
func schedSpecs() []spec {
	var out []spec
	for _, b := range []int{16, 32} {
		for _, sc := range []string{"late", "comp"} {
			for _, sp := range []string{"unpck", "mid"} {
				for _, c := range []string{"seq", "ilv"} {
					for _, a := range aligns {
						out = append(out, spec{isa: "avx2", radix: 26, blocks: b, pow: "mem", carry: c, sched: sc, split: sp,
							tail: "vec4", align: a, lanes: 4, order: laneOrder(4)})
					}
				}
			}
		}
	}
	return out
}
