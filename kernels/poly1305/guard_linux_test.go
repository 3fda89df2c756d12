//go:build linux

package poly1305

import (
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/unix"
)

// TestGuardPages places messages right after and right before an
// inaccessible page: no implementation may touch a byte outside its
// message (the masked loads of tail=vector variants reach before the
// message only in masked-off lanes, the scalar final block reads byte by
// byte).
func TestGuardPages(t *testing.T) {
	page := unix.Getpagesize()
	mem, err := unix.Mmap(-1, 0, 3*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer unix.Munmap(mem)
	if err := unix.Mprotect(mem[:page], unix.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	if err := unix.Mprotect(mem[2*page:], unix.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	body := mem[page : 2*page]
	rng := rand.New(rand.NewPCG(41, 42))
	fill(rng, body)
	for _, im := range runnable(t) {
		for _, n := range []int{1, 15, 16, 17, 48, 100, 256, 300, 1000, page} {
			key := randKey(rng)
			checkAgainstXCrypto(t, im, body[:n], key, "message after a guard page")
			checkAgainstXCrypto(t, im, body[page-n:], key, "message before a guard page")
		}
	}
}
