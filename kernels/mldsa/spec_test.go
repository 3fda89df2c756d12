package mldsa

import (
	"math/big"
	"math/bits"
	"testing"

	"github.com/tunelab/tunelab/kernels/internal/nttfield"
)

func bigPow(b, e int64) int64 {
	return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), big.NewInt(Q)).Int64()
}

// TestTables recomputes the zeta table from the primitive 512th root of
// unity 1753 with math/big.
func TestTables(t *testing.T) {
	if bigPow(1753, 256) != Q-1 {
		t.Fatal("1753 is not a primitive 512th root of unity mod q")
	}
	for m := range zetas {
		e := int64(bits.Reverse8(uint8(m)))
		if want := bigPow(1753, e); zetas[m] != want {
			t.Errorf("zetas[%d] = %d, want 1753^%d = %d", m, zetas[m], e, want)
		}
	}
	if invN*256%Q != 1 {
		t.Errorf("invN = %d is not 256⁻¹ mod q", invN)
	}
}

// schoolbook returns a·b mod (X^256+1, q).
func schoolbook(a, b *[256]int32) (c [256]int32) {
	var acc [256]*big.Int
	for i := range acc {
		acc[i] = new(big.Int)
	}
	p := new(big.Int)
	for i := range a {
		for j := range b {
			p.SetInt64(int64(a[i]) * int64(b[j]))
			if i+j < 256 {
				acc[i+j].Add(acc[i+j], p)
			} else {
				acc[i+j-256].Sub(acc[i+j-256], p)
			}
		}
	}
	q := big.NewInt(Q)
	for i := range acc {
		c[i] = int32(acc[i].Mod(acc[i], q).Int64())
	}
	return c
}

// TestSpecRoundTrip checks InvNTT∘NTT = id and that MulNTT of NTTs is the
// negacyclic product, on random and boundary inputs.
func TestSpecRoundTrip(t *testing.T) {
	rng := nttfield.NewRand(1)
	var inputs [][256]int32
	for _, e := range nttfield.Edges {
		var p [256]int32
		nttfield.SetEdge(e, Q, &p)
		inputs = append(inputs, p)
	}
	for range 6 {
		var p [256]int32
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
		var h [256]int32
		mulNTTGeneric(&h, &fh, &gh)
		invNTTGeneric(&h)
		want := schoolbook(&f, &g)
		if i := nttfield.FirstDiff(&h, &want); i >= 0 {
			t.Fatalf("input %d: InvNTT(MulNTT(NTT f, NTT g))[%d] = %d, want schoolbook %d", k, i, h[i], want[i])
		}
	}
}
