package sha3

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/keccak"
	"github.com/tunelab/tunelab/kernels/variant"
)

// prodChildEnv marks the subprocess of TestProductionDefaults, in which
// TestMain registers nothing, as a production program does.
const prodChildEnv = "SHA3_TEST_PRODUCTION"

// TestMain registers the kernels and their variants as the lab does
// (keccak's first, whose selection sha3's plans follow), so that the
// tests see the registry records production never makes; not in the
// production child.
func TestMain(m *testing.M) {
	if os.Getenv(prodChildEnv) == "" {
		keccak.RegisterVariants()
		RegisterVariants()
	}
	os.Exit(m.Run())
}

// TestProductionDefaults checks, in a process that registers nothing,
// that what sha3 derives from keccak's selection (the selected
// permutations' features, hence the default way count and Batch's lane
// costs) does not depend on the registry.
func TestProductionDefaults(t *testing.T) {
	if os.Getenv(prodChildEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProductionDefaults$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), prodChildEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "--- PASS: TestProductionDefaults") {
			t.Errorf("production child: %v\n%s", err, out)
		}
		return
	}
	if n := len(variant.Variants(shake128Many.name)); n != 0 {
		t.Fatalf("production child: %d variants registered, want none", n)
	}
	for _, nr := range []int{2, 4, 8} {
		name, features := keccakSelected(nr)
		if name != variant.GenericName && len(features) == 0 {
			t.Errorf("keccak.x%d: selected %s, but its features are unknown without the registry", nr, name)
		}
	}
}
