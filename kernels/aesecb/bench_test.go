package aesecb

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// The benchmarks run every registered variant of a kernel (offset sweeps
// excluded; generic only up to 1 KiB) and, in the same run, crypto/aes
// Block.Encrypt (Decrypt) in a loop (ext=stdblock) and crypto/cipher CTR's
// keystream XOR (ext=stdctr). Select with -bench, e.g.
// -bench AES128Enc with AESECB_BENCH_VARIANTS="isa=vaes512/keys=regs,isa=aesni"
// (comma-separated kernels/variant patterns; the baselines always run).

func BenchmarkAES128Enc(b *testing.B) { benchKernel(b, kernelFor(128, false)) }
func BenchmarkAES128Dec(b *testing.B) { benchKernel(b, kernelFor(128, true)) }
func BenchmarkAES256Enc(b *testing.B) { benchKernel(b, kernelFor(256, false)) }
func BenchmarkAES256Dec(b *testing.B) { benchKernel(b, kernelFor(256, true)) }

func benchKernel(b *testing.B, k *kernel) {
	for _, v := range variant.Variants(k.name) {
		if v.OffsetSweep || missingFeature(v.Features) != "" || !benchSelected(v.Name) {
			continue
		}
		b.Run(v.Name, func(b *testing.B) {
			for _, n := range sizes {
				if v.IsGeneric() && n > 1024 {
					continue
				}
				b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
					in := v.New(n, 1)
					b.SetBytes(int64(n))
					b.ResetTimer()
					in.Run(b.N)
				})
			}
		})
	}
	b.Run("ext=stdblock", func(b *testing.B) { benchStd(b, k, false) })
	b.Run("ext=stdctr", func(b *testing.B) { benchStd(b, k, true) })
}

func benchStd(b *testing.B, k *kernel, ctr bool) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("size=%d", n), func(b *testing.B) {
			blk, err := aes.NewCipher(make([]byte, k.bits/8))
			if err != nil {
				b.Fatal(err)
			}
			src, dst := make([]byte, n), make([]byte, n)
			stream := cipher.NewCTR(blk, make([]byte, 16))
			b.SetBytes(int64(n))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				switch {
				case ctr:
					stream.XORKeyStream(dst, src)
				case k.dec:
					for j := 0; j < n; j += 16 {
						blk.Decrypt(dst[j:], src[j:])
					}
				default:
					for j := 0; j < n; j += 16 {
						blk.Encrypt(dst[j:], src[j:])
					}
				}
			}
		})
	}
}

// benchSelected reports whether AESECB_BENCH_VARIANTS (if set) selects the
// variant.
func benchSelected(name string) bool {
	patterns := os.Getenv("AESECB_BENCH_VARIANTS")
	if patterns == "" {
		return true
	}
	for _, p := range strings.Split(patterns, ",") {
		if variant.MatchName(p, name) {
			return true
		}
	}
	return false
}
