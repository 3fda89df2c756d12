package mldsa

import (
	"crypto"
	"io"
)

// A PrivateKey65 is an ML-DSA-65 private key. It implements crypto.Signer.
type PrivateKey65 struct {
	priv privateKey
	pub  PublicKey65
}

// A PublicKey65 is an ML-DSA-65 public key.
type PublicKey65 struct {
	pub publicKey
}

// NewPrivateKey65 derives the ML-DSA-65 key pair of the 32-byte seed ξ
// (ML-DSA.KeyGen_internal, FIPS 204 Algorithm 6).
func NewPrivateKey65(seed []byte) (*PrivateKey65, error) {
	m := new(skMem65)
	if err := newKeyIn(&params65, seed, &m.key.priv, &m.key.pub.pub, m.skEnc[:], m.pkEnc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// skMem65 is the one allocation of an ML-DSA-65 key pair from key
// generation: the keys and their encodings. The first signature or
// verification allocates the polynomials it needs (see newKeyIn).
type skMem65 struct {
	key   PrivateKey65
	skEnc [PrivateKeySize65]byte
	pkEnc [PublicKeySize65]byte
}

// GenerateKey65 returns a fresh ML-DSA-65 key pair, its seed from
// crypto/rand (ML-DSA.KeyGen, FIPS 204 Algorithm 1).
func GenerateKey65() (*PrivateKey65, error) { return NewPrivateKey65(generateSeed()) }

// PublicKey returns the public key of sk.
func (sk *PrivateKey65) PublicKey() *PublicKey65 { return &sk.pub }

// Public returns the public key of sk, a *PublicKey65.
func (sk *PrivateKey65) Public() crypto.PublicKey { return &sk.pub }

// Bytes returns the PrivateKeySize65-byte encoding of sk (skEncode).
func (sk *PrivateKey65) Bytes() []byte { return append([]byte(nil), sk.priv.enc...) }

// Seed returns the seed ξ sk was derived from.
func (sk *PrivateKey65) Seed() []byte { return append([]byte(nil), sk.priv.seed[:]...) }

// SignDeterministic returns the deterministic ML-DSA-65 signature of msg
// with context string context (at most 255 bytes): ML-DSA.Sign with
// rnd = 0^32.
func (sk *PrivateKey65) SignDeterministic(msg, context []byte) ([]byte, error) {
	var sig [SignatureSize65]byte // on the caller's stack if it keeps no reference
	return sk.priv.signDeterministic(msg, context, sig[:])
}

// Sign returns the hedged ML-DSA-65 signature of msg (ML-DSA.Sign, FIPS
// 204 Algorithm 2) with rnd read from rand (crypto/rand if nil). opts must
// be crypto.Hash(0) (empty context) or an *Options carrying the context;
// any other hash is an error, as msg is signed itself.
func (sk *PrivateKey65) Sign(rand io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	var sig [SignatureSize65]byte // on the caller's stack if it keeps no reference
	return sk.priv.signHedged(rand, msg, opts, sig[:])
}

// Bytes returns the PublicKeySize65-byte encoding of pk (pkEncode).
func (pk *PublicKey65) Bytes() []byte { return append([]byte(nil), pk.pub.enc...) }

// NewPublicKey65 decodes an ML-DSA-65 public key (pkDecode); it fails only
// if b is not PublicKeySize65 bytes.
func NewPublicKey65(b []byte) (*PublicKey65, error) {
	m := new(pkMem65)
	if err := newPublicKeyIn(&params65, b, &m.key.pub, m.polys[:], m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// pkMem65 is the one allocation of a parsed ML-DSA-65 public key: the
// key, its polynomials and its encoding.
type pkMem65 struct {
	key   PublicKey65
	polys [6]poly // t1
	enc   [PublicKeySize65]byte
}

// Verify65 reports whether sig is a valid ML-DSA-65 signature of msg with
// context string context under pk (ML-DSA.Verify, FIPS 204 Algorithm 3).
// A malformed signature, a context longer than 255 bytes or a nil pk
// yield false.
func Verify65(pk *PublicKey65, msg, context, sig []byte) bool {
	return pk != nil && pk.pub.p != nil && verify(&pk.pub, msg, context, sig)
}
