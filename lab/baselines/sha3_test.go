package baselines

import (
	"crypto/sha3"
	"errors"
	"testing"

	tsha3 "github.com/tunelab/tunelab/kernels/sha3"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestSHAKEManyBaselines verifies the many-stream SHAKE externals and runs
// an instance through Run and Check at each default sweep size, as a
// sweep does.
func TestSHAKEManyBaselines(t *testing.T) {
	for _, kernel := range []string{"shake128.many", "shake256.many"} {
		k := variant.LookupKernel(kernel)
		v := variant.Lookup(kernel, "ext=sha3")
		if k == nil || v == nil || !v.External {
			t.Fatalf("%s: kernel or external ext=sha3 not registered", kernel)
		}
		for _, size := range k.Sizes {
			if err := v.Verify(size, 5); err != nil {
				t.Errorf("%s ext=sha3 at %d streams: %v", kernel, size, err)
			}
			in := v.New(size, 6)
			in.Run(2)
			if err := in.Check(); err != nil {
				t.Errorf("%s ext=sha3 after Run at %d streams: %v", kernel, size, err)
			}
		}
	}
}

// TestSHAKEManyBaselineCheckFails checks that Check reports a difference:
// against a reference that gets one byte wrong it must return a Mismatch.
func TestSHAKEManyBaselineCheckFails(t *testing.T) {
	wrong := func(m []byte, n int) []byte {
		out := tsha3.SumSHAKE128(m, n)
		out[n-1] ^= 1
		return out
	}
	in := newShakeManyInstance("shake128.many", sha3.NewSHAKE128, wrong, 3, 7)
	var mm *variant.Mismatch
	if err := in.Check(); !errors.As(err, &mm) || mm.Index != len(in.outs[0])-1 {
		t.Errorf("Check against a wrong reference = %v, want a mismatch at byte %d", err, len(in.outs[0])-1)
	}
}
