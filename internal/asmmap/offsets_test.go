//go:build amd64 && !purego

package asmmap_test

import (
	"testing"

	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/all"
)

// TestRegisteredVariantPlacements locates the hot loop of every registered
// variant that names a symbol, a loop label and an align knob, and checks
// that the loop head sits where the knob asked: align=64+N at head%64 == N,
// align=16/32/64 at head%boundary == 0. It logs each placement and whether
// the loop body crosses a 64-byte line.
func TestRegisteredVariantPlacements(t *testing.T) {
	checked, crossing := 0, 0
	for _, k := range variant.Kernels() {
		for _, v := range variant.Variants(k.Name) {
			knob := v.Knob("align")
			if v.Symbol == "" || v.LoopLabel == "" || knob == "" {
				continue
			}
			if l := checkPlacement(t, v, knob); l != nil && l.LinesCrossed() > 0 {
				crossing++
			}
			checked++
		}
	}
	if checked == 0 {
		t.Skip("no registered variant has a symbol, a loop label and an align knob")
	}
	t.Logf("checked %d variants; %d loop bodies cross a 64-byte line (run tunelab mca or align for each one's head and size)", checked, crossing)
}

// checkPlacement locates v's loop and checks its head against the knob; it
// returns the loop, or nil when it could not be located.
func checkPlacement(t *testing.T, v *variant.Variant, knob string) *asmmap.Loop {
	t.Helper()
	a, err := asmalign.Parse(knob)
	if err != nil {
		t.Errorf("%s %s: align knob: %v", v.Kernel, v.Name, err)
		return nil
	}
	l, err := asmmap.Locate(v.Symbol, v.LoopLabel)
	if err != nil {
		t.Errorf("%s %s: locating loop %q of %s: %v", v.Kernel, v.Name, v.LoopLabel, v.Symbol, err)
		return nil
	}
	if a.Boundary != 0 && int(l.Head%uint64(a.Boundary)) != a.Offset {
		t.Errorf("%s %s: requested align=%s, achieved head %#x at offset %d mod %d (want %d); body %d bytes crosses %d line(s)",
			v.Kernel, v.Name, knob, l.Head, l.Head%uint64(a.Boundary), a.Boundary, a.Offset, l.Size(), l.LinesCrossed())
	}
	return l
}
