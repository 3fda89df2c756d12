package polyvec

import "testing"

// TestInputsCanonical checks that every boundary input and random
// polynomial is canonical in [0, q) for both fields' moduli, that the
// boundary inputs are distinct, and that a seed determines its
// polynomials.
func TestInputsCanonical(t *testing.T) {
	inputsCanonical(t, int16(3329))
	inputsCanonical(t, int32(8380417))
}

func inputsCanonical[E Elem](t *testing.T, q E) {
	var seen []Poly[E]
	for _, e := range Edges {
		var p Poly[E]
		SetEdge(e, q, &p)
		checkCanonical(t, q, e.Name, &p)
		for i := range seen {
			if FirstDiff(&seen[i], &p) < 0 {
				t.Errorf("q=%d: edge %s is the same input as %s", q, e.Name, Edges[i].Name)
			}
		}
		seen = append(seen, p)
	}
	var a, b Poly[E]
	Fill(NewRand(5), q, &a)
	Fill(NewRand(5), q, &b)
	checkCanonical(t, q, "random", &a)
	if i := FirstDiff(&a, &b); i >= 0 {
		t.Errorf("q=%d: two generators of seed 5 differ at coefficient %d", q, i)
	}
}

func checkCanonical[E Elem](t *testing.T, q E, name string, p *Poly[E]) {
	t.Helper()
	for i, c := range p {
		if c < 0 || c >= q {
			t.Fatalf("q=%d: %s coefficient %d = %d not canonical", q, name, i, c)
		}
	}
}

// TestFirstDiff checks FirstDiff on equal polynomials and on ones that
// differ at the first, a middle and the last coefficient.
func TestFirstDiff(t *testing.T) {
	var a, b Poly[int32]
	if i := FirstDiff(&a, &b); i != -1 {
		t.Errorf("equal polynomials: FirstDiff = %d, want -1", i)
	}
	for _, want := range []int{0, 100, N - 1} {
		b = a
		b[want] = 1
		b[N-1] = 1
		if i := FirstDiff(&a, &b); i != want {
			t.Errorf("first difference at %d: FirstDiff = %d", want, i)
		}
	}
}
