package mldsa

import "crypto/subtle"

// verifier is the scratch of one verification, fixed arrays that stay on
// the stack.
type verifier struct {
	z      [maxL]poly // z, then NTT(z)
	acc    poly
	tmp    poly
	cHat   poly
	w1     [maxK * n * 6 / 8]byte
	cTilde [maxCTilde]byte
}

// verify is ML-DSA.Verify (FIPS 204 Algorithm 3): Verify_internal on
// M' = 0 || |ctx| || ctx || msg. Everything it reads is public; it
// reports false for every malformed signature and never panics.
func verify(pk *publicKey, msg, ctx, sig []byte) bool {
	p := pk.p
	if len(ctx) > maxCtx || len(sig) != p.sigSize {
		return false
	}
	pk.prepare()
	var v verifier
	ends, ok := p.hintRows(sig[p.sigHints():])
	if !ok || !v.unpackZ(p, sig) {
		return false
	}
	var mu [muSize]byte
	a, ks := pk.verifyInputs(&mu, msg, ctx)
	sampleInBall(&v.cHat, sig[:p.cTilde], p.tau)
	ntt(&v.cHat)
	v.commitment(pk, a, sig[p.sigHints():], &ends)
	if ks != nil {
		keygenPool.Put(ks) // Â is public: nothing to clear
	}
	h := newSHAKE256()
	h.Write(mu[:])
	h.Write(v.w1[:p.k*p.w1Bytes()])
	h.Read(v.cTilde[:p.cTilde])
	return subtle.ConstantTimeCompare(v.cTilde[:p.cTilde], sig[:p.cTilde]) == 1
}

// unpackZ decodes z from the signature, checks ||z|| < γ1 - β and sets
// v.z to NTT(z).
func (v *verifier) unpackZ(p *params, sig []byte) bool {
	bound := p.gamma1() - p.beta()
	zb := p.zBytes()
	for j := range p.l {
		p.unpackZ(&v.tmp, &v.z[j], sig[p.cTilde+j*zb:])
		if exceeds(&v.tmp, bound) {
			return false
		}
		ntt(&v.z[j])
	}
	return true
}

// commitment computes, row by row, w'Approx = NTT⁻¹(Â∘NTT(z) -
// NTT(c)∘NTT(t1·2^d)) and packs w1' = UseHint(h, w'Approx) into v.w1.
// a is Â, hints the encoded hint section, its rows ending at ends.
func (v *verifier) commitment(pk *publicKey, a []poly, hints []byte, ends *[maxK]int) {
	p := pk.p
	wb := p.w1Bytes()
	start := 0
	for i := range p.k {
		mulRow(&v.acc, a[i*p.l:(i+1)*p.l], v.z[:p.l])
		mulNTT(&v.tmp, &v.cHat, &pk.t1[i])
		subReduce(&v.acc, &v.tmp) // canonical minus canonical, plus Q: below 2Q
		invNTT(&v.acc)
		for _, pos := range hints[start:ends[i]] {
			v.acc[pos] = p.rounding.hinted(v.acc[pos])
		}
		start = ends[i]
		p.packW1(v.w1[i*wb:], &v.acc)
	}
}

// hinted returns a canonical r' with HighBits(r') = UseHint(1, r), so that
// packing HighBits of every coefficient applies the hints: r moves to the
// middle of the neighbouring interval on the side of LowBits(r), which
// wraps modulo (Q-1)/(2γ2).
func (rd rounding) hinted(r int32) int32 {
	return rd.useHint(1, r) * rd.twoG2
}
