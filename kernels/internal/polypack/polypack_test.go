package polypack

import (
	"os"
	"slices"
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

// verifyAll compares every runnable variant of s with the generic code on
// the boundary inputs and count random ones.
func verifyAll[F any](t *testing.T, s *kernelset.Slot[F], count int) {
	t.Helper()
	ran := 0
	for i, im := range s.Known() {
		if !cpu.Has(im.Features...) {
			t.Logf("skipping %s %s: host lacks %v", s.Kernel(), im.Name, im.Features)
			continue
		}
		ran++
		if err := s.Verify(im.Name, im.Fn, uint64(i)+1, count); err != nil {
			t.Error(err)
		}
	}
	t.Logf("%s: %d variants verified", s.Kernel(), ran)
}

// TestVariants compares every runnable packing variant with the generic
// code.
func TestVariants(t *testing.T) {
	count := 1000
	if testing.Short() {
		count = 50
	}
	verifyAll(t, slots.encode12, count)
	verifyAll(t, slots.decode12, count)
	verifyAll(t, slots.compress, count)
	verifyAll(t, slots.decompress, count)
	verifyAll(t, slots.pack, count)
	verifyAll(t, slots.unpack, count)
}

// TestCompressExhaustive runs every x in [0, q) through every runnable
// compress variant for every d against Compress_d's exact definition
// ⌊(x·2^(d+1) + q) / 2q⌋ mod 2^d, through the encoding.
func TestCompressExhaustive(t *testing.T) {
	impls := append(slices.Clone(slots.compress.Known()), variant.Impl[compressFn]{Name: variant.GenericName, Fn: compressGeneric})
	for _, im := range impls {
		if !cpu.Has(im.Features...) {
			continue
		}
		for _, d := range kemWidths {
			for start := 0; start < q; start += n {
				var f [256]int16
				for i := range f {
					f[i] = int16(min(start+i, q-1))
				}
				enc := make([]byte, 32*d)
				im.Fn(enc, &f, d)
				var back [256]int16
				unpackBits(&back, enc, d)
				for i, x := range f {
					want := (int(x)<<(d+1) + q) / (2 * q) % (1 << d)
					if int(back[i]) != want {
						t.Fatalf("%s: Compress_%d(%d) = %d, want %d", im.Name, d, x, back[i], want)
					}
				}
			}
		}
	}
}

// unpackBits sets f[i] to the d-bit field i of b.
func unpackBits(f *[256]int16, b []byte, d int) {
	for i := range f {
		v := 0
		for k := range d {
			bit := i*d + k
			v |= int(b[bit/8]>>(bit%8)&1) << k
		}
		f[i] = int16(v)
	}
}

func BenchmarkMLKEMEncode12(b *testing.B)   { anchorbench.Kernel(b, "mlkem.encode12") }
func BenchmarkMLKEMDecode12(b *testing.B)   { anchorbench.Kernel(b, "mlkem.decode12") }
func BenchmarkMLKEMCompress(b *testing.B)   { anchorbench.Kernel(b, "mlkem.compress") }
func BenchmarkMLKEMDecompress(b *testing.B) { anchorbench.Kernel(b, "mlkem.decompress") }
func BenchmarkMLDSAPack(b *testing.B)       { anchorbench.Kernel(b, "mldsa.pack") }
func BenchmarkMLDSAUnpack(b *testing.B)     { anchorbench.Kernel(b, "mldsa.unpack") }

// kemWidthsU are the d of Compress_d that ML-KEM uses.
var kemWidthsU = []uint{1, 4, 5, 10, 11}

// refCompress is ⌈(2^d/q)·x⌋ mod 2^d with ⌈y⌋ = ⌊y + 1/2⌋, in exact
// integer arithmetic.
func refCompress(x, d uint64) uint64 { return (x<<(d+1) + q) / (2 * q) % (1 << d) }

// refDecompress is ⌈(q/2^d)·y⌋.
func refDecompress(y, d uint64) uint64 { return (y*q*2 + 1<<d) >> (d + 1) }

// TestCompress checks compress for every d and every x in [0, q).
func TestCompress(t *testing.T) {
	for _, d := range kemWidthsU {
		for x := range uint64(q) {
			if got, want := uint64(compress(int16(x), d)), refCompress(x, uint64(d)); got != want {
				t.Fatalf("Compress_%d(%d) = %d, want %d", d, x, got, want)
			}
		}
	}
}

// TestDecompress checks decompress for every d and y < 2^d: the value, the
// range [0, q), and Compress_d(Decompress_d(y)) = y.
func TestDecompress(t *testing.T) {
	for _, d := range kemWidthsU {
		for y := range uint64(1) << d {
			got := decompress(uint16(y), d)
			if want := refDecompress(y, uint64(d)); uint64(got) != want || got < 0 || got >= q {
				t.Fatalf("Decompress_%d(%d) = %d, want %d in [0, q)", d, y, got, want)
			}
			if c := compress(got, d); uint64(c) != y {
				t.Fatalf("Compress_%d(Decompress_%d(%d)) = %d", d, d, y, c)
			}
		}
	}
}

// TestPackBitsWide packs and unpacks ML-DSA's z widths, which no kernel
// takes: every value, written bit by bit, comes back.
func TestPackBitsWide(t *testing.T) {
	for _, bits := range []int{18, 20} {
		var w, back [256]int32
		base := int32(1) << (bits - 1) // γ1
		for i := range w {
			w[i] = base - int32(i*2654435761%(1<<bits))
		}
		dst := make([]byte, 32*bits)
		PackBits(dst, &w, bits, base, 1)
		for i := range w {
			v := uint32(base - w[i])
			for k := range bits {
				pos := i*bits + k
				if got := uint32(dst[pos/8]>>(pos%8)) & 1; got != v>>k&1 {
					t.Fatalf("%d bits: bit %d of value %d is %d, want %d", bits, k, i, got, v>>k&1)
				}
			}
		}
		UnpackBits(&back, dst, bits, base, 1)
		if back != w {
			t.Fatalf("%d bits: UnpackBits(PackBits(w)) differs from w", bits)
		}
	}
}
