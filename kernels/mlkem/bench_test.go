package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// benchKernel benchmarks every runnable, non-sweep variant of kernel.
func benchKernel(b *testing.B, kernel string) {
	for _, v := range variant.Variants(kernel) {
		if v.OffsetSweep || !dispatch.Has(v.Features...) {
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

func BenchmarkMLKEMNTT(b *testing.B)    { benchKernel(b, "mlkem.ntt") }
func BenchmarkMLKEMInvNTT(b *testing.B) { benchKernel(b, "mlkem.invntt") }
func BenchmarkMLKEMMulNTT(b *testing.B) { benchKernel(b, "mlkem.mulntt") }

// BenchmarkAPI measures the public functions (the dispatched variant).
func BenchmarkAPI(b *testing.B) {
	var f, g, h [256]int16
	b.Run("NTT", func(b *testing.B) {
		for range b.N {
			NTT(&f)
		}
	})
	b.Run("InvNTT", func(b *testing.B) {
		for range b.N {
			InvNTT(&f)
		}
	})
	b.Run("MulNTT", func(b *testing.B) {
		for range b.N {
			MulNTT(&h, &f, &g)
		}
	})
}
