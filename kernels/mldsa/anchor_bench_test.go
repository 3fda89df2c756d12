package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/internal/anchorbench"
)

// BenchmarkAnchor times ML-DSA-65 on the footing of the C anchor
// (../shared/anchors/dilithium-avx2/bench.c), per call, reporting the
// median as ns/op and the mean as mean-ns/op, named as the anchor names
// its lines (BenchmarkAnchor/mldsa65/keygen, ...):
//
//	keygen: the key pair of a fresh 32-byte seed, with both keys' bytes;
//	sign:   the hedged signature (rnd from a deterministic generator) of a
//	        fresh 1 KiB message with an empty context, with the private key
//	        object (the anchor parses its key bytes and expands Â; ours
//	        keeps Â and NTT(s1), NTT(s2), NTT(t0) from key generation);
//	verify: verification of that signature from the public key's bytes
//	        (parsing, the expansion of Â, NTT(t1·2^d), tr).
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
		var key PrivateKey65
		anchorbench.Run(b, func(int) { r.Fill(seed[:]) }, func(int) {
			if err := newKey(&params65, seed[:], &key.priv, &key.pub.pub); err != nil {
				b.Fatal(err)
			}
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
