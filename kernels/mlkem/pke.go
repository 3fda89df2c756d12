package mlkem

import "github.com/tunelab/tunelab/kernels/sha3"

// K-PKE (FIPS 203, 5) on parsed keys: the matrix Â and the vectors t̂ and
// ŝ are kept in the NTT domain, so encryption and decryption neither
// expand nor decode them again.

// pkeKeyGen is K-PKE.KeyGen (Algorithm 13) from d, with ρ, ŝ and t̂
// written into dk (whose polynomials are allocated) and Â into a, which dk
// keeps as its own (a decapsulation key's every use needs it), and the encoding ek
// of the encapsulation key and H(ek) (ML-KEM.KeyGen_internal, Algorithm
// 16) into dk.ek.enc and dk.ek.h. It runs in two batches: the noise
// streams with the streams of Â's first k−1 rows, then the streams of the
// last row beside the absorption of ek's first k−1 rows of t̂ (known by
// then) into H, so that most of H(ek)'s long chain of permutations runs
// on lanes beside the matrix streams instead of after them.
func pkeKeyGen(dk *decapsulationKey, d []byte, a []poly) {
	ek, k := &dk.ek, dk.ek.p.k
	var gIn [33]byte
	copy(gIn[:32], d)
	gIn[32] = byte(k)
	g := hashG(gIn[:]) // (ρ, σ)
	copy(ek.rho[:], g[:32])
	var b sha3.Batch
	var ms matrixScratch
	var sc noiseScratch
	addMatrixRows(&b, &ms, &ek.rho, k, 0, k-1)
	addNoise(&b, &sc, (*[32]byte)(g[32:]), 2*k, 2*k, ek.p.eta1)
	runMatrix(&b, a, &ms)
	clear(g[:])
	sampleNoise(&sc, 2*k, 2*k, ek.p.eta1)
	se := sc.noise[:2*k]
	for i := range se {
		ntt(&se[i])
	}
	copy(dk.s, se[:k])
	cs := sc.cache[:k]
	cacheVector(cs, dk.s)
	for i := range k - 1 {
		ek.computeT(i, a, cs, &se[k+i])
	}
	var h sha3.SHA3 // H
	absorbed := addH(&b, &h, ek.enc[:384*(k-1)])
	addMatrixRows(&b, &ms, &ek.rho, k, k-1, k)
	runMatrix(&b, a, &ms)
	ek.computeT(k-1, a, cs, &se[2*k-1])
	copy(ek.enc[384*k:], ek.rho[:])
	var hek [32]byte
	finishH(&hek, &h, ek.enc[absorbed:])
	ek.hashH(&hek)
	ek.a.Keep(a)
	sc.wipe()
}

// computeT sets t̂[i] = (Â ∘ ŝ)[i] + ê[i], for Â in a and ŝ cached in
// cs, and its encoding in ek.enc.
func (ek *encapsulationKey) computeT(i int, a []poly, cs []mulCache, e *poly) {
	rowProduct(&ek.t[i], a, i*len(cs), 1, cs)
	addMod(&ek.t[i], e)
	encode12(ek.enc[384*i:], &ek.t[i])
}

// pkeEncrypt is K-PKE.Encrypt (Algorithm 14) of m with randomness r and
// ek's matrix Â in a, writing the ciphertext to ct (ek.p.ctSize() bytes).
// b may hold other sponges to run with the noise streams (decapsulation's
// J).
func pkeEncrypt(b *sha3.Batch, ek *encapsulationKey, a []poly, ct []byte, m, r *[32]byte) {
	p, k := ek.p, ek.p.k
	var sc noiseScratch
	addNoise(b, &sc, r, 2*k+1, k, p.eta1)
	b.Run()
	sampleNoise(&sc, 2*k+1, k, p.eta1)
	y, e1, e2 := sc.noise[:k], sc.noise[k:2*k], &sc.noise[2*k]
	for i := range y {
		ntt(&y[i])
	}
	cs := sc.cache[:k]
	cacheVector(cs, y)
	per := 32 * int(p.du)
	for i := range k {
		rowProduct(&sc.acc, a, i, k, cs) // (Âᵀ ∘ ŷ)[i]
		invNTT(&sc.acc)
		addMod(&sc.acc, &e1[i])
		compressEncode(ct[i*per:], &sc.acc, p.du)
	}
	t := ek.t
	if t == nil { // a parsed key: t̂ (public) from its encoding
		var buf [maxK]poly
		ek.decodeT(buf[:k])
		t = buf[:k]
	}
	rowProduct(&sc.acc, t, 0, 1, cs) // t̂ᵀ ∘ ŷ
	invNTT(&sc.acc)
	addMod(&sc.acc, e2)
	decodeMessage(&sc.tmp, m) // μ
	addMod(&sc.acc, &sc.tmp)
	compressEncode(ct[p.c1Size():], &sc.acc, p.dv)
	sc.wipe()
}

// pkeDecrypt is K-PKE.Decrypt (Algorithm 15) of ct (ek.p.ctSize() bytes)
// with ŝ, writing the message to m.
func pkeDecrypt(dk *decapsulationKey, m *[32]byte, ct []byte) {
	p, k := dk.ek.p, dk.ek.p.k
	var u [maxK]poly
	var cs [maxK]mulCache
	var acc, tmp poly
	per := 32 * int(p.du)
	for i := range u[:k] {
		decodeDecompress(&u[i], ct[i*per:], p.du)
		ntt(&u[i])
	}
	cacheVector(cs[:k], u[:k])
	rowProduct(&acc, dk.s, 0, 1, cs[:k]) // ŝᵀ ∘ NTT(u')
	invNTT(&acc)
	decodeDecompress(&tmp, ct[p.c1Size():], p.dv) // v'
	subFrom(&acc, &tmp)                           // w = v' − InvNTT(ŝᵀ ∘ NTT(u'))
	encodeMessage(m, &acc)
	clear(acc[:])
	clear(tmp[:])
}
