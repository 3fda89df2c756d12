//go:build !purego

package poly1305

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestProductionLinksOnlyTable builds a program that calls only the
// public API and checks that every generated function it links is one a
// production variant runs (this package's, none of lab/variants/poly1305)
// and that it links none of the lab's machinery: the lab table, its
// switches and wrappers, and the math/big reference of the generic code
// (math/big's arithmetic, as kernels/mldsa's test checks: its package
// initialization comes with the import).
func TestProductionLinksOnlyTable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "prodmain")
	if out, err := exec.Command(goTool, "build", "-o", bin, "./testdata/prodmain").CombinedOutput(); err != nil {
		t.Fatalf("building the production program: %v\n%s", err, out)
	}
	out, err := exec.Command(goTool, "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	const pkg = "github.com/tunelab/tunelab/kernels/poly1305."
	var prod []string // the generated functions production variants run
	for _, r := range prodVariants {
		local := strings.TrimPrefix(r.Symbol, pkg)
		if blocks, ok := strings.CutPrefix(local, "sum"); ok {
			prod = append(prod, pkg+local, pkg+"blocks"+blocks)
		} else {
			prod = append(prod, pkg+local)
		}
	}
	linked := 0
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		sym := strings.TrimSuffix(f[len(f)-1], ".abi0")
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
