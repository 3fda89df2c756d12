//go:build !purego

package poly1305

import (
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestProductionLinksOnlyTable builds a program that calls only the
// public API and checks that every generated function it links is one a
// production variant runs (this package's, none of lab/variants/poly1305)
// and that it links none of the lab's machinery: the lab table, its
// switches and wrappers, and the math/big reference of the generic code
// (math/big's arithmetic, as kernels/mldsa's test checks: its package
// initialization comes with the import).
func TestProductionLinksOnlyTable(t *testing.T) {
	bin := asmtest.BuildProgram(t, "./testdata/prodmain")
	const pkg = "github.com/tunelab/tunelab/kernels/poly1305."
	var prod []string // the generated functions production variants run
	for _, r := range prodVariants {
		local := strings.TrimPrefix(r.Symbol, pkg)
		prod = append(prod, pkg+local)
		if blocks, ok := strings.CutPrefix(local, "sum"); ok {
			prod = append(prod, pkg+"blocks"+blocks)
		}
	}
	linked := 0
	for _, sym := range asmtest.LinkedSymbols(t, bin) {
		local, ours := strings.CutPrefix(sym, pkg)
		switch {
		case ours && (strings.HasPrefix(local, "sum_") || strings.HasPrefix(local, "blocks_")):
			linked++
			if !slices.Contains(prod, sym) {
				t.Errorf("the production program links %s, which no production variant runs", sym)
			}
		case strings.Contains(sym, "tunelab/lab/"), strings.HasPrefix(sym, "math/big.(*"),
			ours && (strings.HasPrefix(local, "lab") || local == "sumBig" || local == "verify"):
			t.Errorf("the production program links %s, the lab's machinery", sym)
		}
	}
	if linked == 0 {
		t.Error("the production program links no generated variant at all")
	}
}
