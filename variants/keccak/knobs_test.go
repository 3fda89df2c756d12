package main

import (
	"fmt"
	"testing"

	"github.com/tunelab/tunelab/variants/asmalign"
)

// TestSpace checks the knob space: unique names and symbols, the exclusion
// rules hold for every generated variant, and each kernel has its base
// variant and a 15-member offset sweep.
func TestSpace(t *testing.T) {
	names, symbols := map[string]bool{}, map[string]bool{}
	sweeps := map[int]int{}
	for _, v := range space() {
		key := v.kernel() + " " + v.name()
		if names[key] || symbols[v.symbol()] {
			t.Errorf("duplicate variant %s (symbol %s)", key, v.symbol())
		}
		names[key], symbols[v.symbol()] = true, true
		if v.sweep {
			sweeps[v.nr]++
			continue
		}
		if !v.valid() {
			t.Errorf("%s: generated but invalid", key)
		}
		if v.isa == "avx2" && (v.regs != "spill" || v.rot != "shiftor" || v.chi != "andnxor") {
			t.Errorf("%s: AVX2 variant with AVX-512-only knobs", key)
		}
		if v.regs == "all" && v.isa == "avx2" {
			t.Errorf("%s: 25 lanes in 16 registers", key)
		}
		if (v.nr == 8) != (v.isa == "avx512f" && v.layout != "rows") {
			t.Errorf("%s: NR=8 must be exactly the zmm lane-sliced variants", key)
		}
	}
	for _, nr := range []int{1, 2, 4, 8} {
		base := baseVariant(nr)
		if !names[base.kernel()+" "+base.name()] {
			t.Errorf("keccak.x%d: base variant %s not generated", nr, base.name())
		}
		if sweeps[nr] != 15 {
			t.Errorf("keccak.x%d: %d offset-sweep variants, want 15", nr, sweeps[nr])
		}
	}
}

// TestRules spot-checks exclusions by rule.
func TestRules(t *testing.T) {
	a64 := asmalign.At(0)
	cases := []struct {
		v    variant
		want bool
	}{
		{variant{nr: 4, isa: "avx2", rot: "prol", chi: "andnxor", regs: "spill", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 4, isa: "avx2", rot: "shiftor", chi: "andnxor", regs: "all", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 4, isa: "avx2", rot: "shiftor", chi: "andnxor", regs: "spill", unroll: 2, xpose: "unpack", align: a64}, true},
		{variant{nr: 4, isa: "avx512f", rot: "prol", chi: "ternlog", regs: "all", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 8, isa: "avx512f", rot: "prol", chi: "ternlog", regs: "all", unroll: 24, xpose: "unpack", align: a64}, true},
		{variant{nr: 8, isa: "avx512f", rot: "shiftor", chi: "ternlog", regs: "all", unroll: 4, xpose: "unpack", align: a64}, false},
		{variant{nr: 1, isa: "avx512vl", layout: "lanes", rot: "prol", chi: "ternlog", regs: "spill", unroll: 2, align: a64}, false},
	}
	for _, c := range cases {
		if got := c.v.valid(); got != c.want {
			t.Errorf("%s %s: valid = %v, want %v", c.v.kernel(), c.v.name(), got, c.want)
		}
	}
}

// TestConstants checks the generator's constants against known values.
func TestConstants(t *testing.T) {
	if rc[0] != 1 || rc[1] != 0x8082 || rc[23] != 0x8000000080008008 {
		t.Errorf("round constants %#x %#x ... %#x", rc[0], rc[1], rc[23])
	}
	want := "[0 1 62 28 27 36 44 6 55 20 3 10 43 25 39 41 45 15 21 8 18 2 61 56 14]"
	if got := fmt.Sprint(rho); got != want {
		t.Errorf("rho = %s, want %s", got, want)
	}
	seen := map[int]bool{}
	for i := 0; i < 25; i++ {
		seen[piDest(i)] = true
		x, y := piDest(i)%5, piDest(i)/5
		if piSource(x, y) != i {
			t.Errorf("piSource(piDest(%d)) = %d", i, piSource(x, y))
		}
	}
	if len(seen) != 25 {
		t.Errorf("pi is not a permutation")
	}
}
