package mlkem

import (
	"bytes"
	"crypto"
	"crypto/rand"
)

// ML-KEM (FIPS 203) for the three parameter sets, with the API of
// crypto/mlkem plus ML-KEM-512. Every transform and NTT-domain product is
// the dispatched NTT, InvNTT and MulNTT of this package, every hash the
// dispatched kernels/sha3 (hash.go); the types below are thin wrappers of
// one implementation for all parameter sets (key.go). Derandomized
// encapsulation, for tests, is in kernels/mlkem/mlkemtest.

// A DecapsulationKey512 is an ML-KEM-512 decapsulation key, the private
// key of a key pair: its seed d || z, ŝ and its encapsulation key, with
// everything decapsulation needs precomputed. It implements
// crypto.Decapsulator and is safe for concurrent use. Get one from
// GenerateKey512 or NewDecapsulationKey512; the zero value is not a key.
type DecapsulationKey512 struct{ dk decapsulationKey }

// GenerateKey512 generates an ML-KEM-512 key pair from a random seed
// (crypto/rand).
func GenerateKey512() (*DecapsulationKey512, error) {
	seed := randomSeed()
	defer clear(seed[:])
	return NewDecapsulationKey512(seed[:])
}

// NewDecapsulationKey512 derives the ML-KEM-512 key pair of the
// SeedSize-byte seed d || z (ML-KEM.KeyGen_internal, FIPS 203 Algorithm
// 16). It returns an error if seed has another length.
func NewDecapsulationKey512(seed []byte) (*DecapsulationKey512, error) {
	m := new(dkMem512)
	if err := m.key.dk.generate(&params512, seed, m.polys[:], m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// dkMem512 is the one allocation of an ML-KEM-512 decapsulation key: the
// key, its polynomials (Â, t̂, ŝ) and its encapsulation key's encoding.
type dkMem512 struct {
	key   DecapsulationKey512
	polys [8]poly
	enc   [EncapsulationKeySize512]byte
}

// Bytes returns the decapsulation key as its SeedSize-byte seed d || z.
func (dk *DecapsulationKey512) Bytes() []byte { return bytes.Clone(dk.dk.seed[:]) }

// EncapsulationKey returns the encapsulation key of dk's key pair.
func (dk *DecapsulationKey512) EncapsulationKey() *EncapsulationKey512 {
	return &EncapsulationKey512{&dk.dk.ek}
}

// Encapsulator returns the encapsulation key of dk's key pair, as
// crypto.Decapsulator has it.
func (dk *DecapsulationKey512) Encapsulator() crypto.Encapsulator { return dk.EncapsulationKey() }

// Decapsulate returns the SharedKeySize-byte shared key that ciphertext
// encapsulates (ML-KEM.Decaps, FIPS 203 Algorithm 21). A ciphertext of
// CiphertextSize512 bytes that was not made for dk yields the
// implicit-rejection key J(z || c), unrelated to any encapsulated key,
// and no error; a ciphertext of another length yields an error.
func (dk *DecapsulationKey512) Decapsulate(ciphertext []byte) (sharedKey []byte, err error) {
	var key [SharedKeySize]byte // on the caller's stack if it keeps no reference
	return dk.dk.decapsulateTo(&key, ciphertext)
}

// An EncapsulationKey512 is an ML-KEM-512 encapsulation key, the public
// key of a key pair. Its first encapsulation expands the matrix Â into
// scratch memory, a later one into memory the key keeps. It implements
// crypto.Encapsulator and is safe for concurrent use. Get one from
// NewEncapsulationKey512 or DecapsulationKey512.EncapsulationKey; the
// zero value is not a key.
type EncapsulationKey512 struct{ ek *encapsulationKey }

// NewEncapsulationKey512 parses an EncapsulationKeySize512-byte ML-KEM-512
// encapsulation key. It returns an error if the length is wrong or a
// coefficient is not below q (the modulus check of FIPS 203, 7.2).
func NewEncapsulationKey512(encapsulationKey []byte) (*EncapsulationKey512, error) {
	m := new(ekMem512)
	m.key.ek = &m.ek
	if err := m.ek.parse(&params512, encapsulationKey, m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// ekMem512 is the one allocation of a parsed ML-KEM-512 encapsulation key:
// the key and its encoding (Â is expanded on use, see encryptInputs).
type ekMem512 struct {
	key EncapsulationKey512
	ek  encapsulationKey
	enc [EncapsulationKeySize512]byte
}

// Bytes returns the EncapsulationKeySize512-byte encoding of ek.
func (ek *EncapsulationKey512) Bytes() []byte { return bytes.Clone(ek.ek.enc) }

// Encapsulate generates a SharedKeySize-byte shared key and its
// CiphertextSize512-byte encapsulation to ek from random bytes
// (crypto/rand) (ML-KEM.Encaps, FIPS 203 Algorithm 20).
func (ek *EncapsulationKey512) Encapsulate() (sharedKey, ciphertext []byte) {
	var out [SharedKeySize + CiphertextSize512]byte // on the caller's stack if it keeps no reference
	ek.ek.encapsulateRandom(out[:])
	return out[:SharedKeySize:SharedKeySize], out[SharedKeySize:]
}

// A DecapsulationKey768 is an ML-KEM-768 decapsulation key, the private
// key of a key pair: its seed d || z, ŝ and its encapsulation key, with
// everything decapsulation needs precomputed. It implements
// crypto.Decapsulator and is safe for concurrent use. Get one from
// GenerateKey768 or NewDecapsulationKey768; the zero value is not a key.
type DecapsulationKey768 struct{ dk decapsulationKey }

// GenerateKey768 generates an ML-KEM-768 key pair from a random seed
// (crypto/rand).
func GenerateKey768() (*DecapsulationKey768, error) {
	seed := randomSeed()
	defer clear(seed[:])
	return NewDecapsulationKey768(seed[:])
}

// NewDecapsulationKey768 derives the ML-KEM-768 key pair of the
// SeedSize-byte seed d || z (ML-KEM.KeyGen_internal, FIPS 203 Algorithm
// 16). It returns an error if seed has another length.
func NewDecapsulationKey768(seed []byte) (*DecapsulationKey768, error) {
	m := new(dkMem768)
	if err := m.key.dk.generate(&params768, seed, m.polys[:], m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// dkMem768 is the one allocation of an ML-KEM-768 decapsulation key: the
// key, its polynomials (Â, t̂, ŝ) and its encapsulation key's encoding.
type dkMem768 struct {
	key   DecapsulationKey768
	polys [15]poly
	enc   [EncapsulationKeySize768]byte
}

// Bytes returns the decapsulation key as its SeedSize-byte seed d || z.
func (dk *DecapsulationKey768) Bytes() []byte { return bytes.Clone(dk.dk.seed[:]) }

// EncapsulationKey returns the encapsulation key of dk's key pair.
func (dk *DecapsulationKey768) EncapsulationKey() *EncapsulationKey768 {
	return &EncapsulationKey768{&dk.dk.ek}
}

// Encapsulator returns the encapsulation key of dk's key pair, as
// crypto.Decapsulator has it.
func (dk *DecapsulationKey768) Encapsulator() crypto.Encapsulator { return dk.EncapsulationKey() }

// Decapsulate returns the SharedKeySize-byte shared key that ciphertext
// encapsulates (ML-KEM.Decaps, FIPS 203 Algorithm 21). A ciphertext of
// CiphertextSize768 bytes that was not made for dk yields the
// implicit-rejection key J(z || c), unrelated to any encapsulated key,
// and no error; a ciphertext of another length yields an error.
func (dk *DecapsulationKey768) Decapsulate(ciphertext []byte) (sharedKey []byte, err error) {
	var key [SharedKeySize]byte // on the caller's stack if it keeps no reference
	return dk.dk.decapsulateTo(&key, ciphertext)
}

// An EncapsulationKey768 is an ML-KEM-768 encapsulation key, the public
// key of a key pair. Its first encapsulation expands the matrix Â into
// scratch memory, a later one into memory the key keeps. It implements
// crypto.Encapsulator and is safe for concurrent use. Get one from
// NewEncapsulationKey768 or DecapsulationKey768.EncapsulationKey; the
// zero value is not a key.
type EncapsulationKey768 struct{ ek *encapsulationKey }

// NewEncapsulationKey768 parses an EncapsulationKeySize768-byte ML-KEM-768
// encapsulation key. It returns an error if the length is wrong or a
// coefficient is not below q (the modulus check of FIPS 203, 7.2).
func NewEncapsulationKey768(encapsulationKey []byte) (*EncapsulationKey768, error) {
	m := new(ekMem768)
	m.key.ek = &m.ek
	if err := m.ek.parse(&params768, encapsulationKey, m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// ekMem768 is the one allocation of a parsed ML-KEM-768 encapsulation key:
// the key and its encoding (Â is expanded on use, see encryptInputs).
type ekMem768 struct {
	key EncapsulationKey768
	ek  encapsulationKey
	enc [EncapsulationKeySize768]byte
}

// Bytes returns the EncapsulationKeySize768-byte encoding of ek.
func (ek *EncapsulationKey768) Bytes() []byte { return bytes.Clone(ek.ek.enc) }

// Encapsulate generates a SharedKeySize-byte shared key and its
// CiphertextSize768-byte encapsulation to ek from random bytes
// (crypto/rand) (ML-KEM.Encaps, FIPS 203 Algorithm 20).
func (ek *EncapsulationKey768) Encapsulate() (sharedKey, ciphertext []byte) {
	var out [SharedKeySize + CiphertextSize768]byte // on the caller's stack if it keeps no reference
	ek.ek.encapsulateRandom(out[:])
	return out[:SharedKeySize:SharedKeySize], out[SharedKeySize:]
}

// A DecapsulationKey1024 is an ML-KEM-1024 decapsulation key, the private
// key of a key pair: its seed d || z, ŝ and its encapsulation key, with
// everything decapsulation needs precomputed. It implements
// crypto.Decapsulator and is safe for concurrent use. Get one from
// GenerateKey1024 or NewDecapsulationKey1024; the zero value is not a key.
type DecapsulationKey1024 struct{ dk decapsulationKey }

// GenerateKey1024 generates an ML-KEM-1024 key pair from a random seed
// (crypto/rand).
func GenerateKey1024() (*DecapsulationKey1024, error) {
	seed := randomSeed()
	defer clear(seed[:])
	return NewDecapsulationKey1024(seed[:])
}

// NewDecapsulationKey1024 derives the ML-KEM-1024 key pair of the
// SeedSize-byte seed d || z (ML-KEM.KeyGen_internal, FIPS 203 Algorithm
// 16). It returns an error if seed has another length.
func NewDecapsulationKey1024(seed []byte) (*DecapsulationKey1024, error) {
	m := new(dkMem1024)
	if err := m.key.dk.generate(&params1024, seed, m.polys[:], m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// dkMem1024 is the one allocation of an ML-KEM-1024 decapsulation key: the
// key, its polynomials (Â, t̂, ŝ) and its encapsulation key's encoding.
type dkMem1024 struct {
	key   DecapsulationKey1024
	polys [24]poly
	enc   [EncapsulationKeySize1024]byte
}

// Bytes returns the decapsulation key as its SeedSize-byte seed d || z.
func (dk *DecapsulationKey1024) Bytes() []byte { return bytes.Clone(dk.dk.seed[:]) }

// EncapsulationKey returns the encapsulation key of dk's key pair.
func (dk *DecapsulationKey1024) EncapsulationKey() *EncapsulationKey1024 {
	return &EncapsulationKey1024{&dk.dk.ek}
}

// Encapsulator returns the encapsulation key of dk's key pair, as
// crypto.Decapsulator has it.
func (dk *DecapsulationKey1024) Encapsulator() crypto.Encapsulator { return dk.EncapsulationKey() }

// Decapsulate returns the SharedKeySize-byte shared key that ciphertext
// encapsulates (ML-KEM.Decaps, FIPS 203 Algorithm 21). A ciphertext of
// CiphertextSize1024 bytes that was not made for dk yields the
// implicit-rejection key J(z || c), unrelated to any encapsulated key,
// and no error; a ciphertext of another length yields an error.
func (dk *DecapsulationKey1024) Decapsulate(ciphertext []byte) (sharedKey []byte, err error) {
	var key [SharedKeySize]byte // on the caller's stack if it keeps no reference
	return dk.dk.decapsulateTo(&key, ciphertext)
}

// An EncapsulationKey1024 is an ML-KEM-1024 encapsulation key, the public
// key of a key pair. Its first encapsulation expands the matrix Â into
// scratch memory, a later one into memory the key keeps. It implements
// crypto.Encapsulator and is safe for concurrent use. Get one from
// NewEncapsulationKey1024 or DecapsulationKey1024.EncapsulationKey; the
// zero value is not a key.
type EncapsulationKey1024 struct{ ek *encapsulationKey }

// NewEncapsulationKey1024 parses an EncapsulationKeySize1024-byte ML-KEM-1024
// encapsulation key. It returns an error if the length is wrong or a
// coefficient is not below q (the modulus check of FIPS 203, 7.2).
func NewEncapsulationKey1024(encapsulationKey []byte) (*EncapsulationKey1024, error) {
	m := new(ekMem1024)
	m.key.ek = &m.ek
	if err := m.ek.parse(&params1024, encapsulationKey, m.enc[:]); err != nil {
		return nil, err
	}
	return &m.key, nil
}

// ekMem1024 is the one allocation of a parsed ML-KEM-1024 encapsulation key:
// the key and its encoding (Â is expanded on use, see encryptInputs).
type ekMem1024 struct {
	key EncapsulationKey1024
	ek  encapsulationKey
	enc [EncapsulationKeySize1024]byte
}

// Bytes returns the EncapsulationKeySize1024-byte encoding of ek.
func (ek *EncapsulationKey1024) Bytes() []byte { return bytes.Clone(ek.ek.enc) }

// Encapsulate generates a SharedKeySize-byte shared key and its
// CiphertextSize1024-byte encapsulation to ek from random bytes
// (crypto/rand) (ML-KEM.Encaps, FIPS 203 Algorithm 20).
func (ek *EncapsulationKey1024) Encapsulate() (sharedKey, ciphertext []byte) {
	var out [SharedKeySize + CiphertextSize1024]byte // on the caller's stack if it keeps no reference
	ek.ek.encapsulateRandom(out[:])
	return out[:SharedKeySize:SharedKeySize], out[SharedKeySize:]
}

// randomSeed returns SeedSize random bytes.
func randomSeed() [SeedSize]byte {
	var seed [SeedSize]byte
	rand.Read(seed[:])
	return seed
}

// encapsulateRandom is ML-KEM.Encaps (Algorithm 20): encapsulation with
// 32 random bytes, writing K || c to out.
func (ek *encapsulationKey) encapsulateRandom(out []byte) {
	var m [msgSize]byte
	rand.Read(m[:])
	ek.encapsulate(out, &m)
	clear(m[:])
}
