package anchorbench_test

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/mlkem/mlkemtest"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/anchorbench"
)

// anchorSink keeps what the timed calls return.
var anchorSink [2][]byte

// BenchmarkAnchor times the whole operations on the footing of the C
// anchors (../shared/anchors: mlkem-native/bench.c and
// dilithium-avx2/bench.c), per call, reporting the median as ns/op and the
// mean as mean-ns/op, named as the anchors name their lines
// (BenchmarkAnchor/mlkem768/keygen, ...), through the public APIs:
//
//	mlkem768/keygen: NewDecapsulationKey768 of a fresh 64-byte seed d || z
//	        and the encapsulation key's bytes (the decapsulation key's bytes
//	        are its seed);
//	mlkem768/encaps: mlkemtest.Encapsulate768 with 32 given random bytes,
//	        which parses the encapsulation key's bytes (a copy of them,
//	        H(ek), the expansion of Â) before encapsulating;
//	mlkem768/decaps: Decapsulate of a fresh ciphertext with the
//	        decapsulation key object (the anchor parses its key bytes and
//	        expands Â; ours, like crypto/mlkem's, keeps Â, ŝ and t̂ from key
//	        generation);
//	mldsa65/keygen: NewPrivateKey65 of a fresh 32-byte seed, with both
//	        keys' bytes (Bytes, a copy of each);
//	mldsa65/sign: the hedged signature (rnd from a deterministic
//	        generator) of a fresh 1 KiB message with an empty context, with
//	        the private key object (the anchor parses its key bytes and
//	        expands Â; ours keeps Â and NTT(s1), NTT(s2), NTT(t0) from the
//	        first signature);
//	mldsa65/verify: verification of that signature from the public key's
//	        bytes (NewPublicKey65, then Verify65).
//
// It runs in this package's test binary, which registers no lab variant,
// as a production program: in kernels/mlkem's, whose TestMain registers
// every generated variant, the garbage collector marks that registry on
// every cycle, which a program using the API never pays.
func BenchmarkAnchor(b *testing.B) {
	if n := len(variant.Kernels()); n != 0 {
		b.Fatalf("%d kernels registered: not a production program's heap", n)
	}
	benchMLKEM768(b)
	benchMLDSA65(b)
}

// benchMLKEM768 times ML-KEM-768 key generation, encapsulation and
// decapsulation.
func benchMLKEM768(b *testing.B) {
	r := anchorbench.NewRand()
	var seed [mlkem.SeedSize]byte
	var m [32]byte
	var dk *mlkem.DecapsulationKey768
	var ek *mlkem.EncapsulationKey768
	var ct []byte
	newKey := func(int) {
		r.Fill(seed[:])
		var err error
		if dk, err = mlkem.NewDecapsulationKey768(seed[:]); err != nil {
			b.Fatal(err)
		}
		ek = dk.EncapsulationKey()
		r.Fill(m[:])
	}
	b.Run("mlkem768/keygen", func(b *testing.B) {
		anchorbench.Run(b, func(int) { r.Fill(seed[:]) }, func(int) {
			dk, err := mlkem.NewDecapsulationKey768(seed[:])
			if err != nil {
				b.Fatal(err)
			}
			anchorSink[0] = dk.EncapsulationKey().Bytes()
		})
	})
	b.Run("mlkem768/encaps", func(b *testing.B) {
		anchorbench.Run(b, newKey, func(int) {
			var err error
			if anchorSink[0], anchorSink[1], err = mlkemtest.Encapsulate768(ek, m[:]); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("mlkem768/decaps", func(b *testing.B) {
		var want []byte
		anchorbench.Run(b, func(i int) {
			newKey(i)
			var err error
			if want, ct, err = mlkemtest.Encapsulate768(ek, m[:]); err != nil {
				b.Fatal(err)
			}
		}, func(int) {
			var err error
			if anchorSink[0], err = dk.Decapsulate(ct); err != nil {
				b.Fatal(err)
			}
		})
		if string(anchorSink[0]) != string(want) {
			b.Fatal("shared keys differ")
		}
	})
}

// benchMLDSA65 times ML-DSA-65 key generation, signing and verification.
func benchMLDSA65(b *testing.B) {
	r := anchorbench.NewRand()
	var seed [mldsa.SeedSize]byte
	var msg [1024]byte
	r.Fill(seed[:])
	sk, err := mldsa.NewPrivateKey65(seed[:])
	if err != nil {
		b.Fatal(err)
	}
	b.Run("mldsa65/keygen", func(b *testing.B) {
		anchorbench.Run(b, func(int) { r.Fill(seed[:]) }, func(int) {
			key, err := mldsa.NewPrivateKey65(seed[:])
			if err != nil {
				b.Fatal(err)
			}
			anchorSink[0], anchorSink[1] = key.PublicKey().Bytes(), key.Bytes()
		})
	})
	b.Run("mldsa65/sign", func(b *testing.B) {
		anchorbench.Run(b, func(int) { r.Fill(msg[:]) }, func(int) {
			if _, err := sk.Sign(r, msg[:], nil); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("mldsa65/verify", func(b *testing.B) {
		pkBytes := sk.PublicKey().Bytes()
		var sig []byte
		anchorbench.Run(b, func(int) {
			r.Fill(msg[:])
			if sig, err = sk.Sign(r, msg[:], nil); err != nil {
				b.Fatal(err)
			}
		}, func(int) {
			pk, err := mldsa.NewPublicKey65(pkBytes)
			if err != nil || !mldsa.Verify65(pk, msg[:], nil, sig) {
				b.Fatal("own signature rejected")
			}
		})
	})
}
