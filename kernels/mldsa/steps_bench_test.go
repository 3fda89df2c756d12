package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/sha3"
	"github.com/tunelab/tunelab/lab/anchorbench"
)

// BenchmarkSteps times each step of ML-DSA-65 key generation, signing and
// verification on its own (the dispatched kernels), so that an
// operation's time can be split by step: BenchmarkSteps/<step>.
func BenchmarkSteps(b *testing.B) {
	p := &params65
	seed := make([]byte, SeedSize)
	sk, pk := new(privateKey), new(publicKey)
	if err := newKey(p, seed, sk, pk); err != nil {
		b.Fatal(err)
	}
	// The steps of key generation run on a key pair of their own (tk, tpk),
	// whose polynomials they overwrite; signing and verification on sk, pk.
	tk, tpk := new(privateKey), new(publicKey)
	if err := newKey(p, seed, tk, tpk); err != nil {
		b.Fatal(err)
	}
	ks := new(keygenScratch)
	p.expandA(ks.a[:p.k*p.l], &tpk.rho)
	skEnc, pkEnc := make([]byte, p.skSize), make([]byte, p.pkSize)
	msg := make([]byte, 1024)
	sigBuf := make([]byte, p.sigSize)
	sig, err := signDeterministic(sk, pk, msg, nil, make([]byte, p.sigSize))
	if err != nil {
		b.Fatal(err)
	}
	var s signer
	var v verifier
	var mu [muSize]byte
	var rhoPP, rhoP [64]byte
	var f, g poly
	var rho [rhoSize]byte
	var buf [rate128]byte
	var ebuf [rate256]byte
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	steps := []struct {
		name string
		fn   func()
	}{
		{"H(pk)", func() { h := newSHAKE256(); h.Write(tpk.enc); h.Read(mu[:]) }},
		{"expandA+S(keygen)", func() {
			var bt sha3.Batch
			var sm samplers
			p.addExpandA(&bt, &sm, ks.a[:p.k*p.l], &rho)
			p.addExpandS(&bt, &sm, tk.s1, tk.s2, &rhoP)
			sm.run(&bt)
		}},
		{"messageHash", func() { messageHash(&mu, pk.hashTR(nil), msg, nil) }},
		{"expandA", func() { p.expandA(ks.a[:p.k*p.l], &rho) }},
		{"sampleUniform(block)", func() { sampleUniform(&f, 0, buf[:]) }},
		{"expandS", func() { p.expandS(tk.s1, tk.s2, &rhoP) }},
		{"sampleBounded(block)", func() { sampleBounded(&f, 0, ebuf[:], p.eta) }},
		{"expandMask", func() { p.expandMask(&s.y, &s.yHat, &s.mask, &rhoPP, 0) }},
		{"sampleInBall", func() { sampleInBall(&f, sig[:p.cTilde], p.tau) }},
		{"NTT", func() { ntt(&f) }},
		{"InvNTT", func() { invNTT(&f) }},
		{"MulNTT", func() { mulNTT(&f, &g, &pk.matrix()[0]) }},
		{"mulRow(l=5)", func() { mulRow(&f, pk.matrix()[:p.l], sk.s1) }},
		{"packEta", func() { p.packEta(tk.enc[p.skS1():], &tk.s2[0]) }},
		{"packT0", func() { packT0(s.w1[:], &g) }},
		{"packT1", func() { packT1(s.w1[:], &g) }},
		{"unpackT1", func() { unpackT1(&f, pk.enc[rhoSize:]) }},
		{"packZ", func() { p.packZ(s.w1[:], &g) }},
		{"unpackZ", func() { p.unpackZ(&f, &g, sig[p.cTilde:]) }},
		{"packW1", func() { p.packW1(s.w1[:], &pk.matrix()[0]) }},
		{"keygen.computeT", func() { ks.nttS1(p); ks.computeT(p, 0, p.k, tk.enc, tpk.enc) }},
		{"keygen.decodeNTT", func() { tk.decodeNTT() }},
		{"keygen.t1ToNTT", func() { tpk.t1ToNTT() }},
		{"keygen(lazy)", func() { newKeyIn(p, seed, new(privateKey), new(publicKey), skEnc, pkEnc) }},
		{"keygen(prepared)", func() { newKey(p, seed, new(privateKey), new(publicKey)) }},
		{"sign.commit", func() { s.commit(pk, &mu, &rhoPP, 0) }},
		{"sign.lowBitsOK", func() { s.lowBitsOK(sk) }},
		{"sign.response", func() { s.response(sk) }},
		{"sign.hints", func() { s.hints(sk) }},
		{"sign.attempt", func() { s.attempt(sk, pk, &mu, &rhoPP, 0) }},
		{"sign", func() { signDeterministic(sk, pk, msg, nil, sigBuf) }},
		{"verify.commitment", func() {
			ends, _ := p.hintRows(sig[p.sigHints():])
			v.commitment(pk, pk.matrix(), sig[p.sigHints():], &ends)
		}},
		{"verify.unpackZ", func() { v.unpackZ(p, sig) }},
		{"parsePublicKey", func() { newPublicKey(p, pk.enc, new(publicKey)) }},
		{"verify(parsed key)", func() {
			var parsed publicKey
			newPublicKey(p, pk.enc, &parsed)
			verify(&parsed, msg, nil, sig)
		}},
		{"verify", func() { verify(pk, msg, nil, sig) }},
	}
	for _, s := range steps {
		b.Run(s.name, func(b *testing.B) { anchorbench.Step(b, s.fn) })
	}
}
