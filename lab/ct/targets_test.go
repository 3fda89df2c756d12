package ct

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/ct/leaks"

	_ "github.com/tunelab/tunelab/kernels/all"
)

// TestTargetsRun resolves every target the dynamic check and the
// self-test measure and runs each class once (no timing).
func TestTargetsRun(t *testing.T) {
	targets := ProductionTargets(10)
	if len(targets) == 0 {
		t.Fatal("no production targets: no kernel planned")
	}
	ops, skipped := OperationTargets(10)
	targets = append(targets, ops...)
	for _, fx := range Fixtures {
		targets = append(targets, Target{Name: "leak|" + fx.Name, Kernel: "leak." + fx.Name})
	}
	if len(skipped) != 3 {
		t.Errorf("skipped operations %v, want the three ML-DSA verifications", skipped)
	}
	for i, tg := range targets {
		tgt, err := resolve(tg.Name, uint64(i))
		if err != nil {
			if strings.HasPrefix(tg.Kernel, "leak.") && !leaks.Available() {
				t.Logf("%s: %v", tg.Name, err) // not built under purego
				continue
			}
			t.Errorf("resolving %s: %v", tg.Name, err)
			continue
		}
		for _, c := range []int{0, 1, 0} {
			tgt.Prepare(c)
			tgt.Run()
		}
	}
}

func TestClassSize(t *testing.T) {
	k := &variant.Kernel{Name: "x", Sizes: []int{16, 64, 256, 1024, 16384, 1048576},
		SizeCheck: func(n int) error {
			if n%16 != 0 {
				return fmt.Errorf("not blocks")
			}
			return nil
		}}
	for _, c := range []struct{ lo, hi, want int }{
		{0, 16, 16}, {17, 64, 64}, {65, 256, 256}, {257, 1000, 272}, {16385, 0, 16400}, {0, 0, 16},
	} {
		if got := classSize(k, c.lo, c.hi); got != c.want {
			t.Errorf("classSize(%d..%d) = %d, want %d", c.lo, c.hi, got, c.want)
		}
	}
	if got := classSize(&variant.Kernel{Name: "fixed"}, 0, 0); got != 0 {
		t.Errorf("classSize of a fixed-size kernel = %d, want 0", got)
	}
}

func TestResolveUnknown(t *testing.T) {
	for _, name := range []string{"", "v|nosuch|0|isa=x", "op|mlkem768.nosuch|seed", "op|mlkem768.keygen|nosuch", "leak|nosuch", "x|y"} {
		if _, err := resolve(name, 1); err == nil {
			t.Errorf("resolve(%q): no error", name)
		}
	}
}
