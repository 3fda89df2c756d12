package aesecb

import (
	"testing"
)

// TestDifferential compares every implementation of every kernel with
// crypto/aes, one block at a time, on a random key and message for each
// length 0..4096 bytes in steps of 16. Output bytes past len(src) must stay
// untouched, and dst == src must work.
func TestDifferential(t *testing.T) {
	rng := newRand(2)
	for _, k := range kernels {
		ims := implementations(t, k)
		for n := 0; n <= 4096; n += 16 {
			key, src := randBytes(rng, k.bits/8), randBytes(rng, n)
			want := stdCrypt(t, key, k.dec, src)
			rk := k.schedule(key)
			for _, im := range ims {
				if im.name == "isa=generic" && n > 1024 && n%256 != 0 {
					continue // the slow reference is checked on fewer long lengths
				}
				checkOne(t, k, im, rk, src, want)
			}
		}
	}
}

// checkOne runs im on src into a larger guarded buffer and in place.
func checkOne(t *testing.T, k *kernel, im implementation, rk *[240]byte, src, want []byte) {
	t.Helper()
	const guard = 80
	dst := make([]byte, len(src)+guard)
	setAll(dst, 0xa5)
	im.fn(rk, dst, src)
	if i := firstDiff(dst[:len(src)], want); i >= 0 {
		t.Errorf("%s %s, %d bytes: output byte %d = %#x, want %#x", k.name, im.name, len(src), i, dst[i], want[i])
	}
	for i := len(src); i < len(dst); i++ {
		if dst[i] != 0xa5 {
			t.Errorf("%s %s, %d bytes: wrote past the end at byte %d", k.name, im.name, len(src), i)
			break
		}
	}
	buf := append([]byte(nil), src...)
	im.fn(rk, buf, buf)
	if i := firstDiff(buf, want); i >= 0 {
		t.Errorf("%s %s, %d bytes in place (dst == src): byte %d = %#x, want %#x", k.name, im.name, len(src), i, buf[i], want[i])
	}
}
