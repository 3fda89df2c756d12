package main

import (
	"bytes"
	"fmt"
)

// A shape is the power-table layout of a vector variant; variants of one
// shape share a generated, straight-line fill function.
type shape struct {
	radix, lanes, unroll int
	compact              bool // pow=reg layout, see loadPowers
}

func (s *spec) shape() shape { return shape{s.radix, s.lanes, s.unroll(), s.pow == "reg"} }

func (sh shape) fn() string {
	c := ""
	if sh.compact {
		c = "_compact"
	}
	return fmt.Sprintf("fill_r%d_l%d_u%d%s", sh.radix, sh.lanes, sh.unroll, c)
}

// words is the table size in words.
func (sh shape) words() int {
	nl := 5
	if sh.radix == 44 {
		nl = 3
	}
	if sh.compact {
		return (sh.unroll + sh.lanes) * nl
	}
	return (sh.unroll + 1) * (2*nl - 1) * sh.lanes
}

// shapes returns the distinct shapes of the vector specs in first-use order.
func shapes(specs []spec) []shape {
	var out []shape
	seen := map[shape]bool{}
	for i := range specs {
		if specs[i].isa == "scalar" || seen[specs[i].shape()] {
			continue
		}
		seen[specs[i].shape()] = true
		out = append(out, specs[i].shape())
	}
	return out
}

// writeFill writes the straight-line fill function of shape s; each set's
// file holds those of its shapes (setShapes), which its FillTable switch
// (writeFillSwitch) calls. The
// layout is the one vecGen reads: entry 0 = r^(L·u), entry e in 1..u-1 =
// r^(L·(u-e)) in every lane, entry u = r^(L-order[q]) in lane q; per entry
// the limbs, then the wrap multiples of limbs 1..n-1, each an L-lane
// vector.
func writeFill(b *bytes.Buffer, s shape) {
	nl, wrap := 5, 5
	if s.radix == 44 {
		nl, wrap = 3, 20
	}
	L, u := s.lanes, s.unroll
	order := laneOrder(L)
	words := s.words()
	fmt.Fprintf(b, "// %s fills the %d-word table of radix 2^%d, %d lanes, %d vectors per iteration.\n",
		s.fn(), words, s.radix, L, u)
	fmt.Fprintf(b, "func %s(tab []uint64, r *[2]uint64) {\n_ = tab[%d]\n", s.fn(), words-1)
	fmt.Fprintf(b, "var l [%d][5]uint64\npoly1305core.Powers%d(l[:], r)\n", L*u+1, s.radix)
	if s.compact {
		writeCompact(b, s, nl, order)
		return
	}
	i := 0
	for e := 0; e <= u; e++ {
		for c := 0; c < 2*nl-1; c++ {
			for q := 0; q < L; q++ {
				exp := L * (u - e)
				if e == 0 {
					exp = L * u
				} else if e == u {
					exp = L - order[q]
				}
				if c < nl {
					fmt.Fprintf(b, "tab[%d] = l[%d][%d]\n", i, exp, c)
				} else {
					fmt.Fprintf(b, "tab[%d] = %d * l[%d][%d]\n", i, wrap, exp, c-nl+1)
				}
				i++
			}
		}
	}
	b.WriteString("}\n\n")
}

// writeCompact writes the pow=reg layout: entries 0..u-1 as nl words each
// (r^(L·u), then r^(L·(u-e))), then the lane powers as nl vectors of L
// words (lane q: r^(L-order[q])); the variant computes wrap multiples.
func writeCompact(b *bytes.Buffer, s shape, nl int, order []int) {
	L, u := s.lanes, s.unroll
	i := 0
	for e := 0; e < u; e++ {
		exp := L * (u - e)
		if e == 0 {
			exp = L * u
		}
		for c := 0; c < nl; c++ {
			fmt.Fprintf(b, "tab[%d] = l[%d][%d]\n", i, exp, c)
			i++
		}
	}
	for c := 0; c < nl; c++ {
		for q := 0; q < L; q++ {
			fmt.Fprintf(b, "tab[%d] = l[%d][%d]\n", i, L-order[q], c)
			i++
		}
	}
	b.WriteString("}\n\n")
}
