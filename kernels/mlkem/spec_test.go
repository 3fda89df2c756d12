package mlkem

import (
	"math/big"
	"math/bits"
	"testing"

	"github.com/tunelab/tunelab/kernels/internal/nttfield"
)

func bigPow(b, e int64) int64 {
	return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), big.NewInt(Q)).Int64()
}

func brv7(i int) int64 { return int64(bits.Reverse8(uint8(i)) >> 1) }

// TestTables recomputes the zeta and gamma tables from the primitive 256th
// root of unity 17 with math/big.
func TestTables(t *testing.T) {
	if bigPow(17, 128) != Q-1 {
		t.Fatal("17 is not a primitive 256th root of unity mod q")
	}
	for i := range zetas {
		if want := bigPow(17, brv7(i)); int64(zetas[i]) != want {
			t.Errorf("zetas[%d] = %d, want 17^%d = %d", i, zetas[i], brv7(i), want)
		}
		if want := bigPow(17, 2*brv7(i)+1); int64(gammas[i]) != want {
			t.Errorf("gammas[%d] = %d, want %d", i, gammas[i], want)
		}
	}
	if invN*128%Q != 1 {
		t.Errorf("invN = %d is not 128⁻¹ mod q", invN)
	}
}

// schoolbook returns f·g mod (X^256+1, q).
func schoolbook(f, g *[256]int16) (h [256]int16) {
	var acc [256]int64
	for i := range f {
		for j := range g {
			p := int64(f[i]) * int64(g[j])
			if i+j < 256 {
				acc[i+j] += p
			} else {
				acc[i+j-256] -= p
			}
		}
	}
	for i := range acc {
		h[i] = int16(((acc[i] % Q) + Q) % Q)
	}
	return h
}

// TestSpecRoundTrip checks InvNTT∘NTT = id and that MulNTT of NTTs is the
// negacyclic product, on random and boundary inputs.
func TestSpecRoundTrip(t *testing.T) {
	rng := nttfield.NewRand(1)
	var inputs [][256]int16
	for _, e := range nttfield.Edges {
		var p [256]int16
		nttfield.SetEdge(e, Q, &p)
		inputs = append(inputs, p)
	}
	for range 20 {
		var p [256]int16
		nttfield.Fill(rng, Q, &p)
		inputs = append(inputs, p)
	}
	for k, f := range inputs {
		a := f
		nttGeneric(&a)
		invNTTGeneric(&a)
		if i := nttfield.FirstDiff(&a, &f); i >= 0 {
			t.Fatalf("input %d: InvNTT(NTT(f))[%d] = %d, want %d", k, i, a[i], f[i])
		}
		g := inputs[(k+7)%len(inputs)]
		fh, gh := f, g
		nttGeneric(&fh)
		nttGeneric(&gh)
		var h [256]int16
		mulNTTGeneric(&h, &fh, &gh)
		invNTTGeneric(&h)
		want := schoolbook(&f, &g)
		if i := nttfield.FirstDiff(&h, &want); i >= 0 {
			t.Fatalf("input %d: InvNTT(MulNTT(NTT f, NTT g))[%d] = %d, want schoolbook %d", k, i, h[i], want[i])
		}
	}
}

// TestSpecCanonical checks that the generic code keeps every output in [0, q).
func TestSpecCanonical(t *testing.T) {
	for _, e := range nttfield.Edges {
		var p [256]int16
		nttfield.SetEdge(e, Q, &p)
		nttGeneric(&p)
		for i, c := range p {
			if c < 0 || c >= Q {
				t.Fatalf("%s: NTT coefficient %d = %d not canonical", e.Name, i, c)
			}
		}
	}
}
