package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/keccak"
	"github.com/tunelab/tunelab/kernels/sha3"
	"github.com/tunelab/tunelab/lab/anchorbench"
)

// BenchmarkSteps times each step of ML-KEM-768 key generation,
// encapsulation and decapsulation on its own (the dispatched kernels), so
// that an operation's time can be split by step:
// BenchmarkSteps/<step>.
func BenchmarkSteps(b *testing.B) {
	p := &params768
	k := p.k
	seed := make([]byte, SeedSize)
	dk, err := newDecapsulationKey(p, seed)
	if err != nil {
		b.Fatal(err)
	}
	ek := &dk.ek
	var m [32]byte
	kc := make([]byte, SharedKeySize+p.ctSize())
	ek.encapsulate(kc, &m)
	ct := kc[SharedKeySize:]
	var ms matrixScratch
	var sc noiseScratch
	var bt sha3.Batch
	var f poly
	var st [8][25]uint64
	var key [32]byte
	var out [CiphertextSize1024]byte
	polys := make([]poly, keyPolys(k))
	enc := make([]byte, p.ekSize())
	steps := []struct {
		name string
		fn   func()
	}{
		{"keccak.x1", func() { keccak.Permute(&st[0]) }},
		{"keccak.x2", func() { keccak.PermuteX2((*[2][25]uint64)(st[:2])) }},
		{"keccak.x4", func() { keccak.PermuteX4((*[4][25]uint64)(st[:4])) }},
		{"keccak.x8", func() { keccak.PermuteX8(&st) }},
		{"hashG", func() { hashG(m[:]) }},
		{"hashH(ek)", func() { hashH(ek.enc) }},
		{"J(z||c)", func() { addJ(&bt, &key, dk.seed[32:], ct); bt.Run() }},
		{"matrix", func() { addMatrix(&bt, &ms, &ek.rho, k); runMatrix(&bt, polys[:k*k], &ms) }},
		{"matrix+H(ek)", func() { bt.SHA3_256(&key, ek.enc); addMatrix(&bt, &ms, &ek.rho, k); runMatrix(&bt, polys[:k*k], &ms) }},
		{"matrix+noise(keygen)", func() {
			addMatrix(&bt, &ms, &ek.rho, k)
			addNoise(&bt, &sc, &m, 2*k, 2*k, p.eta1)
			runMatrix(&bt, polys[:k*k], &ms)
		}},
		{"rejectSample(504 B)", func() { rejectSample(&f, 0, out[:504]) }},
		{"noise.prf(encrypt,7)", func() { addNoise(&bt, &sc, &m, 2*k+1, k, p.eta1); bt.Run() }},
		{"noise.prf(encrypt,7)+J", func() { addJ(&bt, &key, dk.seed[32:], ct); addNoise(&bt, &sc, &m, 2*k+1, k, p.eta1); bt.Run() }},
		{"sampleNoise(encrypt,7)", func() { sampleNoise(&sc, 2*k+1, k, p.eta1) }},
		{"cbd2(one)", func() { cbd2(&f, sc.prf[0][:]) }},
		{"NTT", func() { ntt(&f) }},
		{"InvNTT", func() { invNTT(&f) }},
		{"MulNTT", func() { mulNTT(&f, &ek.matrix()[0], &ek.matrix()[1]) }},
		{"mulcache(k)", func() { cacheVector(sc.cache[:k], dk.s) }},
		{"rowProduct", func() { rowProduct(&sc.acc, ek.matrix(), 0, 1, sc.cache[:k]) }},
		{"addMod", func() { addMod(&f, &ek.matrix()[0]) }},
		{"encode12", func() { encode12(out[:384], &ek.t[0]) }},
		{"decode12", func() { decode12(&f, ek.enc) }},
		{"compressEncode10", func() { compressEncode(out[:], &ek.t[0], 10) }},
		{"compressEncode4", func() { compressEncode(out[:], &ek.t[0], 4) }},
		{"decodeDecompress10", func() { decodeDecompress(&f, ct, 10) }},
		{"decodeDecompress4", func() { decodeDecompress(&f, ct, 4) }},
		{"encodeMessage", func() { encodeMessage(&m, &ek.t[0]) }},
		{"decodeMessage", func() { decodeMessage(&f, &m) }},
		{"pkeKeyGen", func() { pkeKeyGen(dk, seed[:32], polys[:k*k]) }},
		{"generate", func() { var d decapsulationKey; d.generate(p, seed, polys, enc) }},
		{"parse", func() { var e encapsulationKey; e.parse(p, ek.enc, enc) }},
		{"parse+encapsulate", func() { var e encapsulationKey; e.parse(p, ek.enc, enc); e.encapsulate(kc, &m) }},
		{"encapsulate", func() { ek.encapsulate(kc, &m) }},
		{"pkeDecrypt", func() { pkeDecrypt(dk, &m, ct) }},
		{"decapsulate", func() { dk.decapsulate(&key, ct) }},
	}
	for _, s := range steps {
		b.Run(s.name, func(b *testing.B) { anchorbench.Step(b, s.fn) })
	}
}
