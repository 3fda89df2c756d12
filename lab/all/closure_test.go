package all_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// publicFamilies are the packages production programs import.
var publicFamilies = []string{"keccak", "sha3", "mlkem", "mlkem/mlkemtest", "mldsa", "poly1305", "aesecb"}

// TestKernelsShip checks that every Go package under kernels/ is in the
// dependency closure of the public family packages, built without test or
// lab tags: a path under kernels/ says that the package ships. Lab
// packages live under lab/, and what both use under internal/.
func TestKernelsShip(t *testing.T) {
	const mod = "github.com/tunelab/tunelab/kernels/"
	all := goList(t, "../../kernels/...")
	args := []string{"-deps"}
	for _, f := range publicFamilies {
		args = append(args, mod+f)
	}
	closure := goList(t, args...)
	for _, p := range all {
		if !slices.Contains(closure, p) {
			t.Errorf("package %s is under kernels/ but outside the public families' closure: move it to lab/ (or to internal/, if kernels use it too)", strings.TrimPrefix(p, mod))
		}
	}
	if len(all) == 0 || len(closure) == 0 {
		t.Errorf("go list found %d packages under kernels/ and %d in the closure", len(all), len(closure))
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
