package sha3

import (
	"os"
	"testing"

	"github.com/tunelab/tunelab/kernels/keccak"
)

// TestMain registers the kernels and their variants as the lab does
// (keccak's first, whose selection sha3's plans follow), so that the
// tests see the registry records production never makes.
func TestMain(m *testing.M) {
	keccak.RegisterVariants()
	RegisterVariants()
	os.Exit(m.Run())
}
