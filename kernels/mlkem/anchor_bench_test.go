package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/lab/anchorbench"
)

// BenchmarkAnchor times ML-KEM-768 on the footing of the C anchor
// (../shared/anchors/mlkem-native/bench.c), per call, reporting the median
// as ns/op and the mean as mean-ns/op, named as the anchor names its lines
// (BenchmarkAnchor/mlkem768/keygen, ...), through the public API:
//
//	keygen: NewDecapsulationKey768 of a fresh 64-byte seed d || z and the
//	        encapsulation key's bytes (the decapsulation key's bytes are
//	        its seed);
//	encaps: NewEncapsulationKey768 of the encapsulation key's bytes
//	        (parsing, H(ek), the expansion of Â) and encapsulation with 32
//	        given random bytes (as kernels/mlkem/mlkemtest.Encapsulate768);
//	decaps: Decapsulate of the fresh ciphertext with the decapsulation key
//	        object (the anchor parses its key bytes and expands Â; ours,
//	        like crypto/mlkem's, keeps Â, ŝ and t̂ from key generation).
func BenchmarkAnchor(b *testing.B) {
	r := anchorbench.NewRand()
	var seed [SeedSize]byte
	var m [msgSize]byte
	var out [SharedKeySize + CiphertextSize768]byte
	var ekBytes []byte
	var dk *DecapsulationKey768
	newKey := func(int) {
		r.Fill(seed[:])
		var err error
		if dk, err = NewDecapsulationKey768(seed[:]); err != nil {
			b.Fatal(err)
		}
		ekBytes = dk.EncapsulationKey().Bytes()
		r.Fill(m[:])
	}
	b.Run("mlkem768/keygen", func(b *testing.B) {
		anchorbench.Run(b, func(int) { r.Fill(seed[:]) }, func(int) {
			dk, err := NewDecapsulationKey768(seed[:])
			if err != nil {
				b.Fatal(err)
			}
			ekBytes = dk.EncapsulationKey().Bytes()
		})
	})
	b.Run("mlkem768/encaps", func(b *testing.B) {
		anchorbench.Run(b, newKey, func(int) {
			ek, err := NewEncapsulationKey768(ekBytes)
			if err != nil {
				b.Fatal(err)
			}
			ek.ek.encapsulate(out[:], &m)
		})
	})
	b.Run("mlkem768/decaps", func(b *testing.B) {
		var key []byte
		anchorbench.Run(b, func(i int) {
			newKey(i)
			dk.dk.ek.encapsulate(out[:], &m)
		}, func(int) {
			var err error
			if key, err = dk.Decapsulate(out[SharedKeySize:]); err != nil {
				b.Fatal(err)
			}
		})
		if string(key) != string(out[:SharedKeySize]) {
			b.Fatal("shared keys differ")
		}
	})
}
