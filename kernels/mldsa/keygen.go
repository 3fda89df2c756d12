package mldsa

import (
	"errors"
	"fmt"
	"sync"

	"github.com/tunelab/tunelab/kernels/internal/keycache"
	"github.com/tunelab/tunelab/kernels/sha3"
)

// publicKey is an ML-DSA public key of any parameter set, with what
// verification needs precomputed: Â = ExpandA(ρ), NTT(t1·2^d) and
// tr = H(pk, 64), each computed when first needed (see verifyInputs).
type publicKey struct {
	p   *params
	enc []byte // pkEncode(ρ, t1)
	rho [rhoSize]byte
	tr  keycache.Digest[[trSize]byte] // H(pk, 64): see hashTR
	a   keycache.Matrix[poly]         // Â, row r at [r·l, (r+1)·l), NTT domain: see matrix, verifyInputs
	t1  []poly                        // t1, then (prepare) NTT(t1·2^d), k polynomials; nil until prepare for a key pair made by key generation
	// prep makes t1 NTT(t1·2^d) once, before the first verification.
	prep sync.Once
}

// privateKey is an ML-DSA private key of any parameter set, in the NTT
// domain as signing needs it: NTT(s1), NTT(s2), NTT(t0), decoded from
// its encoding by the first signature (prepare). Â and tr are those of
// its public key.
type privateKey struct {
	p    *params
	seed [SeedSize]byte
	key  [keySize]byte // K
	enc  []byte        // skEncode(ρ, K, tr, s1, s2, t0)
	pub  *publicKey    // the key pair's public key
	s1   []poly        // NTT(s1), l polynomials; nil until prepare
	s2   []poly        // NTT(s2), k polynomials; nil until prepare
	t0   []poly        // NTT(t0), k polynomials; nil until prepare
	// prep decodes s1, s2 and t0 into their NTTs once, before the first
	// signature.
	prep sync.Once
}

// errSeedSize is returned for a seed that is not SeedSize bytes.
var errSeedSize = errors.New("mldsa: seed must be 32 bytes")

// newKey is ML-DSA.KeyGen_internal(ξ) (FIPS 204 Algorithm 6) into sk and
// pk, in fresh memory, with the NTT-domain forms computed at once.
func newKey(p *params, seed []byte, sk *privateKey, pk *publicKey) error {
	if err := newKeyIn(p, seed, sk, pk, make([]byte, p.skSize), make([]byte, p.pkSize)); err != nil {
		return err
	}
	sk.prepare()
	pk.prepare()
	pk.matrix()
	return nil
}

// A keygenScratch is the memory key generation computes in and keeps
// none of: Â (public), s1, s2 and the row of t being rounded (secret).
// The key pair keeps only its encodings.
type keygenScratch struct {
	a     [maxK * maxL]poly
	s1    [maxL]poly
	s2    [maxK]poly
	t, t1 poly
}

// keygenPool holds the scratch memory of key generation.
var keygenPool = sync.Pool{New: func() any { return new(keygenScratch) }}

// release clears the secret polynomials of ks (s1, s2 and t, which
// holds t0) and returns ks to keygenPool.
func (ks *keygenScratch) release() {
	clear(ks.s1[:])
	clear(ks.s2[:])
	clear(ks.t[:])
	keygenPool.Put(ks)
}

// newKeyIn is ML-DSA.KeyGen_internal(ξ) into sk and pk, with their
// encodings in skEnc and pkEnc (p.skSize and p.pkSize bytes). Â and the
// secret vectors are sampled into pooled scratch memory in two batches:
// the secret vectors with Â's first k−2 rows, then Â's last two rows
// beside the absorption into tr = H(pk) of pk's prefix known by then (ρ
// and the first k−2 rows of t1), so that most of H(pk)'s long chain of
// permutations runs on lanes beside the matrix streams instead of after
// them. The key pair keeps only its encodings, from which the first
// signature decodes NTT(s1), NTT(s2), NTT(t0) and the first verification
// NTT(t1·2^d) (prepare), and before which Â is expanded again into
// memory of the key's own (matrix), so that a key generated to be stored
// or sent costs its encodings' memory and no more.
func newKeyIn(p *params, seed []byte, sk *privateKey, pk *publicKey, skEnc, pkEnc []byte) error {
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
	sk.p, sk.enc, sk.pub = p, skEnc[:p.skSize], pk
	pk.p, pk.rho, pk.enc = p, rho, pkEnc[:p.pkSize]
	ks := keygenPool.Get().(*keygenScratch)
	defer ks.release()
	first := p.k - 2 // rows of Â in the first batch
	var b sha3.Batch
	var sm samplers
	p.addExpandARows(&b, &sm, ks.a[:p.k*p.l], &rho, 0, first)
	p.addExpandS(&b, &sm, ks.s1[:p.l], ks.s2[:p.k], &rhoP)
	sm.run(&b)
	clear(rhoP[:])
	sk.encodeS(ks)
	copy(pk.enc, rho[:])
	ks.nttS1(p)
	ks.computeT(p, 0, first, sk.enc, pk.enc)
	var hpk shake // tr = H(pk, 64)
	absorbed := addH(&b, &hpk, pk.enc[:rhoSize+first*t1Bytes])
	p.addExpandARows(&b, &sm, ks.a[:p.k*p.l], &rho, first, p.k)
	sm.run(&b)
	ks.computeT(p, first, p.k, sk.enc, pk.enc)
	hpk.Write(pk.enc[absorbed:])
	var tr [trSize]byte
	hpk.Read(tr[:])
	copy(sk.enc[rhoSize+keySize:], pk.hashTR(&tr)[:])
	return nil
}

// prepare sets s1, s2 and t0 to their NTTs, once.
func (sk *privateKey) prepare() { sk.prep.Do(sk.decodeNTT) }

// prepare sets t1 to NTT(t1·2^d), once.
func (pk *publicKey) prepare() { pk.prep.Do(pk.t1ToNTT) }

// matrix returns Â in the key's own memory, expanding it from ρ the
// first time.
func (pk *publicKey) matrix() []poly {
	return pk.a.Own(pk.p.k*pk.p.l, func(a []poly) { pk.p.expandA(a, &pk.rho) })
}

// hashTR returns tr = H(pk, 64), setting it the first time to *batched,
// hashed by the caller beside other streams, or (batched nil) hashing it.
func (pk *publicKey) hashTR(batched *[trSize]byte) *[trSize]byte {
	return pk.tr.Get(batched, func(tr *[trSize]byte) {
		h := newSHAKE256()
		h.Write(pk.enc)
		h.Read(tr[:])
	})
}

// verifyInputs returns Â for a verification of msg with context ctx and
// sets mu to μ = H(tr || M', 64). The key's first use
// (keycache.Matrix.Transient) expands Â into pooled scratch memory,
// returned as ks for the caller to put back into keygenPool, in one
// batch with tr = H(pk) where not known yet and μ, on a lane that starts
// once tr is complete (sha3.Batch.After): a key parsed to verify one
// signature allocates no matrix (30 KiB for ML-DSA-65), and its two long
// hash chains run on lanes beside the matrix streams. Later uses expand
// Â into the key's own memory once (matrix) and keep it.
func (pk *publicKey) verifyInputs(mu *[muSize]byte, msg, ctx []byte) (a []poly, ks *keygenScratch) {
	if !pk.a.Transient() {
		messageHash(mu, pk.hashTR(nil), msg, ctx)
		return pk.matrix(), nil
	}
	p := pk.p
	ks = keygenPool.Get().(*keygenScratch)
	a = ks.a[:p.k*p.l]
	var b sha3.Batch
	var sm samplers
	var hdr [2 + maxCtx]byte // 0 || |ctx| || ctx
	hdr[1] = byte(len(ctx))
	prefix := hdr[:2+copy(hdr[2:], ctx)]
	var batched *[trSize]byte
	if pk.tr.Known() {
		b.SHAKE256(mu[:], pk.hashTR(nil)[:], prefix, msg)
	} else {
		batched = new([trSize]byte)
		tr := b.SHAKE256(batched[:], pk.enc)
		b.After(b.SHAKE256(mu[:], batched[:], prefix, msg), tr)
	}
	p.addExpandA(&b, &sm, a, &pk.rho)
	sm.run(&b)
	pk.hashTR(batched)
	return a, ks
}

// setMem gives pk t1 (k polynomials) and its encoding for p.
func (pk *publicKey) setMem(p *params, rho *[rhoSize]byte, t1 []poly, enc []byte) {
	pk.p, pk.rho = p, *rho
	pk.t1 = t1[:p.k]
	pk.enc = enc[:p.pkSize]
}

// encodeS writes ρ, K and the centered s1 and s2 of ks into the encoded
// private key.
func (sk *privateKey) encodeS(ks *keygenScratch) {
	p, eb := sk.p, sk.p.etaBytes()
	copy(sk.enc, sk.pub.rho[:])
	copy(sk.enc[rhoSize:], sk.key[:])
	for i := range p.l {
		p.packEta(sk.enc[p.skS1()+i*eb:], &ks.s1[i])
	}
	for i := range p.k {
		p.packEta(sk.enc[p.skS2()+i*eb:], &ks.s2[i])
	}
}

// nttS1 replaces the centered s1 of ks by NTT(s1), canonical.
func (ks *keygenScratch) nttS1(p *params) {
	for j := range ks.s1[:p.l] {
		canonPoly(&ks.s1[j], &ks.s1[j])
		ntt(&ks.s1[j])
	}
}

// computeT packs, for rows r0 to r1−1 of t = NTT⁻¹(Â∘NTT(s1)) + s2 (Â,
// NTT(s1) and the centered s2 in ks), the high part t1 of Power2Round(t)
// into pkEnc and the centered low part t0 into skEnc.
func (ks *keygenScratch) computeT(p *params, r0, r1 int, skEnc, pkEnc []byte) {
	l := p.l
	s1 := ks.s1[:l]
	for i := r0; i < r1; i++ {
		mulRow(&ks.t, ks.a[i*l:(i+1)*l], s1)
		invNTT(&ks.t)
		power2RoundT(&ks.t1, &ks.t, &ks.s2[i])
		packT1(pkEnc[rhoSize+i*t1Bytes:], &ks.t1)
		packT0(skEnc[p.skT0()+i*t0Bytes:], &ks.t)
	}
}

// decodeNTT sets s1, s2 and t0, in fresh memory, to the NTTs of the
// vectors of the encoded private key (skDecode, FIPS 204 Algorithm 25,
// with canonical coefficients).
func (sk *privateKey) decodeNTT() {
	p, eb := sk.p, sk.p.etaBytes()
	polys := make([]poly, p.l+2*p.k)
	sk.s1, sk.s2, sk.t0 = polys[:p.l], polys[p.l:p.l+p.k], polys[p.l+p.k:]
	for i := range sk.s1 {
		p.unpackEta(&sk.s1[i], sk.enc[p.skS1()+i*eb:])
	}
	for i := range sk.s2 {
		p.unpackEta(&sk.s2[i], sk.enc[p.skS2()+i*eb:])
	}
	for i := range sk.t0 {
		unpackT0(&sk.t0[i], sk.enc[p.skT0()+i*t0Bytes:])
	}
	for _, v := range [][]poly{sk.s1, sk.s2, sk.t0} {
		for i := range v {
			canonPoly(&v[i], &v[i])
			ntt(&v[i])
		}
	}
}

// t1ToNTT replaces t1, decoded from the encoding into fresh memory for a
// key pair made by key generation, by NTT(t1·2^d); t1·2^d <= 1023·2^13 =
// Q-1 is canonical.
func (pk *publicKey) t1ToNTT() {
	if pk.t1 == nil {
		pk.t1 = make([]poly, pk.p.k)
		for i := range pk.t1 {
			unpackT1(&pk.t1[i], pk.enc[rhoSize+i*t1Bytes:])
		}
	}
	for i := range pk.t1 {
		t := &pk.t1[i]
		for c := range t {
			t[c] <<= d
		}
		ntt(t)
	}
}

// newPublicKey is pkDecode (FIPS 204 Algorithm 23) of b into pk, with
// NTT(t1·2^d), in fresh memory.
func newPublicKey(p *params, b []byte, pk *publicKey) error {
	if err := newPublicKeyIn(p, b, pk, make([]poly, p.k), make([]byte, p.pkSize)); err != nil {
		return err
	}
	pk.prepare()
	return nil
}

// newPublicKeyIn is pkDecode of b into pk, in the memory t1 (k
// polynomials) and enc. Every b of the right length is a valid encoding.
// Â and tr = H(pk, 64) are left to the first verification
// (verifyInputs).
func newPublicKeyIn(p *params, b []byte, pk *publicKey, t1 []poly, enc []byte) error {
	if len(b) != p.pkSize {
		return fmt.Errorf("mldsa: %s public key must be %d bytes, got %d", p.name, p.pkSize, len(b))
	}
	pk.setMem(p, (*[rhoSize]byte)(b), t1, enc)
	copy(pk.enc, b)
	for i := range pk.t1 {
		unpackT1(&pk.t1[i], b[rhoSize+i*t1Bytes:])
	}
	return nil
}
