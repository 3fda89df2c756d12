package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/lab/opinputs"
)

// The whole-operation benchmarks time this package (impl=tunelab) and circl
// (impl=circl) on the same seed and message, for each parameter set:
// BenchmarkMLDSAKeyGen/set=65/impl=tunelab and so on.

var benchImpls = []string{"tunelab", "circl"}

// benchEach runs f for every parameter set and implementation.
func benchEach(b *testing.B, f func(b *testing.B, ops benchOps)) {
	for _, set := range testSets {
		for _, impl := range benchImpls {
			b.Run("set="+set.name[len("ML-DSA-"):]+"/impl="+impl, func(b *testing.B) {
				f(b, set.bench(impl, newTestRand("bench "+set.name).seed()))
			})
		}
	}
}

// BenchmarkMLDSAKeyGen measures ML-DSA.KeyGen_internal from a seed.
func BenchmarkMLDSAKeyGen(b *testing.B) {
	benchEach(b, func(b *testing.B, ops benchOps) {
		for b.Loop() {
			ops.keygen()
		}
	})
}

// BenchmarkMLDSASign measures deterministic signing of 1 KiB messages
// with an empty context: each op signs the same opinputs.Messages
// messages (signing time varies by message, with the restarts of the
// rejection loop), and ns/sig is the time per signature.
func BenchmarkMLDSASign(b *testing.B) {
	r := newTestRand("bench message")
	msgs := make([][]byte, opinputs.Messages)
	for i := range msgs {
		msgs[i] = r.bytes(1024)
	}
	benchEach(b, func(b *testing.B, ops benchOps) {
		b.SetBytes(int64(len(msgs) * 1024))
		for b.Loop() {
			for _, m := range msgs {
				ops.sign(m)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/sig")
	})
}

// BenchmarkMLDSAVerify measures verification of a signature of a 1 KiB
// message.
func BenchmarkMLDSAVerify(b *testing.B) {
	msg := newTestRand("bench message").bytes(1024)
	benchEach(b, func(b *testing.B, ops benchOps) {
		sig := append([]byte(nil), ops.sign(msg)...)
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			if !ops.verify(msg, sig) {
				b.Fatal("the signature does not verify")
			}
		}
	})
}
