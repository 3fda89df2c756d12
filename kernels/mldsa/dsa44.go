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
	m := new(skMem44)
	if err := newKeyIn(&params44, seed, &m.key.priv, &m.key.pub.pub, m.skEnc[:], m.pkEnc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// skMem44 is the one allocation of an ML-DSA-44 key pair from key
// generation: the keys and their encodings. The first signature or
// verification allocates the polynomials it needs (see newKeyIn).
type skMem44 struct {
	key   PrivateKey44
	skEnc [PrivateKeySize44]byte
	pkEnc [PublicKeySize44]byte
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
	var sig [SignatureSize44]byte // on the caller's stack if it keeps no reference
	return sk.priv.signDeterministic(msg, context, sig[:])
}

// Sign returns the hedged ML-DSA-44 signature of msg (ML-DSA.Sign, FIPS
// 204 Algorithm 2) with rnd read from rand (crypto/rand if nil). opts must
// be crypto.Hash(0) (empty context) or an *Options carrying the context;
// any other hash is an error, as msg is signed itself.
func (sk *PrivateKey44) Sign(rand io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	var sig [SignatureSize44]byte // on the caller's stack if it keeps no reference
	return sk.priv.signHedged(rand, msg, opts, sig[:])
}

// Bytes returns the PublicKeySize44-byte encoding of pk (pkEncode).
func (pk *PublicKey44) Bytes() []byte { return append([]byte(nil), pk.pub.enc...) }

// NewPublicKey44 decodes an ML-DSA-44 public key (pkDecode); it fails only
// if b is not PublicKeySize44 bytes.
func NewPublicKey44(b []byte) (*PublicKey44, error) {
	m := new(pkMem44)
	if err := newPublicKeyIn(&params44, b, &m.key.pub, m.polys[:], m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// pkMem44 is the one allocation of a parsed ML-DSA-44 public key: the
// key, its polynomials and its encoding.
type pkMem44 struct {
	key   PublicKey44
	polys [4]poly // t1
	enc   [PublicKeySize44]byte
}

// Verify44 reports whether sig is a valid ML-DSA-44 signature of msg with
// context string context under pk (ML-DSA.Verify, FIPS 204 Algorithm 3).
// A malformed signature, a context longer than 255 bytes or a nil pk
// yield false.
func Verify44(pk *PublicKey44, msg, context, sig []byte) bool {
	return pk != nil && pk.pub.p != nil && verify(&pk.pub, msg, context, sig)
}
