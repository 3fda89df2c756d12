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
	blocks int    // blocks per loop iteration
	pow    string // vector only: powers of r in memory (mem) or registers (reg)
	carry  string // vector only: seq or ilv
	tail   string // vector only: leftover blocks and short inputs by the scalar code or masked vectors
	align  asmalign.Align
	sweep  bool // offset-sweep member (align=64+N)

	lanes int   // vector lanes (blocks per vector)
	order []int // vector lane q holds block order[q] of a vector's blocks
}

// name is the variant name: knobs in the fixed order isa, radix, mul,
// lanes, blocks, pow, carry, tail, align.
func (s *spec) name() string {
	parts := []string{"isa=" + s.isa, fmt.Sprintf("radix=%d", s.radix)}
	if s.mul != "" {
		parts = append(parts, "mul="+s.mul)
	}
	if s.lanes != 0 {
		parts = append(parts, fmt.Sprintf("lanes=%d", s.lanes))
	}
	parts = append(parts, fmt.Sprintf("blocks=%d", s.blocks))
	if s.carry != "" {
		parts = append(parts, "pow="+s.pow, "carry="+s.carry, "tail="+s.tail)
	}
	parts = append(parts, "align="+s.align.String())
	return strings.Join(parts, "/")
}

// fn is the assembly function name derived from the knobs.
func (s *spec) fn() string {
	a := strings.NewReplacer("+", "p").Replace(s.align.String())
	switch s.isa {
	case "scalar":
		return fmt.Sprintf("blocks_scalar_%s_b%d_a%s", s.mul, s.blocks, a)
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

func scalarSpecs() []spec {
	var out []spec
	for _, mul := range []string{"mulq", "mulx"} {
		for _, b := range []int{1, 4} {
			for _, a := range aligns {
				out = append(out, spec{isa: "scalar", radix: 64, mul: mul, blocks: b, align: a})
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
