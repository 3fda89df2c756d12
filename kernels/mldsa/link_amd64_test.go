//go:build !purego

package mldsa

import (
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestProductionLinksOnlyTable builds a program that calls only NTT and
// checks that every generated function it links is in a production table
// and that it links none of the lab's verification machinery: the lab
// tables and what verifies them must stay unreachable from production
// code.
func TestProductionLinksOnlyTable(t *testing.T) {
	syms := asmtest.LinkedSymbols(t, asmtest.BuildProgram(t, "./testdata/prodmain"))
	prod := slices.Concat(symbols(prodAsmNTT), symbols(prodAsmInvNTT), symbols(prodAsmMulNTT))
	lab := map[string]bool{}
	for _, ims := range [][]string{symbols(asmNTT()), symbols(asmInvNTT()), symbols(asmMulNTT())} {
		for _, s := range ims {
			lab[s] = true
		}
	}
	linked := map[string]bool{}
	for _, sym := range syms {
		if lab[sym] && !linked[sym] {
			linked[sym] = true
			if !slices.Contains(prod, sym) {
				t.Errorf("the production program links %s, which no production table lists", sym)
			}
		}
	}
	if len(linked) == 0 {
		t.Error("the production program links no generated variant at all")
	}
	for _, sym := range labMachinery(syms) {
		t.Errorf("the production program links %s, the lab's verification machinery", sym)
	}
}

// labMachinery returns the symbols of syms that belong to the lab's
// verification: the registry records' Verify and the references and test
// inputs they use (math/big's arithmetic, internal/polyvec), which only
// RegisterVariants may reach.
func labMachinery(syms []string) []string {
	var found []string
	for _, sym := range syms {
		if strings.HasPrefix(sym, "math/big.(*") || strings.Contains(sym, "tunelab/internal/polyvec.") ||
			strings.Contains(sym, "kernelset.(*Slot[") && strings.HasSuffix(sym, ").Verify") ||
			strings.Contains(sym, "nttfield.Verify") {
			found = append(found, sym)
		}
	}
	return found
}

// symbols returns the linker symbols of impls.
func symbols[F any](impls []variant.Impl[F]) []string {
	var out []string
	for _, im := range impls {
		out = append(out, im.Symbol)
	}
	return out
}
