package mlkem

import (
	"crypto/subtle"
	"fmt"
)

// ML-KEM (FIPS 203, 6 and 7) on one implementation for every parameter
// set; the exported key types of kem.go wrap these.

// An encapsulationKey is a parsed encapsulation key with what
// encapsulation needs precomputed. It is immutable once built, and keys
// copied from it share its slices.
type encapsulationKey struct {
	p   *params
	a   []poly // Â in the NTT domain, row-major: a[i·k+j] = Â[i, j]
	t   []poly // t̂
	rho [32]byte
	h   [32]byte // H(ek)
	enc []byte   // ek = ByteEncode_12(t̂) || ρ
}

// A decapsulationKey is a key pair generated from its seed d || z.
type decapsulationKey struct {
	ek   encapsulationKey
	s    []poly // ŝ
	seed [SeedSize]byte
}

// generate sets dk to the key pair of ML-KEM.KeyGen_internal
// (Algorithm 16) from the seed d || z.
func (dk *decapsulationKey) generate(p *params, seed []byte) error {
	if len(seed) != SeedSize {
		return fmt.Errorf("mlkem: %s seed is %d bytes, want %d", p.name, len(seed), SeedSize)
	}
	k := p.k
	polys := make([]poly, k*k+2*k)
	dk.s = polys[k*k+k:]
	copy(dk.seed[:], seed)
	dk.ek = encapsulationKey{p: p, a: polys[:k*k], t: polys[k*k : k*k+k]}
	sc := getScratch()
	pkeKeyGen(sc, dk, seed[:32])
	sc.release()
	dk.ek.encode()
	return nil
}

// encode sets ek.enc and ek.h from t̂ and ρ.
func (ek *encapsulationKey) encode() {
	ek.enc = make([]byte, ek.p.ekSize())
	for i := range ek.t {
		encode12(ek.enc[384*i:], &ek.t[i])
	}
	copy(ek.enc[384*ek.p.k:], ek.rho[:])
	ek.h = hashH(ek.enc)
}

// parse sets ek to the encapsulation key b, checking its length and that
// every coefficient of t̂ is below q (FIPS 203, 7.2), and expands Â.
func (ek *encapsulationKey) parse(p *params, b []byte) error {
	if len(b) != p.ekSize() {
		return fmt.Errorf("mlkem: %s encapsulation key is %d bytes, want %d", p.name, len(b), p.ekSize())
	}
	k := p.k
	polys := make([]poly, k*k+k)
	*ek = encapsulationKey{p: p, a: polys[:k*k], t: polys[k*k:]}
	for i := range ek.t {
		if !decode12(&ek.t[i], b[384*i:]) {
			return fmt.Errorf("mlkem: %s encapsulation key: a coefficient of polynomial %d is not below q", p.name, i)
		}
	}
	ek.enc = append([]byte(nil), b...)
	copy(ek.rho[:], b[384*k:])
	ek.h = hashH(b)
	sc := getScratch()
	expandMatrix(sc, ek.a, &ek.rho, k)
	sc.release()
	return nil
}

// encapsulate is ML-KEM.Encaps_internal (Algorithm 17) with randomness
// m. It returns K and c in one allocation.
func (ek *encapsulationKey) encapsulate(m *[32]byte) (sharedKey, ciphertext []byte) {
	out := make([]byte, SharedKeySize+ek.p.ctSize())
	sc := getScratch()
	copy(sc.gIn[:32], m[:])
	copy(sc.gIn[32:], ek.h[:])
	g := hashG(sc.gIn[:]) // (K, r)
	pkeEncrypt(sc, ek, out[SharedKeySize:], m, (*[32]byte)(g[32:]))
	sc.release()
	copy(out, g[:32])
	clear(g[:])
	return out[:SharedKeySize:SharedKeySize], out[SharedKeySize:]
}

// decapsulate is ML-KEM.Decaps_internal (Algorithm 18) after the
// ciphertext length check of 7.3. The re-encryption is compared and the
// implicit-rejection key J(z || c) selected in constant time.
func (dk *decapsulationKey) decapsulate(c []byte) ([]byte, error) {
	p := dk.ek.p
	if len(c) != p.ctSize() {
		return nil, fmt.Errorf("mlkem: %s ciphertext is %d bytes, want %d", p.name, len(c), p.ctSize())
	}
	sc := getScratch()
	defer sc.release()
	var m [32]byte
	pkeDecrypt(sc, dk, &m, c)
	copy(sc.gIn[:32], m[:])
	copy(sc.gIn[32:], dk.ek.h[:])
	g := hashG(sc.gIn[:]) // (K', r')
	var key [SharedKeySize]byte
	sc.h.j(&key, dk.seed[32:], c) // K̄
	ct := sc.ct[:len(c)]
	pkeEncrypt(sc, &dk.ek, ct, &m, (*[32]byte)(g[32:]))
	subtle.ConstantTimeCopy(subtle.ConstantTimeCompare(c, ct), key[:], g[:32])
	clear(g[:])
	clear(m[:])
	return key[:], nil
}
