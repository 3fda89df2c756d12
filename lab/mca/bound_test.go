package mca

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/reports"
)

// boundFile writes a result file of keccak.x1 on a Zen 3 whose scalar
// variant takes core cycles per op (est.) and the generic one ten times
// as many.
func boundFile(t *testing.T, core float64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("cpu-vendor: AuthenticAMD\ncpu-family: 0x19\ncpu-model: 0x01\nuarch: Zen 3\ndispatch-key: AuthenticAMD/0x19/0x01\nfeatures: avx2\nrun-id: bound1\nkernel: keccak.x1\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "BenchmarkKeccakX1/%s 1000 %.1f ns/op %.0f tsc-cycles/op %.0f est-core-cycles/op\n", boundVariant, 375+0.1*float64(i), 0.8*core, core+float64(i))
		fmt.Fprintf(&b, "BenchmarkKeccakX1/isa=generic 1000 %.1f ns/op %.0f tsc-cycles/op %.0f est-core-cycles/op\n", 3750+float64(i), 8*core, 10*core)
	}
	path := filepath.Join(t.TempDir(), "r.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const boundVariant = "isa=scalar/comp=on/unroll=1/align=64"

func TestBounds(t *testing.T) {
	v := variant.Lookup("keccak.x1", boundVariant)
	if v == nil || v.LoopTrips == nil {
		t.Skip("keccak.x1 " + boundVariant + " not registered (purego build)")
	}
	m := &Report{Results: []*Result{{Kernel: "keccak.x1", Variant: boundVariant,
		Predictions: []*ModelPrediction{{Prediction: &Prediction{CyclesPerIter: 44}, MCPU: "znver3"}}}}}
	want := 44 * v.LoopTrips(0)
	for _, c := range []struct {
		core    float64
		flagged bool
	}{{1.1 * want, false}, {2 * want, true}} {
		set, _, err := reports.Read([]string{boundFile(t, c.core)})
		if err != nil {
			t.Fatal(err)
		}
		bs := Bounds(reports.Analyze(set, reports.DefaultOptions()), m)
		if len(bs) != 1 {
			t.Fatalf("%d bounds, want one (the winner's)", len(bs))
		}
		b := bs[0]
		if b.Variant != boundVariant || b.BoundCycles != want || b.Unit != "est-core-cycles" || b.Flagged != c.flagged {
			t.Errorf("bound %+v, want %s with %.0f cycles/op, est-core-cycles, flagged %v", b, boundVariant, want, c.flagged)
		}
		if pct := want / (c.core + 3.5); b.Pct < pct*0.99 || b.Pct > pct*1.01 {
			t.Errorf("%% of bound %.3f, want about %.3f (bound / median measured)", b.Pct, pct)
		}
	}
}
