package main

import (
	"fmt"
	"testing"
)

// TestVariantNames checks variantName against the name formats the
// generator had before it (the names are keys of generated tables, result
// files and dispatch tables): for every point of both fields' knob
// spaces, the name is the one the old per-kernel formats give, and no two
// points share a name.
func TestVariantNames(t *testing.T) {
	for _, f := range []*field{&kem, &dsa} {
		seen := map[string]bool{}
		for _, inverse := range []bool{false, true} {
			for _, k := range nttSpace(f, inverse) {
				if got, want := k.name(), oldNTTName(k); got != want {
					t.Errorf("%s: name %q, want %q", f.name, got, want)
				}
				key := fmt.Sprint(inverse, k.name())
				if seen[key] {
					t.Errorf("%s: name %q twice", f.name, k.name())
				}
				seen[key] = true
			}
		}
		for _, k := range mulSpace(f) {
			if got, want := k.name(), oldMulName(f, k); got != want {
				t.Errorf("%s: name %q, want %q", f.name, got, want)
			}
			if seen[k.name()] {
				t.Errorf("%s: name %q twice", f.name, k.name())
			}
			seen[k.name()] = true
		}
	}
}

// oldNTTName is the NTT name format before variantName.
func oldNTTName(k nttKnobs) string {
	alloc, canon := "", ""
	if k.merge != 0 {
		alloc = fmt.Sprintf("/merge=%d", k.merge)
	}
	if k.spill != "" {
		alloc += "/spill=" + string(k.spill)
	}
	if k.canon != "" {
		canon = "/canon=" + string(k.canon)
	}
	if k.mul != "" {
		canon += "/mul=" + string(k.mul)
	}
	if k.sched != "" {
		canon += "/sched=" + string(k.sched)
	}
	return fmt.Sprintf("isa=%s/regs=%s%s/shuf=%s/reorder=%s/red=%s%s/align=%s",
		k.isa.name, k.regs, alloc, k.shuf, k.reorder, k.red, canon, k.align)
}

// oldMulName is the MulNTT name format before variantName.
func oldMulName(f *field, k mulKnobs) string {
	if f.ebits == 16 {
		return fmt.Sprintf("isa=%s/unroll=%d/align=%s", k.isa.name, k.unroll, k.align)
	}
	odd := ""
	if k.odd != "" {
		odd = "/odd=" + string(k.odd)
	}
	return fmt.Sprintf("isa=%s/mul=%s%s/unroll=%d/align=%s", k.isa.name, k.mul, odd, k.unroll, k.align)
}
