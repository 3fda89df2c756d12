package mldsa

import (
	"crypto"
	"io"
)

// A PrivateKey44 is an ML-DSA-44 private key. It implements crypto.Signer.
type PrivateKey44 struct {
	priv privateKey
	pub  PublicKey44
}

// A PublicKey44 is an ML-DSA-44 public key.
type PublicKey44 struct {
	pub publicKey
}

// NewPrivateKey44 derives the ML-DSA-44 key pair of the 32-byte seed ξ
// (ML-DSA.KeyGen_internal, FIPS 204 Algorithm 6).
func NewPrivateKey44(seed []byte) (*PrivateKey44, error) {
	sk := new(PrivateKey44)
	if err := newKey(&params44, seed, &sk.priv, &sk.pub.pub); err != nil {
		return nil, err
	}
	return sk, nil
}

// GenerateKey44 returns a fresh ML-DSA-44 key pair, its seed from
// crypto/rand (ML-DSA.KeyGen, FIPS 204 Algorithm 1).
func GenerateKey44() (*PrivateKey44, error) { return NewPrivateKey44(generateSeed()) }

// PublicKey returns the public key of sk.
func (sk *PrivateKey44) PublicKey() *PublicKey44 { return &sk.pub }

// Public returns the public key of sk, a *PublicKey44.
func (sk *PrivateKey44) Public() crypto.PublicKey { return &sk.pub }

// Bytes returns the PrivateKeySize44-byte encoding of sk (skEncode).
func (sk *PrivateKey44) Bytes() []byte { return append([]byte(nil), sk.priv.enc...) }

// Seed returns the seed ξ sk was derived from.
func (sk *PrivateKey44) Seed() []byte { return append([]byte(nil), sk.priv.seed[:]...) }

// SignDeterministic returns the deterministic ML-DSA-44 signature of msg
// with context string context (at most 255 bytes): ML-DSA.Sign with
// rnd = 0^32.
func (sk *PrivateKey44) SignDeterministic(msg, context []byte) ([]byte, error) {
	return signDeterministic(&sk.priv, &sk.pub.pub, msg, context)
}

// Sign returns the hedged ML-DSA-44 signature of msg (ML-DSA.Sign, FIPS
// 204 Algorithm 2) with rnd read from rand (crypto/rand if nil). opts must
// be crypto.Hash(0) (empty context) or an *Options carrying the context;
// any other hash is an error, as msg is signed itself.
func (sk *PrivateKey44) Sign(rand io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	return signHedged(&sk.priv, &sk.pub.pub, rand, msg, opts)
}

// Bytes returns the PublicKeySize44-byte encoding of pk (pkEncode).
func (pk *PublicKey44) Bytes() []byte { return append([]byte(nil), pk.pub.enc...) }

// NewPublicKey44 decodes an ML-DSA-44 public key (pkDecode); it fails only
// if b is not PublicKeySize44 bytes.
func NewPublicKey44(b []byte) (*PublicKey44, error) {
	pk := new(PublicKey44)
	if err := newPublicKey(&params44, b, &pk.pub); err != nil {
		return nil, err
	}
	return pk, nil
}

// Verify44 reports whether sig is a valid ML-DSA-44 signature of msg with
// context string context under pk (ML-DSA.Verify, FIPS 204 Algorithm 3).
// A malformed signature, a context longer than 255 bytes or a nil pk
// yield false.
func Verify44(pk *PublicKey44, msg, context, sig []byte) bool {
	return pk != nil && pk.pub.p != nil && verify(&pk.pub, msg, context, sig)
}
