package polypack

import (
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
)

// TestGenericCompressContract: the generic mlkem.compress reads
// canonical f (every value of [0, q) in every position, and random
// polynomials) for every d of the contract, writes exactly 32·d bytes of
// dst, within the array the contract declares, and the contract's d are
// ML-KEM's widths.
func TestGenericCompressContract(t *testing.T) {
	k, ok := contract.Of("mlkem.compress")
	if !ok {
		t.Fatal("no contract for mlkem.compress")
	}
	af, _ := k.Arg("f")
	ad, _ := k.Arg("dst")
	ds, _ := k.Arg("d")
	checkWidths(t, k.Name, ds.Values)
	if !ad.Encoding || ad.Out == nil || ad.Out.Lo > -128 || ad.Out.Hi < 127 {
		t.Fatalf("%s.dst: out %v, encoding %v: not every byte of what it writes", k.Name, ad.Out, ad.Encoding)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range ds.Values {
		for i := range q + 16 {
			var f [256]int16
			for j := range f {
				f[j] = int16((i + j) % q)
				if i >= q {
					f[j] = int16(r.IntN(q))
				}
				if int64(f[j]) < af.In.Lo || int64(f[j]) > af.In.Hi {
					t.Fatalf("%s.f input %d outside %v", k.Name, f[j], *af.In)
				}
			}
			dst := make([]byte, ad.Lanes+1)
			for j := range dst {
				dst[j] = 0xa5
			}
			compressGeneric(dst, &f, int(d))
			for j := 32 * int(d); j < len(dst); j++ {
				if dst[j] != 0xa5 {
					t.Fatalf("d=%d: dst[%d] written, beyond 32·d", d, j)
				}
			}
		}
	}
}

// TestGenericDecompressContract: the generic mlkem.decompress returns
// canonical coefficients for every d of the contract, on every byte value
// in every position and random inputs of the contract's length.
func TestGenericDecompressContract(t *testing.T) {
	k, ok := contract.Of("mlkem.decompress")
	if !ok {
		t.Fatal("no contract for mlkem.decompress")
	}
	af, _ := k.Arg("f")
	as, _ := k.Arg("src")
	ds, _ := k.Arg("d")
	checkWidths(t, k.Name, ds.Values)
	if as.In == nil || as.In.Lo > -128 || as.In.Hi < 127 || as.Lanes < 32*11 {
		t.Fatalf("%s.src in %v, %d lanes: not every byte of 32·11", k.Name, as.In, as.Lanes)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, d := range ds.Values {
		for i := range 256 + 64 {
			src := make([]byte, as.Lanes)
			for j := range src {
				src[j] = byte(i)
				if i >= 256 {
					src[j] = byte(r.Uint32())
				}
			}
			var f [256]int16
			decompressGeneric(&f, src, int(d))
			for j, x := range f {
				if int64(x) < af.Out.Lo || int64(x) > af.Out.Hi {
					t.Fatalf("d=%d, input %d: f[%d] = %d outside %v", d, i, j, x, *af.Out)
				}
			}
		}
	}
}

// checkWidths fails t unless ds are ML-KEM's compression widths: du of
// ML-KEM-512/768 (10) and -1024 (11), dv (4, 5) and the message's 1.
func checkWidths(t *testing.T, kernel string, ds []int64) {
	t.Helper()
	want := []int64{1, 4, 5, 10, 11}
	if len(ds) != len(want) {
		t.Fatalf("%s.d values %v, want %v", kernel, ds, want)
	}
	for i := range want {
		if ds[i] != want[i] {
			t.Fatalf("%s.d values %v, want %v", kernel, ds, want)
		}
	}
}
