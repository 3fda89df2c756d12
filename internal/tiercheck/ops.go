package main

import (
	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/mlkem/mlkemtest"
)

// The whole operations run every coefficient kernel the ML-KEM and
// ML-DSA packages dispatch to (samplers, packings, rounding, row
// products) besides the NTTs and Keccak: one call per 16 KiB of size (at
// least one), on seeds, randomness and messages from the stream.

// opUnit is the size one whole-operation call stands for.
const opUnit = 16 << 10

// kemOps runs ML-KEM-768 key generation, derandomized encapsulation from
// the key's bytes and decapsulation, and outputs the encapsulation key,
// the ciphertext and both shared keys.
func kemOps(x *ctx, n int) {
	for range units(n, opUnit) {
		var seed [mlkem.SeedSize]byte
		var m [32]byte
		x.rng.fill(seed[:])
		x.rng.fill(m[:])
		dk, err := mlkem.NewDecapsulationKey768(seed[:])
		if err != nil {
			x.failf("mlkem: %v", err)
			return
		}
		ek, err := mlkem.NewEncapsulationKey768(dk.EncapsulationKey().Bytes())
		if err != nil {
			x.failf("mlkem: %v", err)
			return
		}
		k, c, err := mlkemtest.Encapsulate768(ek, m[:])
		if err != nil {
			x.failf("mlkem: %v", err)
			return
		}
		k2, err := dk.Decapsulate(c)
		if err != nil {
			x.failf("mlkem: %v", err)
			return
		}
		x.calls++
		x.out(ek.Bytes())
		x.out(c)
		x.out(k)
		x.out(k2)
	}
}

// dsaOps runs ML-DSA-65 key generation, a deterministic signature of an
// n%1000-byte message and its verification from the public key's bytes
// (and of a corrupted signature), and outputs both keys, the signature
// and the two verdicts.
func dsaOps(x *ctx, n int) {
	for range units(n, opUnit) {
		var seed [mldsa.SeedSize]byte
		x.rng.fill(seed[:])
		msg := message(x, n%1000)
		sk, err := mldsa.NewPrivateKey65(seed[:])
		if err != nil {
			x.failf("mldsa: %v", err)
			return
		}
		sig, err := sk.SignDeterministic(msg, nil)
		if err != nil {
			x.failf("mldsa: %v", err)
			return
		}
		pk, err := mldsa.NewPublicKey65(sk.PublicKey().Bytes())
		if err != nil {
			x.failf("mldsa: %v", err)
			return
		}
		ok := mldsa.Verify65(pk, msg, nil, sig)
		bad := append([]byte(nil), sig...)
		bad[len(bad)/2] ^= 1
		forged := mldsa.Verify65(pk, msg, nil, bad)
		x.calls++
		x.out(pk.Bytes())
		x.out(sk.Bytes())
		x.out(sig)
		x.out([]byte{b2b(ok), b2b(forged)})
	}
}

func b2b(v bool) byte {
	if v {
		return 1
	}
	return 0
}
