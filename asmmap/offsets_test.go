//go:build amd64 && !purego

package asmmap_test

import (
	"testing"

	"github.com/tunelab/tunelab/asmmap"
	_ "github.com/tunelab/tunelab/kernels/all"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/variants/asmalign"
)

// TestRegisteredVariantPlacements locates the hot loop of every registered
// variant that names a symbol, a loop label and an align knob, and checks
// that the loop head sits where the knob asked: align=64+N at head%64 == N,
// align=16/32/64 at head%boundary == 0. It logs each placement and whether
// the loop body crosses a 64-byte line.
func TestRegisteredVariantPlacements(t *testing.T) {
	checked := 0
	for _, k := range variant.Kernels() {
		for _, v := range variant.Variants(k.Name) {
			knob := v.Knob("align")
			if v.Symbol == "" || v.LoopLabel == "" || knob == "" {
				continue
			}
			checkPlacement(t, v, knob)
			checked++
		}
	}
	if checked == 0 {
		t.Skip("no registered variant has a symbol, a loop label and an align knob")
	}
	t.Logf("checked %d variants", checked)
}

func checkPlacement(t *testing.T, v *variant.Variant, knob string) {
	t.Helper()
	a, err := asmalign.Parse(knob)
	if err != nil {
		t.Errorf("%s %s: align knob: %v", v.Kernel, v.Name, err)
		return
	}
	l, err := asmmap.Locate(v.Symbol, v.LoopLabel)
	if err != nil {
		t.Errorf("%s %s: locating loop %q of %s: %v", v.Kernel, v.Name, v.LoopLabel, v.Symbol, err)
		return
	}
	t.Logf("%s %s: head %#x offset %d, body %d bytes, crosses %d line(s)",
		v.Kernel, v.Name, l.Head, l.Offset(), l.Size(), l.LinesCrossed())
	if a.Boundary == 0 {
		return // align=none: nothing was requested
	}
	if got := int(l.Head % uint64(a.Boundary)); got != a.Offset {
		t.Errorf("%s %s: requested align=%s, achieved head %#x at offset %d mod %d (want %d)",
			v.Kernel, v.Name, knob, l.Head, got, a.Boundary, a.Offset)
	}
}
