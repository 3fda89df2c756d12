package all_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// publicFamilies are the packages production programs import.
var publicFamilies = []string{"keccak", "sha3", "mlkem", "mlkem/mlkemtest", "mldsa", "poly1305", "aesecb"}

// labUnderKernels are the lab packages still under kernels/, outside the
// public families' dependency closure: the debt of moving the lab out of
// kernels/. nttfieldtest imports kernels/internal/nttfield, so it leaves
// kernels/ with what it needs of that. The list may only shrink.
var labUnderKernels = []string{"internal/nttfield/nttfieldtest"}

// TestKernelsShip checks that every Go package under kernels/ is in the
// dependency closure of the public family packages, built without test or
// lab tags, except those of labUnderKernels: a path under kernels/ says
// that the package ships.
func TestKernelsShip(t *testing.T) {
	const mod = "github.com/tunelab/tunelab/kernels/"
	all := goList(t, "../../kernels/...")
	args := []string{"-deps"}
	for _, f := range publicFamilies {
		args = append(args, mod+f)
	}
	closure := goList(t, args...)
	var outside []string
	for _, p := range all {
		if !slices.Contains(closure, p) {
			outside = append(outside, strings.TrimPrefix(p, mod))
		}
	}
	if !slices.Equal(outside, labUnderKernels) {
		t.Errorf("packages under kernels/ outside the public families' closure: %q, want %q (move a lab package to lab/; shrink labUnderKernels when one leaves)", outside, labUnderKernels)
	}
}

// goList returns the sorted import paths `go list` prints for args.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Skipf("go list %v: %v", args, err)
	}
	ps := strings.Fields(string(out))
	slices.Sort(ps)
	return ps
}
