package aesecb

import (
	"testing"
)

// FuzzVariants crypts a fuzzed message under a fuzzed key with every
// implementation of the kernel the selector picks (key size and
// direction) and compares with crypto/aes.
func FuzzVariants(f *testing.F) {
	f.Add(uint8(0), make([]byte, 32), make([]byte, 16))
	f.Add(uint8(3), []byte("0123456789abcdef0123456789abcdef"), make([]byte, 100*16))
	f.Add(uint8(5), make([]byte, 32), make([]byte, 7*16+5))
	byName := map[string][]implementation{}
	for _, k := range kernels {
		byName[k.name] = implementations(f, k)
	}
	f.Fuzz(func(t *testing.T, sel uint8, keyMaterial, msg []byte) {
		k := kernels[int(sel)%len(kernels)]
		key := make([]byte, k.bits/8)
		copy(key, keyMaterial)
		src := msg[:len(msg)&^15]
		want := stdCrypt(t, key, k.dec, src)
		rk := k.schedule(key)
		for _, im := range byName[k.name] {
			got := make([]byte, len(src))
			im.fn(rk, got, src)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%s %s, key %x, %d bytes: byte %d = %#x, want %#x", k.name, im.name, key, len(src), i, got[i], want[i])
			}
		}
	})
}
