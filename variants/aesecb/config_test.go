package main

import (
	"regexp"
	"strings"
	"testing"
)

var nameChars = regexp.MustCompile(`^[a-z0-9=+/._-]+$`)

// TestSpace checks the knob space: unique, well-formed names and symbols,
// register budgets, and the offset sweep of an existing base variant.
func TestSpace(t *testing.T) {
	symbols := map[string]bool{}
	for _, bits := range []int{128, 192, 256} {
		for _, dec := range []bool{false, true} {
			names := map[string]bool{}
			sweep := 0
			for _, c := range space(bits, dec) {
				n := c.name()
				if names[n] || symbols[c.symbol()] {
					t.Errorf("%s: duplicate variant %s (%s)", c.kernel(), n, c.symbol())
				}
				names[n], symbols[c.symbol()] = true, true
				if !nameChars.MatchString(n) || !strings.HasPrefix(n, "isa=") || !strings.Contains(n, "/align=") {
					t.Errorf("%s: malformed name %q", c.kernel(), n)
				}
				if !c.feasible() {
					t.Errorf("%s %s: %d state + key registers exceed %d", c.kernel(), n, c.inflight, c.isa.regs)
				}
				if c.sweep {
					sweep++
					if c.align.Boundary != 64 || c.align.Offset == 0 || c.align.Offset%4 != 0 {
						t.Errorf("%s %s: sweep member not at 64+4k", c.kernel(), n)
					}
				}
			}
			if want := 15 * len(sweepISAs); sweep != want {
				t.Errorf("aes%d dec=%v: %d offset-sweep variants, want %d (64+4..64+60 per base)", bits, dec, sweep, want)
			}
			for _, is := range sweepISAs {
				base := defaultKnobs(config{bits: bits, dec: dec, isa: is, inflight: 4})
				base.align.Boundary = 64
				if !names[base.name()] {
					t.Errorf("aes%d dec=%v: sweep base %s is not generated at align=64", bits, dec, base.name())
				}
			}
		}
	}
}
