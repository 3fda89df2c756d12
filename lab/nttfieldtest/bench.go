package nttfieldtest

import (
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

// BenchKernel benchmarks every runnable, non-sweep variant of kernel, one
// sub-benchmark per variant, and checks each afterwards.
func BenchKernel(b *testing.B, kernel string) {
	for _, v := range variant.Variants(kernel) {
		if v.OffsetSweep || !cpu.Has(v.Features...) {
			continue
		}
		b.Run(v.Name, func(b *testing.B) {
			in := v.New(0, 1)
			b.ResetTimer()
			in.Run(b.N)
			b.StopTimer()
			if err := in.Check(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchAPI measures the public functions (the dispatched variant). It is
// the body of each family's BenchmarkAPI.
func BenchAPI[E polyvec.Elem](b *testing.B, fd Field[E]) {
	var f, g, h polyvec.Poly[E]
	b.Run("NTT", func(b *testing.B) {
		for range b.N {
			fd.APINTT(&f)
		}
	})
	b.Run("InvNTT", func(b *testing.B) {
		for range b.N {
			fd.APIInvNTT(&f)
		}
	})
	b.Run("MulNTT", func(b *testing.B) {
		for range b.N {
			fd.APIMulNTT(&h, &f, &g)
		}
	})
}
