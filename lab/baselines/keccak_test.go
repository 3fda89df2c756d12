package baselines

import (
	"encoding/hex"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// TestKeccakBaselines verifies the keccak external references and runs an
// instance through Run and Check, as a sweep does (sha3.256 at a few
// message sizes).
func TestKeccakBaselines(t *testing.T) {
	sizes := map[string][]int{"sha3.256": {16, 135, 136, 137, 1000}}
	for _, k := range []string{"keccak.x1", "keccak.x4", "keccak.x8", "sha3.256"} {
		n := 0
		for _, v := range variant.Variants(k) {
			if !v.External {
				continue
			}
			n++
			for _, size := range append([]int{0}, sizes[k]...) {
				if err := v.Verify(size, 3); err != nil {
					t.Fatalf("%s %s at size %d: %v", k, v.Name, size, err)
				}
				in := v.New(size, 4)
				in.Run(3)
				if err := in.Check(); err != nil {
					t.Fatalf("%s %s at size %d after Run: %v", k, v.Name, size, err)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no external reference registered", k)
		}
	}
}

// TestAbsorbSum256 checks the reference the sha3.256 baseline is
// verified against on the FIPS 202 example digests.
func TestAbsorbSum256(t *testing.T) {
	for msg, want := range map[string]string{
		"":    "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
		"abc": "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
	} {
		if got := absorbSum256([]byte(msg)); hex.EncodeToString(got[:]) != want {
			t.Errorf("SHA3-256(%q) on keccak.AbsorbBlocks = %x, want %s", msg, got, want)
		}
	}
}
