package main

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/asmalign"
)

// TestSpace checks the knob space: unique names and symbols, the exclusion
// rules hold for every generated variant, and each kernel has its base
// variants, one per ISA tier, each with a 15-member offset sweep.
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
		if v.isa == "avx2" && (v.regs != "spill" || v.rot != "shiftor" && !avx2Rot(v.rot) || v.chi != "andnxor") {
			t.Errorf("%s: AVX2 variant with AVX-512-only knobs", key)
		}
		if avx2Rot(v.rot) && v.isa != "avx2" {
			t.Errorf("%s: AVX2 rotation knob on %s", key, v.isa)
		}
		if v.load != "" && v.regs != "spill" {
			t.Errorf("%s: load knob without a spilled state", key)
		}
		if v.regs == "all" && v.isa == "avx2" {
			t.Errorf("%s: 25 lanes in 16 registers", key)
		}
		if (v.nr == 8) != (v.isa == "avx512f" && v.layout != "rows" || v.isa == "avx2" && v.group != "") {
			t.Errorf("%s: NR=8 must be exactly the zmm lane-sliced and the grouped AVX2 variants", key)
		}
		if (v.group != "") != (v.nr == 8 && v.isa == "avx2") {
			t.Errorf("%s: group knob outside AVX2 NR=8", key)
		}
	}
	for _, nr := range []int{1, 2, 4, 8} {
		tiers := map[string]bool{}
		for _, base := range bases(nr) {
			if !names[base.kernel()+" "+base.name()] || !base.valid() {
				t.Errorf("keccak.x%d: base variant %s not generated", nr, base.name())
			}
			none := base
			none.align = asmalign.None
			if !names[none.kernel()+" "+none.name()] {
				t.Errorf("keccak.x%d: base variant %s has no align=none sibling", nr, base.name())
			}
			tiers[base.isa] = true
		}
		want := []string{"avx2", "avx512"}
		if nr == 1 {
			want[0] = "scalar"
		}
		if !tiers[want[0]] || !tiers[want[1]+"vl"] && !tiers[want[1]+"f"] {
			t.Errorf("keccak.x%d: offset-sweep bases cover ISAs %v, want %s and AVX-512", nr, tiers, want[0])
		}
		if n := 15 * len(bases(nr)); sweeps[nr] != n {
			t.Errorf("keccak.x%d: %d offset-sweep variants, want %d", nr, sweeps[nr], n)
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
		{variant{nr: 8, isa: "avx2", rot: "shiftor", chi: "andnxor", regs: "spill", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 8, isa: "avx2", rot: "shiftor", chi: "andnxor", regs: "spill", group: "interleave", unroll: 2, xpose: "unpack", align: a64}, true},
		{variant{nr: 8, isa: "avx2", rot: "shiftor", chi: "andnxor", regs: "spill", group: "seq", unroll: 1, xpose: "unpack", align: asmalign.None}, true},
		{variant{nr: 4, isa: "avx2", rot: "shiftor", chi: "andnxor", regs: "spill", group: "seq", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 8, isa: "avx512f", rot: "prol", chi: "ternlog", regs: "all", group: "interleave", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 8, isa: "avx512vl", rot: "prol", chi: "ternlog", regs: "all", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 4, isa: "avx2", rot: "shufb", chi: "andnxor", regs: "spill", unroll: 2, xpose: "unpack", align: a64}, true},
		{variant{nr: 2, isa: "avx2", rot: "shufb+add", chi: "andnxor", regs: "spill", unroll: 1, xpose: "unpack", align: a64}, true},
		{variant{nr: 8, isa: "avx2", rot: "shufb+add", chi: "andnxor", regs: "spill", group: "seq", unroll: 2, xpose: "unpack", align: a64}, true},
		{variant{nr: 4, isa: "avx2", rot: "shufb", chi: "andnxor", regs: "spill", unroll: 24, xpose: "unpack", align: a64}, false},
		{variant{nr: 4, isa: "avx2", rot: "shufb", chi: "andnxor", regs: "spill", unroll: 2, xpose: "gather", align: a64}, false},
		{variant{nr: 4, isa: "avx2", rot: "shufb", chi: "andnxor", regs: "spill", unroll: 2, xpose: "unpack", align: asmalign.None}, false},
		{variant{nr: 4, isa: "avx512vl", rot: "shufb", chi: "ternlog", regs: "all", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 4, isa: "avx2", rot: "shufb", chi: "andnxor", regs: "spill", load: "split", unroll: 1, xpose: "unpack", align: a64}, true},
		{variant{nr: 8, isa: "avx2", rot: "shiftor", chi: "andnxor", regs: "spill", load: "split", group: "interleave", unroll: 2, xpose: "unpack", align: a64}, true},
		{variant{nr: 4, isa: "avx2", rot: "shufb", chi: "andnxor", regs: "spill", load: "split", unroll: 4, xpose: "unpack", align: a64}, false},
		{variant{nr: 4, isa: "avx512vl", rot: "prol", chi: "ternlog", regs: "spill", load: "split", unroll: 2, xpose: "unpack", align: a64}, true},
		{variant{nr: 4, isa: "avx512vl", rot: "prol", chi: "ternlog", regs: "spill", load: "split", unroll: 1, xpose: "unpack", align: a64}, false},
		{variant{nr: 4, isa: "avx512vl", rot: "prol", chi: "ternlog", regs: "all", load: "split", unroll: 2, xpose: "unpack", align: a64}, false},
		{variant{nr: 1, isa: "scalar", comp: "off", rot: "rorx", chi: "andn", unroll: 2, align: a64}, true},
		{variant{nr: 1, isa: "scalar", comp: "on", rot: "rorx", chi: "andn", unroll: 2, align: a64}, false},
		{variant{nr: 1, isa: "scalar", comp: "off", rot: "rorx", chi: "andn", unroll: 2, align: asmalign.None}, false},
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

// TestByteRotMasks checks the VPSHUFB masks against a byte-wise rotation
// of every 64-bit lane of a 32-byte vector.
func TestByteRotMasks(t *testing.T) {
	for _, n := range []int{8, 56} {
		var in, want, got [32]byte
		for i := range in {
			in[i] = byte(3*i + 1)
		}
		for q := 0; q < 4; q++ {
			v := binary.LittleEndian.Uint64(in[8*q:])
			binary.LittleEndian.PutUint64(want[8*q:], bits.RotateLeft64(v, n))
		}
		for i := range got {
			idx := byteRotIndex(n, i)
			if idx > 15 {
				t.Fatalf("rotation by %d: mask byte %d = %d, beyond a 128-bit block", n, i, idx)
			}
			got[i] = in[16*(i/16)+idx] // VPSHUFB: index within byte i's 128-bit block
		}
		if got != want {
			t.Errorf("rotation by %d: shuffled %x, want %x", n, got, want)
		}
	}
}

// TestAbsorbSpace checks that every single-state variant but the
// offset-sweep copies gets one absorb function, with a symbol of its own.
func TestAbsorbSpace(t *testing.T) {
	vs := space()
	symbols := map[string]bool{}
	for _, v := range vs {
		symbols[v.symbol()] = true
	}
	want := 0
	for _, v := range vs {
		if v.nr == 1 && !v.sweep {
			want++
		}
	}
	abs := absorbSpace(vs)
	if len(abs) != want || want == 0 {
		t.Errorf("%d absorb functions, want %d (one per non-sweep keccak.x1 variant)", len(abs), want)
	}
	for _, v := range abs {
		sym := absorbSymbol(v)
		if v.nr != 1 || v.sweep {
			t.Errorf("%s %s: absorb function of a multi-state or offset-sweep variant", v.kernel(), v.name())
		}
		if symbols[sym] || !strings.HasPrefix(sym, "absorbX1_") {
			t.Errorf("%s %s: absorb symbol %q duplicated or misnamed", v.kernel(), v.name(), sym)
		}
		symbols[sym] = true
	}
}
