package keccak

import (
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// prodChild is the value of childEnv under which TestMain leaves the
// package as production code sees it (RegisterVariants not called).
const prodChild = "production"

// TestMain registers every generated variant before the tests run, as the
// lab does, so that the tests cover all of them and not only production's;
// TestProductionInit's subprocess leaves that to the test.
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != prodChild {
		RegisterVariants()
	}
	os.Exit(m.Run())
}

// TestProductionInit checks, in a subprocess that does not call
// RegisterVariants first, that init registers nothing and selects among
// the generic code and the production table, and that RegisterVariants
// (called twice) then registers exactly every generated variant once.
func TestProductionInit(t *testing.T) {
	if os.Getenv(childEnv) != prodChild {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProductionInit$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"="+prodChild)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("production init: %v\n%s", err, out)
		}
		return
	}
	lab := labTables()
	for _, nr := range widths {
		checkNoneRegistered(t, kernelName(nr))
		if m := byName(nr, selectedOf(nr)); m == nil {
			t.Errorf("%s: at init selected %q, which is neither generic nor in the production table", kernelName(nr), selectedOf(nr))
		}
		if m := byName(nr, selectedOf(nr)); m != nil && len(m.Features) > 0 && PermutationFeatures(nr, m.Name) == nil {
			t.Errorf("%s: at init PermutationFeatures(%q) is nil without the registry, want %v", kernelName(nr), m.Name, m.Features)
		}
		if m := byName(nr, selectedOf(nr)); m == nil {
			t.Errorf("%s: at init selected %q, which is neither generic nor in the production table", kernelName(nr), selectedOf(nr))
		}
		if m := byName(nr, selectedOf(nr)); m != nil && len(m.Features) > 0 && PermutationFeatures(nr, m.Name) == nil {
			t.Errorf("%s: at init PermutationFeatures(%q) is nil without the registry, want %v", kernelName(nr), m.Name, m.Features)
		}
	}
	checkNoneRegistered(t, sha3Kernel)
	for i, c := range absorbPlan() {
		if c.name != viaPermute && findAbsorber(absorbers(), c.name) == nil {
			t.Errorf("%s: at init AbsorbBlocks plan[%d] is %q, which is neither generic nor in the production table", sha3Kernel, i, c.name)
		}
	}
	RegisterVariants()
	RegisterVariants()
	for _, nr := range widths {
		checkRegistered(t, nr, "after RegisterVariants", lab.erased(nr))
	}
	checkRegisteredSHA3(t, "after RegisterVariants", labAbsorbImpls())
}

// checkNoneRegistered checks that production init registered nothing
// of kernel: the lab (RegisterVariants) registers.
func checkNoneRegistered(t *testing.T, kernel string) {
	t.Helper()
	if vs := variant.Variants(kernel); len(vs) != 0 || variant.LookupKernel(kernel) != nil {
		t.Errorf("%s: production init registered %d variants, want none", kernel, len(vs))
	}
}

// checkRegisteredSHA3 checks that the registered and listed sha3.256
// variants are the generic code and then table, in order.
func checkRegisteredSHA3(t *testing.T, when string, table []variant.Impl[absorbFunc]) {
	t.Helper()
	want := []string{variant.GenericName}
	for _, m := range table {
		want = append(want, m.Name)
	}
	var got, listed []string
	for _, v := range variant.Variants(sha3Kernel) {
		if !v.External {
			got = append(got, v.Name)
		}
	}
	for _, m := range absorbers() {
		listed = append(listed, m.Name)
	}
	slices.Sort(got)
	if w := slices.Sorted(slices.Values(want)); !slices.Equal(got, w) {
		t.Errorf("%s %s: %d variants registered, want %d (generic and the table)\ngot  %q\nwant %q", sha3Kernel, when, len(got), len(w), got, w)
	}
	if !slices.Equal(listed, want) {
		t.Errorf("%s %s: the package lists %q, want %q", sha3Kernel, when, listed, want)
	}
}

// checkRegistered checks that the variants registered for kernel nr, and
// those the package lists, are the generic code and then table, in order.
func checkRegistered(t *testing.T, nr int, when string, table []*impl) {
	t.Helper()
	want := []string{variant.GenericName}
	for _, m := range table {
		want = append(want, m.Name)
	}
	var got, listed []string
	for _, v := range variant.Variants(kernelName(nr)) {
		got = append(got, v.Name)
	}
	for _, m := range implsOf(nr) {
		listed = append(listed, m.Name)
	}
	slices.Sort(got)
	if w := slices.Sorted(slices.Values(want)); !slices.Equal(got, w) {
		t.Errorf("%s %s: %d variants registered, want %d (generic and the table)\ngot  %q\nwant %q", kernelName(nr), when, len(got), len(w), got, w)
	}
	if !slices.Equal(listed, want) {
		t.Errorf("%s %s: the package lists %q, want %q", kernelName(nr), when, listed, want)
	}
}
