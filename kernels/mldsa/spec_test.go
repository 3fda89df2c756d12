package mldsa

import (
	"math/bits"
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// TestTables recomputes the zeta table from the primitive 512th root of
// unity 1753 with math/big.
func TestTables(t *testing.T) {
	pow := func(e int64) int64 { return nttfieldtest.PowMod(1753, e, Q) }
	if pow(256) != Q-1 {
		t.Fatal("1753 is not a primitive 512th root of unity mod q")
	}
	for m := range zetas {
		e := int64(bits.Reverse8(uint8(m)))
		if want := pow(e); zetas[m] != want {
			t.Errorf("zetas[%d] = %d, want 1753^%d = %d", m, zetas[m], e, want)
		}
	}
	if invN*256%Q != 1 {
		t.Errorf("invN = %d is not 256⁻¹ mod q", invN)
	}
}

// TestSpecRoundTrip checks InvNTT∘NTT = id and that MulNTT of NTTs is the
// negacyclic product, on random and boundary inputs.
func TestSpecRoundTrip(t *testing.T) { nttfieldtest.SpecRoundTrip(t, field) }

// TestSpecCanonical checks that the generic code keeps every output in [0, q).
func TestSpecCanonical(t *testing.T) { nttfieldtest.SpecCanonical(t, field) }
