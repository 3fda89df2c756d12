package mlkem

import (
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/tunelab/tunelab/kernels/internal/keycache"
	"github.com/tunelab/tunelab/kernels/sha3"
)

// ML-KEM (FIPS 203, 6 and 7) on one implementation for every parameter
// set; the exported key types of kem.go wrap these.

// An encapsulationKey is a parsed or generated encapsulation key with
// what encapsulation needs: Â and H(ek) are computed when first needed
// (keycache, encryptInputs), so it must not be copied once built.
type encapsulationKey struct {
	p   *params
	a   keycache.Matrix[poly] // Â in the NTT domain, row-major: a[i·k+j] = Â[i, j]; see encryptInputs
	t   []poly                // t̂ of a generated key; nil for a parsed one (see parse)
	rho [32]byte
	h   keycache.Digest[[32]byte] // H(ek): see hashH
	enc []byte                    // ek = ByteEncode_12(t̂) || ρ
}

// A decapsulationKey is a key pair generated from its seed d || z.
type decapsulationKey struct {
	ek   encapsulationKey
	s    []poly // ŝ
	seed [SeedSize]byte
}

// keyPolys returns the number of polynomials of a decapsulation key of
// rank k (Â, t̂, ŝ); a parsed encapsulation key has the first k² (Â).
func keyPolys(k int) int { return k*k + 2*k }

// generate sets dk to the key pair of ML-KEM.KeyGen_internal
// (Algorithm 16) from the seed d || z, in polys (keyPolys(k) of them) and
// enc (the encapsulation key's size), where K-PKE.KeyGen writes ek and
// hashes it (pkeKeyGen).
func (dk *decapsulationKey) generate(p *params, seed []byte, polys []poly, enc []byte) error {
	if len(seed) != SeedSize {
		return fmt.Errorf("mlkem: %s seed is %d bytes, want %d", p.name, len(seed), SeedSize)
	}
	k := p.k
	dk.s = polys[k*k+k : k*k+2*k]
	copy(dk.seed[:], seed)
	dk.ek = encapsulationKey{p: p, t: polys[k*k : k*k+k], enc: enc[:p.ekSize()]}
	pkeKeyGen(dk, seed[:32], polys[:k*k])
	return nil
}

// newDecapsulationKey returns the key pair of seed in fresh memory (for
// tests and the lab; the exported constructors allocate the key and its
// memory at once).
func newDecapsulationKey(p *params, seed []byte) (*decapsulationKey, error) {
	dk := new(decapsulationKey)
	if err := dk.generate(p, seed, make([]poly, keyPolys(p.k)), make([]byte, p.ekSize())); err != nil {
		return nil, err
	}
	return dk, nil
}

// decodeT sets t[:k] to t̂, decoded from ek's encoding, whose
// coefficients parse checked to be below q.
func (ek *encapsulationKey) decodeT(t []poly) {
	for i := range t[:ek.p.k] {
		decode12(&t[i], ek.enc[384*i:])
	}
}

// parse sets ek to the encapsulation key b, checking its length and that
// every coefficient of t̂ is below q (FIPS 203, 7.2), with its encoding in
// enc (the key's size). A parsed key keeps t̂ only in its encoding, which
// encryption decodes (decodeT), and leaves Â and H(ek) to its first use
// (encryptInputs): its memory, which every parse allocates and zeroes, is
// then 1.2 KB, not 8, for ML-KEM-768.
func (ek *encapsulationKey) parse(p *params, b []byte, enc []byte) error {
	if len(b) != p.ekSize() {
		return fmt.Errorf("mlkem: %s encapsulation key is %d bytes, want %d", p.name, len(b), p.ekSize())
	}
	k := p.k
	*ek = encapsulationKey{p: p, enc: enc[:p.ekSize()]}
	var t poly
	for i := range k {
		if !decode12(&t, b[384*i:]) {
			return fmt.Errorf("mlkem: %s encapsulation key: a coefficient of polynomial %d is not below q", p.name, i)
		}
	}
	copy(ek.enc, b)
	copy(ek.rho[:], b[384*k:])
	return nil
}

// newEncapsulationKey parses b into fresh memory (for tests and the lab).
func newEncapsulationKey(p *params, b []byte) (*encapsulationKey, error) {
	ek := new(encapsulationKey)
	if err := ek.parse(p, b, make([]byte, p.ekSize())); err != nil {
		return nil, err
	}
	return ek, nil
}

// matrixPool holds the scratch memory of a key's first use for Â.
var matrixPool = sync.Pool{New: func() any { return new([maxK * maxK]poly) }}

// matrix returns Â in the key's own memory, expanding it from ρ the first
// time (a generated key keeps it from key generation).
func (ek *encapsulationKey) matrix() []poly {
	k := ek.p.k
	return ek.a.Own(k*k, func(a []poly) {
		var b sha3.Batch
		var ms matrixScratch
		addMatrix(&b, &ms, &ek.rho, k)
		runMatrix(&b, a, &ms)
	})
}

// hashH returns H(ek), setting it the first time to *batched, hashed by
// the caller beside other streams, or (batched nil) hashing it.
func (ek *encapsulationKey) hashH(batched *[32]byte) *[32]byte {
	return ek.h.Get(batched, func(h *[32]byte) { *h = hashH(ek.enc) })
}

// encryptInputs returns Â and H(ek) for an encapsulation. The key's first
// use (keycache.Matrix.Transient) expands Â into pooled scratch memory,
// returned as buf for the caller to put back into matrixPool, beside
// H(ek) where not known yet: a key parsed to encapsulate once allocates no
// matrix and hashes H(ek) on a lane beside the matrix streams. Later uses
// expand Â into the key's own memory once (matrix) and keep it.
func (ek *encapsulationKey) encryptInputs() (a []poly, h *[32]byte, buf *[maxK * maxK]poly) {
	if !ek.a.Transient() {
		return ek.matrix(), ek.hashH(nil), nil
	}
	k := ek.p.k
	buf = matrixPool.Get().(*[maxK * maxK]poly)
	a = buf[:k*k]
	var b sha3.Batch
	var ms matrixScratch
	var batched *[32]byte
	if !ek.h.Known() {
		batched = new([32]byte)
		b.SHA3_256(batched, ek.enc)
	}
	addMatrix(&b, &ms, &ek.rho, k)
	runMatrix(&b, a, &ms)
	return a, ek.hashH(batched), buf
}

// encapsulate is ML-KEM.Encaps_internal (Algorithm 17) with randomness
// m, writing K || c to out (SharedKeySize + ek.p.ctSize() bytes).
func (ek *encapsulationKey) encapsulate(out []byte, m *[32]byte) {
	a, h, buf := ek.encryptInputs()
	var gIn [64]byte
	copy(gIn[:32], m[:])
	copy(gIn[32:], h[:])
	g := hashG(gIn[:]) // (K, r)
	var b sha3.Batch
	pkeEncrypt(&b, ek, a, out[SharedKeySize:SharedKeySize+ek.p.ctSize()], m, (*[32]byte)(g[32:]))
	copy(out, g[:32])
	clear(g[:])
	if buf != nil {
		matrixPool.Put(buf) // Â is public: nothing to clear
	}
}

// decapsulateTo decapsulates c into key and returns key[:], or nil and
// the error of a ciphertext of the wrong length. It is not inlined, so
// that the exported Decapsulate methods are, and the key array they pass
// stays on their caller's stack.
//
//go:noinline
func (dk *decapsulationKey) decapsulateTo(key *[SharedKeySize]byte, c []byte) ([]byte, error) {
	if err := dk.decapsulate(key, c); err != nil {
		return nil, err
	}
	return key[:], nil
}

// decapsulate is ML-KEM.Decaps_internal (Algorithm 18) after the
// ciphertext length check of 7.3, writing the shared key to key. The
// re-encryption is compared and the implicit-rejection key J(z || c)
// selected in constant time; J is hashed beside the re-encryption's noise
// streams.
func (dk *decapsulationKey) decapsulate(key *[SharedKeySize]byte, c []byte) error {
	p := dk.ek.p
	if len(c) != p.ctSize() {
		return fmt.Errorf("mlkem: %s ciphertext is %d bytes, want %d", p.name, len(c), p.ctSize())
	}
	var m [32]byte
	pkeDecrypt(dk, &m, c)
	var gIn [64]byte
	copy(gIn[:32], m[:])
	copy(gIn[32:], dk.ek.hashH(nil)[:])
	g := hashG(gIn[:]) // (K', r')
	var b sha3.Batch
	addJ(&b, key, dk.seed[32:], c) // K̄
	var ct [CiphertextSize1024]byte
	pkeEncrypt(&b, &dk.ek, dk.ek.matrix(), ct[:len(c)], &m, (*[32]byte)(g[32:]))
	subtle.ConstantTimeCopy(equalWords(c, ct[:len(c)]), key[:], g[:32])
	clear(g[:])
	clear(m[:])
	clear(gIn[:])
	return nil
}

// equalWords returns 1 if a and b, of the same length, are equal and 0
// otherwise, in time that depends on the length only: the
// re-encryption check of decapsulation (FIPS 203 Algorithm 18, line 9)
// compares 8 bytes at a time, where crypto/subtle.ConstantTimeCompare
// compares one (its byte loop took 4-8% of an ML-KEM-768 decapsulation
// in pprof on a Zen 4).
func equalWords(a, b []byte) int {
	b = b[:len(a)]
	var diff uint64
	i := 0
	for ; i+8 <= len(a); i += 8 {
		diff |= binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
	}
	for ; i < len(a); i++ {
		diff |= uint64(a[i] ^ b[i])
	}
	return int(((diff | -diff) >> 63) ^ 1)
}
