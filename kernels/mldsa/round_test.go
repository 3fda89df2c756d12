package mldsa

import (
	"fmt"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/anchorbench"
)

// roundVariants returns every registered variant of the rounding kernels
// this host can run, with a function verifying it against the generic
// code on count random inputs.
func roundVariants(t *testing.T) map[string]func(count int) error {
	out := map[string]func(int) error{}
	add := func(kernel string, verify func(v *variant.Variant, count int) error) {
		for _, v := range variant.Variants(kernel) {
			if !cpu.Has(v.Features...) {
				t.Logf("skipping %s %s: host lacks %v", kernel, v.Name, v.Features)
				continue
			}
			out[kernel+" "+v.Name] = func(count int) error { return verify(v, count) }
		}
	}
	add("mldsa.lowbits", func(v *variant.Variant, count int) error {
		return roundKernels.lowBits.Verify(v.Name, implOf(roundKernels.lowBits.Known(), v.Name, lowBitsGeneric), 1, count)
	})
	add("mldsa.makehint", func(v *variant.Variant, count int) error {
		return roundKernels.makeHint.Verify(v.Name, implOf(roundKernels.makeHint.Known(), v.Name, makeHintGeneric), 2, count)
	})
	add("mldsa.response", func(v *variant.Variant, count int) error {
		return roundKernels.response.Verify(v.Name, implOf(roundKernels.response.Known(), v.Name, responseGeneric), 3, count)
	})
	add("mldsa.power2round", func(v *variant.Variant, count int) error {
		return roundKernels.power2Round.Verify(v.Name, implOf(roundKernels.power2Round.Known(), v.Name, power2RoundGeneric), 5, count)
	})
	add("mldsa.w1pack4", func(v *variant.Variant, count int) error {
		return roundKernels.w1Pack4.Verify(v.Name, implOf(roundKernels.w1Pack4.Known(), v.Name, w1Pack4Generic), 4, count)
	})
	return out
}

// implOf returns the function of the variant named name among impls, or
// generic.
func implOf[F any](impls []variant.Impl[F], name string, generic F) F {
	if im := variant.Find(impls, name); im != nil {
		return im.Fn
	}
	return generic
}

// TestRoundVariants compares every runnable rounding variant with the
// generic code on the boundary inputs and 2000 random polynomials (100
// under -short), for both γ2.
func TestRoundVariants(t *testing.T) {
	n := 0
	for name, verify := range roundVariants(t) {
		n++
		if err := verify(counts(2000, 100)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n < 5 {
		t.Errorf("%d rounding variants verified, want at least the four generic ones", n)
	}
}

// TestDecomposeExhaustive runs every r in [0, q) through every runnable
// lowbits and w1pack4 variant (w = r, cs2 = 0; a stride of 61 under
// -short), for both γ2, against the generic code.
func TestDecomposeExhaustive(t *testing.T) {
	stride := int32(1)
	if testing.Short() {
		stride = 61
	}
	for _, im := range append(roundKernels.lowBits.Known(), variant.Impl[lowBitsFn]{Name: variant.GenericName, Fn: lowBitsGeneric}) {
		if !cpu.Has(im.Features...) {
			continue
		}
		for _, set := range roundSets {
			c := newRoundConsts(set.rd, Q)
			var zero poly
			for start := int32(0); start < Q; start += n * stride {
				var w, ref poly
				for i := range w {
					w[i] = min(start+int32(i)*stride, Q-1)
				}
				ref = w
				var got, want [n]uint8
				im.Fn(&w, &zero, &got, &c)
				lowBitsGeneric(&ref, &zero, &want, &c)
				if got != want {
					t.Fatalf("lowbits %s, m = %d: HighBits differs from the generic code from r = %d on", im.Name, set.rd.m, start)
				}
				for i, r := range w {
					if hi, _ := set.rd.decompose(r); int32(got[i]) != hi {
						t.Fatalf("lowbits %s: HighBits(%d) = %d, want %d", im.Name, r, got[i], hi)
					}
				}
			}
		}
	}
	for _, im := range roundKernels.w1Pack4.Known() {
		if !cpu.Has(im.Features...) {
			continue
		}
		c := newRoundConsts(rounding32, 0)
		for start := int32(0); start < Q; start += n * stride {
			var w poly
			for i := range w {
				w[i] = min(start+int32(i)*stride, Q-1)
			}
			var got, want [n / 2]byte
			im.Fn(&got, &w, &c)
			w1Pack4Generic(&want, &w, &c)
			if got != want {
				t.Fatalf("w1pack4 %s: differs from the generic code from r = %d on", im.Name, start)
			}
		}
	}
}

// TestRoundGenericSpec checks the generic rounding kernels against the
// per-coefficient functions of arith.go (Decompose, MakeHint through
// highBits, centered).
func TestRoundGenericSpec(t *testing.T) {
	r := newTestRand("round spec")
	for trial := range counts(50, 5) {
		for _, set := range roundSets {
			var w, cs2, ct0 poly
			for i := range w {
				w[i], cs2[i], ct0[i] = int32(r.intn(Q)), int32(r.intn(Q)), int32(r.intn(Q))
			}
			c := newRoundConsts(set.rd, (Q-1)/2)
			rw := w
			var r1, h [n]uint8
			if lowBitsGeneric(&rw, &cs2, &r1, &c) != 0 {
				t.Fatal("lowbits rejects with limit (q−1)/2")
			}
			count, _ := makeHintGeneric(&rw, &ct0, &r1, &h, &c)
			want := 0
			for i := range w {
				v := canon(w[i] - cs2[i])
				if rw[i] != v || int32(r1[i]) != set.rd.highBits(v) {
					t.Fatalf("trial %d: lowbits coefficient %d", trial, i)
				}
				hint := set.rd.highBits(canon(v+ct0[i]-Q)) != set.rd.highBits(v)
				if (h[i] == 1) != hint {
					t.Fatalf("trial %d: hint %d = %d, want %v", trial, i, h[i], hint)
				}
				if hint {
					want++
				}
			}
			if int(count) != want {
				t.Fatalf("trial %d: %d hints, want %d", trial, count, want)
			}
		}
	}
	_ = fmt.Sprint
}

// BenchmarkMLDSALowBits and the others time every runnable rounding
// variant on one polynomial (median per call).
func BenchmarkMLDSALowBits(b *testing.B)     { anchorbench.Kernel(b, "mldsa.lowbits") }
func BenchmarkMLDSAMakeHint(b *testing.B)    { anchorbench.Kernel(b, "mldsa.makehint") }
func BenchmarkMLDSAResponse(b *testing.B)    { anchorbench.Kernel(b, "mldsa.response") }
func BenchmarkMLDSAW1Pack4(b *testing.B)     { anchorbench.Kernel(b, "mldsa.w1pack4") }
func BenchmarkMLDSAPower2Round(b *testing.B) { anchorbench.Kernel(b, "mldsa.power2round") }

// TestMatVecVariants compares every runnable row-product variant with
// the generic code on the boundary inputs and 2000 random rows (100
// under -short) of every length up to maxL.
func TestMatVecVariants(t *testing.T) {
	for i, im := range matVec.Known() {
		if !cpu.Has(im.Features...) {
			continue
		}
		if err := matVec.Verify(im.Name, im.Fn, uint64(i)+1, counts(2000, 100)); err != nil {
			t.Error(err)
		}
	}
}

// BenchmarkMLDSAMatVec times every runnable row-product variant on an
// ML-DSA-65 row (median per call).
func BenchmarkMLDSAMatVec(b *testing.B) { anchorbench.Kernel(b, "mldsa.matvec") }
