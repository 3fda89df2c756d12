//go:build !purego

package mlkem

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// TestKEMProductionLinksOnlyTable builds and runs a program that uses only
// the whole ML-KEM operations (testdata/kemprod) and checks that every
// generated NTT variant it links is in a production table: the lab tables
// must stay unreachable from the KEM too.
func TestKEMProductionLinksOnlyTable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "kemprod")
	if out, err := exec.Command(goTool, "build", "-o", bin, "./testdata/kemprod").CombinedOutput(); err != nil {
		t.Fatalf("building the production program: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin).CombinedOutput(); err != nil {
		t.Fatalf("running the production program: %v\n%s", err, out)
	}
	out, err := exec.Command(goTool, "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	prod := slices.Concat(linkSymbols(prodAsmNTT), linkSymbols(prodAsmInvNTT), linkSymbols(prodAsmMulNTT))
	lab := slices.Concat(linkSymbols(asmNTT()), linkSymbols(asmInvNTT()), linkSymbols(asmMulNTT()))
	linked := 0
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		sym := strings.TrimSuffix(f[len(f)-1], ".abi0")
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
