package nttfieldtest

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// RandomPolys is the number of random polynomials every variant is
// compared on (10,000 in total, split over the offset-sweep copies of a
// base variant, which share its code), besides the boundary inputs.
const RandomPolys = 10000

// sweepPolys is the share of one offset-sweep copy, or aligned copy of a
// base NTT variant.
const sweepPolys = 500

// verifyPolys is how many random polynomials one call of a registered
// variant's Verify compares with the generic code, besides the boundary
// inputs (kernels/internal/nttfield's registration).
const verifyPolys = 64

// unaryPolys returns the random polynomials NTT or InvNTT variant v is
// compared on.
func unaryPolys[E polyvec.Elem](v variant.Impl[unary[E]]) int {
	if v.OffsetSweep || strings.Contains(v.Name, "align=32") || strings.Contains(v.Name, "align=64") {
		return sweepPolys
	}
	return RandomPolys
}

// binaryPolys returns the random polynomials MulNTT variant v is compared
// on.
func binaryPolys[E polyvec.Elem](v variant.Impl[binary[E]]) int {
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
// generic code on boundary inputs and random polynomials, through the
// Verify of its registered variant, called on as many seeds as its share
// of random polynomials needs. It is the body of each family's
// TestVariantsBitExact.
func VariantsBitExact[E polyvec.Elem](t *testing.T, fd Field[E]) {
	for _, k := range fd.unaries() {
		for i, v := range k.impls {
			verifyRegistered(t, fd.Kernel(k.op), v.Name, v.Features, i, unaryPolys(v))
		}
	}
	for i, v := range fd.AsmMulNTT {
		verifyRegistered(t, fd.Kernel("mulntt"), v.Name, v.Features, i, binaryPolys(v))
	}
}

// verifyRegistered calls the Verify of kernel's registered variant name,
// the i-th of its table, on seeds of its own until it has compared polys
// random polynomials; it stops at the first mismatch.
func verifyRegistered(t *testing.T, kernel, name string, features []string, i, polys int) {
	t.Helper()
	if !runnable(t, name, features) {
		return
	}
	v := variant.Lookup(kernel, name)
	if v == nil {
		t.Errorf("%s %s: not registered", kernel, name)
		return
	}
	for s := range (polys + verifyPolys - 1) / verifyPolys {
		if err := v.Verify(0, uint64(i+1)<<32|uint64(s)); err != nil {
			t.Error(err)
			return
		}
	}
}

// Registered checks that every kernel of fd has its generic variant, that
// every table entry is registered, and that every runnable registered
// variant passes its own Verify. It is the body of each family's
// TestRegistered.
func Registered[E polyvec.Elem](t *testing.T, fd Field[E]) {
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
func GeneratedFeatures[E polyvec.Elem](t *testing.T, fd Field[E], asm string) {
	kernels := []string{fd.Kernel("ntt"), fd.Kernel("invntt"), fd.Kernel("mulntt")}
	asmtest.CheckFeatures(t, asm, kernels, asmtest.OwnSymbol)
}
