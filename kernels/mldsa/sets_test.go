package mldsa

import (
	"crypto"
	"testing"

	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"
)

// A testSet is one parameter set seen through this package's public API,
// next to circl's implementation of it, so that every test runs on the
// three sets alike.
type testSet struct {
	name string
	p    *params
	// newKey is NewPrivateKeyXX.
	newKey func(seed []byte) (*testKey, error)
	// newPub is NewPublicKeyXX followed by VerifyXX.
	newPub func(b []byte) (verifyFunc, error)
	// circl derives circl's key pair of the seed.
	circl func(seed *[SeedSize]byte) *testKey
	// bench returns the benchmarked operations of impl ("tunelab" or
	// "circl") on the key pair of seed.
	bench func(impl string, seed *[SeedSize]byte) benchOps
}

// benchOps are the operations the benchmarks time, on the concrete types
// of one implementation: key generation from the seed, deterministic
// signing with an empty context, and verification.
type benchOps struct {
	keygen func()
	sign   func(msg []byte) []byte
	verify func(msg, sig []byte) bool
}

// verifyFunc verifies a signature under a fixed public key.
type verifyFunc func(msg, ctx, sig []byte) bool

// A testKey is a key pair of either implementation.
type testKey struct {
	sk, pk  []byte
	seed    []byte
	signDet func(msg, ctx []byte) ([]byte, error)
	verify  verifyFunc
	signer  crypto.Signer                         // ours: the key itself
	hedged  func(msg, ctx []byte) ([]byte, error) // circl: rnd from crypto/rand
}

// ourKey adapts a key pair of this package.
func ourKey[PK any](sk interface {
	crypto.Signer
	Bytes() []byte
	Seed() []byte
	SignDeterministic(msg, ctx []byte) ([]byte, error)
}, pk PK, pkBytes []byte, verify func(PK, []byte, []byte, []byte) bool) *testKey {
	return &testKey{
		sk: sk.Bytes(), pk: pkBytes, seed: sk.Seed(), signDet: sk.SignDeterministic, signer: sk,
		verify: func(msg, ctx, sig []byte) bool { return verify(pk, msg, ctx, sig) },
	}
}

// circlKey adapts a circl key pair: signTo is circl's SignTo on its
// private key, verify its Verify on its public key.
func circlKey(seed *[SeedSize]byte, sk, pk []byte, size int, signTo func(m, c []byte, r bool, s []byte) error, verify verifyFunc) *testKey {
	return &testKey{
		sk: sk, pk: pk, seed: seed[:], verify: verify,
		signDet: circlSigner(size, signTo, false), hedged: circlSigner(size, signTo, true),
	}
}

// circlSigner signs with circl's SignTo, randomized or not.
func circlSigner(size int, signTo func(m, c []byte, r bool, s []byte) error, randomized bool) func(msg, ctx []byte) ([]byte, error) {
	return func(msg, ctx []byte) ([]byte, error) {
		sig := make([]byte, size)
		if err := signTo(msg, ctx, randomized, sig); err != nil {
			return nil, err
		}
		return sig, nil
	}
}

var testSets = []testSet{
	{
		name: "ML-DSA-44", p: &params44,
		newKey: func(seed []byte) (*testKey, error) {
			sk, err := NewPrivateKey44(seed)
			if err != nil {
				return nil, err
			}
			return ourKey(sk, sk.PublicKey(), sk.PublicKey().Bytes(), Verify44), nil
		},
		newPub: func(b []byte) (verifyFunc, error) {
			pk, err := NewPublicKey44(b)
			if err != nil {
				return nil, err
			}
			return func(msg, ctx, sig []byte) bool { return Verify44(pk, msg, ctx, sig) }, nil
		},
		circl: func(seed *[SeedSize]byte) *testKey {
			pk, sk := mldsa44.NewKeyFromSeed(seed)
			return circlKey(seed, sk.Bytes(), pk.Bytes(), mldsa44.SignatureSize,
				func(m, c []byte, r bool, s []byte) error { return mldsa44.SignTo(sk, m, c, r, s) },
				func(m, c, s []byte) bool { return mldsa44.Verify(pk, m, c, s) })
		},
		bench: func(impl string, seed *[SeedSize]byte) benchOps {
			if impl == "circl" {
				pk, sk := mldsa44.NewKeyFromSeed(seed)
				sig := make([]byte, mldsa44.SignatureSize)
				return benchOps{
					keygen: func() { mldsa44.NewKeyFromSeed(seed) },
					sign:   func(msg []byte) []byte { must(mldsa44.SignTo(sk, msg, nil, false, sig)); return sig },
					verify: func(msg, sig []byte) bool { return mldsa44.Verify(pk, msg, nil, sig) },
				}
			}
			sk, err := NewPrivateKey44(seed[:])
			must(err)
			return benchOps{
				keygen: func() { must2(NewPrivateKey44(seed[:])) },
				sign:   func(msg []byte) []byte { return must2(sk.SignDeterministic(msg, nil)) },
				verify: func(msg, sig []byte) bool { return Verify44(sk.PublicKey(), msg, nil, sig) },
			}
		},
	},
	{
		name: "ML-DSA-65", p: &params65,
		newKey: func(seed []byte) (*testKey, error) {
			sk, err := NewPrivateKey65(seed)
			if err != nil {
				return nil, err
			}
			return ourKey(sk, sk.PublicKey(), sk.PublicKey().Bytes(), Verify65), nil
		},
		newPub: func(b []byte) (verifyFunc, error) {
			pk, err := NewPublicKey65(b)
			if err != nil {
				return nil, err
			}
			return func(msg, ctx, sig []byte) bool { return Verify65(pk, msg, ctx, sig) }, nil
		},
		circl: func(seed *[SeedSize]byte) *testKey {
			pk, sk := mldsa65.NewKeyFromSeed(seed)
			return circlKey(seed, sk.Bytes(), pk.Bytes(), mldsa65.SignatureSize,
				func(m, c []byte, r bool, s []byte) error { return mldsa65.SignTo(sk, m, c, r, s) },
				func(m, c, s []byte) bool { return mldsa65.Verify(pk, m, c, s) })
		},
		bench: func(impl string, seed *[SeedSize]byte) benchOps {
			if impl == "circl" {
				pk, sk := mldsa65.NewKeyFromSeed(seed)
				sig := make([]byte, mldsa65.SignatureSize)
				return benchOps{
					keygen: func() { mldsa65.NewKeyFromSeed(seed) },
					sign:   func(msg []byte) []byte { must(mldsa65.SignTo(sk, msg, nil, false, sig)); return sig },
					verify: func(msg, sig []byte) bool { return mldsa65.Verify(pk, msg, nil, sig) },
				}
			}
			sk, err := NewPrivateKey65(seed[:])
			must(err)
			return benchOps{
				keygen: func() { must2(NewPrivateKey65(seed[:])) },
				sign:   func(msg []byte) []byte { return must2(sk.SignDeterministic(msg, nil)) },
				verify: func(msg, sig []byte) bool { return Verify65(sk.PublicKey(), msg, nil, sig) },
			}
		},
	},
	{
		name: "ML-DSA-87", p: &params87,
		newKey: func(seed []byte) (*testKey, error) {
			sk, err := NewPrivateKey87(seed)
			if err != nil {
				return nil, err
			}
			return ourKey(sk, sk.PublicKey(), sk.PublicKey().Bytes(), Verify87), nil
		},
		newPub: func(b []byte) (verifyFunc, error) {
			pk, err := NewPublicKey87(b)
			if err != nil {
				return nil, err
			}
			return func(msg, ctx, sig []byte) bool { return Verify87(pk, msg, ctx, sig) }, nil
		},
		circl: func(seed *[SeedSize]byte) *testKey {
			pk, sk := mldsa87.NewKeyFromSeed(seed)
			return circlKey(seed, sk.Bytes(), pk.Bytes(), mldsa87.SignatureSize,
				func(m, c []byte, r bool, s []byte) error { return mldsa87.SignTo(sk, m, c, r, s) },
				func(m, c, s []byte) bool { return mldsa87.Verify(pk, m, c, s) })
		},
		bench: func(impl string, seed *[SeedSize]byte) benchOps {
			if impl == "circl" {
				pk, sk := mldsa87.NewKeyFromSeed(seed)
				sig := make([]byte, mldsa87.SignatureSize)
				return benchOps{
					keygen: func() { mldsa87.NewKeyFromSeed(seed) },
					sign:   func(msg []byte) []byte { must(mldsa87.SignTo(sk, msg, nil, false, sig)); return sig },
					verify: func(msg, sig []byte) bool { return mldsa87.Verify(pk, msg, nil, sig) },
				}
			}
			sk, err := NewPrivateKey87(seed[:])
			must(err)
			return benchOps{
				keygen: func() { must2(NewPrivateKey87(seed[:])) },
				sign:   func(msg []byte) []byte { return must2(sk.SignDeterministic(msg, nil)) },
				verify: func(msg, sig []byte) bool { return Verify87(sk.PublicKey(), msg, nil, sig) },
			}
		},
	},
}

// must panics on an error in a benchmark's setup or loop.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// must2 returns v, panicking on err.
func must2[T any](v T, err error) T {
	must(err)
	return v
}

// TestParameterSetsAPI checks the one definition of the sets' generated
// API (variants/dsasets) against params: a parsed public key holds k
// polynomials of t1, and each set's sizes are its params'.
func TestParameterSetsAPI(t *testing.T) {
	for _, c := range []struct {
		p                     *params
		polys, pk, sk, sigLen int
	}{
		{&params44, len(pkMem44{}.polys), len(pkMem44{}.enc), len(skMem44{}.skEnc), SignatureSize44},
		{&params65, len(pkMem65{}.polys), len(pkMem65{}.enc), len(skMem65{}.skEnc), SignatureSize65},
		{&params87, len(pkMem87{}.polys), len(pkMem87{}.enc), len(skMem87{}.skEnc), SignatureSize87},
	} {
		if c.polys != c.p.k || c.pk != c.p.pkSize || c.sk != c.p.skSize || c.sigLen != c.p.sigSize {
			t.Errorf("%s: generated API holds %d t1 polynomials, %d-byte public and %d-byte private keys, %d-byte signatures; params say k = %d, %d, %d, %d",
				c.p.name, c.polys, c.pk, c.sk, c.sigLen, c.p.k, c.p.pkSize, c.p.skSize, c.p.sigSize)
		}
	}
}
