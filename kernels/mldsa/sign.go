package mldsa

import (
	"errors"
	"fmt"
)

// errContext is returned for a context string longer than 255 bytes.
var errContext = errors.New("mldsa: context must be at most 255 bytes")

// errZeroKey is returned for a private key not made by NewPrivateKey or
// GenerateKey.
var errZeroKey = errors.New("mldsa: the private key is a zero value, not made by NewPrivateKey or GenerateKey")

// errNoSignature is returned if κ would leave the 16 bits FIPS 204 encodes
// it in; with rejection probability below 4/5 per attempt this does not
// happen.
var errNoSignature = errors.New("mldsa: signing did not terminate")

// signer is the scratch of one signature, fixed arrays that stay on the
// stack: nothing in the rejection loop allocates.
type signer struct {
	y      [maxL]poly     // mask y (centered), then z = y + <<cs1>>
	yHat   [maxL]poly     // NTT(y)
	w      [maxK]poly     // w = NTT⁻¹(Â∘NTT(y)), then r = w - <<cs2>>
	r1     [maxK][n]uint8 // HighBits(r)
	h      [maxK][n]uint8 // hints
	tmp    poly
	cHat   poly // NTT(c)
	mask   [maxL][maskBytes]byte
	w1     [maxK * n * 6 / 8]byte // w1Encode(w1)
	cTilde [maxCTilde]byte
}

// An outcome is the result of one attempt of the signing loop.
type outcome int

// The outcomes: the attempt is accepted or rejected for one of the
// spec's four bounds.
const (
	accepted outcome = iota
	rejectZ          // ||z|| >= γ1 - β
	rejectR0         // ||LowBits(w - cs2)|| >= γ2 - β
	rejectT0         // ||ct0|| >= γ2
	rejectH          // more than ω hints
)

// sign is ML-DSA.Sign (FIPS 204 Algorithm 2) with rnd given: M' = 0 ||
// |ctx| || ctx || msg goes to Sign_internal.
func sign(sk *privateKey, pk *publicKey, msg, ctx []byte, rnd *[rndSize]byte, sig []byte) ([]byte, error) {
	if sk.p == nil {
		return nil, errZeroKey
	}
	if len(ctx) > maxCtx {
		return nil, fmt.Errorf("%w, got %d", errContext, len(ctx))
	}
	var mu [muSize]byte
	messageHash(&mu, pk.hashTR(nil), msg, ctx)
	return signInternal(sk, pk, &mu, rnd, sig)
}

// messageHash sets μ = H(tr || M', 64) for M' = 0 || |ctx| || ctx || msg.
func messageHash(mu *[muSize]byte, tr *[trSize]byte, msg, ctx []byte) {
	h := newSHAKE256()
	h.Write(tr[:])
	var hdr [2]byte
	hdr[1] = byte(len(ctx))
	h.Write(hdr[:])
	h.Write(ctx)
	h.Write(msg)
	h.Read(mu[:])
}

// signInternal is the loop of ML-DSA.Sign_internal (FIPS 204 Algorithm 7)
// from μ on. A rejected attempt reveals only that it was rejected, and
// why, which the spec's loop reveals too.
func signInternal(sk *privateKey, pk *publicKey, mu *[muSize]byte, rnd *[rndSize]byte, sig []byte) ([]byte, error) {
	sk.prepare()
	var rhoPP [64]byte
	h := newSHAKE256()
	h.Write(sk.key[:])
	h.Write(rnd[:])
	h.Write(mu[:])
	h.Read(rhoPP[:])

	var s signer
	p := sk.p
	for kappa := 0; kappa+p.l <= 1<<16; kappa += p.l {
		if s.attempt(sk, pk, mu, &rhoPP, kappa) == accepted {
			return s.encode(p, sig), nil
		}
	}
	return nil, errNoSignature
}

// attempt runs one iteration of the signing loop with mask counter κ and
// returns accepted or the reason for the rejection.
func (s *signer) attempt(sk *privateKey, pk *publicKey, mu *[muSize]byte, rhoPP *[64]byte, kappa int) outcome {
	p := sk.p
	s.commit(pk, mu, rhoPP, kappa)
	sampleInBall(&s.cHat, s.cTilde[:p.cTilde], p.tau)
	ntt(&s.cHat)
	// The spec rejects if either bound fails; the more likely failure,
	// of the low bits, is checked first.
	if !s.lowBitsOK(sk) {
		return rejectR0
	}
	if !s.response(sk) {
		return rejectZ
	}
	return s.hints(sk)
}

// commit draws y = ExpandMask(ρ″, κ), computes w = NTT⁻¹(Â∘NTT(y)) and
// c̃ = H(μ || w1Encode(HighBits(w)), λ/4).
func (s *signer) commit(pk *publicKey, mu *[muSize]byte, rhoPP *[64]byte, kappa int) {
	p := pk.p
	p.expandMask(&s.y, &s.yHat, &s.mask, rhoPP, kappa)
	y := s.yHat[:p.l]
	for j := range y {
		ntt(&y[j])
	}
	wb := p.w1Bytes()
	a := pk.matrix()
	for i := range p.k {
		mulRow(&s.w[i], a[i*p.l:(i+1)*p.l], y)
		invNTT(&s.w[i])
		p.packW1(s.w1[i*wb:], &s.w[i])
	}
	h := newSHAKE256()
	h.Write(mu[:])
	h.Write(s.w1[:p.k*wb])
	h.Read(s.cTilde[:p.cTilde])
}

// response sets z = y + <<cs1>> and reports whether ||z|| < γ1 - β. It
// stops at the first polynomial over the bound.
func (s *signer) response(sk *privateKey) bool {
	limit := sk.p.gamma1() - sk.p.beta() - 1
	for j := range sk.s1 {
		mulNTT(&s.tmp, &s.cHat, &sk.s1[j])
		invNTT(&s.tmp)
		if response(&s.y[j], &s.tmp, limit) {
			return false
		}
	}
	return true
}

// lowBitsOK sets r = w - <<cs2>>, r1 = HighBits(r) and reports whether
// ||LowBits(r)|| < γ2 - β.
func (s *signer) lowBitsOK(sk *privateKey) bool {
	c := newRoundConsts(sk.p.rounding, sk.p.gamma2-sk.p.beta()-1)
	for i := range sk.s2 {
		mulNTT(&s.tmp, &s.cHat, &sk.s2[i])
		invNTT(&s.tmp)
		if lowBits(&s.w[i], &s.tmp, &s.r1[i], &c) {
			return false
		}
	}
	return true
}

// hints computes <<ct0>>, checks ||ct0|| < γ2 and sets the hints
// h = MakeHint(-ct0, r + ct0) = [HighBits(r + ct0) != HighBits(r)] (FIPS
// 204 Algorithm 39), checking that at most ω are set.
func (s *signer) hints(sk *privateKey) outcome {
	c := newRoundConsts(sk.p.rounding, sk.p.gamma2-1)
	count := 0
	for i := range sk.t0 {
		mulNTT(&s.tmp, &s.cHat, &sk.t0[i])
		invNTT(&s.tmp)
		k, over := makeHint(&s.w[i], &s.tmp, &s.r1[i], &s.h[i], &c)
		if over {
			return rejectT0
		}
		count += k
	}
	if count > sk.p.omega {
		return rejectH
	}
	return accepted
}

// encode writes sigEncode(c̃, z, h) (FIPS 204 Algorithm 26) of the
// accepted attempt to sig (p.sigSize bytes) and returns it.
func (s *signer) encode(p *params, sig []byte) []byte {
	sig = sig[:p.sigSize]
	clear(sig)
	copy(sig, s.cTilde[:p.cTilde])
	zb := p.zBytes()
	for j := range p.l {
		p.packZ(sig[p.cTilde+j*zb:], &s.y[j])
	}
	p.packHints(sig[p.sigHints():], &s.h)
	return sig
}
