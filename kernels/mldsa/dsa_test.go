package mldsa

import (
	"bytes"
	"crypto/sha3"
	"fmt"
	"slices"
	"testing"
)

// testRand is a deterministic byte stream for test inputs (SHAKE128 of a
// label, from the standard library so that it does not depend on the
// code under test).
type testRand struct{ h *sha3.SHAKE }

func newTestRand(label string) *testRand {
	h := sha3.NewSHAKE128()
	h.Write([]byte(label))
	return &testRand{h}
}

// bytes returns the next n bytes.
func (r *testRand) bytes(n int) []byte {
	b := make([]byte, n)
	r.h.Read(b)
	return b
}

// intn returns a value in [0, m), m <= 65536.
func (r *testRand) intn(m int) int {
	b := r.bytes(2)
	return (int(b[0]) | int(b[1])<<8) % m
}

// seed returns the next 32-byte seed.
func (r *testRand) seed() *[SeedSize]byte { return (*[SeedSize]byte)(r.bytes(SeedSize)) }

// counts returns n in full mode and short under -short.
func counts(n, short int) int {
	if testing.Short() {
		return short
	}
	return n
}

// TestKeysMatchCIRCL derives key pairs from random seeds with this package
// and with circl: the encoded public and private keys must be identical,
// Seed must return the seed and NewPublicKey must round-trip. 1000 seeds
// per parameter set (20 under -short).
func TestKeysMatchCIRCL(t *testing.T) {
	for _, set := range testSets {
		t.Run(set.name, func(t *testing.T) {
			r := newTestRand("keys " + set.name)
			for i := range counts(1000, 20) {
				seed := r.seed()
				ours, want := mustKey(t, set, seed[:]), set.circl(seed)
				if !bytes.Equal(ours.pk, want.pk) {
					t.Fatalf("seed %d %x: public key differs from circl at byte %d", i, seed, firstDiff(ours.pk, want.pk))
				}
				if !bytes.Equal(ours.sk, want.sk) {
					t.Fatalf("seed %d %x: private key differs from circl at byte %d", i, seed, firstDiff(ours.sk, want.sk))
				}
				if !bytes.Equal(ours.seed, seed[:]) {
					t.Fatalf("seed %d: Seed() = %x, want %x", i, ours.seed, seed)
				}
				checkPublicRoundTrip(t, set, ours.pk)
			}
		})
	}
}

// mustKey returns this package's key pair of seed.
func mustKey(t *testing.T, set testSet, seed []byte) *testKey {
	t.Helper()
	k, err := set.newKey(seed)
	if err != nil {
		t.Fatalf("%s: NewPrivateKey(%x): %v", set.name, seed, err)
	}
	if len(k.pk) != set.p.pkSize || len(k.sk) != set.p.skSize {
		t.Fatalf("%s: key sizes %d, %d, want %d, %d", set.name, len(k.pk), len(k.sk), set.p.pkSize, set.p.skSize)
	}
	return k
}

// checkPublicRoundTrip checks that NewPublicKey accepts a generated key.
func checkPublicRoundTrip(t *testing.T, set testSet, pk []byte) {
	t.Helper()
	if _, err := set.newPub(pk); err != nil {
		t.Fatalf("%s: NewPublicKey of a generated key: %v", set.name, err)
	}
}

// TestPublicKeyDecode checks that decoding a generated public key gives
// the key generation's precomputation: NTT(t1·2^d), ρ and the encoding,
// and Â, tr and μ both from the first verification's scratch memory
// (beside the hashes of tr and μ) and from the key's own memory after it.
func TestPublicKeyDecode(t *testing.T) {
	r := newTestRand("decode")
	for _, p := range []*params{&params44, &params65, &params87} {
		for range counts(20, 2) {
			sk, pk, dec, lazy := new(privateKey), new(publicKey), new(publicKey), new(publicKey)
			seed := r.bytes(SeedSize)
			if err := newKey(p, seed, sk, pk); err != nil {
				t.Fatal(err)
			}
			// lazy: a generated key, tr known, Â not expanded
			if err := newKeyIn(p, seed, new(privateKey), lazy, make([]byte, p.skSize), make([]byte, p.pkSize)); err != nil {
				t.Fatal(err)
			}
			if err := newPublicKey(p, pk.enc, dec); err != nil {
				t.Fatalf("%s: newPublicKey: %v", p.name, err)
			}
			if !bytes.Equal(dec.enc, pk.enc) || dec.rho != pk.rho || !slices.Equal(dec.t1, pk.t1) {
				t.Fatalf("%s: decoded encoding, ρ or NTT(t1·2^d) differs", p.name)
			}
			msg, ctx := r.bytes(1+r.intn(300)), r.bytes(r.intn(256))
			var want [muSize]byte
			messageHash(&want, pk.hashTR(nil), msg, ctx)
			for use := range 4 {
				key := dec
				if use >= 2 {
					key = lazy
				}
				var mu [muSize]byte
				a, ks := key.verifyInputs(&mu, msg, ctx)
				if (ks != nil) != (use%2 == 0) {
					t.Fatalf("%s: verification %d: scratch memory %v, want it for each key's first only", p.name, use, ks != nil)
				}
				if ks != nil {
					keygenPool.Put(ks)
				}
				if !slices.Equal(a, pk.matrix()) || *key.hashTR(nil) != *pk.hashTR(nil) || mu != want {
					t.Fatalf("%s: verification %d: decoded Â, tr or μ differs", p.name, use)
				}
			}
		}
	}
}

// firstDiff returns the first index where a and b differ.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestSignaturesMatchCIRCL signs random messages (0 to 2 KiB) with random
// contexts (0 to 255 bytes) deterministically with both implementations:
// the signatures must be identical, each implementation must accept them
// with the decoded public key, and reject them for another message or
// context. circl's hedged signatures must verify here too. 200 signatures
// per parameter set (5 under -short).
func TestSignaturesMatchCIRCL(t *testing.T) {
	for _, set := range testSets {
		t.Run(set.name, func(t *testing.T) {
			r := newTestRand("signatures " + set.name)
			for i := range counts(200, 5) {
				seed := r.seed()
				msg, ctx := r.bytes(r.intn(2049)), r.bytes(r.intn(256))
				checkSignature(t, set, seed, msg, ctx, fmt.Sprintf("signature %d (seed %x, %d-byte message, %d-byte context)", i, seed, len(msg), len(ctx)))
			}
		})
	}
}

// checkSignature runs the comparisons of TestSignaturesMatchCIRCL on one
// input, described by what.
func checkSignature(t *testing.T, set testSet, seed *[SeedSize]byte, msg, ctx []byte, what string) {
	t.Helper()
	ours, ref := mustKey(t, set, seed[:]), set.circl(seed)
	sig, err := ours.signDet(msg, ctx)
	if err != nil {
		t.Fatalf("%s: SignDeterministic: %v", what, err)
	}
	want, err := ref.signDet(msg, ctx)
	if err != nil {
		t.Fatalf("%s: circl: %v", what, err)
	}
	if !bytes.Equal(sig, want) {
		t.Fatalf("%s: signature differs from circl at byte %d of %d", what, firstDiff(sig, want), len(want))
	}
	verify, err := set.newPub(ours.pk)
	if err != nil {
		t.Fatalf("%s: NewPublicKey: %v", what, err)
	}
	hedged, err := ref.hedged(msg, ctx)
	if err != nil {
		t.Fatalf("%s: circl hedged: %v", what, err)
	}
	switch {
	case !verify(msg, ctx, sig) || !ours.verify(msg, ctx, sig):
		t.Fatalf("%s: our Verify rejects the signature", what)
	case !ref.verify(msg, ctx, sig):
		t.Fatalf("%s: circl rejects our signature", what)
	case !verify(msg, ctx, hedged):
		t.Fatalf("%s: our Verify rejects circl's hedged signature", what)
	case verify(append(msg, 0), ctx, sig) || verify(msg, append(ctx, 0), sig):
		t.Fatalf("%s: our Verify accepts the signature for another message or context", what)
	}
}
