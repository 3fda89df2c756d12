package mldsa

import (
	"crypto"
	"io"
)

// A PrivateKey87 is an ML-DSA-87 private key. It implements crypto.Signer.
type PrivateKey87 struct {
	priv privateKey
	pub  PublicKey87
}

// A PublicKey87 is an ML-DSA-87 public key.
type PublicKey87 struct {
	pub publicKey
}

// NewPrivateKey87 derives the ML-DSA-87 key pair of the 32-byte seed ξ
// (ML-DSA.KeyGen_internal, FIPS 204 Algorithm 6).
func NewPrivateKey87(seed []byte) (*PrivateKey87, error) {
	m := new(skMem87)
	if err := newKeyIn(&params87, seed, &m.key.priv, &m.key.pub.pub, m.skEnc[:], m.pkEnc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// skMem87 is the one allocation of an ML-DSA-87 key pair from key
// generation: the keys and their encodings. The first signature or
// verification allocates the polynomials it needs (see newKeyIn).
type skMem87 struct {
	key   PrivateKey87
	skEnc [PrivateKeySize87]byte
	pkEnc [PublicKeySize87]byte
}

// GenerateKey87 returns a fresh ML-DSA-87 key pair, its seed from
// crypto/rand (ML-DSA.KeyGen, FIPS 204 Algorithm 1).
func GenerateKey87() (*PrivateKey87, error) { return NewPrivateKey87(generateSeed()) }

// PublicKey returns the public key of sk.
func (sk *PrivateKey87) PublicKey() *PublicKey87 { return &sk.pub }

// Public returns the public key of sk, a *PublicKey87.
func (sk *PrivateKey87) Public() crypto.PublicKey { return &sk.pub }

// Bytes returns the PrivateKeySize87-byte encoding of sk (skEncode).
func (sk *PrivateKey87) Bytes() []byte { return append([]byte(nil), sk.priv.enc...) }

// Seed returns the seed ξ sk was derived from.
func (sk *PrivateKey87) Seed() []byte { return append([]byte(nil), sk.priv.seed[:]...) }

// SignDeterministic returns the deterministic ML-DSA-87 signature of msg
// with context string context (at most 255 bytes): ML-DSA.Sign with
// rnd = 0^32.
func (sk *PrivateKey87) SignDeterministic(msg, context []byte) ([]byte, error) {
	var sig [SignatureSize87]byte // on the caller's stack if it keeps no reference
	return sk.priv.signDeterministic(msg, context, sig[:])
}

// Sign returns the hedged ML-DSA-87 signature of msg (ML-DSA.Sign, FIPS
// 204 Algorithm 2) with rnd read from rand (crypto/rand if nil). opts must
// be crypto.Hash(0) (empty context) or an *Options carrying the context;
// any other hash is an error, as msg is signed itself.
func (sk *PrivateKey87) Sign(rand io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	var sig [SignatureSize87]byte // on the caller's stack if it keeps no reference
	return sk.priv.signHedged(rand, msg, opts, sig[:])
}

// Bytes returns the PublicKeySize87-byte encoding of pk (pkEncode).
func (pk *PublicKey87) Bytes() []byte { return append([]byte(nil), pk.pub.enc...) }

// NewPublicKey87 decodes an ML-DSA-87 public key (pkDecode); it fails only
// if b is not PublicKeySize87 bytes.
func NewPublicKey87(b []byte) (*PublicKey87, error) {
	m := new(pkMem87)
	if err := newPublicKeyIn(&params87, b, &m.key.pub, m.polys[:], m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// pkMem87 is the one allocation of a parsed ML-DSA-87 public key: the
// key, its polynomials and its encoding.
type pkMem87 struct {
	key   PublicKey87
	polys [8]poly // t1
	enc   [PublicKeySize87]byte
}

// Verify87 reports whether sig is a valid ML-DSA-87 signature of msg with
// context string context under pk (ML-DSA.Verify, FIPS 204 Algorithm 3).
// A malformed signature, a context longer than 255 bytes or a nil pk
// yield false.
func Verify87(pk *PublicKey87, msg, context, sig []byte) bool {
	return pk != nil && pk.pub.p != nil && verify(&pk.pub, msg, context, sig)
}
