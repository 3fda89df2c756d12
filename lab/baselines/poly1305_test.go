package baselines

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// TestXCryptoPoly1305 runs the ext=xcrypto baseline as the harness does:
// Verify at the sweep sizes, then an instance's Run and Check.
func TestXCryptoPoly1305(t *testing.T) {
	v := variant.Lookup("poly1305", "ext=xcrypto")
	if v == nil || !v.External {
		t.Fatal("ext=xcrypto is not registered as an external poly1305 variant")
	}
	for _, size := range []int{0, 16, 100, 1024, 16384} {
		if err := v.Verify(size, uint64(size)); err != nil {
			t.Errorf("Verify(%d): %v", size, err)
		}
	}
	in := v.New(333, 1)
	in.Run(3)
	if err := in.Check(); err != nil {
		t.Errorf("Check after Run: %v", err)
	}
}
