package poly1305

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"golang.org/x/crypto/poly1305"
)

// BenchmarkPoly1305 measures every runnable non-sweep implementation, the
// dispatched Sum and x/crypto's Sum at the kernel's sweep sizes.
func BenchmarkPoly1305(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	key := randKey(rng)
	for _, size := range sizes {
		m := make([]byte, size)
		fill(rng, m)
		var tag [16]byte
		run := func(name string, f func()) {
			b.Run(fmt.Sprintf("%s/size=%d", name, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					f()
				}
			})
		}
		run("ext=xcrypto", func() { poly1305.Sum(&tag, m, key) })
		run("dispatch", func() { Sum(&tag, m, key) })
		for _, im := range runnable(b) {
			if !im.OffsetSweep {
				run(im.Name, func() { sum(im.Fn, &tag, m, key) })
			}
		}
	}
}
