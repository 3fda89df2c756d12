package mlkem

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/nttfield"
	"github.com/tunelab/tunelab/kernels/variant"
)

// randomPolys is the number of random polynomials every variant is
// compared on (10,000 in total, split over the offset-sweep copies of a
// base variant, which share its code).
const randomPolys = 10000

func polys(v nttfield.Impl[nttfield.Unary[int16]]) int {
	if v.OffsetSweep || strings.Contains(v.Name, "align=32") || strings.Contains(v.Name, "align=64") {
		return 500
	}
	return randomPolys
}

func runnable(t *testing.T, name string, features []string) bool {
	if !dispatch.Has(features...) {
		t.Logf("skipping %s: host lacks %s", name, strings.Join(features, "+"))
		return false
	}
	return true
}

// TestVariantsBitExact compares every runnable assembly variant with the
// generic code on boundary inputs and random polynomials.
func TestVariantsBitExact(t *testing.T) {
	for _, k := range []struct {
		spec  nttfield.Spec[int16]
		ref   nttfield.Unary[int16]
		impls []nttfield.Impl[nttfield.Unary[int16]]
	}{{spec("mlkem.ntt", "", ""), nttGeneric, asmNTT}, {spec("mlkem.invntt", "", ""), invNTTGeneric, asmInvNTT}} {
		for i, v := range k.impls {
			if !runnable(t, v.Name, v.Features) {
				continue
			}
			if err := nttfield.VerifyUnary(k.spec, v.Name, v.Fn, k.ref, uint64(i)+1, polys(v)); err != nil {
				t.Error(err)
			}
		}
	}
	for i, v := range asmMulNTT {
		if !runnable(t, v.Name, v.Features) {
			continue
		}
		n := randomPolys
		if v.OffsetSweep {
			n = 500
		}
		if err := nttfield.VerifyBinary(spec("mlkem.mulntt", "", ""), v.Name, v.Fn, mulNTTGeneric, uint64(i)+1, n); err != nil {
			t.Error(err)
		}
	}
}

// TestRegistered checks that every kernel has its generic variant and
// every table entry is registered.
func TestRegistered(t *testing.T) {
	want := map[string]int{"mlkem.ntt": len(asmNTT) + 1, "mlkem.invntt": len(asmInvNTT) + 1, "mlkem.mulntt": len(asmMulNTT) + 1}
	for k, n := range want {
		vs := variant.Variants(k)
		if len(vs) != n {
			t.Errorf("%s: %d variants registered, want %d", k, len(vs), n)
		}
		if variant.Lookup(k, variant.GenericName) == nil {
			t.Errorf("%s: no generic variant", k)
		}
		for _, v := range vs {
			if err := v.Verify(0, 7); err != nil && dispatch.Has(v.Features...) {
				t.Errorf("%s %s: Verify: %v", k, v.Name, err)
			}
		}
	}
}

// TestVerifyDetectsMismatch makes sure the comparison used above fails,
// naming the variant, input and coefficient, when one coefficient is off.
func TestVerifyDetectsMismatch(t *testing.T) {
	broken := func(f *[256]int16) {
		nttGeneric(f)
		f[200] = (f[200] + 1) % Q
	}
	err := nttfield.VerifyUnary(spec("mlkem.ntt", "", ""), "broken", broken, nttGeneric, 1, 1)
	m, ok := err.(*variant.Mismatch)
	if !ok || m.Index != 200 || m.Variant != "broken" || m.Input == "" {
		t.Fatalf("VerifyUnary on a broken variant returned %v, want a mismatch at index 200", err)
	}
}
