package mlkem

// K-PKE (FIPS 203, 5) on parsed keys: the matrix Â and the vectors t̂ and
// ŝ are kept in the NTT domain, so encryption and decryption neither
// expand nor decode them again.

// pkeKeyGen is K-PKE.KeyGen (Algorithm 13) from d, with ρ, Â, ŝ and t̂
// written into dk (whose polynomials are allocated); it leaves the
// encoding of the encapsulation key to the caller.
func pkeKeyGen(sc *scratch, dk *decapsulationKey, d []byte) {
	ek, k := &dk.ek, dk.ek.p.k
	copy(sc.gIn[:32], d)
	sc.gIn[32] = byte(k)
	g := hashG(sc.gIn[:33]) // (ρ, σ)
	copy(ek.rho[:], g[:32])
	expandMatrix(sc, ek.a, &ek.rho, k)
	se := sc.noise[:2*k]
	sampleNoise(sc, se, (*[32]byte)(g[32:]), 2*k, ek.p.eta1)
	clear(g[:])
	for i := range se {
		NTT(&se[i])
	}
	copy(dk.s, se[:k])
	for i := range k {
		dot(&ek.t[i], &sc.tmp, ek.a, i*k, 1, dk.s) // (Â ∘ ŝ)[i]
		addMod(&ek.t[i], &se[k+i])                 // + ê[i]
	}
}

// pkeEncrypt is K-PKE.Encrypt (Algorithm 14) of m with randomness r,
// writing the ciphertext to ct (ek.p.ctSize() bytes).
func pkeEncrypt(sc *scratch, ek *encapsulationKey, ct []byte, m, r *[32]byte) {
	p, k := ek.p, ek.p.k
	noise := sc.noise[:2*k+1]
	sampleNoise(sc, noise, r, k, p.eta1)
	y, e1, e2 := noise[:k], noise[k:2*k], &noise[2*k]
	for i := range y {
		NTT(&y[i])
	}
	per := 32 * int(p.du)
	for i := range k {
		dot(&sc.acc, &sc.tmp, ek.a, i, k, y) // (Âᵀ ∘ ŷ)[i]
		InvNTT(&sc.acc)
		addMod(&sc.acc, &e1[i])
		compressEncode(ct[i*per:], &sc.acc, p.du)
	}
	dot(&sc.acc, &sc.tmp, ek.t, 0, 1, y) // t̂ᵀ ∘ ŷ
	InvNTT(&sc.acc)
	addMod(&sc.acc, e2)
	decodeMessage(&sc.tmp, m) // μ
	addMod(&sc.acc, &sc.tmp)
	compressEncode(ct[p.c1Size():], &sc.acc, p.dv)
}

// pkeDecrypt is K-PKE.Decrypt (Algorithm 15) of ct (ek.p.ctSize() bytes)
// with ŝ, writing the message to m.
func pkeDecrypt(sc *scratch, dk *decapsulationKey, m *[32]byte, ct []byte) {
	p, k := dk.ek.p, dk.ek.p.k
	u := sc.u[:k]
	per := 32 * int(p.du)
	for i := range u {
		decodeDecompress(&u[i], ct[i*per:], p.du)
		NTT(&u[i])
	}
	dot(&sc.acc, &sc.tmp, dk.s, 0, 1, u) // ŝᵀ ∘ NTT(u')
	InvNTT(&sc.acc)
	decodeDecompress(&sc.tmp, ct[p.c1Size():], p.dv) // v'
	subFrom(&sc.acc, &sc.tmp)                        // w = v' − InvNTT(ŝᵀ ∘ NTT(u'))
	encodeMessage(m, &sc.acc)
}
