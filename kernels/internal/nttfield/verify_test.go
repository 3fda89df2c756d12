package nttfield

import (
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestVerifyDetectsMismatch makes sure the comparisons every registered
// variant's Verify (and the lab's bit-exactness test) uses pass on an
// implementation equal to the reference and fail, naming the kernel,
// variant, input and coefficient, when one coefficient is off, for both
// coefficient types.
func TestVerifyDetectsMismatch(t *testing.T) {
	verifyDetectsMismatch(t, Spec[int16]{Kernel: "mlkem.ntt", Q: 3329})
	verifyDetectsMismatch(t, Spec[int32]{Kernel: "mldsa.ntt", Q: 8380417})
}

// verifyDetectsMismatch checks VerifyUnary and VerifyBinary in spec's
// field, with stand-ins for the transforms: doubling each coefficient and
// the coefficient-wise product, both mod q.
func verifyDetectsMismatch[E polyvec.Elem](t *testing.T, spec Spec[E]) {
	q := int64(spec.Q)
	double := func(p *polyvec.Poly[E]) {
		for i := range p {
			p[i] = E(2 * int64(p[i]) % q)
		}
	}
	mul := func(h, f, g *polyvec.Poly[E]) {
		for i := range h {
			h[i] = E(int64(f[i]) * int64(g[i]) % q)
		}
	}
	if err := VerifyUnary(spec, "same", double, double, 1, 4); err != nil {
		t.Errorf("%s: VerifyUnary of the reference against itself: %v", spec.Kernel, err)
	}
	if err := VerifyBinary(spec, "same", mul, mul, 1, 4); err != nil {
		t.Errorf("%s: VerifyBinary of the reference against itself: %v", spec.Kernel, err)
	}
	broken := func(p *polyvec.Poly[E]) {
		double(p)
		p[200] = (p[200] + 1) % spec.Q
	}
	checkMismatch(t, spec.Kernel, "VerifyUnary", VerifyUnary(spec, "broken", broken, double, 1, 1), 200)
	brokenMul := func(h, f, g *polyvec.Poly[E]) {
		mul(h, f, g)
		h[17] = (h[17] + 1) % spec.Q
	}
	checkMismatch(t, spec.Kernel, "VerifyBinary", VerifyBinary(spec, "broken", brokenMul, mul, 1, 1), 17)
}

// checkMismatch checks that err, what's result on the variant "broken"
// of kernel, is a mismatch at coefficient index that names its input.
func checkMismatch(t *testing.T, kernel, what string, err error, index int) {
	t.Helper()
	m, ok := err.(*variant.Mismatch)
	if !ok || m.Index != index || m.Variant != "broken" || m.Input == "" || m.Kernel != kernel {
		t.Errorf("%s: %s on a broken variant returned %v, want a mismatch at index %d", kernel, what, err, index)
	}
}

// TestSetSpec checks the names and descriptions a Set gives its three
// kernels.
func TestSetSpec(t *testing.T) {
	tb := Set[int16]{Name: "mlkem", Bench: "MLKEM", Title: "ML-KEM", Standard: "FIPS 203", Algs: [3]int{9, 10, 11}, Q: 3329}
	want := []Spec[int16]{
		{Kernel: "mlkem.ntt", Family: "ntt", Bench: "MLKEMNTT", Doc: "ML-KEM NTT (FIPS 203 Alg. 9)", Q: 3329},
		{Kernel: "mlkem.invntt", Family: "ntt", Bench: "MLKEMInvNTT", Doc: "ML-KEM inverse NTT (FIPS 203 Alg. 10)", Q: 3329},
		{Kernel: "mlkem.mulntt", Family: "ntt", Bench: "MLKEMMulNTT", Doc: "ML-KEM NTT-domain product (FIPS 203 Alg. 11)", Q: 3329},
	}
	for k, w := range want {
		if got := tb.spec(k); got != w {
			t.Errorf("spec(%d) = %+v, want %+v", k, got, w)
		}
	}
}
