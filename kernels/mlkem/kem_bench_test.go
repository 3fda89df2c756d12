package mlkem_test

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/mlkem"
)

// The whole-operation benchmarks run this package, crypto/mlkem (768 and
// 1024) and circl on every parameter set, as
// Benchmark<Op>/impl=<name>/params=<set>.

// benchEach runs bench for every implementation of every parameter set.
func benchEach(b *testing.B, bench func(b *testing.B, ps paramSet, im impl)) {
	for _, ps := range paramSets {
		for _, im := range append([]impl{ps.tunelab}, ps.refs...) {
			b.Run("impl="+im.name+"/params="+ps.name, func(b *testing.B) { bench(b, ps, im) })
		}
	}
}

// BenchmarkKEMKeyGen measures key generation from a seed.
func BenchmarkKEMKeyGen(b *testing.B) {
	benchEach(b, func(b *testing.B, ps paramSet, im impl) {
		seed := make([]byte, mlkem.SeedSize)
		newRand("bench").Read(seed)
		for b.Loop() {
			im.mustKey(b, seed)
		}
	})
}

// BenchmarkKEMEncapsulate measures encapsulation from the bytes of an
// encapsulation key: parsing (with the matrix expansion) and
// Encapsulate.
func BenchmarkKEMEncapsulate(b *testing.B) {
	benchEach(b, func(b *testing.B, ps paramSet, im impl) {
		seed := make([]byte, mlkem.SeedSize)
		newRand("bench").Read(seed)
		_, ek := im.mustKey(b, seed)
		enc := ek.Bytes()
		for b.Loop() {
			ek, err := im.parse(enc)
			if err != nil {
				b.Fatal(err)
			}
			ek.Encapsulate()
		}
	})
}

// BenchmarkKEMDecapsulate measures decapsulation of an honest ciphertext
// with a decapsulation key.
func BenchmarkKEMDecapsulate(b *testing.B) {
	benchEach(b, func(b *testing.B, ps paramSet, im impl) {
		seed := make([]byte, mlkem.SeedSize)
		newRand("bench").Read(seed)
		dk, ek := im.mustKey(b, seed)
		_, c := ek.Encapsulate()
		for b.Loop() {
			if _, err := dk.Decapsulate(c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
