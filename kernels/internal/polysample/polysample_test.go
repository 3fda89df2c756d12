package polysample

import (
	"crypto/sha3"
	"os"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/anchorbench"
)

func TestMain(m *testing.M) {
	RegisterVariants()
	os.Exit(m.Run())
}

// randomInputs is the number of random inputs each variant is compared
// on (after the boundary ones).
func randomInputs() int {
	if testing.Short() {
		return 200
	}
	return 5000
}

// verifyAll compares every runnable variant of s with the generic code.
func verifyAll[F any](t *testing.T, s *kernelset.Slot[F]) {
	t.Helper()
	ran := 0
	for i, im := range s.Known() {
		if !cpu.Has(im.Features...) {
			t.Logf("skipping %s %s: host lacks %v", s.Kernel(), im.Name, im.Features)
			continue
		}
		ran++
		if err := s.Verify(im.Name, im.Fn, uint64(i)+1, randomInputs()); err != nil {
			t.Error(err)
		}
	}
	t.Logf("%s: %d variants verified", s.Kernel(), ran)
}

// TestVariants compares every runnable sampler variant with the generic
// code on the boundary inputs and random ones.
func TestVariants(t *testing.T) {
	verifyAll(t, slots.rej12)
	verifyAll(t, slots.rej23)
	verifyAll(t, slots.rejEta)
	verifyAll(t, cbdSlots.cbd2)
	verifyAll(t, cbdSlots.cbd3)
	verifyAll(t, cbdSlots.expandMask)
}

// TestRegistered checks that every kernel has its generic variant and
// every table entry, and that each runnable registered variant passes
// its own Verify.
func TestRegistered(t *testing.T) {
	for kernel, want := range map[string]int{"mlkem.rejntt": len(asmRejNTT12()) + 1,
		"mldsa.rejntt": len(asmRejNTT23()) + 1, "mldsa.rejeta": len(asmRejEta()) + 1} {
		vs := variant.Variants(kernel)
		if len(vs) != want {
			t.Errorf("%s: %d registered variants, want %d", kernel, len(vs), want)
		}
		for _, v := range vs {
			if cpu.Has(v.Features...) {
				if err := v.Verify(0, 7); err != nil {
					t.Error(err)
				}
			}
		}
	}
}

// TestSpec checks the generic samplers, fed a SHAKE stream in blocks,
// against the spec's loops read three bytes (or one) at a time.
func TestSpec(t *testing.T) {
	for seed := range byte(20) {
		in := []byte{seed, 1, 2}
		stream := sha3.SumSHAKE128(in, 6*168)
		var f [256]int16
		j := 0
		for off := 0; j < n; off += 168 {
			j = rejNTT12Generic(&f, j, stream[off:off+168])
		}
		if want := specSampleNTT(stream); f != want {
			t.Fatalf("seed %d: SampleNTT differs", seed)
		}
		var a [256]int32
		j = 0
		for off := 0; j < n; off += 168 {
			j = rejNTT23Generic(&a, j, stream[off:off+168])
		}
		if want := specRejNTT(stream); a != want {
			t.Fatalf("seed %d: RejNTTPoly differs", seed)
		}
		for _, eta := range []int32{2, 4} {
			j = 0
			for off := 0; j < n; off += 136 {
				j = rejEtaGeneric(&a, j, stream[off:off+136], eta)
			}
			if want := specRejBounded(stream, eta); a != want {
				t.Fatalf("seed %d: RejBoundedPoly η = %d differs", seed, eta)
			}
		}
	}
}

func specSampleNTT(s []byte) (f [256]int16) {
	for j, i := 0, 0; j < n; i += 3 {
		d1 := int(s[i]) + 256*int(s[i+1]%16)
		d2 := int(s[i+1]/16) + 16*int(s[i+2])
		if d1 < q12 {
			f[j] = int16(d1)
			j++
		}
		if d2 < q12 && j < n {
			f[j] = int16(d2)
			j++
		}
	}
	return f
}

func specRejNTT(s []byte) (a [256]int32) {
	for j, i := 0, 0; j < n; i += 3 {
		if z := int32(s[i]) | int32(s[i+1])<<8 | int32(s[i+2]&0x7f)<<16; z < q23 {
			a[j] = z
			j++
		}
	}
	return a
}

func specRejBounded(s []byte, eta int32) (a [256]int32) {
	coeff := func(b int32) (int32, bool) {
		switch {
		case eta == 2 && b < 15:
			return 2 - b%5, true
		case eta == 4 && b < 9:
			return 4 - b, true
		}
		return 0, false
	}
	for j, i := 0, 0; j < n; i++ {
		if v, ok := coeff(int32(s[i] & 15)); ok {
			a[j] = v
			j++
		}
		if v, ok := coeff(int32(s[i] >> 4)); ok && j < n {
			a[j] = v
			j++
		}
	}
	return a
}

// TestHalfByte checks the branch-free CoeffFromHalfByte against FIPS 204
// Algorithm 15 for every nibble.
func TestHalfByte(t *testing.T) {
	for _, eta := range []int32{2, 4} {
		for b := range int32(16) {
			v, ok := newHalfByte(eta).coeff(b)
			wantOK := (eta == 2 && b < 15) || (eta == 4 && b < 9)
			want := eta - b
			if eta == 2 {
				want = 2 - b%5
			}
			if (ok == 1) != wantOK || (wantOK && v != want) {
				t.Errorf("η = %d: CoeffFromHalfByte(%d) = (%d, ok %d), want (%d, %v)", eta, b, v, ok, want, wantOK)
			}
		}
	}
}

// BenchmarkMLKEMRejNTT and the others time every runnable variant on one
// SHAKE block (median per call).
func BenchmarkMLKEMRejNTT(b *testing.B)     { anchorbench.Kernel(b, "mlkem.rejntt") }
func BenchmarkMLDSARejNTT(b *testing.B)     { anchorbench.Kernel(b, "mldsa.rejntt") }
func BenchmarkMLDSARejEta(b *testing.B)     { anchorbench.Kernel(b, "mldsa.rejeta") }
func BenchmarkMLKEMCBD2(b *testing.B)       { anchorbench.Kernel(b, "mlkem.cbd2") }
func BenchmarkMLKEMCBD3(b *testing.B)       { anchorbench.Kernel(b, "mlkem.cbd3") }
func BenchmarkMLDSAExpandMask(b *testing.B) { anchorbench.Kernel(b, "mldsa.expandmask") }
