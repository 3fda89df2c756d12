package mldsa

import (
	"errors"
	"fmt"
	"sync"

	"github.com/tunelab/tunelab/kernels/sha3"
)

// publicKey is an ML-DSA public key of any parameter set, with what
// verification needs precomputed: Â = ExpandA(ρ), NTT(t1·2^d) and
// tr = H(pk, 64).
type publicKey struct {
	p   *params
	enc []byte // pkEncode(ρ, t1)
	rho [rhoSize]byte
	tr  [trSize]byte
	a   []poly // Â, row r at a[r·l:(r+1)·l], NTT domain; see matrix
	t1  []poly // t1, then (prepare) NTT(t1·2^d), k polynomials
	// prep makes t1 NTT(t1·2^d) once, before the first verification.
	prep sync.Once
	// aOnce expands Â into a for a key pair made by key generation,
	// which keeps none, before its first signature or verification.
	aOnce sync.Once
}

// privateKey is an ML-DSA private key of any parameter set, in the NTT
// domain as signing needs it: NTT(s1), NTT(s2), NTT(t0). Â and tr are
// those of its public key.
type privateKey struct {
	p    *params
	seed [SeedSize]byte
	key  [keySize]byte // K
	enc  []byte        // skEncode(ρ, K, tr, s1, s2, t0)
	pub  *publicKey    // the key pair's public key
	s1   []poly        // NTT(s1), l polynomials
	s2   []poly        // s2 centered, then (prepare) NTT(s2), k polynomials
	t0   []poly        // t0 centered, then (prepare) NTT(t0), k polynomials
	// prep makes s2 and t0 their NTTs once, before the first signature.
	prep sync.Once
}

// errSeedSize is returned for a seed that is not SeedSize bytes.
var errSeedSize = errors.New("mldsa: seed must be 32 bytes")

// A keyMem is the memory of a key pair: the private key's polynomials
// (l + 2k) and encoding, the public key's polynomials (t1: k) and
// encoding. The exported constructors allocate it with the key, in one
// allocation. Â is not part of it: key generation expands it into
// scratch memory (matrixPool), and the key pair expands it again, into
// memory of its own, before its first signature or verification
// (publicKey.matrix), so that a key generated to be stored or sent
// costs half the memory and the garbage collector half the work.
type keyMem struct {
	skPolys, pkPolys []poly
	skEnc, pkEnc     []byte
}

// newKeyMem returns fresh memory for a key pair of p.
func newKeyMem(p *params) keyMem {
	return keyMem{make([]poly, p.l+2*p.k), make([]poly, p.k), make([]byte, p.skSize), make([]byte, p.pkSize)}
}

// newKey is ML-DSA.KeyGen_internal(ξ) (FIPS 204 Algorithm 6) into sk and
// pk, in fresh memory, with the NTT-domain forms computed at once.
func newKey(p *params, seed []byte, sk *privateKey, pk *publicKey) error {
	if err := newKeyIn(p, seed, sk, pk, newKeyMem(p)); err != nil {
		return err
	}
	sk.prepare()
	pk.prepare()
	pk.matrix()
	return nil
}

// matrixPool holds scratch memory for Â (maxK·maxL polynomials) that key
// generation computes t with and does not keep. Â is public.
var matrixPool = sync.Pool{New: func() any { return new([maxK * maxL]poly) }}

// newKeyIn is newKey in the memory m. Â and the secret vectors are
// sampled from one batch of streams. The key pair's encodings are
// complete when it returns; the NTT-domain forms of s2, t0 (for signing)
// and t1·2^d (for verifying) are computed by the first signature or
// verification (prepare), so that a key generated to be stored or sent
// does not pay for them.
func newKeyIn(p *params, seed []byte, sk *privateKey, pk *publicKey, m keyMem) error {
	if len(seed) != SeedSize {
		return fmt.Errorf("%w, got %d", errSeedSize, len(seed))
	}
	var rho [rhoSize]byte
	var rhoP [rhoPrime]byte
	var kl [2]byte
	kl[0], kl[1] = byte(p.k), byte(p.l)
	h := newSHAKE256()
	h.Write(seed)
	h.Write(kl[:])
	h.Read(rho[:])
	h.Read(rhoP[:])
	h.Read(sk.key[:])

	copy(sk.seed[:], seed)
	sk.setMem(p, m.skPolys, m.skEnc)
	sk.pub = pk
	pk.setMem(p, &rho, nil, m.pkPolys, m.pkEnc)
	scratch := matrixPool.Get().(*[maxK * maxL]poly)
	defer matrixPool.Put(scratch)
	a := scratch[:p.k*p.l]
	var b sha3.Batch
	var sm samplers
	p.addExpandA(&b, &sm, a, &rho)
	p.addExpandS(&b, &sm, sk.s1, sk.s2, &rhoP)
	sm.run(&b)
	clear(rhoP[:])
	sk.encodeS(pk)
	sk.computeT(pk, a)
	pk.encode()
	sk.encodeT0(pk)
	return nil
}

// prepare replaces s2 and t0 by their NTTs, once.
func (sk *privateKey) prepare() { sk.prep.Do(sk.toNTT) }

// prepare replaces t1 by NTT(t1·2^d), once.
func (pk *publicKey) prepare() { pk.prep.Do(pk.t1ToNTT) }

// matrix returns Â, expanding it from ρ into fresh memory the first time
// for a key pair made by key generation (a parsed public key has it).
func (pk *publicKey) matrix() []poly {
	pk.aOnce.Do(func() {
		if pk.a != nil {
			return
		}
		a := make([]poly, pk.p.k*pk.p.l)
		pk.p.expandA(a, &pk.rho)
		pk.a = a
	})
	return pk.a
}

// setMem gives sk its polynomials (l + 2k) and encoding for p.
func (sk *privateKey) setMem(p *params, polys []poly, enc []byte) {
	sk.p = p
	sk.s1, sk.s2, sk.t0 = polys[:p.l], polys[p.l:p.l+p.k], polys[p.l+p.k:p.l+2*p.k]
	sk.enc = enc[:p.skSize]
}

// setMem gives pk Â (k·l polynomials, or nil to expand later: see
// matrix), t1 (k) and its encoding for p.
func (pk *publicKey) setMem(p *params, rho *[rhoSize]byte, a, t1 []poly, enc []byte) {
	pk.p, pk.rho = p, *rho
	pk.a, pk.t1 = a, t1[:p.k]
	pk.enc = enc[:p.pkSize]
}

// encodeS writes ρ, K, s1 and s2 (still centered) into the encoded
// private key.
func (sk *privateKey) encodeS(pk *publicKey) {
	p, eb := sk.p, sk.p.etaBytes()
	copy(sk.enc, pk.rho[:])
	copy(sk.enc[rhoSize:], sk.key[:])
	for i := range sk.s1 {
		p.packEta(sk.enc[p.skS1()+i*eb:], &sk.s1[i])
	}
	for i := range sk.s2 {
		p.packEta(sk.enc[p.skS2()+i*eb:], &sk.s2[i])
	}
}

// computeT replaces s1 by NTT(s1) and sets, for t = NTT⁻¹(Â∘NTT(s1)) + s2
// (Â in a), pk.t1 to the high part and sk.t0 to the centered low part of
// Power2Round(t). s2 stays centered.
func (sk *privateKey) computeT(pk *publicKey, a []poly) {
	l := sk.p.l
	for j := range sk.s1 {
		canonPoly(&sk.s1[j], &sk.s1[j])
		ntt(&sk.s1[j])
	}
	for i := range sk.t0 {
		t := &sk.t0[i]
		mulRow(t, a[i*l:(i+1)*l], sk.s1)
		invNTT(t)
		power2RoundT(&pk.t1[i], t, &sk.s2[i])
	}
}

// encode writes pkEncode(ρ, t1) and sets tr = H(pk, 64).
func (pk *publicKey) encode() {
	copy(pk.enc, pk.rho[:])
	for i := range pk.t1 {
		packT1(pk.enc[rhoSize+i*t1Bytes:], &pk.t1[i])
	}
	h := newSHAKE256()
	h.Write(pk.enc)
	h.Read(pk.tr[:])
}

// encodeT0 writes tr and t0 (still centered) into the encoded private key.
func (sk *privateKey) encodeT0(pk *publicKey) {
	copy(sk.enc[rhoSize+keySize:], pk.tr[:])
	for i := range sk.t0 {
		packT0(sk.enc[sk.p.skT0()+i*t0Bytes:], &sk.t0[i])
	}
}

// toNTT replaces the centered s2 and t0 by their NTTs.
func (sk *privateKey) toNTT() {
	for _, v := range [][]poly{sk.s2, sk.t0} {
		for i := range v {
			canonPoly(&v[i], &v[i])
			ntt(&v[i])
		}
	}
}

// t1ToNTT replaces t1 by NTT(t1·2^d); t1·2^d <= 1023·2^13 = Q-1 is
// canonical.
func (pk *publicKey) t1ToNTT() {
	for i := range pk.t1 {
		t := &pk.t1[i]
		for c := range t {
			t[c] <<= d
		}
		ntt(t)
	}
}

// newPublicKey is pkDecode (FIPS 204 Algorithm 23) of b into pk, with the
// precomputation of publicKey, in fresh memory.
func newPublicKey(p *params, b []byte, pk *publicKey) error {
	if err := newPublicKeyIn(p, b, pk, make([]poly, p.k*p.l+p.k), make([]byte, p.pkSize)); err != nil {
		return err
	}
	pk.prepare()
	return nil
}

// newPublicKeyIn is newPublicKey in the memory polys (k·l + k) and enc.
// Every b of the right length is a valid encoding. tr = H(pk, 64) is
// hashed beside the streams of Â.
func newPublicKeyIn(p *params, b []byte, pk *publicKey, polys []poly, enc []byte) error {
	if len(b) != p.pkSize {
		return fmt.Errorf("mldsa: %s public key must be %d bytes, got %d", p.name, p.pkSize, len(b))
	}
	pk.setMem(p, (*[rhoSize]byte)(b), polys[:p.k*p.l], polys[p.k*p.l:], enc)
	copy(pk.enc, b)
	var bt sha3.Batch
	var sm samplers
	bt.SHAKE256(pk.tr[:], pk.enc)
	p.addExpandA(&bt, &sm, pk.a, &pk.rho)
	sm.run(&bt)
	for i := range pk.t1 {
		unpackT1(&pk.t1[i], b[rhoSize+i*t1Bytes:])
	}
	return nil
}
