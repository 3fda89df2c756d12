package mlkem

import (
	"math/bits"
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

func brv7(i int) int64 { return int64(bits.Reverse8(uint8(i)) >> 1) }

// TestTables recomputes the zeta and gamma tables from the primitive 256th
// root of unity 17 with math/big.
func TestTables(t *testing.T) {
	pow := func(e int64) int64 { return nttfieldtest.PowMod(17, e, Q) }
	if pow(128) != Q-1 {
		t.Fatal("17 is not a primitive 256th root of unity mod q")
	}
	for i := range zetas {
		if want := pow(brv7(i)); int64(zetas[i]) != want {
			t.Errorf("zetas[%d] = %d, want 17^%d = %d", i, zetas[i], brv7(i), want)
		}
		if want := pow(2*brv7(i) + 1); int64(gammas[i]) != want {
			t.Errorf("gammas[%d] = %d, want %d", i, gammas[i], want)
		}
	}
	if invN*128%Q != 1 {
		t.Errorf("invN = %d is not 128⁻¹ mod q", invN)
	}
}

// TestSpecRoundTrip checks InvNTT∘NTT = id and that MulNTT of NTTs is the
// negacyclic product, on random and boundary inputs.
func TestSpecRoundTrip(t *testing.T) { nttfieldtest.SpecRoundTrip(t, field) }

// TestSpecCanonical checks that the generic code keeps every output in [0, q).
func TestSpecCanonical(t *testing.T) { nttfieldtest.SpecCanonical(t, field) }
