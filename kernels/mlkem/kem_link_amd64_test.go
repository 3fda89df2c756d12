//go:build !purego

package mlkem

import (
	"os/exec"
	"slices"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestKEMProductionLinksOnlyTable builds and runs a program that uses only
// the whole ML-KEM operations (testdata/kemprod) and checks that every
// generated NTT variant it links is in a production table: the lab tables
// must stay unreachable from the KEM too.
func TestKEMProductionLinksOnlyTable(t *testing.T) {
	bin := asmtest.BuildProgram(t, "./testdata/kemprod")
	if out, err := exec.Command(bin).CombinedOutput(); err != nil {
		t.Fatalf("running the production program: %v\n%s", err, out)
	}
	prod := slices.Concat(linkSymbols(prodAsmNTT), linkSymbols(prodAsmInvNTT), linkSymbols(prodAsmMulNTT))
	lab := slices.Concat(linkSymbols(asmNTT()), linkSymbols(asmInvNTT()), linkSymbols(asmMulNTT()))
	linked := 0
	for _, sym := range asmtest.LinkedSymbols(t, bin) {
		if !slices.Contains(lab, sym) {
			continue
		}
		linked++
		if !slices.Contains(prod, sym) {
			t.Errorf("the production program links %s, which no production table lists", sym)
		}
	}
	if linked == 0 {
		t.Error("the production program links no generated variant at all")
	}
}

// linkSymbols returns the linker symbols of impls.
func linkSymbols[F any](impls []variant.Impl[F]) []string {
	var out []string
	for _, im := range impls {
		out = append(out, im.Symbol)
	}
	return out
}
