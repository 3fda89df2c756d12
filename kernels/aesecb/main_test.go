package aesecb

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// prodChildEnv, when set, makes the test binary a production process:
// TestMain does not call RegisterVariants.
const prodChildEnv = "AESECB_TEST_PRODUCTION"

// TestMain registers every generated variant, as the lab does, so that the
// tests see them all (except in the production child of
// TestProductionOnly).
func TestMain(m *testing.M) {
	if os.Getenv(prodChildEnv) == "" {
		RegisterVariants()
	}
	os.Exit(m.Run())
}

// registeredNames returns the names of k's registered variants, external
// baselines left out, sorted.
func registeredNames(k *kernel) []string {
	var out []string
	for _, v := range variant.Variants(k.name) {
		if !v.External {
			out = append(out, v.Name)
		}
	}
	slices.Sort(out)
	return out
}

// implNames returns the generic name and the names of impls, sorted.
func implNames(impls []variant.Impl[cryptFunc]) []string {
	out := []string{variant.GenericName}
	for _, im := range impls {
		out = append(out, im.Name)
	}
	slices.Sort(out)
	return out
}

// TestRegisterVariants checks that every generated variant is registered
// once and planned among, and that a second call changes nothing.
func TestRegisterVariants(t *testing.T) {
	if os.Getenv(prodChildEnv) != "" {
		t.Skip("production child")
	}
	RegisterVariants()
	for _, k := range kernels {
		if got, want := registeredNames(k), implNames(labImpls(k.name)); !slices.Equal(got, want) {
			t.Errorf("%s: %d variants registered, want generic + %d generated", k.name, len(got), len(want)-1)
		}
		for _, c := range k.plan() {
			if c.Variant != variant.GenericName && variant.Find(labImpls(k.name), c.Variant) == nil {
				t.Errorf("%s: plan names %q, which is not generated", k.name, c.Variant)
			}
		}
	}
}

// TestProductionOnly reruns TestProductionChild in a process that does not
// call RegisterVariants.
func TestProductionOnly(t *testing.T) {
	if os.Getenv(prodChildEnv) != "" {
		t.Skip("already the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestProductionChild$", "-test.v")
	cmd.Env = append(os.Environ(), prodChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestProductionChild") {
		t.Errorf("production child: %v\n%s", err, out)
	}
}

// TestProductionChild runs in the subprocess: package init registers
// nothing and plans among the generic and production variants only, and
// RegisterVariants then registers them all and re-plans among all.
func TestProductionChild(t *testing.T) {
	if os.Getenv(prodChildEnv) == "" {
		t.Skip("run by TestProductionOnly")
	}
	for _, k := range kernels {
		prod := prodImpls(k.name)
		if got := variant.Variants(k.name); len(got) != 0 || variant.LookupKernel(k.name) != nil {
			t.Errorf("%s: production init registered %d variants, want none (the lab registers)", k.name, len(got))
		}
		if got := len(k.slot.Known()); got != len(prod) {
			t.Errorf("%s: production knows %d variants, want the production table's %d", k.name, got, len(prod))
		}
		for _, c := range k.plan() {
			if c.Variant != variant.GenericName && variant.Find(prod, c.Variant) == nil {
				t.Errorf("%s: production plan names %q, not in the production table", k.name, c.Variant)
			}
		}
	}
	RegisterVariants()
	RegisterVariants()
	for _, k := range kernels {
		if got, want := registeredNames(k), implNames(labImpls(k.name)); !slices.Equal(got, want) {
			t.Errorf("%s: after RegisterVariants %d variants registered, want generic + %d generated", k.name, len(got), len(want)-1)
		}
	}
}
