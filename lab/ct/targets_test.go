package ct

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/ct/leaks"

	_ "github.com/tunelab/tunelab/lab/all"
)

// TestTargetsRun resolves every target the dynamic check and the
// self-test measure and runs each class once (no timing).
func TestTargetsRun(t *testing.T) {
	targets, _ := ProductionTargets(10)
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

// TestProductionTargetsLeaveOutPublicOnly checks that the dynamic check
// measures every production choice except those whose generated
// functions take public inputs only (listed with the reason), and labels
// a choice with declassified instructions as varying by design.
func TestProductionTargetsLeaveOutPublicOnly(t *testing.T) {
	targets, skipped := ProductionTargets(10)
	for _, tg := range targets {
		st := Lookup(tg.Kernel, tg.Variant)
		if st.PublicOnly() {
			t.Errorf("%s %s: measured, but its functions take public inputs only", tg.Kernel, tg.Variant)
		}
		if (len(st.ByDesign()) > 0) != (tg.Variable != "") {
			t.Errorf("%s %s: variable %q, declassified %q", tg.Kernel, tg.Variant, tg.Variable, st.ByDesign())
		}
	}
	for key, why := range skipped {
		kernel, name, _ := strings.Cut(key, " ")
		if !Lookup(kernel, name).PublicOnly() || !strings.Contains(why, "public inputs only") {
			t.Errorf("%s left out (%s), but it has secret inputs", key, why)
		}
	}
}

// TestStatusPublicOnlyAndByDesign checks the two classifications on
// synthetic statuses.
func TestStatusPublicOnlyAndByDesign(t *testing.T) {
	pub := Func{Name: "a", PublicOnly: true}
	sec := Func{Name: "b", Declassified: []Declassified{{Why: "w"}, {Why: "w"}}}
	for _, c := range []struct {
		st     Status
		public bool
		design int
	}{
		{Status{}, false, 0},
		{Status{Checked: true, Funcs: []*Func{&pub}}, true, 0},
		{Status{Checked: true, Funcs: []*Func{&pub, &sec}}, false, 1},
		{Status{Checked: true, Funcs: []*Func{&sec}}, false, 1},
	} {
		if got := c.st.PublicOnly(); got != c.public {
			t.Errorf("PublicOnly of %v = %v, want %v", c.st.Funcs, got, c.public)
		}
		if got := len(c.st.ByDesign()); got != c.design {
			t.Errorf("ByDesign of %v: %d reasons, want %d", c.st.Funcs, got, c.design)
		}
	}
}
