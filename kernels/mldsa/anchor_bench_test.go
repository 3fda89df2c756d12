package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/lab/anchorbench"
)

// anchorSink keeps the keys' bytes of BenchmarkAnchor's key generation.
var anchorSink [2][]byte

// BenchmarkAnchor times ML-DSA-65 on the footing of the C anchor
// (../shared/anchors/dilithium-avx2/bench.c), per call, reporting the
// median as ns/op and the mean as mean-ns/op, named as the anchor names
// its lines (BenchmarkAnchor/mldsa65/keygen, ...):
//
//	keygen: NewPrivateKey65 of a fresh 32-byte seed, with both keys' bytes
//	        (Bytes, a copy of each);
//	sign:   the hedged signature (rnd from a deterministic generator) of a
//	        fresh 1 KiB message with an empty context, with the private key
//	        object (the anchor parses its key bytes and expands Â; ours
//	        keeps Â and NTT(s1), NTT(s2), NTT(t0) from key generation);
//	verify: verification of that signature from the public key's bytes
//	        (NewPublicKey65: parsing, the expansion of Â, NTT(t1·2^d), tr;
//	        then Verify65).
func BenchmarkAnchor(b *testing.B) {
	r := anchorbench.NewRand()
	var seed [SeedSize]byte
	var msg [1024]byte
	r.Fill(seed[:])
	sk, err := NewPrivateKey65(seed[:])
	if err != nil {
		b.Fatal(err)
	}
	b.Run("mldsa65/keygen", func(b *testing.B) {
		anchorbench.Run(b, func(int) { r.Fill(seed[:]) }, func(int) {
			key, err := NewPrivateKey65(seed[:])
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
			pk, err := NewPublicKey65(pkBytes)
			if err != nil || !Verify65(pk, msg[:], nil, sig) {
				b.Fatal("own signature rejected")
			}
		})
	})
}
