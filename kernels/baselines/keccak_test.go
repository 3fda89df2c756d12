package baselines

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// TestKeccakBaselines verifies the keccak external references and runs an
// instance through Run and Check, as a sweep does.
func TestKeccakBaselines(t *testing.T) {
	for _, k := range []string{"keccak.x1", "keccak.x4", "keccak.x8"} {
		n := 0
		for _, v := range variant.Variants(k) {
			if !v.External {
				continue
			}
			n++
			if err := v.Verify(0, 3); err != nil {
				t.Fatalf("%s %s: %v", k, v.Name, err)
			}
			in := v.New(0, 4)
			in.Run(3)
			if err := in.Check(); err != nil {
				t.Fatalf("%s %s after Run: %v", k, v.Name, err)
			}
		}
		if n == 0 {
			t.Errorf("%s: no external reference registered", k)
		}
	}
}
