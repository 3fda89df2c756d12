package nttfieldtest

import (
	"github.com/tunelab/tunelab/lab/asmtest"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/internal/nttfield"
	"github.com/tunelab/tunelab/kernels/variant"
)

// RandomPolys is the number of random polynomials every variant is
// compared on (10,000 in total, split over the offset-sweep copies of a
// base variant, which share its code).
const RandomPolys = 10000

// sweepPolys is the share of one offset-sweep copy, or aligned copy of a
// base NTT variant.
const sweepPolys = 500

func unaryPolys[E nttfield.Elem](v variant.Impl[nttfield.Unary[E]]) int {
	if v.OffsetSweep || strings.Contains(v.Name, "align=32") || strings.Contains(v.Name, "align=64") {
		return sweepPolys
	}
	return RandomPolys
}

func binaryPolys[E nttfield.Elem](v variant.Impl[nttfield.Binary[E]]) int {
	if v.OffsetSweep {
		return sweepPolys
	}
	return RandomPolys
}

func runnable(t *testing.T, name string, features []string) bool {
	if !cpu.Has(features...) {
		t.Logf("skipping %s: host lacks %s", name, strings.Join(features, "+"))
		return false
	}
	return true
}

// VariantsBitExact compares every runnable assembly variant with the
// generic code on boundary inputs and random polynomials. It is the body of
// each family's TestVariantsBitExact.
func VariantsBitExact[E nttfield.Elem](t *testing.T, fd Field[E]) {
	for _, k := range fd.unaries() {
		for i, v := range k.impls {
			if !runnable(t, v.Name, v.Features) {
				continue
			}
			if err := nttfield.VerifyUnary(fd.Spec(k.op), v.Name, v.Fn, k.ref, uint64(i)+1, unaryPolys(v)); err != nil {
				t.Error(err)
			}
		}
	}
	for i, v := range fd.AsmMulNTT {
		if !runnable(t, v.Name, v.Features) {
			continue
		}
		if err := nttfield.VerifyBinary(fd.Spec("mulntt"), v.Name, v.Fn, fd.MulNTT, uint64(i)+1, binaryPolys(v)); err != nil {
			t.Error(err)
		}
	}
}

// Registered checks that every kernel of fd has its generic variant, that
// every table entry is registered, and that every runnable registered
// variant passes its own Verify. It is the body of each family's
// TestRegistered.
func Registered[E nttfield.Elem](t *testing.T, fd Field[E]) {
	want := map[string]int{
		fd.Kernel("ntt"):    len(fd.AsmNTT) + 1,
		fd.Kernel("invntt"): len(fd.AsmInvNTT) + 1,
		fd.Kernel("mulntt"): len(fd.AsmMulNTT) + 1,
	}
	for k, n := range want {
		vs := variant.Variants(k)
		if len(vs) != n {
			t.Errorf("%s: %d variants registered, want %d", k, len(vs), n)
		}
		if variant.Lookup(k, variant.GenericName) == nil {
			t.Errorf("%s: no generic variant", k)
		}
		for _, v := range vs {
			if !runnable(t, k+" "+v.Name, v.Features) {
				continue
			}
			if err := v.Verify(0, 7); err != nil {
				t.Errorf("%s %s: Verify: %v", k, v.Name, err)
			}
		}
	}
}

// GeneratedFeatures checks that every assembly variant of the field's
// kernels declares exactly the features avo derived for its function in
// the generated file asm. It is the body of each family's
// TestGeneratedFeatures.
func GeneratedFeatures[E nttfield.Elem](t *testing.T, fd Field[E], asm string) {
	kernels := []string{fd.Kernel("ntt"), fd.Kernel("invntt"), fd.Kernel("mulntt")}
	asmtest.CheckFeatures(t, asm, kernels, asmtest.OwnSymbol)
}

// VerifyDetectsMismatch makes sure the comparisons VariantsBitExact uses
// fail, naming the variant, input and coefficient, when one coefficient is
// off. It is the body of each family's TestVerifyDetectsMismatch.
func VerifyDetectsMismatch[E nttfield.Elem](t *testing.T, fd Field[E]) {
	broken := func(f *nttfield.Poly[E]) {
		fd.NTT(f)
		f[200] = (f[200] + 1) % fd.Q
	}
	err := nttfield.VerifyUnary(fd.Spec("ntt"), "broken", broken, fd.NTT, 1, 1)
	m, ok := err.(*variant.Mismatch)
	if !ok || m.Index != 200 || m.Variant != "broken" || m.Input == "" || m.Kernel != fd.Kernel("ntt") {
		t.Errorf("VerifyUnary on a broken variant returned %v, want a mismatch at index 200", err)
	}
	brokenMul := func(h, f, g *nttfield.Poly[E]) {
		fd.MulNTT(h, f, g)
		h[17] = (h[17] + 1) % fd.Q
	}
	err = nttfield.VerifyBinary(fd.Spec("mulntt"), "broken", brokenMul, fd.MulNTT, 1, 1)
	m, ok = err.(*variant.Mismatch)
	if !ok || m.Index != 17 || m.Variant != "broken" || m.Input == "" || m.Kernel != fd.Kernel("mulntt") {
		t.Errorf("VerifyBinary on a broken variant returned %v, want a mismatch at index 17", err)
	}
}
