package nttfieldtest

import (
	"math"
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
)

// Schoolbook returns f·g mod (X^256+1, q). It accumulates in int64, which
// holds 256 products of canonical coefficients for both fields; it panics
// for a q for which it would not.
func Schoolbook[E polyvec.Elem](q E, f, g *polyvec.Poly[E]) (h polyvec.Poly[E]) {
	if m := int64(q - 1); m > 0 && m > math.MaxInt64/polyvec.N/m {
		panic("nttfieldtest: Schoolbook would overflow int64")
	}
	var acc [polyvec.N]int64
	for i := range f {
		for j := range g {
			p := int64(f[i]) * int64(g[j])
			if i+j < polyvec.N {
				acc[i+j] += p
			} else {
				acc[i+j-polyvec.N] -= p
			}
		}
	}
	for i := range acc {
		h[i] = E(((acc[i] % int64(q)) + int64(q)) % int64(q))
	}
	return h
}

// SpecRoundTrip checks on the boundary inputs and 20 random ones that the
// generic code satisfies InvNTT∘NTT = id and that MulNTT of NTTs is the
// negacyclic product. It is the body of each family's TestSpecRoundTrip.
func SpecRoundTrip[E polyvec.Elem](t *testing.T, fd Field[E]) {
	rng := polyvec.NewRand(1)
	var inputs []polyvec.Poly[E]
	for _, e := range polyvec.Edges {
		var p polyvec.Poly[E]
		polyvec.SetEdge(e, fd.Q, &p)
		inputs = append(inputs, p)
	}
	for range 20 {
		var p polyvec.Poly[E]
		polyvec.Fill(rng, fd.Q, &p)
		inputs = append(inputs, p)
	}
	for k, f := range inputs {
		a := f
		fd.NTT(&a)
		fd.InvNTT(&a)
		if i := polyvec.FirstDiff(&a, &f); i >= 0 {
			t.Fatalf("input %d: InvNTT(NTT(f))[%d] = %d, want %d", k, i, a[i], f[i])
		}
		g := inputs[(k+7)%len(inputs)]
		fh, gh := f, g
		fd.NTT(&fh)
		fd.NTT(&gh)
		var h polyvec.Poly[E]
		fd.MulNTT(&h, &fh, &gh)
		fd.InvNTT(&h)
		want := Schoolbook(fd.Q, &f, &g)
		if i := polyvec.FirstDiff(&h, &want); i >= 0 {
			t.Fatalf("input %d: InvNTT(MulNTT(NTT f, NTT g))[%d] = %d, want schoolbook %d", k, i, h[i], want[i])
		}
	}
}

// SpecCanonical checks that the generic code keeps every output in [0, q)
// on the boundary inputs. It is the body of each family's TestSpecCanonical.
func SpecCanonical[E polyvec.Elem](t *testing.T, fd Field[E]) {
	canonical := func(what, name string, p *polyvec.Poly[E]) {
		t.Helper()
		for i, c := range p {
			if c < 0 || c >= fd.Q {
				t.Fatalf("%s: %s coefficient %d = %d not canonical", name, what, i, c)
			}
		}
	}
	for _, e := range polyvec.Edges {
		var f, h polyvec.Poly[E]
		polyvec.SetEdge(e, fd.Q, &f)
		p := f
		fd.NTT(&p)
		canonical("NTT", e.Name, &p)
		p = f
		fd.InvNTT(&p)
		canonical("InvNTT", e.Name, &p)
		fd.MulNTT(&h, &f, &f)
		canonical("MulNTT", e.Name, &h)
	}
}
