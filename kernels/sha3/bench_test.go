package sha3

import (
	"crypto/sha3"
	"fmt"
	"testing"
)

// BenchmarkSum256 measures Sum256 against crypto/sha3's at 64 B, 1 KiB,
// 16 KiB and 1 MiB (sub-benchmarks size=N/impl=tunelab and impl=sha3).
func BenchmarkSum256(b *testing.B) {
	for _, n := range []int{64, 1 << 10, 16 << 10, 1 << 20} {
		msg := make([]byte, n)
		for _, impl := range []struct {
			name string
			sum  func([]byte) [32]byte
		}{{"tunelab", Sum256}, {"sha3", sha3.Sum256}} {
			b.Run(fmt.Sprintf("size=%d/impl=%s", n, impl.name), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					impl.sum(msg)
				}
			})
		}
	}
}

// BenchmarkSHAKE128Many measures SHAKE128Many against one crypto/sha3
// SHAKE128 per stream: 4 streams of 840 output bytes (5 blocks) and 8
// streams of 504 (3 blocks), 34-byte inputs.
func BenchmarkSHAKE128Many(b *testing.B) {
	for _, shape := range []struct{ streams, out int }{{4, 840}, {8, 504}} {
		ins, outs := equalStreams(nil, shape.streams, 34, shape.out)
		name := fmt.Sprintf("streams=%d/out=%d", shape.streams, shape.out)
		b.Run(name+"/impl=tunelab", func(b *testing.B) {
			b.SetBytes(int64(shape.streams * shape.out))
			for b.Loop() {
				SHAKE128Many(outs, ins)
			}
		})
		b.Run(name+"/impl=sha3", func(b *testing.B) {
			b.SetBytes(int64(shape.streams * shape.out))
			h := sha3.NewSHAKE128()
			for b.Loop() {
				for i := range ins {
					h.Reset()
					h.Write(ins[i])
					h.Read(outs[i])
				}
			}
		})
	}
}
